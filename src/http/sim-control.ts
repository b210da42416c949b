import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorResponse } from '../api/errors.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { toIso } from '../kernel/clock.js';
import { PlatformError } from '../kernel/errors.js';
import { solToLamports } from '../kernel/money.js';
import { parseIsoInstant } from '../rules/feed.js';
import { DAY_MS } from '../rules/rate-limit.js';
import { LiveWorld, SnapshotError, type Slicing } from '../sim/live.js';
import type { ScenarioWithSource } from '../sim/scenario.js';
import { limitBody } from './body-limit.js';
import { readJsonBody, send } from './server.js';

/**
 * The simulator's own control routes for a live world (`serve`): the clock, snapshot and restore, the
 * faucet and the invariant results. They are not part of the platform, so they live under /_sim, next to
 * the world they drive. Who may call them is decided before they run (`guard.ts`: the control token).
 *
 * Long work (an advance of a day, a restore, the real-time clock catching up) runs in slices that yield to
 * the event loop, so other clients keep being answered; one such job runs at a time, and
 * POST /_sim/clock/cancel stops it between slices.
 */
export interface ClockMode {
  /** The clock moves only through /_sim/clock routes. */
  manual: boolean;
  /** Virtual milliseconds per wall millisecond when not manual. */
  speed: number;
}

export interface LiveServerOptions {
  clock: ClockMode;
  /** The scenario the server's owner started it with: a restore of its own snapshots uses this copy. */
  own: ScenarioWithSource;
  /** Wall-clock milliseconds (serve passes performance.now); without one, slices are counted in instants. */
  wallClockMs?: () => number;
  /** Wall time one slice of world work may take before other requests are answered. */
  sliceMs?: number;
}

export const DEFAULT_SLICE_MS = 10;
const INSTANTS_PER_SLICE = 200; // without a wall clock (tests): a slice is this many instants of world time
const MAX_ADVANCE_MS = 366 * DAY_MS; // OURS: one request moves the clock at most a year
const MIN_RESTORE_LIMIT = 64 * 1024 * 1024; // OURS: a snapshot of serve's own population after weeks is far smaller
/** A tick is the real-time clock's own step: an advance or a restore someone asks for stops it and goes first. */
type Job = 'tick' | 'advance' | 'restore';

/** Holds the live world the server answers with; a restore swaps it. */
export class LiveServer {
  current: LiveWorld;
  readonly clock: ClockMode;
  readonly own: ScenarioWithSource;
  readonly #wallClockMs: (() => number) | undefined;
  readonly #sliceMs: number;
  #job: Job | null = null;
  #running: Promise<unknown> | null = null;
  #cancel = false;
  #largestSnapshotBytes = 0;

