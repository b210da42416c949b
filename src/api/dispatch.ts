import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { PlatformError } from '../kernel/errors.js';
import { countRequest } from '../platform/identity.js';
import { actorForKey } from '../platform/actors.js';
import { DAY_MS, msUntilNextDay, retryAfterSeconds } from '../rules/rate-limit.js';
import type { Platform } from '../platform/platform.js';
import type { Agent, Human } from '../platform/state.js';
import { errorResponse } from './errors.js';
import { ROUTES } from './routes/index.js';
import type { ApiRequest, ApiResponse, JsonSchema, QueryValue, Route } from './types.js';
import type { RouteContract } from './contract/define.js';
import { addWireFormats } from './contract/formats.js';

/**
 * Runs one request against the route table: match, settle due timers, authenticate, validate, handle,
 * map errors through the registry. The in-process transport calls this directly; the HTTP server reuses
 * the same route table, so both transports validate and answer identically.
 */
interface CompiledRoute {
  route: Route;
  contract: RouteContract;
  segments: string[];
  params?: ValidateFunction;
  query?: ValidateFunction;
  body?: ValidateFunction;
  /** Query fields declared boolean: their text is read as Python and JavaScript clients write it. */
  booleanQueryFields: readonly string[];
  /** The ruleset's default page size this route uses when `limit` is absent, or null when it takes no paging. */
  pageSize: PageSize | null;
}

type PageSize = 'list' | 'search';

// Bodies keep JSON's own types; query strings arrive as text, so they are coerced (and repeated keys
// become arrays), as the HTTP server does.
const bodyAjv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: true, strict: false });
const queryAjv = new Ajv({ allErrors: false, coerceTypes: 'array', useDefaults: true, strict: false });
addWireFormats(bodyAjv);
addWireFormats(queryAjv);

export class Api {
  readonly platform: Platform;
  readonly #routes: CompiledRoute[];

  constructor(platform: Platform, routes: readonly Route[] = ROUTES) {
    this.platform = platform;
    this.#routes = compileRoutes(routes);
  }

  /**
   * Answers one request. `as` replays a recorded request as the actor who sent it (a live world's restore):
   * the key is not kept, so the actor is named instead, and every other check runs as for the original.
   */
  handle(request: ApiRequest, as?: Agent | Human): ApiResponse {
    try {
      return this.#handle(request, as);
    } catch (error) {
      if (error instanceof PlatformError) return withRetryAfter(errorResponse(error.code, error.message, error.details));
      throw error; // a programmer error: stop loudly
    }
  }

