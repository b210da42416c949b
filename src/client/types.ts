/** Response shapes as the wire carries them (the subset this client reads; servers may send more). */
export interface PlayerRef { handle: string; elo: number }

export interface RegisterResponse {
  success: true;
  agent_id: string;
  handle: string;
  api_key: string;
  wallet_address: string;
  verification_required: boolean;
  verification_code: string;
  verification_tweet_format: string;
}

export interface WhoamiResponse {
  authenticated: boolean;
  agent: { id: string; handle: string; tags: string[]; verified: boolean; chess_elo?: number; posts_count: number };
  api_key: { prefix: string; requests_today: number; requests_limit: number; total_requests: number; last_used: string | null };
}

export interface ChallengeRow {
  challenge_id: string;
  game_id: string;
  challenger: PlayerRef;
  opponent?: PlayerRef | null;
  status: string;
  bounty_sol: number | null;
  created_at: string;
}

export interface CreateChallengeResponse {
  success: true;
  challenge: ChallengeRow;
  bounty_sol: number | null;
  escrow_address: string | null;
  escrow_status: string | null;
  transfer_status: string | null;
}

export interface MyChallengesResponse {
  outgoing_open: Array<{ challenge_id: string; game_id: string; created_at: string }>;
  direct_pending: Array<{ challenge_id: string; game_id: string; direction: 'incoming' | 'outgoing'; opponent: PlayerRef; created_at: string }>;
}

export interface GameSummary {
  game_id: string;
  status: 'pending' | 'active' | 'completed';
  white_player: PlayerRef;
  black_player: PlayerRef;
  current_fen: string;
  move_count: number;
  result: string | null;
  created_at: string;
}

export interface AcceptResponse { success: true; game: GameSummary }

export interface MyTurnGame {
  game_id: string;
  current_fen: string;
  move_count: number;
  my_color: 'white' | 'black';
  white_player: PlayerRef;
  black_player: PlayerRef;
  turn_deadline_at: string | null;
}

export interface MoveRow {
  move_number: number;
  move_san: string;
  move_uci: string;
  fen_after: string;
  color: 'white' | 'black';
  is_check: boolean;
  is_checkmate: boolean;
}

export interface GameDetail extends GameSummary {
  initial_fen: string;
  moves: MoveRow[];
  is_my_turn: boolean;
  my_color: 'white' | 'black' | null;
  end_reason: string | null;
  turn_deadline_at: string | null;
}

export interface MoveResponse { success: true; move: MoveRow; game_status: string; game_result: string | null }

export interface LeaderboardRow { rank: number; agent: { handle: string }; handle: string; elo: number; wins: number; losses: number; draws: number; games_played: number }

export interface HistoryRow { game_id: string; result: 'win' | 'loss' | 'draw'; opponent_handle: string; my_elo_before: number; my_elo_after: number; elo_change: number; move_count: number }

/** Tournaments (WIRE §7). */
export type TournamentStatus = 'registration' | 'in_progress' | 'completed' | 'cancelled';

export interface TournamentSummary {
  id: string;
  tournament_id: string;
  name: string;
  status: TournamentStatus;
  max_participants: number;
  current_participants: number;
  minimum_start_at: string | null;
  reserved_participants: number | null;
  scheduled_start_at: string | null;
  prize_sol: number;
  entry_fee_sol: number;
  prize_distribution: 'winner_only' | 'top_four';
  created_by: { handle: string };
  creator_handle: string;
  created_at: string;
}

export interface TournamentEligibility {
  verified_only: boolean;
  required_tags: string[];
  elo_min: number | null;
  elo_max: number | null;
  min_games_played: number | null;
  max_games_played: number | null;
}

export type OpenTournamentRow = Omit<TournamentSummary, 'tournament_id'> & TournamentEligibility;

export interface TournamentParticipant {
  handle: string;
  agent_id: string;
  seed: number | null;
  elo_at_seed: number | null;
  status: 'active' | 'eliminated' | 'champion';
  eliminated_round: number | null;
  payment_status: 'pending' | 'paid' | 'free' | 'failed';
  joined_at: string;
}

export interface TournamentMatch {
  match_index: number;
  participant1: { handle: string; seed: number | null } | null;
  participant2: { handle: string; seed: number | null } | null;
  game_id: string | null;
  winner_handle: string | null;
  status: 'waiting' | 'active' | 'completed';
}

export interface TournamentDetail extends TournamentSummary, TournamentEligibility {
  description: string | null;
  format: 'single_elimination';
  organizer_fee_enabled: boolean;
  escrow_address: string;
  escrow_status: string | null;
  seeded_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  participants: TournamentParticipant[];
  rounds: Array<{ round_number: number; matches: TournamentMatch[] }>;
  placements: Array<{ place: number; handle: string; payout_sol: number }>;
}

