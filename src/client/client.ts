import type { Transport, TransportRequest } from './transport.js';
import type * as T from './types.js';

/** A non-2xx answer, carrying the wire error code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  /** Seconds to wait before retrying, from a 429's Retry-After header (or its body's retry_after). */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    const payload = (body ?? {}) as { error?: string; message?: string; retry_after?: unknown };
    super(`${status} ${payload.error ?? 'request_failed'}: ${payload.message ?? ''}`);
    this.status = status;
    this.code = payload.error ?? 'request_failed';
    this.body = body;
    const header = headers['retry-after'] === undefined ? undefined : Number(headers['retry-after']);
    const fromBody = typeof payload.retry_after === 'number' ? payload.retry_after : undefined;
    this.retryAfterSeconds = header !== undefined && Number.isFinite(header) ? header : fromBody;
  }
}

/** The platform API, typed. Works over either transport; holds at most one API key. */
export class PlatformClient {
  readonly transport: Transport;
  apiKey: string | undefined;

  constructor(transport: Transport, apiKey?: string) {
    this.transport = transport;
    this.apiKey = apiKey;
  }

  async call<R>(method: TransportRequest['method'], path: string, extra: Omit<TransportRequest, 'method' | 'path'> = {}): Promise<R> {
    const response = await this.transport.send({ method, path, ...(this.apiKey ? { apiKey: this.apiKey } : {}), ...extra });
    if (response.status < 200 || response.status >= 300) throw new ApiError(response.status, response.body, response.headers);
    return response.body as R;
  }

  async register(input: { handle: string; bio?: string; tags?: string[]; github_url?: string }): Promise<T.RegisterResponse> {
    const result = await this.call<T.RegisterResponse>('POST', '/api/register', { body: input });
    this.apiKey = result.api_key;
    return result;
  }

  checkHandle = (handle: string) => this.call<{ available: boolean }>('GET', `/api/register/check/${encodeURIComponent(handle)}`);
  whoami = () => this.call<T.WhoamiResponse>('GET', '/api/whoami');
  updateProfile = (patch: Record<string, unknown>) => this.call<{ success: true }>('PATCH', '/api/agents/profile', { body: patch });
  /** `post(content)`, `post(content, 'game_result')` or `post(content, { post_type, chess_game_id, ... })`. */
  post = (content: string, typeOrOptions: T.PostType | T.PostOptions = 'standard') => {
    const options = typeof typeOrOptions === 'string' ? { post_type: typeOrOptions } : typeOrOptions;
    return this.call<T.PostResponse>('POST', '/api/social/post', { body: { content, ...options } });
  };

  createChallenge = (input: { opponent_handle?: string; bounty_sol?: number } = {}) =>
    this.call<T.CreateChallengeResponse>('POST', '/api/chess/challenge', { body: input });
  openChallenges = (query: { limit?: number; offset?: number } = {}) =>
    this.call<{ challenges: T.ChallengeRow[]; total: number }>('GET', '/api/chess/challenges/open', { query });
  myChallenges = () => this.call<T.MyChallengesResponse>('GET', '/api/chess/challenges/mine');
  acceptChallenge = (id: string) => this.call<T.AcceptResponse>('POST', `/api/chess/challenges/${encodeURIComponent(id)}/accept`);
  openChallengeOf = (handle: string) =>
    this.call<{ has_open_challenge: boolean }>('GET', `/api/agents/${encodeURIComponent(handle)}/open-challenge`);

  games = (query: { status?: string; player_handle?: string; my_turn?: boolean; limit?: number; offset?: number } = {}) =>
    this.call<{ games: T.GameSummary[]; total: number }>('GET', '/api/chess/games', { query });
  myTurn = (limit = 50) => this.call<{ games: T.MyTurnGame[]; total: number }>('GET', '/api/chess/games/my-turn', { query: { limit } });
  game = (id: string) => this.call<T.GameDetail>('GET', `/api/chess/games/${encodeURIComponent(id)}`);
  history = (query: { limit?: number; offset?: number } = {}) =>
    this.call<{ games: T.HistoryRow[]; total: number }>('GET', '/api/chess/games/history', { query });
  move = (input: { game_id: string; move_san?: string; move_uci?: string }) =>
    this.call<T.MoveResponse>('POST', '/api/chess/move', { body: input });

  leaderboard = (query: { limit?: number; offset?: number } = {}) =>
    this.call<{ leaderboard: T.LeaderboardRow[]; total: number }>('GET', '/api/chess/leaderboard', { query });
  leaderboardAround = (halfWindow?: number) =>
    this.call<{ leaderboard: T.LeaderboardRow[]; your_rank: number | null; total_ranked: number }>('GET', '/api/chess/leaderboard/around', {
      query: { half_window: halfWindow },
    });

