import { Ajv, type ValidateFunction } from 'ajv';
import { PlatformError } from '../kernel/errors.js';
import { countRequest } from '../platform/identity/identity.js';
import { actorForKey } from '../platform/identity/actors.js';
import { msUntilNextDay, retryAfterSeconds } from '../rules/rate-limit.js';
import { dailyQuotaUsedUp, QUOTA_WARNING_HEADER, quotaWarningText } from '../rules/daily-quota.js';
import type { Platform } from '../platform/platform.js';
import type { Agent, Human } from '../platform/state.js';
import { errorResponse } from './errors.js';
import { describeFailure, failedField } from './validation-wording.js';
import { LIVE_ROUTES, ROUTES } from './routes/index.js';
import {
  JsonText,
  type ApiRequest,
  type ApiResponse,
  type JsonSchema,
  type LiveControl,
  type LiveRoute,
  type QueryValue,
  type Route,
} from './types.js';
import type { RouteContract } from './contract/define.js';
import { addWireFormats } from './contract/formats.js';
import { bySpecificity, isDeclaredPath, matchSegments, pathSegments, wirePath } from './contract/paths.js';

/**
 * Runs one request against the route table: match, settle due timers, authenticate, validate, handle,
 * map errors through the registry. The in-process transport calls this directly; the HTTP server reuses
 * the same route table, so both transports validate and answer identically.
 */
interface CompiledRoute<R extends AnyRoute = Route> {
  route: R;
  contract: RouteContract;
  segments: string[];
  params?: LazyValidator;
  query?: LazyValidator;
  body?: LazyValidator;
  /** Query fields declared boolean: their text is read as Python and JavaScript clients write it. */
  booleanQueryFields: readonly string[];
  /** The ruleset's default page size this route uses when `limit` is absent, or null when it takes no paging. */
  pageSize: PageSize | null;
}

type PageSize = 'list' | 'search';
type AnyRoute = Route | LiveRoute;

// Bodies keep JSON's own types; query strings arrive as text, so they are coerced (and repeated keys
// become arrays), as the HTTP server does.
const bodyAjv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: true, strict: false });
const queryAjv = new Ajv({ allErrors: false, coerceTypes: 'array', useDefaults: true, strict: false });
addWireFormats(bodyAjv);
addWireFormats(queryAjv);

/**
 * A schema's validator, compiled by Ajv on its first use rather than when an Api is made: a run calls a
 * dozen of the platform's hundred routes, and compiling every schema up front took about 0.16 s of each
 * run's start and of each sweep thread's first seed. Ajv caches a compiled schema by its object, so every
 * Api of a process shares one compile per schema.
 */
class LazyValidator {
  #validate: ValidateFunction | undefined;

  constructor(
    readonly ajv: Ajv,
    readonly schema: object,
  ) {}

  get validate(): ValidateFunction {
    return (this.#validate ??= this.ajv.compile(this.schema));
  }
}

function lazyValidator(ajv: Ajv, schema: object | undefined): LazyValidator | undefined {
  return schema === undefined ? undefined : new LazyValidator(ajv, schema);
}

/** Compiles every route's schemas now and counts them (a bad schema throws): routes otherwise compile on first use. */
export function compileEveryRouteSchema(): number {
  const validators = compileRoutes<AnyRoute>([...ROUTES, ...LIVE_ROUTES]).flatMap((route) =>
    [route.params, route.query, route.body].filter((v): v is LazyValidator => v !== undefined),
  );
  return validators.map((validator) => validator.validate).length;
}

export class Api {
  readonly platform: Platform;
  readonly #routes: RouteTable<Route>;
  /**
   * Actors by the Authorization header that named them, for `Bearer <key>` exactly and only where keys are
   * seeded (Platform.seededKeyIds, which this follows): a client sends the same header text on every
   * request, so its actor is found without reading the key out of it or hashing the key's text again. The
   * actor itself is held, not its id: a platform never replaces an actor's record, so the id lookup every
   * request made found the same object each time. At most one entry per valid key; a live server's secret
   * keys are never held.
   */
  readonly #actorByHeader: Map<string, Agent | Human> | null;
  /**
   * The header and actor of the last request #actorByHeader answered: three in four of a crowd's requests
   * come from the agent that sent the one before (a heartbeat is a run of them), and comparing the one
   * header string the client keeps costs less than looking it up among thousands.
   */
  #lastHeader: string | undefined = undefined;
  #lastActor: Agent | Human | undefined = undefined;

