import type { Board } from '../rules/chess/chess.js';
import type { EndReason, GameResult, Side } from '../rules/chess/game.js';
import type { EligibilityFilters } from '../rules/chess/eligibility.js';
import type { RateAction } from '../rules/rate-limit.js';
import type { ActivityType, PostType, TransferType } from '../rules/vocabulary.js';

// The closed lists live with the rules (one source for the platform and the contracts); re-exported here for
// the platform's rooms, which read their record types from this file.
export {
  ACTIVITY_TYPES,
  POST_TYPES,
  TRANSFER_TYPES,
  type ActivityType,
  type PostType,
  type TransferType,
} from '../rules/vocabulary.js';

/**
 * The platform's whole state: its tables, and the record interface of each row. Most rows are plain objects;
 * the ones a long run keeps by the million are compact classes behind these same interfaces, each in its
 * domain's storage/ folder (a game and its packed moves: src/platform/chess/storage/; a challenge:
 * chess/storage/challenge-record.ts; activity entries: social/storage/activity-rows.ts), so a module reads
 * a Game or an Activity row the same whichever way it is kept. Modules in this folder change the state;
 * rules in src/rules decide how. Times are virtual milliseconds.
 */
export interface ApiUsage {
  dayIndex: number;
  requestsToday: number;
  totalRequests: number;
  lastUsedMs: number | null;
}

export type ActorKind = 'agent' | 'human';

/**
 * What agents and humans share: a key, usage counters and a social presence. The score counters are the
 * inputs of `src/rules/social/social-score.ts`; the score itself is computed from them, never stored.
 */
export interface Actor {
  readonly id: string;
  readonly kind: ActorKind;
  /** An agent's handle, or a human's username (their external-network handle). */
  handle: string;
  bio: string | null;
  readonly apiKeyHash: string;
  readonly apiKeyPrefix: string;
  readonly createdAtMs: number;
  postsCount: number;
  followingCount: number;
  followersCount: number;
  likesGivenCount: number;
  /** Likes by others on this actor's posts and replies. */
  likesReceived: number;
  /** Replies by others whose parent (post or reply) this actor wrote. */
  repliesReceived: number;
  profileUpvotes: number;
  profileDownvotes: number;
  usage: ApiUsage;
  /** Times of accepted rate-limited actions still inside the window, oldest first, per action. */
  rateLog: Record<RateAction, number[]>;
}

export interface Agent extends Actor {
  readonly kind: 'agent';
  tags: string[];
  githubUrl: string | null;
  githubUsername: string | null;
  githubRepoUrl: string | null;
  readonly walletAddress: string;
  readonly verificationCode: string;
  verified: boolean;
  verifiedAtMs: number | null;
  twitterHandle: string | null;
  handleChangesLeft: number;
  elo: number;
  peakElo: number;
  wins: number;
  losses: number;
  draws: number;
  /** Profile data pulled from the mock external network at verification and on refresh-social. */
  avatarUrl: string | null;
  twitterDisplayName: string | null;
  twitterFollowers: number | null;
  socialRefreshedAtMs: number | null;
}

/** A human account (an external-network owner): higher social limits, no chess, no wallet. */
export interface Human extends Actor {
  readonly kind: 'human';
  displayName: string;
  avatarUrl: string | null;
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
  acceptedAtMs: number | null;
  expiryTimer: number | null;
  /** The stake each player deposits, or null for a challenge without a bounty. */
  readonly bountyLamports: number | null;
  /** Derived at creation (the wire shows it at once); the escrow itself opens when the challenge is accepted. */
  readonly escrowAddress: string | null;
}

/** `pending` waits for escrow deposits; `cancelled` is a bounty game whose funding failed (never rated). */
export type GameStatus = 'pending' | 'active' | 'completed' | 'cancelled';

export { END_REASONS, type EndReason } from '../rules/chess/game.js';

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
  /** The live board; a finished game rebuilds it from its move log when read (src/platform/chess/storage/game-record.ts). */
  readonly board: Board;
  readonly initialFen: string;
  /** Every move; a finished game rebuilds them from its move log when read: use `plies` and `fen` where they do. */
  readonly moves: readonly MoveRecord[];
  /** Moves played (half-moves). */
  readonly plies: number;
  /** Whose move it is (in a finished game, whose it would be). */
  readonly sideToMove: Side;
  /** The position after the last move (the initial FEN before the first). */
  readonly fen: string;
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

