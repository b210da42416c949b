import type { Platform } from '../platform/platform.js';
import type { Agent, Human } from '../platform/state.js';
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteContract } from './contract/define.js';

export type { AuthMode } from './contract/define.js';

/** A transport-neutral request and response: the in-process client and the HTTP server both speak these. */
export type QueryValue = string | string[] | undefined;

export interface ApiRequest {
  method: string;
  /** Path, with or without the `/api` prefix, optionally with a query string. */
  path: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string | undefined>;
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface JsonSchema {
  [keyword: string]: unknown;
}

export interface RouteContext<C extends RouteContract = RouteContract> {
  platform: Platform;
  /** The authenticated agent (null on public routes called without a key, or when a human called). */
  agent: Agent | null;
  /** The authenticated agent or human (humans reach only routes marked `actors: 'any'`). */
  actor: Agent | Human | null;
  params: ParamsOf<C>;
  /** The validated query string (defaults filled in, booleans and numbers read from their text). */
  query: QueryOf<C>;
  /** The validated body (a copy: the caller's object is never changed). */
  body: BodyOf<C>;
}

/** A contract and the handler that answers it. */
export interface Route<C extends RouteContract = RouteContract> {
  readonly contract: C;
  readonly handler: (ctx: RouteContext<C>) => ResponseOf<C>;
}

/**
 * Binds a handler to its contract. The compiler checks the handler's answer against the contract's
 * response type, so a view that drops or renames a field does not compile.
 */
export function implement<C extends RouteContract>(
  contract: C,
  handler: (ctx: RouteContext<NoInfer<C>>) => NoInfer<ResponseOf<C>>,
): Route {
  return { contract, handler };
}

/** Narrows `ctx.agent` on routes whose auth is `required` (the dispatcher guarantees it). */
export function caller(ctx: { agent: Agent | null }): Agent {
  if (!ctx.agent) throw new Error('route marked auth required ran without an agent');
  return ctx.agent;
}

/** Narrows `ctx.actor` on routes with `auth: 'required'` and `actors: 'any'`. */
export function actorCaller(ctx: { actor: Agent | Human | null }): Agent | Human {
  if (!ctx.actor) throw new Error('route marked auth required ran without an actor');
  return ctx.actor;
}