  constructor(platform: Platform, routes: readonly Route[] = ROUTES) {
    this.platform = platform;
    this.#routes = new RouteTable(compileRoutes(routes));
    this.#actorByHeader = platform.seededKeyIds === null ? null : new Map();
  }

  /**
   * Answers one request. `as` replays a recorded request as the actor who sent it (a live world's restore):
   * the key is not kept, so the actor is named instead, and every other check runs as for the original.
   */
  handle(request: ApiRequest, as?: Agent | Human): ApiResponse {
    try {
      return this.#handle(request, as);
    } catch (error) {
      return platformErrorResponse(error);
    }
  }

  /** True when the request cannot change state: a GET that is not a stateful read, or a request no route takes. */
  isReadOnly(request: ApiRequest): boolean {
    const match = this.#routes.match(methodName(request.method), splitPath(request.path).path);
    if ('error' in match) return true;
    return match.compiled.contract.method === 'GET' && !match.compiled.contract.statefulRead;
  }

  /** The agent or human whose bearer key the request carries, if the key is valid. */
  actorOf(request: ApiRequest): Agent | Human | undefined {
    const key = bearerKey(request.headers);
    return key === undefined ? undefined : actorForKey(this.platform, key);
  }

  #handle(request: ApiRequest, as: Agent | Human | undefined): ApiResponse {
    // A path as a route declares it (nearly every request) is used as it is: no split, no object for it.
    const split = isDeclaredPath(request.path) ? null : splitPath(request.path, request.query);
    const query = split === null ? (request.query ?? NO_QUERY_TEXT) : split.query;
    const match = this.#routes.match(methodName(request.method), split === null ? request.path : split.path);
    if ('error' in match) return match.error;
    const { compiled, params } = match;
    this.platform.advanceTo(this.platform.nowMs);
    const route = compiled.contract;
    const actor =
      as === undefined ? authenticate(this.platform, route, request.headers, this.#headerActor) : as;
    if (actor !== null && !('kind' in actor)) return withRetryAfter(actor);
    const admitted = actor === null ? ADMITTED : admit(this.platform, route, actor);
    if (typeof admitted !== 'string') return withRetryAfter(admitted);
    const response = this.#answer(
      compiled,
      params,
      query,
      request.body,
      route.auth === 'none' ? null : actor,
    );
    return admitted === ADMITTED ? response : withHeader(response, QUOTA_WARNING_HEADER, admitted);
  }

  /** #actorOfHeader, bound once for authenticate. */
  readonly #headerActor = (header: string): Agent | Human | undefined => this.#actorOfHeader(header);

  #actorOfHeader(header: string): Agent | Human | undefined {
    if (header === this.#lastHeader) return this.#lastActor;
    const known = this.#actorByHeader?.get(header);
    if (known !== undefined) return this.#remember(header, known);
    const key = keyOfHeader(header);
    const actor = key === undefined ? undefined : actorForKey(this.platform, key);
    if (actor && this.#actorByHeader && header === `Bearer ${key}`) {
      this.#actorByHeader.set(header, actor);
      this.#remember(header, actor);
    }
    return actor;
  }

