import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import type { BodyOf, QueryOf, ResponseOf, RouteContract } from '../api/contract/define.js';
import * as Agents from '../api/contract/agents.js';
import * as Challenges from '../api/contract/challenges.js';
import * as Control from '../api/contract/control.js';
import * as Feed from '../api/contract/feed.js';
import * as Games from '../api/contract/games.js';
import * as Humans from '../api/contract/humans.js';
import * as Identity from '../api/contract/identity.js';
import * as Leaderboard from '../api/contract/leaderboard.js';
import * as Search from '../api/contract/search.js';
import * as Social from '../api/contract/social.js';
import * as System from '../api/contract/system.js';
import * as Tournaments from '../api/contract/tournaments.js';
import type { PostOptions } from './wire.js';

/** A non-2xx answer, carrying the wire error code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  /** Seconds to wait before retrying, from a 429's Retry-After header (or its body's retry_after). */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    const payload = (body ?? {}) as { message?: string; retry_after?: unknown };
    const code = errorCode(body);
    // A refusal (4xx) is an answer the agent handles, not a fault: its stack (a promise's `then`, in the
    // client) says nothing, and capturing it was most of what a crowd's refused requests cost an agent.
    const stackFrames = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(`${status} ${code}: ${payload.message ?? ''}`);
    Error.stackTraceLimit = stackFrames;
    this.status = status;
    this.code = code;
    this.body = body;
    const header = headers['retry-after'] === undefined ? undefined : Number(headers['retry-after']);
    const fromBody = typeof payload.retry_after === 'number' ? payload.retry_after : undefined;
    this.retryAfterSeconds = header !== undefined && Number.isFinite(header) ? header : fromBody;
  }
}

/**
 * The wire error code of a refusal's body. Counting refusals by code reads it without an ApiError: an Error
 * captures a stack trace, and a day-long crowd refuses millions of requests with 429.
 */
export function errorCode(body: unknown): string {
  return (body as { error?: string } | null)?.error ?? 'request_failed';
}

/** A 2xx answer's body; any other status is refused with its ApiError. */
function bodyOf(response: TransportResponse): unknown {
  if (response.status < 200 || response.status >= 300)
    throw new ApiError(response.status, response.body, response.headers);
  return response.body;
}

/**
 * Each templated path cut once into its text and its parameters' names, alternating (text, name, text ...):
 * a regular expression's replace and its callback on every request were most of what a crowd's one-post
 * reads and accepts cost the client.
 */
const PATH_PARTS = new Map<string, readonly string[]>();

/** `template` with each `{name}` replaced by its parameter, URI-encoded ('' when missing). */
function filledPath(template: string, params: Record<string, string> | undefined): string {
  let parts = PATH_PARTS.get(template);
  if (parts === undefined) {
    parts = template.split(/\{([^}]+)\}/);
    PATH_PARTS.set(template, parts);
  }
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2)
    path += encodeURIComponent(params?.[parts[i]!] ?? '') + parts[i + 1]!;
  return path;
}

/** What one call sends: the path's parameters, the query and the body, each typed by the route's contract. */
interface CallInput<C extends RouteContract> {
  params?: Record<string, string>;
  query?: Partial<QueryOf<C>>;
  body?: BodyOf<C> | Record<string, unknown>;
}

/**
 * The platform API, typed from the route contracts (src/api/contract/): every method's input and answer
 * are the contract's own types, so the client cannot drift from what the server declares. Works over
 * either transport; holds at most one API key.
 */
export class PlatformClient {
  readonly transport: Transport;
  apiKey: string | undefined;

  constructor(transport: Transport, apiKey?: string) {
    this.transport = transport;
    this.apiKey = apiKey;
  }

  /** Any request, untyped: for tests and for routes sent as raw text. */
  call<R>(
    method: TransportRequest['method'],
    path: string,
    extra: Omit<TransportRequest, 'method' | 'path'> = {},
  ): Promise<R> {
    return this.#send<R>(method, path, extra.query, extra.body, extra.apiKey);
  }

  /** One route by its contract: the path filled from `params`, the answer typed as the contract declares it. */
  request<C extends RouteContract>(contract: C, input: CallInput<C> = {}): Promise<ResponseOf<C>> {
    const path = contract.path.includes('{') ? filledPath(contract.path, input.params) : contract.path;
    const query = input.query as TransportRequest['query'];
    return this.#send<ResponseOf<C>>(contract.method, path, query, input.body);
  }

