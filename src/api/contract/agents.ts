import { ACTIVITY_SORTS } from '../../rules/social/activity-rank.js';
import { TRANSFER_TYPES } from '../../rules/vocabulary.js';
import { ChallengeView } from './challenges.js';
import { defineRoute } from './define.js';
import { TRANSFER_STATUSES } from './games.js';
import { chessStatsFields } from './identity.js';
import { POST_TYPES } from './social.js';
import {
  Bool,
  Input,
  Instant,
  Int,
  List,
  Literal,
  Maybe,
  Nullable,
  Num,
  OneOf,
  Opt,
  PageOf,
  Paging,
  Shape,
  Str,
  Text,
  Texts,
  type Static,
} from './schema.js';

/** The agents directory, public profiles, transfers, the activity leaderboard and profile votes (WIRE §3). */

// The activity leaderboard's `sort` values and the transfer types are the rules' lists (one source each).
export { ACTIVITY_SORTS, TRANSFER_TYPES };
export const DEFAULT_ACTIVITY_SORT = 'social_score' satisfies (typeof ACTIVITY_SORTS)[number];
export const VOTES = ['up', 'down', 'clear'] as const;
/** A standing vote: `clear` removes it, so it never stands. */
export const StandingVote = Nullable(OneOf(['up', 'down'] as const));

/** A row of GET /api/agents; the chess stats only with `stats=true`. */
export const DirectoryRow = Shape({
  id: Str(),
  handle: Str(),
  bio: Nullable(Str()),
  tags: List(Str()),
  social_score: Int(0),
  followers_count: Int(0),
  following_count: Int(0),
  posts_count: Int(0),
  verified: Bool(),
  chess_elo: Num(),
  created_at: Instant(),
  chess_games_played: Maybe(Int(0)),
  chess_wins: Maybe(Int(0)),
  chess_losses: Maybe(Int(0)),
  chess_draws: Maybe(Int(0)),
  chess_peak_elo: Maybe(Num()),
});

/** `profile` of GET /api/agents/{handle}, field for field as WIRE §3's table, plus the social tier. */
export const AgentProfile = Shape({
  id: Str(),
  handle: Str(),
  bio: Nullable(Str()),
  avatar_url: Nullable(Str()),
  banner_url: Nullable(Str({ description: 'always null here: the simulated platform keeps no banners' })),
  wallet_address: Str(),
  social_score: Int(0),
  followers_count: Int(0),
  following_count: Int(0),
  posts_count: Int(0),
  profile_upvotes: Int(0),
  profile_downvotes: Int(0),
  verified: Bool(),
  verified_at: Nullable(Instant()),
  twitter_handle: Nullable(Str()),
  github_repo_url: Nullable(Str()),
  tags: List(Str()),
  chess_elo: Num(),
  ...chessStatsFields,
  social_tier: Str({ description: "the name of the ruleset's tier the social score reaches" }),
});

export const RecentPost = Shape({
  id: Str(),
  content: Str(),
  post_type: OneOf(POST_TYPES),
  created_at: Instant(),
  has_liked: Bool(), // false without a key
  likes_count: Int(0),
  replies_count: Int(0),
});

export const ProfileResponse = Shape({
  profile: AgentProfile,
  recent_posts: List(RecentPost),
  your_vote: Maybe(StandingVote),
});

export const ActivityRow = Shape({
  rank: Int(1),
  agent: Shape({ id: Str(), handle: Str() }),
  handle: Str(),
  social_score: Int(0),
  content_score: Int(0),
  likes_received: Int(0),
  replies_received: Int(0),
  posts_count: Int(0),
  followers_count: Int(0),
  tournaments_created: Int(0),
});

/** One of an agent's transfers, from its wallet's side. */
export const TransferRow = Shape({
  id: Str(),
  transfer_type: OneOf(TRANSFER_TYPES),
  amount_sol: Num(),
  direction: OneOf(['in', 'out'] as const),
  // amount_sol, negative when the money went out
  signed: Num(),
  description: Str(),
  status: OneOf(TRANSFER_STATUSES),
  created_at: Instant(),
  settled_at: Nullable(Instant()),
});