export interface Post {
  readonly id: string;
  /** Creation order: feeds list by it and the unseen cursor is one of these. */
  readonly seq: number;
  readonly authorId: string;
  readonly authorKind: ActorKind;
  readonly content: string;
  readonly postType: PostType;
  readonly chessGameId: string | null;
  readonly tournamentId: string | null;
  readonly repostOfPostId: string | null;
  readonly createdAtMs: number;
  /** Actor ids @mentioned in the content, resolved when the post was made. */
  readonly mentions: readonly string[];
  likesCount: number;
  repliesCount: number;
}

/** A reply; always anchored to its root post, nested through `parentReplyId`. */
export interface Reply {
  readonly id: string;
  readonly seq: number;
  readonly postId: string;
  readonly parentReplyId: string | null;
  /** 1 for a direct reply to the post, parent's depth + 1 for a nested one. */
  readonly depth: number;
  readonly authorId: string;
  readonly authorKind: ActorKind;
  readonly content: string;
  readonly createdAtMs: number;
  readonly mentions: readonly string[];
  likesCount: number;
  repliesCount: number;
}

export type NotificationType = 'mentions' | 'game_posts' | 'replies';

/** Recorded when the post or reply is made, so a notifications read never scans the feed. */
export interface Notification {
  readonly seq: number;
  readonly type: NotificationType;
  readonly postId: string;
  /** The reply that mentions the actor or answers its post (null for a post). */
  readonly replyId: string | null;
  readonly atMs: number;
}

export interface Activity {
  readonly id: string;
  readonly seq: number;
  readonly type: ActivityType;
  readonly content: string;
  readonly relatedPostId: string | null;
  readonly relatedAgentId: string | null;
  readonly metadata: Readonly<Record<string, string | number | boolean | null>>;
  readonly atMs: number;
}

/** An activity entry as kept: what every row shows without being read out (src/platform/social/storage/activity-rows.ts). */
export interface ActivityEntry {
  readonly type: ActivityType;
  readonly atMs: number;
}

/** A post on the simulator's mock external social network (the place verification texts are published). */
export interface ExternalPost {
  readonly id: string;
  readonly text: string;
  readonly atMs: number;
}

export interface ExternalAccount {
  /** As first published; looked up case-insensitively. */
  readonly handle: string;
  displayName: string;
  avatarUrl: string;
  followers: number;
  banned: boolean;
  readonly posts: ExternalPost[];
}

/** What a transfer's settlement or failure is reported to. */
export type TransferPurpose =
  { kind: 'bounty'; escrow: string } | { kind: 'tournament'; tournamentId: string } | { kind: 'funding' };

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

/** An escrow's states; the transitions between them are the table `ESCROW_TRANSITIONS` in src/platform/money/escrows.ts. */
export type EscrowStatus =
  'awaiting_deposits' | 'funded' | 'paying_out' | 'paid_out' | 'refunding' | 'refunded';

/** One escrow account per bounty game and per tournament; it settles once, paid out or refunded. */
export interface Escrow {
  readonly address: string;
  readonly kind: 'bounty' | 'tournament';
  /** The game or tournament id. */
  readonly refId: string;
  status: EscrowStatus;
  /** Deposits in flight (transfer ids). */
  readonly pendingIn: Set<string>;
  /** Payouts, fees and refunds in flight (transfer ids). */
  readonly pendingOut: Set<string>;
  /** Every deposit queued into this escrow, settled or not. */
  readonly depositIds: string[];
  /** The deposits that landed: each is refunded to its sender if the escrow is cancelled. */
  readonly settledDepositIds: string[];
  lamportsIn: number;
  lamportsOut: number;
  /** A bounty's funding deadline timer. */
  timer: number | null;
  closedAtMs: number | null;
}

export type TournamentStatus = 'registration' | 'in_progress' | 'completed' | 'cancelled';

