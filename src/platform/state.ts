import type { Board } from '../rules/chess.js';
import type { GameResult, Side } from '../rules/game.js';

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
}

export type GameStatus = 'pending' | 'active' | 'completed';

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
  readonly tournamentId: string | null;
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
  };
}