  /** Notes the last header answered from #actorByHeader (only those: they are the ones known to stay valid). */
  #remember(header: string, actor: Agent | Human): Agent | Human {
    this.#lastHeader = header;
    this.#lastActor = actor;
    return actor;
  }

  /** Validates and runs the handler; a refusal it raises is answered here, so a quota warning reaches refusals too. */
  #answer(
    compiled: CompiledRoute<Route>,
    params: Record<string, string>,
    query: Record<string, QueryValue>,
    body: unknown,
    actor: Agent | Human | null,
  ): ApiResponse {
    try {
      const agent = actor?.kind === 'agent' ? actor : null;
      const context = {
        platform: this.platform,
        agent,
        actor,
        params,
        query: NO_QUERY,
        body: undefined as unknown,
      };
      const refusal = validateInput(compiled, params, query, body, context);
      if (refusal) return refusal;
      if (compiled.pageSize) resolvePaging(this.platform, compiled.pageSize, context.query);
      const answer = compiled.route.handler(context);
      return { status: compiled.contract.status ?? 200, body: answer };
    } catch (error) {
      return platformErrorResponse(error);
    }
  }
}

/**
 * The control rows of a live world (LIVE_ROUTES): matched and validated as the platform's rows are, then
 * run against the live server's `LiveControl`, and awaited, since an advance or a restore is a long job.
 * They carry no API key (the HTTP guard checks the control token first), so there is no authentication,
 * quota or timer settling here: the world's clock is what they move.
 */
export class LiveControlApi {
  readonly #routes = new RouteTable(compileRoutes(LIVE_ROUTES));

  /** The answer, or undefined when the path is none of the live routes' (the platform's table answers it). */
  handle(request: ApiRequest, live: LiveControl): Promise<ApiResponse> | undefined {
    // Only a path spelled `/_sim...` reaches a control row (wirePath gives any other the `/api` prefix), so
    // platform requests, nearly all of them, skip the parsing below.
    if (!request.path.startsWith('/_sim')) return undefined;
    const { path, query } = splitPath(request.path, request.query);
    const match = this.#routes.match(methodName(request.method), path);
    if ('error' in match) return match.pathKnown ? Promise.resolve(match.error) : undefined;
    return answerLive(match.compiled, match.params, query, request.body, live);
  }
}

async function answerLive(
  compiled: CompiledRoute<LiveRoute>,
  params: Record<string, string>,
  query: Record<string, QueryValue>,
  body: unknown,
  live: LiveControl,
): Promise<ApiResponse> {
  try {
    const context = { live, params, query: NO_QUERY, body: undefined as unknown };
    const refusal = validateInput(compiled, params, query, body, context);
    if (refusal) return refusal;
    const answer = await compiled.route.handler(context);
    const status = compiled.contract.status ?? 200;
    // Every control answer reads a moving clock, and a snapshot holds the key secret: no cache keeps one.
    const headers = { 'cache-control': 'no-store' };
    return answer instanceof JsonText
      ? { status, body: undefined, text: answer.text, headers }
      : { status, body: answer, headers };
  } catch (error) {
    return platformErrorResponse(error);
  }
}

/** A refusal the platform raised, as its wire answer; anything else is a programmer error: stop loudly. */
function platformErrorResponse(error: unknown): ApiResponse {
  if (error instanceof PlatformError)
    return withRetryAfter(errorResponse(error.code, error.message, error.details));
  throw error;
}

function compileRoutes<R extends AnyRoute>(routes: readonly R[]): CompiledRoute<R>[] {
  const compiled = routes.map((route): CompiledRoute<R> => compileRoute(route));
  return bySpecificity(compiled);
}

function compileRoute<R extends AnyRoute>(route: R): CompiledRoute<R> {
  const { contract } = route;
  return {
    route,
    contract,
    segments: contract.path.split('/').filter(Boolean),
    params: lazyValidator(queryAjv, contract.params),
    query: lazyValidator(queryAjv, contract.query),
    body: lazyValidator(bodyAjv, contract.body),
    booleanQueryFields: booleanFields(contract.query),
    pageSize: pageSizeOf(contract.query),
  };
}