  /**
   * The one request object a call builds, sent; the answer is a `then` on the transport's promise, not an
   * async function: a crowd sends millions of requests, and an async function's frame is one more
   * allocation each. It answers on the same tick an `await` would.
   */
  #send<R>(
    method: TransportRequest['method'],
    path: string,
    query: TransportRequest['query'],
    body: unknown,
    apiKey?: string,
  ): Promise<R> {
    // Every field in one literal, those not sent as undefined (every transport reads a field, none asks
    // whether it is there): a spread takes V8's slow path, and fields added one by one grew the object's
    // storage on every request.
    const request: TransportRequest = {
      method,
      path,
      query,
      body,
      apiKey: this.apiKey ? this.apiKey : apiKey,
    };
    try {
      const transport = this.transport;
      if (transport.sendNow === undefined) return transport.send(request).then(bodyOf) as Promise<R>;
      return Promise.resolve(bodyOf(transport.sendNow(request)) as R);
    } catch (error) {
      // As an async function would: a transport's failure is the promise's, never a throw; passed on as thrown.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  }

  // Identity (WIRE §2).
  async register(input: BodyOf<typeof Identity.register>): Promise<Identity.RegisterResponse> {
    const result = await this.request(Identity.register, { body: input });
    this.apiKey = result.api_key;
    return result;
  }

  checkHandle(handle: string) {
    return this.request(Identity.checkHandle, { params: { handle } });
  }
  /** An agent's or a human's answer (told apart by `author_type`). */
  whoami() {
    return this.request(Identity.whoami);
  }
  /** whoami for a client that holds an agent's key: the agent's answer, or an error if a human's key answered. */
  async agentWhoami() {
    const answer = await this.whoami();
    if (!('agent' in answer)) throw new Error('whoami answered for a human; this client holds a human key');
    return answer;
  }
  updateProfile(patch: BodyOf<typeof Identity.updateProfile>) {
    return this.request(Identity.updateProfile, { body: patch });
  }
  verifyInfo() {
    return this.request(Identity.verificationStatus);
  }
  verify(twitterHandle: string) {
    return this.request(Identity.verify, { body: { twitter_handle: twitterHandle } });
  }
  /** Sent with no body, as the real SDKs send refresh-twitter. */
  refreshSocial(handle: string) {
    return this.request(Identity.refreshSocial, { params: { handle } });
  }

  // Social (WIRE §8): agents and humans alike.
  /** `post(content)`, `post(content, 'game_result')` or `post(content, { post_type, chess_game_id, ... })`. */
  post(content: string, typeOrOptions: Social.PostType | PostOptions = 'standard') {
    const options: PostOptions =
      typeof typeOrOptions === 'string' ? { post_type: typeOrOptions } : typeOrOptions;
    return this.request(Social.createPost, { body: { content, ...options } });
  }
  reply(input: BodyOf<typeof Social.createReply>) {
    return this.request(Social.createReply, { body: input });
  }
  like(target: BodyOf<typeof Social.like>) {
    return this.request(Social.like, { body: target });
  }
  follow(target: BodyOf<typeof Social.follow>) {
    return this.request(Social.follow, { body: target });
  }
  /** DELETE with a JSON body, as the real SDK sends it. */
  unfollow(target: BodyOf<typeof Social.unfollow>) {
    return this.request(Social.unfollow, { body: target });
  }

  // Challenges and games (WIRE §4, §5).
  createChallenge(input: BodyOf<typeof Challenges.createChallenge> = {}) {
    return this.request(Challenges.createChallenge, { body: input });
  }
  openChallenges(query: Partial<QueryOf<typeof Challenges.openChallenges>> = {}) {
    return this.request(Challenges.openChallenges, { query });
  }
  myChallenges() {
    return this.request(Challenges.myChallenges);
  }
  acceptChallenge(id: string) {
    return this.request(Challenges.acceptChallenge, { params: { id } });
  }
  openChallengeOf(handle: string) {
    return this.request(Agents.openChallenge, { params: { handle } });
  }

  games(query: Partial<QueryOf<typeof Games.listGames>> = {}) {
    return this.request(Games.listGames, { query });
  }
  myTurn(limit = 50) {
    return this.request(Games.myTurn, { query: { limit } });
  }
  game(id: string) {
    return this.request(Games.getGame, { params: { id } });
  }
  history(query: Partial<QueryOf<typeof Games.gameHistory>> = {}) {
    return this.request(Games.gameHistory, { query });
  }
  move(input: BodyOf<typeof Games.submitMove>) {
    return this.request(Games.submitMove, { body: input });
  }

  // Leaderboards and tournaments (WIRE §6, §7).
  leaderboard(query: Partial<QueryOf<typeof Leaderboard.leaderboard>> = {}) {
    return this.request(Leaderboard.leaderboard, { query });
  }
  leaderboardAround(halfWindow?: number) {
    return this.request(Leaderboard.leaderboardAround, {
      query: halfWindow === undefined ? {} : { half_window: halfWindow },
    });
  }
  tournamentWinsLeaderboard(query: Partial<QueryOf<typeof Leaderboard.tournamentWins>> = {}) {
    return this.request(Leaderboard.tournamentWins, { query });
  }
  tournamentEarningsLeaderboard(query: Partial<QueryOf<typeof Leaderboard.tournamentEarnings>> = {}) {
    return this.request(Leaderboard.tournamentEarnings, { query });
  }

  tournaments(query: Partial<QueryOf<typeof Tournaments.listTournaments>> = {}) {
    return this.request(Tournaments.listTournaments, { query });
  }
  openTournaments(query: Partial<QueryOf<typeof Tournaments.openTournaments>> = {}) {
    return this.request(Tournaments.openTournaments, { query });
  }
  tournament(id: string) {
    return this.request(Tournaments.getTournament, { params: { id } });
  }
  createTournament(input: BodyOf<typeof Tournaments.createTournament>) {
    return this.request(Tournaments.createTournament, { body: input });
  }
  /** Sent with no body, as the real SDKs do. */
  joinTournament(id: string) {
    return this.request(Tournaments.joinTournament, { params: { id } });
  }

  // Agents directory, money and votes (WIRE §3).
  agents(query: Partial<QueryOf<typeof Agents.listAgents>> = {}) {
    return this.request(Agents.listAgents, { query });
  }
  /** By handle or UUID. */
  agentProfile(handleOrId: string) {
    return this.request(Agents.agentProfile, { params: { handle: handleOrId } });
  }
  agentsLeaderboard(query: Partial<QueryOf<typeof Agents.activityLeaderboard>> = {}) {
    return this.request(Agents.activityLeaderboard, { query });
  }
  transfers(handle: string, query: Partial<QueryOf<typeof Agents.transfers>> = {}) {
    return this.request(Agents.transfers, { params: { handle }, query });
  }
  vote(input: BodyOf<typeof Agents.profileVote>) {
    return this.request(Agents.profileVote, { body: input });
  }

  // Feed, activity and search (WIRE §9-§10).
  feed(query: Partial<QueryOf<typeof Feed.feed>> = {}) {
    return this.request(Feed.feed, { query });
  }
  feedPost(id: string) {
    return this.request(Feed.feedPost, { params: { id } });
  }
  unseen(limit?: number) {
    return this.request(Feed.unseen, { query: limit === undefined ? {} : { limit } });
  }
  notifications(query: Partial<QueryOf<typeof Feed.notifications>> = {}) {
    return this.request(Feed.notifications, { query });
  }
  activity(query: Partial<QueryOf<typeof Feed.activity>> = {}) {
    return this.request(Feed.activity, { query });
  }
  searchPosts(query: QueryOf<typeof Search.searchPosts>) {
    return this.request(Search.searchPosts, { query });
  }
  searchReplies(query: QueryOf<typeof Search.searchReplies>) {
    return this.request(Search.searchReplies, { query });
  }
  searchThread(query: QueryOf<typeof Search.searchThread>) {
    return this.request(Search.searchThread, { query });
  }

  // Human profiles and system (WIRE §11).
  humanProfile(usernameOrId: string) {
    return this.request(Humans.humanProfile, { params: { username: usernameOrId } });
  }
  socialScoreBoundaries() {
    return this.request(System.socialScoreBoundaries);
  }
  health() {
    return this.request(System.health);
  }

  // Simulator control routes (not the real service's API): humans and the mock external network.
  /** Creates a human account and, like `register`, keeps its key for later calls. */
  async createHuman(input: BodyOf<typeof Control.createHuman>): Promise<Control.CreateHumanResponse> {
    const result = await this.request(Control.createHuman, { body: input });
    this.apiKey = result.api_key;
    return result;
  }

  publishExternal(input: BodyOf<typeof Control.publishExternalPost>) {
    return this.request(Control.publishExternalPost, { body: input });
  }
}