/** A tournament's entry filters; the rule that judges them is `src/rules/chess/eligibility.ts`. */
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
  /**
   * Bounty stakes promised by open challenges, per challenger wallet: not spendable elsewhere. An index, always
   * equal to the sum of `bountyLamports` over the open challenges of that wallet's agent; only opening and
   * closing a challenge (src/platform/chess/challenges.ts) change it.
   */
  readonly reservedByAddress: Map<string, number>;
  readonly tournaments: Map<string, Tournament>;
  /** Profile votes, keyed `${voterId}>${targetId}`; the social layer fills it, challenges and joins read it. */
  readonly profileVotes: Map<string, 'up' | 'down'>;
  readonly humans: Map<string, Human>;
  /** Lower-cased username -> human id. */
  readonly humanIdByUsername: Map<string, string>;
  readonly humanIdByKeyHash: Map<string, string>;
  /** Post ids in creation order (index = post seq). */
  readonly postIds: string[];
  /** Each author's post ids, oldest first: profiles read an author's newest posts without scanning the feed. */
  readonly postIdsByAuthor: Map<string, string[]>;
  /** Idempotent recap posts (WIRE §8), keyed `${authorId}|${recapKey}` (see src/rules/social/recap.ts). */
  readonly recapPosts: Map<string, string>;
  readonly replies: Map<string, Reply>;
  /** Reply ids of each post, oldest first, every depth. */
  readonly repliesByPost: Map<string, string[]>;
  /** Likes, keyed `${actorId}>${postOrReplyId}`. */
  readonly likes: Set<string>;
  /** Follows, keyed `${followerId}>${targetId}` (the target an agent or a human). */
  readonly follows: Set<string>;
  /** Per actor: the seq of the newest post the unseen feed has served it. */
  readonly unseenCursor: Map<string, number>;
  readonly notifications: Map<string, Notification[]>;
  /** Each actor's activity, oldest first, kept compact (src/platform/social/storage/activity-rows.ts; `listActivity` reads rows). */
  readonly activity: Map<string, ActivityEntry[]>;
  /** The mock external social network, by lower-cased handle. */
  readonly externalAccounts: Map<string, ExternalAccount>;
}

/**
 * Every table of the state, declared once with its kind. `satisfies` makes the compiler refuse a table of
 * `PlatformState` that is missing here, and the empty state and the state fingerprint (src/platform/snapshot.ts)
 * are both derived from this list, so a new table is created empty and fingerprinted without anyone
 * remembering to (a table the fingerprint did not see would make "a refused request changes nothing" blind to it).
 */
export const STATE_TABLES = {
  agents: 'map',
  agentIdByHandle: 'map',
  agentIdByKeyHash: 'map',
  challenges: 'map',
  games: 'map',
  liveGamesByAgent: 'map',
  completedGamesByAgent: 'map',
  openChallengeIds: 'set',
  posts: 'map',
  transfers: 'map',
  transfersByAgent: 'map',
  feesByAgent: 'map',
  escrows: 'map',
  pendingOutByAddress: 'map',
  reservedByAddress: 'map',
  tournaments: 'map',
  profileVotes: 'map',
  humans: 'map',
  humanIdByUsername: 'map',
  humanIdByKeyHash: 'map',
  postIds: 'list',
  postIdsByAuthor: 'map',
  recapPosts: 'map',
  replies: 'map',
  repliesByPost: 'map',
  likes: 'set',
  follows: 'set',
  unseenCursor: 'map',
  notifications: 'map',
  activity: 'map',
  externalAccounts: 'map',
} as const satisfies Record<keyof PlatformState, 'map' | 'set' | 'list'>;

export type StateTable = keyof typeof STATE_TABLES;

/**
 * One object literal in STATE_TABLES' order, its kinds checked by the compiler and by
 * test/unit/state-tables.test.ts. Not built in a loop from STATE_TABLES: an object given this many
 * properties by computed-key stores becomes a dictionary, and every `p.state.<table>` read on the hot paths
 * was then a hash lookup.
 */
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
    reservedByAddress: new Map(),
    tournaments: new Map(),
    profileVotes: new Map(),
    humans: new Map(),
    humanIdByUsername: new Map(),
    humanIdByKeyHash: new Map(),
    postIds: [],
    postIdsByAuthor: new Map(),
    recapPosts: new Map(),
    replies: new Map(),
    repliesByPost: new Map(),
    likes: new Set(),
    follows: new Set(),
    unseenCursor: new Map(),
    notifications: new Map(),
    activity: new Map(),
    externalAccounts: new Map(),
  };
}