/**
 * Accepts `/api/x`, `/x`, a trailing slash, and a query string inside the path. Simulator control routes
 * live under `/_sim/` and are never given the `/api` prefix: they are not part of the platform's API.
 */
function splitPath(
  rawPath: string,
  query: Record<string, QueryValue> = {},
): { path: string; query: Record<string, QueryValue> } {
  const { path, search } = wirePath(rawPath);
  if (!search) return { path, query }; // validateInput copies the query before it fills defaults in
  const merged: Record<string, QueryValue> = { ...query };
  for (const [key, value] of new URLSearchParams(search)) {
    const prior = merged[key];
    merged[key] = prior === undefined ? value : ([] as string[]).concat(prior, value);
  }
  return { path, query: merged };
}

/**
 * A request's method in capitals, as routes declare theirs. Clients nearly always send it so, and
 * `toUpperCase` makes a new string even then: one more allocation per request.
 */
function methodName(method: string): string {
  return method === 'GET' || method === 'POST' ? method : method.toUpperCase();
}

type RouteMatch<R extends AnyRoute> =
  { compiled: CompiledRoute<R>; params: Record<string, string> } | { error: ApiResponse; pathKnown: boolean };

/** A static route's match: shared by every request, so its (empty) params are frozen. */
interface StaticMatch<R extends AnyRoute> {
  readonly compiled: CompiledRoute<R>;
  readonly params: Record<string, string>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

/**
 * Static paths (most requests: my-turn, move, whoami, feed) are found by one map lookup on the raw path;
 * templated ones are tried in specificity order, as before. A static path whose route lacks the method
 * still falls through to the templates (`GET /api/agents/profile` is the profile of an agent so named).
 */
class RouteTable<R extends AnyRoute> {
  /**
   * By method, then path: two lookups of strings the request already holds, no key built per request. The
   * value is the match itself, made once: a static path names no parameter, so every request shares it.
   */
  readonly #staticRoutes = new Map<string, Map<string, StaticMatch<R>>>();
  readonly #staticPaths = new Set<string>();
  readonly #templated: CompiledRoute<R>[];

  constructor(compiled: readonly CompiledRoute<R>[]) {
    for (const route of compiled.filter(isStatic)) {
      const { method, path } = route.contract;
      let byPath = this.#staticRoutes.get(method);
      if (!byPath) this.#staticRoutes.set(method, (byPath = new Map<string, StaticMatch<R>>()));
      byPath.set(path, { compiled: route, params: NO_PARAMS });
      this.#staticPaths.add(path);
    }
    this.#templated = compiled.filter((route) => !isStatic(route));
  }