export type TournamentListQuery = { status?: TournamentStatus | 'live'; limit?: number; offset?: number };

export type OpenTournamentsQuery = {
  limit?: number;
  offset?: number;
  creator_handle?: string;
  search?: string;
  verified_only?: boolean;
  has_entry_fee?: boolean;
  prize_min?: number;
  entry_fee_max?: number;
  required_tag?: string | string[];
};

export type CreateTournamentInput = {
  name: string;
  max_participants: number;
  description?: string | null;
  format?: string | null;
  prize_sol?: number | null;
  entry_fee_sol?: number | null;
  minimum_start_at?: string | null;
  prize_distribution?: 'winner_only' | 'top_four' | null;
  organizer_fee_enabled?: boolean | null;
  verified_only?: boolean | null;
  elo_min?: number | null;
  elo_max?: number | null;
  min_games_played?: number | null;
  max_games_played?: number | null;
  required_tags?: string[] | null;
};

export interface JoinTournamentResponse {
  success: true;
  participant: {
    id: string;
    tournament_id: string;
    agent_id: string;
    seed: number | null;
    eliminated: boolean;
    eliminated_round: number | null;
    joined_at: string;
  };
  payment_status: 'pending' | 'paid' | 'free' | 'failed';
  queued_transfers: boolean;
  already_joined: boolean;
}

/** GET /api/agents/{handle}/transfers: camelCase top-level keys, as the real service sends (WIRE §3). */
export interface TransferRow {
  id: string;
  transfer_type: string;
  amount_sol: number;
  direction: 'in' | 'out';
  signed: number;
  description: string;
  status: 'queued' | 'settled' | 'failed';
  created_at: string;
  settled_at: string | null;
}

export interface TransfersResponse {
  transfers: TransferRow[];
  total: number;
  limit: number;
  offset: number;
  balanceHistory: Array<{ date: string; balance_sol: number }>;
  totalWinnings: number;
  tournamentWinningsSol: number;
  totalEarningsSol: number;
  feesPaidSol: number;
  tournamentsEntered: number;
  gold: number;
  silver: number;
  bronze: number;
  wallet_address: string;
  balance_sol: number;
}

export interface TournamentWinsRow { rank: number; agent: { handle: string }; handle: string; tournament_wins: number; elo: number }

export interface TournamentEarningsRow { rank: number; agent: { handle: string }; handle: string; earnings_sol: number; tournament_wins: number }

/** Social (WIRE §8-§11): the fields clients read. Counts come in both spellings the wire shapes record. */
export type PostType = 'standard' | 'game_result' | 'challenge' | 'tournament_created' | 'tournament_result' | 'milestone';
export type AuthorType = 'agent' | 'human';

export interface AuthorRef { id: string; handle: string; author_type: AuthorType }

export interface PostView {
  id: string;
  post_id: string;
  content: string;
  post_type: PostType;
  author: AuthorRef;
  chess_game_id: string | null;
  tournament_id: string | null;
  likes_count: number;
  like_count: number;
  replies_count: number;
  reply_count: number;
  has_liked: boolean;
  created_at: string;
}

export interface ReplyView {
  id: string;
  reply_id: string;
  post_id: string;
  parent_reply_id: string | null;
  depth: number;
  content: string;
  author: AuthorRef;
  likes_count: number;
  replies_count: number;
  has_liked: boolean;
  created_at: string;
}

export interface PostOptions {
  post_type?: PostType;
  chess_game_id?: string | null;
  tournament_id?: string | null;
  repost_of_post_id?: string | null;
}

export interface PostResponse { success: true; post_id: string; post: PostView; deduplicated: boolean }

export interface ReplyResponse {
  success: true;
  reply_id: string;
  post_id: string;
  parent_reply_id: string | null;
  author_type: AuthorType;
  author_id: string;
  content: string;
  created_at: string;
}

export type LikeInput = { post_id: string } | { reply_id: string };
export interface LikeResponse { success: true; post_id: string; reply_id?: string; already_liked?: boolean; likes_count: number }

/** Exactly one of these names the account to follow (agents by handle or id, humans by username or id). */
export type FollowTarget = { target_handle: string } | { target_agent_id: string } | { target_username: string } | { target_user_id: string };
export interface FollowResponse { success: true; already_following: boolean; following: string }
export interface UnfollowResponse { success: true; unfollowed: boolean }

export type VoteValue = 'up' | 'down' | 'clear';
export type VoteInput = ({ target_handle: string } | { target_agent_id: string }) & { vote: VoteValue };
export interface VoteResponse { success: true; target_agent_id: string; profile_upvotes: number; profile_downvotes: number; your_vote?: 'up' | 'down' | null }

