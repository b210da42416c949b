import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorResponse } from '../api/errors.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { toIso } from '../kernel/clock.js';
import { PlatformError } from '../kernel/errors.js';
import { solToLamports } from '../kernel/money.js';
import { parseIsoInstant } from '../rules/feed.js';
import { LiveWorld, SnapshotError, type LiveSnapshot } from '../sim/live.js';
import { MALFORMED, parseBody, send } from './server.js';

/**
 * The simulator's own control routes for a live world (`serve`): the clock, snapshot and restore, the
 * faucet and the invariant results. They are not part of the platform, so they live under /_sim and
 * are registered here, next to the world they drive, rather than in the platform's route table.
 */
export interface ClockMode {
  /** The clock moves only through /_sim/clock routes. */
  manual: boolean;
  /** Virtual milliseconds per wall millisecond when not manual. */
  speed: number;
}

/** Holds the live world the server answers with; a restore swaps it. */
export class LiveServer {
  current: LiveWorld;
  readonly clock: ClockMode;

  constructor(world: LiveWorld, clock: ClockMode) {
    this.current = world;
    this.clock = clock;
  }

  handle(request: ApiRequest): ApiResponse {
    return this.current.handle(request);
  }
}

const SNAPSHOT_BODY_LIMIT = 512 * 1024 * 1024; // a snapshot holds every request of the run

export function registerSimControl(app: FastifyInstance, server: LiveServer): void {
  app.get('/_sim/clock', (_req, reply) => send(reply, ok(clockView(server))));
  app.post('/_sim/clock/advance', (req, reply) => guarded(reply, req.body, (body) => advanceBy(server, body)));
  app.post('/_sim/clock/set', (req, reply) => guarded(reply, req.body, (body) => setClock(server, body)));
  app.post('/_sim/clock/step', (req, reply) => guarded(reply, req.body, () => step(server)));
  app.get('/_sim/snapshot', (_req, reply) => send(reply, ok(server.current.snapshot())));
  app.post('/_sim/restore', { bodyLimit: SNAPSHOT_BODY_LIMIT }, (req, reply) => guarded(reply, req.body, (body) => restore(server, body)));
  app.post('/_sim/airdrop', (req, reply) => guarded(reply, req.body, (body) => faucet(server, body)));
  app.get('/_sim/invariants', (_req, reply) => send(reply, ok({ invariants: server.current.world.invariantResults() })));
}

function clockView(server: LiveServer) {
  const now = server.current.nowMs;
  const next = server.current.world.platform.nextTimerDueMs();
  return { now: toIso(now), now_ms: now, manual: server.clock.manual, speed: server.clock.speed, next_timer_at: next === undefined ? null : toIso(next) };
}

async function advanceBy(server: LiveServer, body: unknown): Promise<ApiResponse> {
  const ms = field(body, 'ms');
  if (!(Number.isSafeInteger(ms) && (ms as number) > 0)) return errorResponse('validation_error', 'ms: a positive integer of milliseconds', { field: 'ms' });
  await server.current.advanceTo(server.current.nowMs + (ms as number));
  return ok(clockView(server));
}

/** Sets the clock forward to `at` (ISO 8601) or `at_ms`; time never runs backwards. */
async function setClock(server: LiveServer, body: unknown): Promise<ApiResponse> {
  const at = field(body, 'at');
  const target = typeof at === 'string' ? parseIsoInstant(at) : field(body, 'at_ms');
  if (!(Number.isSafeInteger(target))) return errorResponse('validation_error', 'at: an ISO 8601 time (or at_ms: epoch milliseconds)', { field: 'at' });
  if ((target as number) < server.current.nowMs) return errorResponse('bad_request', `the clock is already at ${toIso(server.current.nowMs)}; it never runs backwards`);
  await server.current.advanceTo(target as number);
  return ok(clockView(server));
}

async function step(server: LiveServer): Promise<ApiResponse> {
  const due = await server.current.stepToNextTimer();
  return ok({ ...clockView(server), stepped_to: due === null ? null : toIso(server.current.nowMs) });
}

async function restore(server: LiveServer, body: unknown): Promise<ApiResponse> {
  try {
    server.current = await LiveWorld.restore(body as LiveSnapshot);
  } catch (error) {
    if (error instanceof SnapshotError) return errorResponse('validation_error', `snapshot: ${error.message}`, { field: 'snapshot' });
    throw error;
  }
  return ok({ restored: true, ...clockView(server) });
}

function faucet(server: LiveServer, body: unknown): ApiResponse {
  const handle = field(body, 'handle');
  const lamports = typeof field(body, 'sol') === 'number' ? solToLamports(field(body, 'sol') as number) : undefined;
  if (typeof handle !== 'string') return errorResponse('validation_error', 'handle: the agent to fund', { field: 'handle' });
  if (lamports === undefined || lamports <= 0 || lamports > 1_000_000_000_000) return errorResponse('validation_error', 'sol: more than 0 and at most 1000', { field: 'sol' });
  const wallet = server.current.airdrop(handle, lamports);
  return ok({ handle, wallet_address: wallet, lamports, balance_lamports: server.current.world.platform.ledger.balance(wallet) });
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function ok(body: object): ApiResponse {
  return { status: 200, body: { success: true, ...body } };
}

/**
 * Parses the JSON body (the server reads every body as text), runs the action, and answers platform
 * refusals (an unknown handle) with their registered code; anything else is a bug.
 */
async function guarded(reply: FastifyReply, raw: unknown, action: (body: unknown) => ApiResponse | Promise<ApiResponse>): Promise<FastifyReply> {
  const body = parseBody(raw);
  if (body === MALFORMED) return send(reply, errorResponse('validation_error', 'body: not valid JSON', { field: 'body' }));
  try {
    return send(reply, await action(body));
  } catch (error) {
    if (error instanceof PlatformError) return send(reply, errorResponse(error.code, error.message, error.details));
    throw error;
  }
}