  match(method: string, path: string): RouteMatch<R> {
    // The path as clients send it almost always is a route's own path: one lookup, no splitting.
    const byPath = this.#staticRoutes.get(method);
    const exact = byPath?.get(path);
    if (exact) return exact;
    const segments = pathSegments(path);
    const normal = `/${segments.join('/')}`; // `/api//x` and `/api/%78` name `/api/x`, as segment matching always read them
    const direct = byPath?.get(normal);
    if (direct) return direct;
    let pathMatched = this.#staticPaths.has(normal);
    for (const compiled of this.#templated) {
      const params = matchSegments(compiled.segments, segments);
      if (!params) continue;
      pathMatched = true;
      if (compiled.contract.method === method) return { compiled, params };
    }
    if (pathMatched)
      return {
        error: errorResponse('method_not_allowed', `${method} is not allowed on ${path}`),
        pathKnown: true,
      };
    return { error: errorResponse('route_not_found', `no route ${method} ${path}`), pathKnown: false };
  }
}

function isStatic(route: CompiledRoute<AnyRoute>): boolean {
  return !route.contract.path.includes('{');
}

/**
 * Who a request runs as: the actor its key names, null when it runs anonymously (a public route, or an
 * optional key not sent), or the refusal of a missing or unknown key. The quota and the count are `admit`'s.
 */
function authenticate(
  platform: Platform,
  route: RouteContract,
  headers: ApiRequest['headers'] = NO_HEADERS,
  actorOfHeader: (header: string) => Agent | Human | undefined,
): Agent | Human | null | ApiResponse {
  // Public routes ignore credentials: a client that always sends its key (or a stale one) still registers
  // and reads leaderboards. Routes where a key is optional judge a key that is sent.
  if (route.auth === 'none') return null;
  const header = headers['authorization'] ?? headers['Authorization'];
  if (header === undefined || header === '') {
    return route.auth === 'required'
      ? errorResponse('authentication_required', 'send Authorization: Bearer <api_key>')
      : null;
  }
  return actorOfHeader(header) ?? errorResponse('invalid_api_key', 'the API key is not valid');
}

const NO_HEADERS: Readonly<Record<string, string | undefined>> = Object.freeze({});
const NO_QUERY_TEXT: Readonly<Record<string, QueryValue>> = Object.freeze({});

/** `admit`'s answer when the request goes on with no quota warning (a warning is its text instead). */
const ADMITTED = '';

function bearerKey(headers: ApiRequest['headers'] = {}): string | undefined {
  const header = headers['authorization'] ?? headers['Authorization'];
  return header === undefined ? undefined : keyOfHeader(header);
}

function keyOfHeader(header: string): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/**
 * What follows a valid key: humans only on routes open to them, the daily quota, then the count. The
 * quota is judged before the request is counted: a request is past it when the day's count had already
 * reached the limit. whoami is exempt, so a client can always read its usage. The answer is ADMITTED, the
 * quota warning's text (under `warn`, past the limit), or the refusal.
 */
function admit(platform: Platform, route: RouteContract, actor: Agent | Human): string | ApiResponse {
  if (route.auth === 'none') return ADMITTED;
  if (actor.kind === 'human' && route.actors !== 'any')
    return errorResponse(
      'agents_only',
      `${route.method} ${route.path} is for agent accounts; humans use the social routes`,
    );
  const { requestsPerDay, quota } = platform.ruleset.api;
  const pastQuota =
    !route.quotaExempt && quota !== 'off' && dailyQuotaUsedUp(actor.usage, platform.nowMs, requestsPerDay);
  if (pastQuota && quota === 'enforce') return quotaRefusal(platform);
  countRequest(platform, actor);
  return pastQuota ? quotaWarningText(requestsPerDay) : ADMITTED;
}

/**
 * The per-key daily quota whoami shows (WIRE §1: requests_limit 5000 per UTC day), under `enforce`: 429
 * until 00:00 UTC. A refused request is not counted, so requests_today never passes the limit.
 */
function quotaRefusal(platform: Platform): ApiResponse {
  const limit = platform.ruleset.api.requestsPerDay;
  const retryAfter = retryAfterSeconds(msUntilNextDay(platform.nowMs));
  return errorResponse(
    'rate_limit_exceeded',
    `daily request quota of ${limit} used; it resets at 00:00 UTC`,
    { action: 'requests', limit, retry_after: retryAfter },
  );
}

/** A 429 carries its wait as a Retry-After header as well as `retry_after` (seconds) in the body. */
function withRetryAfter(response: ApiResponse): ApiResponse {
  const retry = (response.body as { retry_after?: unknown }).retry_after;
  return typeof retry === 'number' ? withHeader(response, 'retry-after', String(retry)) : response;
}

function withHeader(response: ApiResponse, name: string, value: string): ApiResponse {
  const headers: Record<string, string> = Object.assign({}, response.headers);
  headers[name] = value;
  return { status: response.status, body: response.body, headers };
}

/**
 * Validates a request's parts and writes the query and body a handler reads into its context (`into`), or
 * answers the refusal; the context is the one object made for them.
 */
function validateInput(
  compiled: CompiledRoute<AnyRoute>,
  params: Record<string, string>,
  query: Readonly<Record<string, QueryValue>>,
  body: unknown,
  into: { query: Record<string, unknown>; body: unknown },
): ApiResponse | null {
  const paramsValid = compiled.params?.validate;
  if (paramsValid && !paramsValid(params)) return validationRefusal(paramsValid, 'path');
  const queryValid = compiled.query?.validate;
  const queryValue = queryValid ? queryCopy(compiled, query) : NO_QUERY;
  if (queryValid && !queryValid(queryValue)) return validationRefusal(queryValid, 'query');
  const bodyValid = compiled.body?.validate;
  const bodyValue = bodyValid ? (body === undefined || body === null ? {} : shallowCopy(body)) : undefined;
  if (bodyValid && !bodyValid(bodyValue)) return validationRefusal(bodyValid, 'body');
  into.query = queryValue;
  into.body = bodyValue;
  return null;
}

/** What a route that declares no query string is handed (its handler's type allows it to read nothing). */
const NO_QUERY: Record<string, unknown> = Object.freeze({});

/**
 * The query a handler reads: a copy (validation fills defaults in), booleans read from their spellings.
 * A paging route's copy has `limit` and `offset` from the start (undefined until resolvePaging fills them,
 * which validation treats as absent), so every copy of a route has one shape.
 */
function queryCopy(
  compiled: CompiledRoute<AnyRoute>,
  query: Record<string, QueryValue>,
): Record<string, unknown> {
  const copy: Record<string, unknown> = compiled.pageSize ? { limit: undefined, offset: undefined } : {};
  Object.assign(copy, query);
  for (const field of compiled.booleanQueryFields) copy[field] = readBoolean(copy[field]);
  return copy;
}

function validationRefusal(validate: ValidateFunction, where: string): ApiResponse {
  return errorResponse('validation_error', describeFailure(validate.errors, where), {
    field: failedField(validate.errors),
  });
}

/**
 * Validation fills defaults into the body, so it works on a copy and the caller's object is never changed.
 * One level suffices: request bodies are flat, and the platform copies the arrays it keeps (tags).
 */
function shallowCopy(value: unknown): unknown {
  if (Array.isArray(value)) return [...(value as unknown[])];
  return typeof value === 'object' && value !== null ? { ...value } : value;
}

/** Spellings of a query boolean real clients send: JavaScript's, Python's `str(True)`, and 1/0. */
export const QUERY_BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  True: true,
  False: false,
  '1': true,
  '0': false,
};