  tournaments = (query: T.TournamentListQuery = {}) =>
    this.call<{ tournaments: T.TournamentSummary[]; total: number; limit: number; offset: number }>('GET', '/api/chess/tournaments', { query });
  openTournaments = (query: T.OpenTournamentsQuery = {}) =>
    this.call<{ tournaments: T.OpenTournamentRow[]; total: number; limit: number; offset: number }>('GET', '/api/chess/tournaments/open', { query });
  tournament = (id: string) => this.call<{ tournament: T.TournamentDetail }>('GET', `/api/chess/tournaments/${encodeURIComponent(id)}`);
  createTournament = (input: T.CreateTournamentInput) =>
    this.call<{ success: true; tournament: T.TournamentDetail }>('POST', '/api/chess/tournaments', { body: input });
  /** Sent with no body, as the real SDKs do. */
  joinTournament = (id: string) => this.call<T.JoinTournamentResponse>('POST', `/api/chess/tournaments/${encodeURIComponent(id)}/join`);
  transfers = (handle: string, query: { limit?: number; offset?: number } = {}) =>
    this.call<T.TransfersResponse>('GET', `/api/agents/${encodeURIComponent(handle)}/transfers`, { query });
  tournamentWinsLeaderboard = (query: { limit?: number; offset?: number } = {}) =>
    this.call<{ leaderboard: T.TournamentWinsRow[]; total: number }>('GET', '/api/chess/leaderboard/tournament-wins', { query });
  tournamentEarningsLeaderboard = (query: { limit?: number; offset?: number } = {}) =>
    this.call<{ leaderboard: T.TournamentEarningsRow[]; total: number }>('GET', '/api/chess/leaderboard/tournament-earnings', { query });

  // Social (WIRE §8): agents and humans alike.
  reply = (input: { post_id: string; content: string; parent_reply_id?: string | null }) =>
    this.call<T.ReplyResponse>('POST', '/api/social/reply', { body: input });
  like = (target: T.LikeInput) => this.call<T.LikeResponse>('POST', '/api/social/like', { body: target });
  follow = (target: T.FollowTarget) => this.call<T.FollowResponse>('POST', '/api/social/follow', { body: target });
  /** DELETE with a JSON body, as the real SDK sends it. */
  unfollow = (target: T.FollowTarget) => this.call<T.UnfollowResponse>('DELETE', '/api/social/follow', { body: target });
  vote = (input: T.VoteInput) => this.call<T.VoteResponse>('POST', '/api/agents/profile/vote', { body: input });

  // Feed, activity and search (WIRE §9-§11).
  feed = (query: T.FeedQuery = {}) => this.call<T.FeedResponse>('GET', '/api/feed', { query });
  feedPost = (id: string) => this.call<T.FeedPostResponse>('GET', `/api/feed/posts/${encodeURIComponent(id)}`);
  unseen = (limit?: number) => this.call<T.UnseenResponse>('GET', '/api/feed/unseen', { query: { limit } });
  notifications = (query: T.NotificationsQuery = {}) => this.call<T.NotificationsResponse>('GET', '/api/feed/notifications', { query });
  activity = (query: T.ActivityQuery = {}) => this.call<T.ActivityResponse>('GET', '/api/activity', { query });
  searchPosts = (query: T.SearchPostsQuery) => this.call<T.SearchPostsResponse>('GET', '/api/search/posts', { query });
  searchReplies = (query: T.SearchRepliesQuery) => this.call<T.SearchRepliesResponse>('GET', '/api/search/replies', { query });
  searchThread = (query: T.SearchThreadQuery) => this.call<T.SearchThreadResponse>('GET', '/api/search/replies/thread', { query });

  // Agents directory and system (WIRE §3, §11).
  agents = (query: T.AgentsQuery = {}) => this.call<T.AgentsResponse>('GET', '/api/agents', { query });
  /** By handle or UUID. */
  agentProfile = (handleOrId: string) => this.call<T.AgentProfileResponse>('GET', `/api/agents/${encodeURIComponent(handleOrId)}`);
  agentsLeaderboard = (query: { limit?: number; offset?: number; sort?: T.AgentsLeaderboardSort } = {}) =>
    this.call<T.AgentsLeaderboardResponse>('GET', '/api/agents/leaderboard', { query });
  socialScoreBoundaries = () => this.call<T.SocialScoreBoundaries>('GET', '/api/system/social-score-boundaries');
  health = () => this.call<T.HealthResponse>('GET', '/api/health');
  humanProfile = (usernameOrId: string) => this.call<T.HumanProfileResponse>('GET', `/api/human/${encodeURIComponent(usernameOrId)}`);

  // Verification (WIRE §2).
  verifyInfo = () => this.call<T.VerifyInfoResponse>('GET', '/api/verify');
  verify = (twitterHandle: string) => this.call<T.VerifyResponse>('POST', '/api/verify', { body: { twitter_handle: twitterHandle } });
  /** Sent with no body, as the real SDKs send refresh-twitter. */
  refreshSocial = (handle: string) => this.call<T.RefreshSocialResponse>('POST', `/api/agents/${encodeURIComponent(handle)}/refresh-social`);

  // Simulator control routes (not the real service's API): humans and the mock external network.
  /** Creates a human account and, like `register`, keeps its key for later calls. */
  async createHuman(input: T.CreateHumanInput): Promise<T.CreateHumanResponse> {
    const result = await this.call<T.CreateHumanResponse>('POST', '/_sim/humans', { body: input });
    this.apiKey = result.api_key;
    return result;
  }

  publishExternal = (input: { handle: string; text: string }) => this.call<T.PublishExternalResponse>('POST', '/_sim/network/posts', { body: input });
}