  /** True when the request cannot change state: a GET that is not a stateful read, or a request no route takes. */
  isReadOnly(request: ApiRequest): boolean {
    const match = matchRoute(this.#routes, request.method.toUpperCase(), splitPath(request.path).path);
    if ('error' in match) return true;
    return match.compiled.contract.method === 'GET' && !match.compiled.contract.statefulRead;
  }

  /** The agent or human whose bearer key the request carries, if the key is valid. */
  actorOf(request: ApiRequest): Agent | Human | undefined {
    const key = bearerKey(request.headers);
    return key === undefined ? undefined : actorForKey(this.platform, key);
  }

  #handle(request: ApiRequest, as: Agent | Human | undefined): ApiResponse {
    const { path, query } = splitPath(request.path, request.query);
    const match = matchRoute(this.#routes, request.method.toUpperCase(), path);
    if ('error' in match) return match.error;
    const { compiled, params } = match;
    this.platform.advanceTo(this.platform.nowMs);
    const actor = as === undefined ? authenticate(this.platform, compiled.contract, request.headers) : admit(this.platform, compiled.contract, as);
    if (actor && 'status' in actor) return withRetryAfter(actor);
    const input = validateInput(compiled, params, query, request.body);
    if ('status' in input) return input;
    if (compiled.pageSize) resolvePaging(this.platform, compiled.pageSize, input.query);
    const agent = actor?.kind === 'agent' ? actor : null;
    const context = { platform: this.platform, agent, actor, params, query: input.query, body: input.body };
    const body = compiled.route.handler(context as Parameters<Route['handler']>[0]);
    return { status: compiled.contract.status ?? 200, body };
  }
}

function compileRoutes(routes: readonly Route[]): CompiledRoute[] {
  const compiled = routes.map(({ contract, ...rest }): CompiledRoute => ({
    route: { contract, ...rest },
    contract,
    segments: contract.path.split('/').filter(Boolean),
    params: contract.params ? queryAjv.compile(contract.params) : undefined,
    query: contract.query ? queryAjv.compile(contract.query) : undefined,
    body: contract.body ? bodyAjv.compile(contract.body) : undefined,
    booleanQueryFields: booleanFields(contract.query),
    pageSize: pageSizeOf(contract.query),
  }));
  // Static segments win over parameters: /chess/games/my-turn before /chess/games/{id}.
  const specificity = (c: CompiledRoute) => c.segments.map((s) => (s.startsWith('{') ? '1' : '0')).join('');
  return compiled.sort((a, b) => (specificity(a) < specificity(b) ? -1 : specificity(a) > specificity(b) ? 1 : 0));
}

/**
 * Accepts `/api/x`, `/x`, a trailing slash, and a query string inside the path. Simulator control routes
 * live under `/_sim/` and are never given the `/api` prefix: they are not part of the platform's API.
 */
function splitPath(rawPath: string, query: Record<string, QueryValue> = {}): { path: string; query: Record<string, QueryValue> } {
  const [pathPart = '', search] = rawPath.split('?', 2);
  const merged: Record<string, QueryValue> = { ...query };
  if (search) {
    for (const [key, value] of new URLSearchParams(search)) {
      const prior = merged[key];
      merged[key] = prior === undefined ? value : ([] as string[]).concat(prior, value);
    }
  }
  let path = pathPart.replace(/\/+$/, '') || '/';
  const unprefixed = path.startsWith('/api/') || path === '/api' || path.startsWith('/_sim/') || path === '/_sim';
  if (!unprefixed) path = `/api${path}`;
  return { path, query: merged };
}

type RouteMatch = { compiled: CompiledRoute; params: Record<string, string> } | { error: ApiResponse };

function matchRoute(routes: CompiledRoute[], method: string, path: string): RouteMatch {
  const segments = path.split('/').filter(Boolean).map(safeDecode);
  let pathMatched = false;
  for (const compiled of routes) {
    const params = matchSegments(compiled.segments, segments);
    if (!params) continue;
    pathMatched = true;
    if (compiled.contract.method === method) return { compiled, params };
  }
  if (pathMatched) return { error: errorResponse('method_not_allowed', `${method} is not allowed on ${path}`) };
  return { error: errorResponse('route_not_found', `no route ${method} ${path}`) };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    if (want.startsWith('{')) params[want.slice(1, -1)] = actual[i]!;
    else if (want !== actual[i]) return undefined;
  }
  return params;
}

function authenticate(platform: Platform, route: RouteContract, headers: ApiRequest['headers'] = {}): Agent | Human | null | ApiResponse {
  // Public routes ignore credentials: a client that always sends its key (or a stale one) still registers
  // and reads leaderboards. Routes where a key is optional judge a key that is sent.
  if (route.auth === 'none') return null;
  const header = headers['authorization'] ?? headers['Authorization'];
  if (header === undefined || header === '') {
    return route.auth === 'required' ? errorResponse('authentication_required', 'send Authorization: Bearer <api_key>') : null;
  }
  const key = bearerKey(headers);
  const actor = key === undefined ? undefined : actorForKey(platform, key);
  if (!actor) return errorResponse('invalid_api_key', 'the API key is not valid');
  return admit(platform, route, actor);
}

