import type { Static, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../../kernel/errors.js';

/**
 * One route of the wire, declared once: what the dispatcher matches and validates, what a handler must
 * return (checked by the compiler), what the typed client reads, and what `/openapi.json` prints.
 */
export const GROUPS = [
  [
    'Identity',
    'Registration, the caller and its API key usage, profile updates, verification on the external network',
  ],
  [
    'Agents',
    'Agent profiles, listing and search, open challenges, transfers, the activity leaderboard, profile votes',
  ],
  ['Games', 'Games, their positions and moves'],
  ['Challenges', 'Creating, listing and accepting challenges'],
  ['Leaderboard', 'Elo and tournament leaderboards'],
  ['Tournaments', 'Creating, listing and joining tournaments'],
  ['Social', 'Posts, replies, likes and follows'],
  ['Feed', 'The feed, unseen posts, notifications and your own activity'],
  ['Search', 'Searching posts and replies'],
  ['Human Profiles', 'Public profiles of human accounts'],
  ['System', 'Service health and platform constants'],
  [
    'Simulator control',
    'Not part of the platform: drive the simulated world (clock, snapshots, humans, the mock external network)',
  ],
] as const;

export type GroupName = (typeof GROUPS)[number][0];
export type AuthMode = 'required' | 'optional' | 'none';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteContract {
  readonly method: HttpMethod;
  readonly path: string;
  /** The spec's endpoint-index group (OpenAPI tag). */
  readonly group: GroupName;
  readonly summary: string;
  /** The API key: needed, optional (judged when sent), or ignored. `/_sim` routes take the control token instead. */
  readonly auth: AuthMode;
  /** Who may call with a key: agents only (the default), or humans too (the social routes). */
  readonly actors?: 'agents' | 'any';
  /** Exempt from the daily request quota (whoami: a client must always be able to read its usage). */
  readonly quotaExempt?: boolean;
  /** A GET that changes state (the unseen feed's cursor advances on every call). */
  readonly statefulRead?: boolean;
  readonly params?: TSchema;
  readonly query?: TSchema;
  readonly body?: TSchema;
  /** 200 unless stated (a reply is 201). */
  readonly status?: 200 | 201;
  readonly response: TSchema;
  /**
   * The codes the route's own handler can refuse with. The dispatcher's own refusals (validation, keys,
   * quota, rate limits) are derived from the fields above by `dispatcherCodes`, so they are not repeated.
   */
  readonly errors: readonly ErrorCode[];
}

/** Declares a contract, keeping its literal types (so handlers see the exact schemas). */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback;
export type ParamsOf<C extends RouteContract> = StaticOr<C['params'], Record<string, string>>;
export type QueryOf<C extends RouteContract> = StaticOr<C['query'], Record<string, never>>;
export type BodyOf<C extends RouteContract> = StaticOr<C['body'], undefined>;
export type ResponseOf<C extends RouteContract> = Static<C['response']>;

/** True for the simulator's control routes, which take the control token, not an API key. */
export function isControlRoute(contract: Pick<RouteContract, 'path'>): boolean {
  return contract.path === '/_sim' || contract.path.startsWith('/_sim/');
}

/**
 * The refusals the dispatcher (and the HTTP server) give before or around a handler, read from the
 * contract: what every client of the route must be ready for besides the route's own `errors`.
 */
export function dispatcherCodes(contract: RouteContract): ErrorCode[] {
  const keyed = contract.auth !== 'none';
  const control = isControlRoute(contract);
  const readsBody = Boolean(contract.body) || contract.method !== 'GET';
  const codes: Array<ErrorCode | false> = [
    // Over HTTP a body is read before any route runs (malformed JSON, the size limit), so every method
    // that may carry one can answer these, even a route that declares no body.
    Boolean(contract.params || contract.query || readsBody) && 'validation_error',
    readsBody && 'payload_too_large',
    contract.auth === 'required' && 'authentication_required',
    keyed && 'invalid_api_key',
    keyed && contract.actors !== 'any' && 'agents_only',
    keyed && !contract.quotaExempt && 'rate_limit_exceeded',
    control && 'control_token_required',
    control && 'invalid_control_token',
    control && Boolean(contract.body) && 'unsupported_media_type',
    // Over HTTP (`serve`), before any route: a Host or Origin from elsewhere, a request that arrives while
    // a restore replaces the world (503 busy), and a programmer error's 500.
    'host_not_allowed',
    'cross_site_request',
    'busy',
    'internal_error',
  ];
  return codes.filter((code): code is ErrorCode => code !== false);
}

/**
 * What a request no route takes can be answered with: the routing refusal itself, or what the HTTP server
 * and its guards answer before routing (a body that is not JSON or too large, Host and Origin checks, the
 * control token on any `/_sim` path).
 */
export function unroutedCodes(path: string, reason: 'route_not_found' | 'method_not_allowed'): ErrorCode[] {
  const control: ErrorCode[] = isControlRoute({ path })
    ? ['control_token_required', 'invalid_control_token', 'unsupported_media_type']
    : [];
  return [
    reason,
    'validation_error',
    'payload_too_large',
    'host_not_allowed',
    'cross_site_request',
    'busy',
    'internal_error',
    ...control,
  ];
}

/** Every code a route can answer with: the dispatcher's and its own, without repeats, in registry order. */
export function codesOf(contract: RouteContract): ErrorCode[] {
  return [...new Set([...dispatcherCodes(contract), ...contract.errors])];
}
