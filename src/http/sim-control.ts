import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import * as C from '../api/contract/control.js';
import type { BodyOf, ResponseOf, RouteContract } from '../api/contract/define.js';
import { addWireFormats } from '../api/contract/formats.js';
import { describeFailure, failedField } from '../api/validation-wording.js';
import { errorResponse } from '../api/errors.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { parseIsoInstant, toIso } from '../kernel/clock.js';
import { fail, PlatformError } from '../kernel/errors.js';
import { solToLamports } from '../kernel/money.js';
import { LiveWorld, SnapshotError, type LiveSnapshot, type Slicing } from '../sim/live.js';
import type { ScenarioWithSource } from '../sim/scenario/scenario.js';
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
const MIN_RESTORE_LIMIT = 64 * 1024 * 1024; // OURS: a snapshot of serve's own population after weeks is far smaller
/** A tick is the real-time clock's own step: an advance or a restore someone asks for stops it and goes first. */
type Job = C.SimJob;

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
    if (this.#job === 'restore') return refusalOf(busy('a snapshot is being restored'));
    return this.current.handle(request);
  }

  /** Runs one long job at a time; another one asked for meanwhile is refused: a PlatformError `busy` (a tick gives way). */
  async exclusive<T>(job: Job, work: (slicing: Slicing) => Promise<T>): Promise<T> {
    if (this.#job === 'tick' && job !== 'tick') {
      this.#cancel = true;
      await this.#running;
    }
    if (this.#job) throw busy(`a ${this.#job} is running; POST /_sim/clock/cancel stops it`);
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

  /** The real-time clock's step: skipped (refused busy) while another job runs; the caller keeps the carry. */
  async tick(ms: number): Promise<void> {
    try {
      await this.exclusive('tick', (slicing) => this.current.advanceTo(this.current.nowMs + ms, slicing));
    } catch (error) {
      if (!(error instanceof PlatformError && error.code === 'busy')) throw error;
    }
  }

  /** A restore body may be this large: four times the largest snapshot this server has written, at least 64 MiB. */
  restoreLimitBytes(): number {
    return Math.max(MIN_RESTORE_LIMIT, 4 * this.#largestSnapshotBytes);
  }

  noteSnapshotBytes(bytes: number): void {
    this.#largestSnapshotBytes = Math.max(this.#largestSnapshotBytes, bytes);
  }

  #slicing(): Slicing {
    return {
      startSlice: this.#pauseTest(),
      yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
      cancelled: () => this.#cancel,
    };
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

/**
 * Every route here is declared in src/api/contract/control.ts: `simRoute` registers it from its contract,
 * checks the body against the contract's schema, and sends what the action returns, which the compiler
 * checks against the contract's response type. Actions refuse by throwing a PlatformError (`fail`), as
 * route-table handlers do.
 */
export function registerSimControl(app: FastifyInstance, server: LiveServer): void {
  simRoute(app, C.getClock, () => ({ success: true as const, ...clockFields(server) }));
  simRoute(app, C.advanceClock, (body) => advanceClockTo(server, server.current.nowMs + body.ms));
  simRoute(app, C.setClock, (body) => setClock(server, body));
  simRoute(app, C.stepClock, () => step(server));
  simRoute(app, C.cancelJob, () => ({
    success: true as const,
    cancelled: server.cancel(),
    ...clockFields(server),
  }));
  // The snapshot goes out as the text the world writes (see SnapshotMatchesContract below for its type).
  app.get(C.getSnapshot.path, (_request, reply) => sendSnapshot(reply, server));
  const restoreLimit = {
    bodyLimit: Number.MAX_SAFE_INTEGER,
    preParsing: limitBody(() => server.restoreLimitBytes()),
  };
  simRoute(app, C.restoreSnapshot, (body) => restore(server, body), restoreLimit);
  simRoute(app, C.airdrop, (body) => faucet(server, body));
  simRoute(app, C.getInvariants, () => ({
    success: true as const,
    invariants: server.current.world.invariantResults(),
  }));
}

type Action<R extends RouteContract> = (body: BodyOf<R>) => ResponseOf<R> | Promise<ResponseOf<R>>;

// As the dispatcher compiles body schemas (src/api/dispatch.ts): JSON's own types, no coercion.
const bodyAjv = new Ajv({ allErrors: false, coerceTypes: false, useDefaults: true, strict: false });
addWireFormats(bodyAjv);

function simRoute<R extends RouteContract>(
  app: FastifyInstance,
  contract: R,
  action: Action<R>,
  options: RouteShorthandOptions = {},
): void {
  const validate = contract.body ? bodyAjv.compile(contract.body) : undefined;
  app.route({
    ...options,
    method: contract.method,
    url: contract.path,
    handler: (request, reply) => answer(reply, contract, request.body, validate, action),
  });
}

/**
 * Reads the body of a POST (the server reads every body as text; a GET's is never read), checks it against
 * the contract, runs the action, and answers platform refusals (an unknown handle, busy) with their
 * registered code; anything else is a bug (a 500, see server.ts). A POST that takes no body still refuses
 * one that is not JSON, as it always has.
 */
async function answer<R extends RouteContract>(
  reply: FastifyReply,
  contract: R,
  raw: unknown,
  validate: ValidateFunction | undefined,
  action: Action<R>,
): Promise<FastifyReply> {
  const read = contract.method === 'GET' ? { body: undefined } : readJsonBody(raw);
  if ('refusal' in read) return send(reply, read.refusal);
  try {
    const body = (validate ? validBody(validate, read.body) : read.body) as BodyOf<R>;
    // A FastifyReply is thenable: awaiting it would wait for the response to be written, not for a result.
    // eslint-disable-next-line @typescript-eslint/return-await
    return send(reply, { status: contract.status ?? 200, body: await action(body) });
  } catch (error) {
    if (error instanceof PlatformError) return send(reply, refusalOf(error));
    throw error;
  }
}

/** The body, or a `validation_error` worded as the dispatcher words it; no body is checked as `{}`, as there. */
function validBody(validate: ValidateFunction, body: unknown): unknown {
  const value = body === undefined || body === null ? {} : body;
  if (!validate(value))
    fail('validation_error', describeFailure(validate.errors, 'body'), {
      field: failedField(validate.errors),
    });
  return value;
}

/** The clock as every clock route reports it (the contract's clock fields). */
type ClockFields = Omit<C.ClockResponse, 'success'>;

function clockFields(server: LiveServer): ClockFields {
  const now = server.current.nowMs;
  const next = server.current.world.platform.nextTimerDueMs();
  const nextTimerAt = next === undefined ? null : toIso(next);
  return {
    now: toIso(now),
    now_ms: now,
    manual: server.clock.manual,
    speed: server.clock.speed,
    next_timer_at: nextTimerAt,
    busy: server.job,
  };
}

/** Sets the clock forward to `at` (ISO 8601) or `at_ms`; time never runs backwards. */
function setClock(server: LiveServer, body: BodyOf<typeof C.setClock>): Promise<C.AdvanceResponse> {
  const target = body.at !== undefined ? parseIsoInstant(body.at) : body.at_ms;
  if (target === undefined || !Number.isSafeInteger(target))
    fail('validation_error', 'at: an ISO 8601 time (or at_ms: epoch milliseconds)', { field: 'at' });
  const now = server.current.nowMs;
  if (target < now) fail('bad_request', `the clock is already at ${toIso(now)}; it never runs backwards`);
  if (target - now > C.MAX_ADVANCE_MS)
    fail('validation_error', 'at: at most 366 days ahead of the clock', { field: 'at' });
  return advanceClockTo(server, target);
}

function advanceClockTo(server: LiveServer, toMs: number): Promise<C.AdvanceResponse> {
  return server.exclusive('advance', async (slicing) => {
    const reached = await server.current.advanceTo(toMs, slicing);
    return { success: true, ...clockFields(server), cancelled: !reached };
  });
}

function step(server: LiveServer): Promise<C.StepResponse> {
  return server.exclusive('advance', async (slicing) => {
    const due = await server.current.stepToNextTimer(slicing);
    return {
      success: true,
      ...clockFields(server),
      stepped_to: due === null ? null : toIso(server.current.nowMs),
    };
  });
}

/**
 * The snapshot is sent as text, so the compiler checks its type against the contract here instead: every
 * field of LiveSnapshot (plus `success`) is in the contract with a type it accepts, and the contract has no other.
 */
type SnapshotFields = keyof LiveSnapshot | 'success';
type SnapshotMatchesContract = [LiveSnapshot & { success: true }] extends [C.SnapshotResponse]
  ? [keyof C.SnapshotResponse, SnapshotFields] extends [SnapshotFields, keyof C.SnapshotResponse]
    ? true
    : never
  : never;
const _snapshotMatchesContract: SnapshotMatchesContract = true; // fails to compile when the two drift

function sendSnapshot(reply: FastifyReply, server: LiveServer): FastifyReply {
  const text = server.current.snapshotText({ success: true });
  server.noteSnapshotBytes(Buffer.byteLength(text));
  return reply
    .status(200)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(text);
}

function restore(server: LiveServer, body: BodyOf<typeof C.restoreSnapshot>): Promise<C.RestoreResponse> {
  return server.exclusive('restore', async (slicing) => {
    try {
      server.current = await LiveWorld.restore(body, server.own, slicing);
    } catch (error) {
      if (error instanceof SnapshotError)
        fail('validation_error', `snapshot: ${error.message}`, { field: 'snapshot' });
      throw error;
    }
    return { success: true, restored: true, ...clockFields(server) };
  });
}

/** The schema bounds `sol`; SOL becomes whole lamports exactly, so more than 9 decimals are refused. */
function faucet(server: LiveServer, body: BodyOf<typeof C.airdrop>): C.AirdropResponse {
  const lamports =
    solToLamports(body.sol) ??
    fail('validation_error', 'sol: at most 9 decimal places (whole lamports)', { field: 'sol' });
  const wallet = server.current.airdrop(body.handle, lamports);
  return {
    success: true,
    handle: body.handle,
    wallet_address: wallet,
    lamports,
    balance_lamports: server.current.world.platform.ledger.balance(wallet),
  };
}

function busy(message: string): PlatformError {
  return new PlatformError('busy', message, { retry_after: 1 });
}

/** A refusal's answer; one that says when to retry (busy) carries it as a Retry-After header too. */
function refusalOf(error: PlatformError): ApiResponse {
  const response = errorResponse(error.code, error.message, error.details);
  const retry = error.details?.['retry_after'];
  return typeof retry === 'number' ? { ...response, headers: { 'retry-after': String(retry) } } : response;
}