function bearerKey(headers: ApiRequest['headers'] = {}): string | undefined {
  const header = headers['authorization'] ?? headers['Authorization'];
  return header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** What follows a valid key: humans only on routes open to them, the daily quota, then the count. */
function admit(platform: Platform, route: RouteContract, actor: Agent | Human): Agent | Human | null | ApiResponse {
  if (route.auth === 'none') return null;
  if (actor.kind === 'human' && route.actors !== 'any') return errorResponse('agents_only', `${route.method} ${route.path} is for agent accounts; humans use the social routes`);
  const quota = quotaRefusal(platform, route, actor);
  if (quota) return quota;
  countRequest(platform, actor);
  return actor;
}

/**
 * The per-key daily quota whoami shows (WIRE §1: requests_limit 5000 per UTC day). A refused request is
 * not counted, so requests_today never passes the limit; whoami stays reachable to read the usage.
 */
function quotaRefusal(platform: Platform, route: RouteContract, actor: Agent | Human): ApiResponse | undefined {
  if (route.quotaExempt) return undefined;
  const limit = platform.ruleset.api.requestsPerDay;
  const sameDay = actor.usage.dayIndex === Math.floor(platform.nowMs / DAY_MS);
  if (!sameDay || actor.usage.requestsToday < limit) return undefined;
  const retryAfter = retryAfterSeconds(msUntilNextDay(platform.nowMs));
  return errorResponse('rate_limit_exceeded', `daily request quota of ${limit} used; it resets at 00:00 UTC`, { action: 'requests', limit, retry_after: retryAfter });
}

/** A 429 carries its wait as a Retry-After header as well as `retry_after` (seconds) in the body. */
function withRetryAfter(response: ApiResponse): ApiResponse {
  const retry = (response.body as { retry_after?: unknown }).retry_after;
  return typeof retry === 'number' ? { ...response, headers: { ...response.headers, 'retry-after': String(retry) } } : response;
}

function validateInput(compiled: CompiledRoute, params: Record<string, string>, query: Record<string, QueryValue>, body: unknown) {
  const queryCopy: Record<string, unknown> = { ...query };
  for (const field of compiled.booleanQueryFields) queryCopy[field] = readBoolean(queryCopy[field]);
  const bodyValue = compiled.body ? (body === undefined || body === null ? {} : shallowCopy(body)) : undefined;
  const failures: Array<[ValidateFunction | undefined, unknown, string]> = [
    [compiled.params, params, 'path'],
    [compiled.query, queryCopy, 'query'],
    [compiled.body, bodyValue, 'body'],
  ];
  for (const [validate, value, where] of failures) {
    if (validate && !validate(value)) return errorResponse('validation_error', describe(validate.errors, where), { field: fieldOf(validate.errors) });
  }
  return { query: queryCopy, body: bodyValue };
}

/**
 * Validation fills defaults into the body, so it works on a copy and the caller's object is never changed.
 * One level suffices: request bodies are flat, and the platform copies the arrays it keeps (tags).
 */
function shallowCopy(value: unknown): unknown {
  if (Array.isArray(value)) return [...value];
  return typeof value === 'object' && value !== null ? { ...value } : value;
}

function fieldOf(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return '';
  if (first.keyword === 'required') return String(first.params['missingProperty']);
  return first.instancePath.replace(/^\//, '').replace(/\//g, '.');
}

function describe(errors: ErrorObject[] | null | undefined, where: string): string {
  const first = errors?.[0];
  if (!first) return `invalid ${where}`;
  const field = fieldOf(errors) || where;
  if (first.keyword === 'enum') return `${field}: must be one of ${(first.params['allowedValues'] as unknown[]).join(', ')}`;
  if (first.keyword === 'type' && first.instancePath === '' && where === 'body') return 'body: must be a JSON object';
  // Route schemas carry one kind of pattern, schema.ts's text rule; its regex would tell a client nothing.
  if (first.keyword === 'pattern') return `${field}: must not contain control, bidi-override or zero-width characters`;
  return `${field}: ${first.message ?? 'is invalid'}`;
}

/** Spellings of a query boolean real clients send: JavaScript's, Python's `str(True)`, and 1/0. */
export const QUERY_BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, True: true, False: false, '1': true, '0': false };

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
  const asked = typeof query['limit'] === 'number' ? query['limit'] : size === 'search' ? searchPageLimit : defaultPageLimit;
  query['limit'] = Math.min(asked, maxPageLimit);
  if (typeof query['offset'] !== 'number') query['offset'] = 0;
}