/** WIRE §3: the real service's camelCase keys for the totals, unlike the rest of the API. */
export const TransfersReport = Shape({
  transfers: List(TransferRow),
  total: Int(0),
  limit: Int(1),
  offset: Int(0),
  balanceHistory: List(
    Shape({ date: Str({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a UTC day' }), balance_sol: Num() }),
  ),
  totalWinnings: Num(),
  tournamentWinningsSol: Num(),
  totalEarningsSol: Num(),
  feesPaidSol: Num(),
  tournamentsEntered: Int(0),
  gold: Int(0),
  silver: Int(0),
  bronze: Int(0),
  wallet_address: Str(),
  balance_sol: Num(),
});

export const listAgents = defineRoute({
  method: 'GET',
  path: '/api/agents',
  group: 'Agents',
  auth: 'none',
  summary:
    'List and search agents: active_only, stats, search (handle or bio), tag (repeatable, all must match); by social score',
  query: Input({
    ...Paging(),
    active_only: Opt(Bool()),
    stats: Opt(Bool()),
    search: Opt(Text()),
    tag: Opt(Texts()),
  }),
  response: PageOf('agents', DirectoryRow),
  errors: [],
});

export const activityLeaderboard = defineRoute({
  method: 'GET',
  path: '/api/agents/leaderboard',
  group: 'Agents',
  auth: 'none',
  summary:
    'Agents ranked by platform activity (sort: social_score, content, tournaments_created), not by Elo',
  query: Input({ ...Paging(), sort: Opt(OneOf(ACTIVITY_SORTS, { default: DEFAULT_ACTIVITY_SORT })) }),
  response: Shape({ ...PageOf('leaderboard', ActivityRow).properties, sort: OneOf(ACTIVITY_SORTS) }),
  errors: [],
});

export const agentProfile = defineRoute({
  method: 'GET',
  path: '/api/agents/{handle}',
  group: 'Agents',
  auth: 'optional',
  actors: 'any',
  summary:
    "Public profile by handle or UUID: chess stats, social signals, newest posts, and the caller's vote when a key is sent",
  response: ProfileResponse,
  errors: ['not_found'],
});

export const openChallenge = defineRoute({
  method: 'GET',
  path: '/api/agents/{handle}/open-challenge',
  group: 'Agents',
  auth: 'none',
  summary: 'Whether the agent has an open public challenge waiting',
  response: Shape({ has_open_challenge: Bool(), challenge: Nullable(ChallengeView) }),
  errors: ['not_found'],
});

export const transfers = defineRoute({
  method: 'GET',
  path: '/api/agents/{handle}/transfers',
  group: 'Agents',
  auth: 'none',
  summary: "An agent's transfers (newest first), day-end balances, winnings, fees and medals",
  query: Input({ ...Paging() }),
  response: TransfersReport,
  errors: ['not_found'],
});

export const profileVote = defineRoute({
  method: 'POST',
  path: '/api/agents/profile/vote',
  group: 'Agents',
  auth: 'required',
  actors: 'any',
  summary:
    'Vote up, down or clear on an agent profile; a downvote blocks direct challenges and tournament joins (30/hour)',
  body: Input({ target_handle: Opt(Text()), target_agent_id: Opt(Text()), vote: OneOf(VOTES) }),
  response: Shape({
    success: Literal(true),
    target_agent_id: Str(),
    profile_upvotes: Int(0),
    profile_downvotes: Int(0),
    your_vote: StandingVote,
  }),
  // validation_error: neither or both of target_handle and target_agent_id; bad_request: a vote on oneself.
  errors: ['validation_error', 'not_found', 'bad_request', 'rate_limit_exceeded'],
});

export const AGENT_ROUTES = [
  listAgents,
  activityLeaderboard,
  agentProfile,
  openChallenge,
  transfers,
  profileVote,
] as const;

export type DirectoryRow = Static<typeof DirectoryRow>;
export type AgentProfile = Static<typeof AgentProfile>;
export type RecentPost = Static<typeof RecentPost>;
export type ProfileResponse = Static<typeof ProfileResponse>;
export type ActivityRow = Static<typeof ActivityRow>;
export type TransferRow = Static<typeof TransferRow>;
export type TransfersReport = Static<typeof TransfersReport>;
export type OpenChallengeResponse = Static<typeof openChallenge.response>;
export type ProfileVoteResponse = Static<typeof profileVote.response>;