/** A known spelling becomes the boolean; anything else is left for the schema to refuse. */
function readBoolean(value: unknown): unknown {
  return typeof value === 'string' && value in QUERY_BOOLEANS ? QUERY_BOOLEANS[value] : value;
}

function booleanFields(query: JsonSchema | undefined): string[] {
  const properties = (query?.['properties'] ?? {}) as Record<string, JsonSchema>;
  return Object.keys(properties).filter((name) => properties[name]!['type'] === 'boolean');
}

/** Routes that page declare `limit`; search routes mark theirs with `x-page-size: search` (a smaller default). */
function pageSizeOf(query: JsonSchema | undefined): PageSize | null {
  const limit = ((query?.['properties'] ?? {}) as Record<string, JsonSchema>)['limit'];
  if (!limit) return null;
  return limit['x-page-size'] === 'search' ? 'search' : 'list';
}

/**
 * Fills `limit` and `offset` from the ruleset: an absent limit takes the route's default page size, and a
 * limit over the ceiling is clamped to it (docs/rules.md, "Paging"). The schema has already refused a
 * limit under 1 or a negative offset.
 */
function resolvePaging(platform: Platform, size: PageSize, query: Record<string, unknown>): void {
  const { defaultPageLimit, searchPageLimit, maxPageLimit } = platform.ruleset.api;
  const asked =
    typeof query['limit'] === 'number'
      ? query['limit']
      : size === 'search'
        ? searchPageLimit
        : defaultPageLimit;
  query['limit'] = Math.min(asked, maxPageLimit);
  if (typeof query['offset'] !== 'number') query['offset'] = 0;
}