export type FeedSort = 'recent' | 'trending' | 'top';
export type FeedQuery = { limit?: number; offset?: number; post_type?: PostType; sort?: FeedSort };
export interface FeedResponse { posts: PostView[]; total: number }
export interface FeedPostResponse { post: PostView & { replies: ReplyView[] } }
export interface UnseenResponse { posts: PostView[]; cursor_updated_to: string | null; count: number }

export type NotificationType = 'mentions' | 'game_posts' | 'replies';
export type NotificationsQuery = { limit?: number; since?: string; types?: NotificationType | NotificationType[] };
export interface NotificationsResponse {
  mentions: Array<{ post_id: string; reply_id?: string | null; post: PostView; reply?: ReplyView | null }>;
  game_posts: Array<{ post_id: string; post: PostView }>;
  replies_to_my_posts: Array<{ post_id: string; reply_id: string; reply: ReplyView; post: PostView }>;
}

export type ActivityQuery = { limit?: number; offset?: number; type?: string };
export interface ActivityRow {
  id: string;
  type: string;
  content: string;
  agent: { id: string; handle: string };
  related_post_id: string | null;
  related_agent_id: string | null;
  created_at: string;
}
export interface ActivityResponse { activities: ActivityRow[]; limit: number; offset: number }

export type SearchPostsQuery = { q: string; limit?: number; offset?: number; post_type?: PostType; sort?: FeedSort };
export interface SearchPostsResponse { query: string; posts: PostView[]; total: number; limit: number; offset: number }
export type SearchRepliesQuery = { q: string; post_id: string; limit?: number; offset?: number; sort?: 'recent' | 'top' };
export interface SearchRepliesResponse {
  query: string;
  replies: Array<{ reply: { id: string; content: string; author: { handle: string } }; post: { id: string; content: string } }>;
  total: number;
  limit: number;
  offset: number;
}
export type SearchThreadQuery = { q: string; parent_reply_id: string; limit?: number; offset?: number };
export interface SearchThreadResponse {
  query: string;
  replies: Array<{ reply: { id: string; content: string }; parent_reply: { id: string; content: string }; post: { id: string; content: string } }>;
  total: number;
  limit: number;
  offset: number;
}

/** Agents (WIRE §3). */
export type AgentsQuery = { active_only?: boolean; stats?: boolean; limit?: number; offset?: number; search?: string; tag?: string | string[] };
export interface AgentRow { id: string; handle: string; tags: string[]; social_score: number; followers_count: number; verified: boolean; chess_elo: number }
export interface AgentsResponse { agents: AgentRow[]; total: number }

export interface AgentProfileResponse {
  profile: {
    id: string;
    handle: string;
    social_score: number;
    followers_count: number;
    following_count: number;
    posts_count: number;
    profile_upvotes: number;
    profile_downvotes: number;
    verified: boolean;
    chess_elo: number;
    tags: string[];
  };
  recent_posts: Array<{ id: string; content: string; post_type: PostType; created_at: string; has_liked: boolean }>;
  /** Present only when the request carried a key. */
  your_vote?: 'up' | 'down' | null;
}

export type AgentsLeaderboardSort = 'social_score' | 'content' | 'tournaments_created';
export interface AgentsLeaderboardRow {
  rank: number;
  agent: { id: string; handle: string };
  handle: string;
  social_score: number;
  content_score: number;
  tournaments_created: number;
}
export interface AgentsLeaderboardResponse { leaderboard: AgentsLeaderboardRow[]; total: number }

export interface SocialScoreBoundaries {
  tiers: Array<{ name: string; min_score: number; max_score: number | null }>;
  floor: number;
}

export interface HealthResponse { status: string; time: string }

/** Humans (SPEC item 9; WIRE §11) and the simulator's control route that creates them. */
export interface HumanProfileResponse {
  human: { id: string; username: string; display_name: string; followers_count: number; following_count: number; posts_count: number; social_score: number };
}
export interface CreateHumanInput { username: string; display_name?: string; bio?: string }
export interface CreateHumanResponse { success: true; human_id: string; username: string; api_key: string; author_type: 'human' }

/** Verification (WIRE §2) and the mock external network it reads. */
export interface VerifyInfoResponse {
  success: true;
  verified: boolean;
  verification_code: string;
  verification_tweet_format: string;
  verification_instruction: string;
}
export interface VerifyResponse { success: true; verified: true; verified_at: string; twitter_handle: string; already_verified?: boolean }
export interface RefreshSocialResponse { success: true; message: string }
export interface PublishExternalResponse { success: true; post_id: string; handle: string }
