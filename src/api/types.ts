import type { Platform } from '../platform/platform.js';
import type { Agent, Human } from '../platform/state.js';

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

export type AuthMode = 'required' | 'optional' | 'none';

export interface JsonSchema {
  [keyword: string]: unknown;
}

export interface RouteContext<Q = any, B = any> {
  platform: Platform;
  /** The authenticated agent (null on public routes called without a key, or when a human called). */
  agent: Agent | null;
  /** The authenticated agent or human (humans reach only routes marked `actors: 'any'`). */
  actor: Agent | Human | null;
  params: Record<string, string>;
  query: Q;
  body: B;
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  auth: AuthMode;
  /** Who may call with a key: agents only (the default), or humans too (the social routes). */
  actors?: 'agents' | 'any';
  /** Exempt from the daily request quota (whoami: a client must always be able to read its usage). */
  quotaExempt?: boolean;
  /** A GET that changes state (the unseen feed's cursor advances on every call). */
  statefulRead?: boolean;
  summary: string;
  schema: { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema };
  /** 200 unless stated (a reply is 201). */
  status?: number;
  handler: (ctx: RouteContext) => unknown;
}

/** Narrows `ctx.agent` on routes whose auth is `required` (the dispatcher guarantees it). */
export function caller(ctx: RouteContext): Agent {
  if (!ctx.agent) throw new Error('route marked auth required ran without an agent');
  return ctx.agent;
}

/** Narrows `ctx.actor` on routes with `auth: 'required'` and `actors: 'any'`. */
export function actorCaller(ctx: RouteContext): Agent | Human {
  if (!ctx.actor) throw new Error('route marked auth required ran without an actor');
  return ctx.actor;
}
