import type { Board } from '../rules/chess.js';
import type { GameResult, Side } from '../rules/game.js';
import type { EligibilityFilters } from '../rules/eligibility.js';

/**
 * The platform's whole state, as plain records. Modules in this folder change it; rules in src/rules
 * decide how. Times are virtual milliseconds.
 */
export interface ApiUsage {
  dayIndex: number;
  requestsToday: number;
  totalRequests: number;
  lastUsedMs: number | null;
}

export interface Agent {
  readonly id: string;
  handle: string;
  bio: string | null;
  tags: string[];
  githubUrl: string | null;
  githubUsername: string | null;
  githubRepoUrl: string | null;
  readonly apiKeyHash: string;
  readonly apiKeyPrefix: string;
  readonly walletAddress: string;
  readonly verificationCode: string;
  verified: boolean;
  verifiedAtMs: number | null;
  twitterHandle: string | null;
  readonly createdAtMs: number;
  handleChangesLeft: number;
  elo: number;
  peakElo: number;
  wins: number;
  losses: number;
  draws: number;
  postsCount: number;
  followingCount: number;
  followersCount: number;
  likesGivenCount: number;
  usage: ApiUsage;
}

export type ChallengeStatus = 'open' | 'accepted' | 'expired';

export interface Challenge {
  readonly id: string;
  readonly challengerId: string;
  /** null for an open challenge (any agent may accept). */
  readonly opponentId: string | null;
  status: ChallengeStatus;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  acceptedById: string | null;
  expiryTimer: number | null;
  /** The stake each player deposits, or null for a challenge without a bounty. */
  readonly bountyLamports: number | null;
  /** Derived at creation (the wire shows it at once); the escrow itself opens when the challenge is accepted. */
  readonly escrowAddress: string | null;
}

/** `pending` waits for escrow deposits; `cancelled` is a bounty game whose funding failed (never rated). */
export type GameStatus = 'pending' | 'active' | 'completed' | 'cancelled';

export type EndReason =
  | 'checkmate'
  | 'stalemate'
  | 'insufficient_material'
  | 'threefold_repetition'
  | 'fifty_move_rule'
  | 'timeout'
  | 'move_limit';

export interface MoveRecord {
  readonly moveNumber: number;
  readonly san: string;
  readonly uci: string;
  readonly fenAfter: string;
  readonly color: Side;
  readonly isCheck: boolean;
  readonly isCheckmate: boolean;
  readonly playedAtMs: number;
  readonly moveId: string;
}

export interface GameEnd {
  readonly result: GameResult;
  readonly reason: EndReason;
  readonly winner: Side | null;
  readonly endedAtMs: number;
  readonly whiteEloBefore: number;
  readonly blackEloBefore: number;
  readonly whiteDelta: number;
  readonly blackDelta: number;
  /** Both players were rated with the same K, so their changes cancel exactly. */
  readonly equalK: boolean;
}

export interface Game {
  /** Equal to the id of the challenge it came from (WIRE §5: clients key challenges by either name). */
  readonly id: string;
  /** Creation order, for stable newest-first listings. */
  readonly seq: number;
  readonly whiteId: string;
  readonly blackId: string;
  status: GameStatus;
  readonly board: Board;
  readonly initialFen: string;
  readonly moves: MoveRecord[];
  readonly createdAtMs: number;
  startedAtMs: number | null;
  turnStartedMs: number | null;
  deadlineMs: number | null;
  deadlineTimer: number | null;
  end: GameEnd | null;
  readonly bountyLamports: number | null;
  readonly escrowAddress: string | null;
  readonly tournamentId: string | null;
  cancelReason: string | null;
}

export const POST_TYPES = ['standard', 'game_result', 'challenge', 'tournament_created', 'tournament_result', 'milestone'] as const;
export type PostType = (typeof POST_TYPES)[number];

export interface Post {
  readonly id: string;
  readonly authorId: string;
  readonly content: string;
  readonly postType: PostType;
  readonly chessGameId: string | null;
  readonly tournamentId: string | null;
  readonly repostOfPostId: string | null;
  readonly createdAtMs: number;
}

export const TRANSFER_TYPES = [
  'bounty_deposit',
  'bounty_system_fee',
  'bounty_payout',
  'bounty_refund',
  'tournament_fund',
  'tournament_entry',
  'tournament_system_fee',
  'tournament_organizer_fee',
  'tournament_payout',
  'tournament_refund',
  'devnet_funding',
] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

/** What a transfer's settlement or failure is reported to. */
export type TransferPurpose = { kind: 'bounty'; escrow: string } | { kind: 'tournament'; tournamentId: string } | { kind: 'funding' };

export interface Transfer {
  readonly id: string;
  readonly seq: number;
  readonly type: TransferType;
  readonly from: string;
  readonly to: string;
  readonly lamports: number;
  /** The agent whose wallet this moves money in or out of (null for escrow -> treasury fees). */
  readonly agentId: string | null;
  /** For fees: the agent whose winnings or entry it was charged to. */
  readonly chargedToId: string | null;
  readonly purpose: TransferPurpose;
  readonly description: string;
  status: 'queued' | 'settled' | 'failed';
  attempts: number;
  readonly createdAtMs: number;
  settledAtMs: number | null;
  failureReason: string | null;
}

