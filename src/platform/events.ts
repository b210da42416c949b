import type { GameResult } from '../rules/chess/game.js';
import type { ActorKind, EndReason, PostType, TransferType } from './state.js';

/**
 * Every state transition of the platform, in order. The event log is the run's record: invariant
 * checkers replay it independently, and its canonical hash is the run's fingerprint. Rejected requests
 * change no state and so emit nothing here.
 */
export type PlatformEvent =
  | { type: 'agent_registered'; t: number; agentId: string; handle: string; elo: number }
  | { type: 'profile_updated'; t: number; agentId: string; fields: string[] }
  /** `agentId` is the author (a human's id when `authorKind` is present, which it is only for humans). */
  | {
      type: 'post_created';
      t: number;
      postId: string;
      agentId: string;
      postType: PostType;
      authorKind?: 'human';
    }
  // Social: every accepted action, with the ids a checker needs to recompute scores and limits on its own.
  | { type: 'human_registered'; t: number; humanId: string; username: string }
  | {
      type: 'reply_created';
      t: number;
      replyId: string;
      postId: string;
      parentReplyId: string | null;
      /** The root post of the parent reply (equal to postId when the platform anchors correctly). */
      parentPostId: string;
      actorId: string;
      /** The author of the parent (the post, or the parent reply): who "receives" the reply. */
      receiverId: string;
    }
  | {
      type: 'liked';
      t: number;
      actorId: string;
      targetId: string;
      targetKind: 'post' | 'reply';
      authorId: string;
    }
  | { type: 'followed'; t: number; actorId: string; targetId: string; targetKind: ActorKind }
  /** `byVote`: the follow ended because the follower voted down or clear (a vote action, not a follows one). */
  | { type: 'unfollowed'; t: number; actorId: string; targetId: string; targetKind: ActorKind; byVote?: true }
  /** `byFollow`: the upvote a follow casts or an unfollow removes (a follows action, not a vote one). */
  | {
      type: 'profile_voted';
      t: number;
      actorId: string;
      targetId: string;
      vote: 'up' | 'down' | 'clear';
      previous: 'up' | 'down' | null;
      byFollow?: true;
    }
  | { type: 'unseen_served'; t: number; actorId: string; postIds: string[] }
  | { type: 'external_posted'; t: number; handle: string; externalPostId: string }
  | { type: 'external_account_updated'; t: number; handle: string; fields: string[] }
  | { type: 'agent_verified'; t: number; agentId: string; twitterHandle: string }
  | { type: 'social_refreshed'; t: number; agentId: string }
  | {
      type: 'challenge_created';
      t: number;
      challengeId: string;
      challengerId: string;
      opponentId: string | null;
    }
  | { type: 'challenge_expired'; t: number; challengeId: string }
  | { type: 'challenge_accepted'; t: number; challengeId: string; agentId: string }
  | { type: 'game_started'; t: number; gameId: string; whiteId: string; blackId: string; deadlineMs: number }
  | {
      type: 'move_played';
      t: number;
      gameId: string;
      agentId: string;
      ply: number;
      uci: string;
      san: string;
      /** The deadline the move beat, and the next turn's deadline (null when the move ended the game). */
      deadlineMs: number;
      nextDeadlineMs: number | null;
    }
  | {
      type: 'game_ended';
      t: number;
      gameId: string;
      whiteId: string;
      blackId: string;
      result: GameResult;
      reason: EndReason;
      plies: number;
      whiteEloBefore: number;
      blackEloBefore: number;
      whiteDelta: number;
      blackDelta: number;
      /** Whether both players were rated with the same K, so their changes must cancel exactly. */
      equalK: boolean;
    }
  // Money: every lamport that moves, and every escrow's life (src/sim/invariants/invariants.ts replays these).
  | { type: 'lamports_minted'; t: number; address: string; lamports: number; reason: 'airdrop' }
  | {
      type: 'transfer_queued';
      t: number;
      transferId: string;
      transferType: TransferType;
      from: string;
      to: string;
      lamports: number;
      dueMs: number;
    }
  | { type: 'transfer_retried'; t: number; transferId: string; attempt: number; dueMs: number }
  | {
      type: 'transfer_settled';
      t: number;
      transferId: string;
      transferType: TransferType;
      from: string;
      to: string;
      lamports: number;
    }
  | {
      type: 'transfer_failed';
      t: number;
      transferId: string;
      transferType: TransferType;
      reason: string;
      attempts: number;
    }
  | { type: 'escrow_opened'; t: number; escrow: string; kind: 'bounty' | 'tournament'; refId: string }
  | {
      type: 'escrow_closed';
      t: number;
      escrow: string;
      kind: 'bounty' | 'tournament';
      refId: string;
      outcome: 'paid_out' | 'refunded';
      lamportsIn: number;
      lamportsOut: number;
    }
  | {
      type: 'game_created';
      t: number;
      gameId: string;
      whiteId: string;
      blackId: string;
      bountyLamports: number;
    }
  | { type: 'game_cancelled'; t: number; gameId: string; reason: string }
  | {
      type: 'bounty_settled';
      t: number;
      gameId: string;
      pot: number;
      fee: number;
      white: number;
      black: number;
    }
  // Tournaments.
  | {
      type: 'tournament_created';
      t: number;
      tournamentId: string;
      creatorId: string;
      maxParticipants: number;
      prizeLamports: number;
      entryFeeLamports: number;
      distribution: string;
    }
  | { type: 'tournament_joined'; t: number; tournamentId: string; agentId: string; participants: number }
  | {
      type: 'tournament_entry_dropped';
      t: number;
      tournamentId: string;
      agentId: string;
      participants: number;
    }
  | {
      type: 'tournament_seeded';
      t: number;
      tournamentId: string;
      seeds: string[];
      elos: number[];
      scheduledStartMs: number;
    }
  | { type: 'tournament_started'; t: number; tournamentId: string }
  | {
      type: 'tournament_match_started';
      t: number;
      tournamentId: string;
      round: number;
      matchIndex: number;
      gameId: string;
      whiteId: string;
      blackId: string;
    }
  | {
      type: 'tournament_match_decided';
      t: number;
      tournamentId: string;
      round: number;
      matchIndex: number;
      gameId: string;
      result: GameResult;
      advancedId: string;
      eliminatedId: string;
    }
  | {
      type: 'tournament_completed';
      t: number;
      tournamentId: string;
      placements: string[];
      payouts: number[];
      pool: number;
      systemFee: number;
      organizerFee: number;
    }
  | { type: 'tournament_cancelled'; t: number; tournamentId: string; reason: string };

export type PlatformEventType = PlatformEvent['type'];
export type EventListener = (event: PlatformEvent) => void;