  constructor(world: LiveWorld, options: LiveServerOptions) {
    this.current = world;
    this.clock = options.clock;
    this.own = options.own;
    this.#wallClockMs = options.wallClockMs;
    this.#sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  }

  get job(): Job | null {
    return this.#job;
  }

  /** Platform requests: answered between the world's instants; refused (503, retry in 1 s) while a restore swaps the world. */
  async handle(request: ApiRequest): Promise<ApiResponse> {
    if (this.#job === 'restore') return busy('a snapshot is being restored');
    return this.current.handle(request);
  }

  /** Runs one long job at a time; another one asked for meanwhile is answered 503 `busy` (a tick gives way). */
  async exclusive(job: Job, work: (slicing: Slicing) => Promise<ApiResponse>): Promise<ApiResponse> {
    if (this.#job === 'tick' && job !== 'tick') {
      this.#cancel = true;
      await this.#running;
    }
    if (this.#job) return busy(`a ${this.#job} is running; POST /_sim/clock/cancel stops it`);
    this.#job = job;
    this.#cancel = false;
    const running = work(this.#slicing());
    this.#running = running;
    try {
      return await running;
    } finally {
      this.#job = null;
      this.#running = null;
    }
  }

  /** Asks the running job to stop at its next slice; false when nothing runs. */
  cancel(): boolean {
    if (!this.#job) return false;
    this.#cancel = true;
    return true;
  }

  /** The real-time clock's step: skipped (answered busy) while another job runs; the caller keeps the carry. */
  async tick(ms: number): Promise<void> {
    await this.exclusive('tick', async (slicing) => {
      await this.current.advanceTo(this.current.nowMs + ms, slicing);
      return ok({});
    });
  }

  /** A restore body may be this large: four times the largest snapshot this server has written, at least 64 MiB. */
  restoreLimitBytes(): number {
    return Math.max(MIN_RESTORE_LIMIT, 4 * this.#largestSnapshotBytes);
  }

  noteSnapshotBytes(bytes: number): void {
    this.#largestSnapshotBytes = Math.max(this.#largestSnapshotBytes, bytes);
  }

  #slicing(): Slicing {
    return { startSlice: this.#pauseTest(), yieldNow: () => new Promise((resolve) => setImmediate(resolve)), cancelled: () => this.#cancel };
  }

  #pauseTest(): () => () => boolean {
    const wall = this.#wallClockMs;
    const budget = this.#sliceMs;
    if (wall) {
      return () => {
        const start = wall();
        return () => wall() - start >= budget;
      };
    }
    return () => {
      let instants = 0;
      return () => ++instants >= INSTANTS_PER_SLICE;
    };
  }
}

export function registerSimControl(app: FastifyInstance, server: LiveServer): void {
  app.get('/_sim/clock', (_req, reply) => send(reply, ok(clockView(server))));
  app.post('/_sim/clock/advance', (req, reply) => guarded(reply, req.body, (body) => advanceBy(server, body)));
  app.post('/_sim/clock/set', (req, reply) => guarded(reply, req.body, (body) => setClock(server, body)));
  app.post('/_sim/clock/step', (req, reply) => guarded(reply, req.body, () => step(server)));
  app.post('/_sim/clock/cancel', (req, reply) => guarded(reply, req.body, () => ok({ cancelled: server.cancel(), ...clockView(server) })));
  app.get('/_sim/snapshot', (_req, reply) => sendSnapshot(reply, server));
  app.post('/_sim/restore', { bodyLimit: Number.MAX_SAFE_INTEGER, preParsing: limitBody(() => server.restoreLimitBytes()) }, (req, reply) =>
    guarded(reply, req.body, (body) => restore(server, body)),
  );
  app.post('/_sim/airdrop', (req, reply) => guarded(reply, req.body, (body) => faucet(server, body)));
  app.get('/_sim/invariants', (_req, reply) => send(reply, ok({ invariants: server.current.world.invariantResults() })));
}

function clockView(server: LiveServer) {
  const now = server.current.nowMs;
  const next = server.current.world.platform.nextTimerDueMs();
  const nextTimerAt = next === undefined ? null : toIso(next);
  return { now: toIso(now), now_ms: now, manual: server.clock.manual, speed: server.clock.speed, next_timer_at: nextTimerAt, busy: server.job };
}

function advanceBy(server: LiveServer, body: unknown): Promise<ApiResponse> {
  const ms = field(body, 'ms');
  if (!(Number.isSafeInteger(ms) && (ms as number) > 0 && (ms as number) <= MAX_ADVANCE_MS)) {
    return Promise.resolve(errorResponse('validation_error', `ms: a positive integer of milliseconds, at most ${MAX_ADVANCE_MS} (366 days)`, { field: 'ms' }));
  }
  return advanceClockTo(server, server.current.nowMs + (ms as number));
}

/** Sets the clock forward to `at` (ISO 8601) or `at_ms`; time never runs backwards. */
function setClock(server: LiveServer, body: unknown): Promise<ApiResponse> {
  const at = field(body, 'at');
  const target = typeof at === 'string' ? parseIsoInstant(at) : field(body, 'at_ms');
  if (!Number.isSafeInteger(target)) return Promise.resolve(errorResponse('validation_error', 'at: an ISO 8601 time (or at_ms: epoch milliseconds)', { field: 'at' }));
  const now = server.current.nowMs;
  if ((target as number) < now) return Promise.resolve(errorResponse('bad_request', `the clock is already at ${toIso(now)}; it never runs backwards`));
  if ((target as number) - now > MAX_ADVANCE_MS) return Promise.resolve(errorResponse('validation_error', 'at: at most 366 days ahead of the clock', { field: 'at' }));
  return advanceClockTo(server, target as number);
}

function advanceClockTo(server: LiveServer, toMs: number): Promise<ApiResponse> {
  return server.exclusive('advance', async (slicing) => {
    const reached = await server.current.advanceTo(toMs, slicing);
    return ok({ ...clockView(server), cancelled: !reached });
  });
}

function step(server: LiveServer): Promise<ApiResponse> {
  return server.exclusive('advance', async (slicing) => {
    const due = await server.current.stepToNextTimer(slicing);
    return ok({ ...clockView(server), stepped_to: due === null ? null : toIso(server.current.nowMs) });
  });
}

function sendSnapshot(reply: FastifyReply, server: LiveServer): FastifyReply {
  const text = server.current.snapshotText({ success: true });
  server.noteSnapshotBytes(Buffer.byteLength(text));
  return reply.status(200).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(text);
}

function restore(server: LiveServer, body: unknown): Promise<ApiResponse> {
  return server.exclusive('restore', async (slicing) => {
    try {
      server.current = await LiveWorld.restore(body, server.own, slicing);
    } catch (error) {
      if (error instanceof SnapshotError) return errorResponse('validation_error', `snapshot: ${error.message}`, { field: 'snapshot' });
      throw error;
    }
    return ok({ restored: true, ...clockView(server) });
  });
}

function faucet(server: LiveServer, body: unknown): ApiResponse {
  const handle = field(body, 'handle');
  const sol = field(body, 'sol');
  const lamports = typeof sol === 'number' && Number.isFinite(sol) ? solToLamports(sol) : undefined;
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

function busy(message: string): ApiResponse {
  const response = errorResponse('busy', message, { retry_after: 1 });
  return { ...response, headers: { 'retry-after': '1' } };
}

/**
 * Parses the JSON body (the server reads every body as text), runs the action, and answers platform
 * refusals (an unknown handle) with their registered code; anything else is a bug (a 500, see server.ts).
 */
async function guarded(reply: FastifyReply, raw: unknown, action: (body: unknown) => ApiResponse | Promise<ApiResponse>): Promise<FastifyReply> {
  const read = readJsonBody(raw);
  if ('refusal' in read) return send(reply, read.refusal);
  try {
    return send(reply, await action(read.body));
  } catch (error) {
    if (error instanceof PlatformError) return send(reply, errorResponse(error.code, error.message, error.details));
    throw error;
  }
}