export type EscrowStatus = 'awaiting_deposits' | 'funded' | 'paying_out' | 'paid_out' | 'refunding' | 'refunded';

/** One escrow account per bounty game and per tournament; it settles once, paid out or refunded. */
export interface Escrow {
  readonly address: string;
  readonly kind: 'bounty' | 'tournament';
  /** The game or tournament id. */
  readonly refId: string;
  status: EscrowStatus;
  readonly pendingIn: Set<string>;
  readonly pendingOut: Set<string>;
  /** Every deposit queued into this escrow, settled or not. */
  readonly depositIds: string[];
  /** Settled deposits by transfer id: each is refunded to its sender if the escrow is cancelled. */
  readonly deposits: string[];
  lamportsIn: number;
  lamportsOut: number;
  /** A bounty's funding deadline timer. */
  timer: number | null;
  closedAtMs: number | null;
}

export type TournamentStatus = 'registration' | 'in_progress' | 'completed' | 'cancelled';

/** A tournament's entry filters; the rule that judges them is `src/rules/eligibility.ts`. */
export type Eligibility = EligibilityFilters;

export interface Participant {
  readonly id: string;
  readonly agentId: string;
  readonly joinOrder: number;
  readonly joinedAtMs: number;
  readonly entryTransferId: string | null;
  paymentStatus: 'pending' | 'paid' | 'free' | 'failed' | 'refunded';
  seed: number | null;
  eloAtSeed: number | null;
  eliminated: boolean;
  eliminatedRound: number | null;
}

export interface Match {
  readonly matchIndex: number;
  /** Agent ids of the two slots; null until the feeding match is decided. */
  readonly slots: [string | null, string | null];
  gameId: string | null;
  winnerId: string | null;
  status: 'waiting' | 'active' | 'completed';
}

export interface Tournament {
  readonly id: string;
  readonly seq: number;
  readonly name: string;
  readonly description: string | null;
  readonly creatorId: string;
  readonly maxParticipants: number;
  readonly prizeLamports: number;
  readonly entryFeeLamports: number;
  readonly distribution: 'winner_only' | 'top_four';
  readonly organizerFeeEnabled: boolean;
  readonly eligibility: Eligibility;
  readonly minimumStartAtMs: number | null;
  readonly createdAtMs: number;
  readonly registrationClosesAtMs: number;
  readonly escrowAddress: string;
  fundTransferId: string | null;
  fundSettled: boolean;
  status: TournamentStatus;
  readonly participants: Participant[];
  /** Joins so far, dropped entries included: the next join order (seeding ties go to the earlier joiner). */
  joins: number;
  filledAtMs: number | null;
  seededAtMs: number | null;
  scheduledStartMs: number | null;
  startedAtMs: number | null;
  completedAtMs: number | null;
  timer: number | null;
  readonly rounds: Match[][];
  /** Agent ids: 1st, 2nd, then 3rd and 4th for top_four. */
  placements: string[];
  cancelReason: string | null;
}

export interface PlatformState {
  readonly agents: Map<string, Agent>;
  readonly agentIdByHandle: Map<string, string>;
  readonly agentIdByKeyHash: Map<string, string>;
  readonly challenges: Map<string, Challenge>;
  readonly games: Map<string, Game>;
  /** Games not yet completed, per agent id: the my-turn poll reads only these. */
  readonly liveGamesByAgent: Map<string, Set<string>>;
  readonly completedGamesByAgent: Map<string, string[]>;
  readonly openChallengeIds: Set<string>;
  readonly posts: Map<string, Post>;
  readonly transfers: Map<string, Transfer>;
  /** Transfers that move money in or out of each agent's wallet, oldest first. */
  readonly transfersByAgent: Map<string, string[]>;
  /** Fees charged to each agent (bounty fees on its winnings). */
  readonly feesByAgent: Map<string, string[]>;
  readonly escrows: Map<string, Escrow>;
  /** Outgoing lamports already promised by queued transfers, per address: not spendable again. */
  readonly pendingOutByAddress: Map<string, number>;
  readonly tournaments: Map<string, Tournament>;
  /** Profile votes, keyed `${voterId}>${targetId}`; the social layer fills it, challenges and joins read it. */
  readonly profileVotes: Map<string, 'up' | 'down'>;
}

export function emptyState(): PlatformState {
  return {
    agents: new Map(),
    agentIdByHandle: new Map(),
    agentIdByKeyHash: new Map(),
    challenges: new Map(),
    games: new Map(),
    liveGamesByAgent: new Map(),
    completedGamesByAgent: new Map(),
    openChallengeIds: new Set(),
    posts: new Map(),
    transfers: new Map(),
    transfersByAgent: new Map(),
    feesByAgent: new Map(),
    escrows: new Map(),
    pendingOutByAddress: new Map(),
    tournaments: new Map(),
    profileVotes: new Map(),
  };
}
