import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import * as C from '../api/contract/control.js';
import { LiveControlApi } from '../api/dispatch.js';
import { errorResponse } from '../api/errors.js';
import { JsonStream, type ApiRequest, type ApiResponse, type LiveControl } from '../api/types.js';
import { fail, PlatformError } from '../kernel/errors.js';
import { LiveWorld, SnapshotError, type LiveSnapshot, type Slicing } from '../sim/live.js';
import type { ScenarioWithSource } from '../sim/scenario/scenario.js';
import type { LargeBodyRoute } from './server.js';
import { HttpFaults } from './faults.js';
import { readSnapshotBody, StateDropper } from './snapshot-body.js';
import {
  FaultProfileError,
  faultProfileSource,
  parseFaultProfile,
  type FaultProfile,
} from '../faults/profile.js';
import { checkFaultsState } from '../faults/state.js';
import { isRecord } from '../sim/scenario/scenario-fields.js';
import { handleForKey } from '../sim/agent-key.js';
import { toIso } from '../kernel/clock.js';

/**
 * The live server (`serve`): it holds the live world, answers platform requests from it, and gives the
 * simulator's control routes (rows of the route table, src/api/routes/control.ts `liveControlRoutes`) the
 * `LiveControl` they act through: the clock, snapshot and restore, the faucet and the invariant results.
 * Who may call those is decided before they run (`guard.ts`: the control token).
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
  /**
   * Something drives the clock in real time when it is not manual (serve's ticker, src/cli/serve.ts), so
   * /_sim/clock/resume and /speed may act. A library twin has none: its clock is manual for good.
   */
  realTime?: boolean;
  /** The scenario the server's owner started it with: a restore of its own snapshots uses this copy. */
  own: ScenarioWithSource;
  /** Wall-clock milliseconds (serve passes performance.now); without one, slices are counted in instants. */
  wallClockMs?: () => number;
  /** Wall time one slice of world work may take before other requests are answered. */
  sliceMs?: number;
  /**
   * The fault profile HTTP clients meet from the start (`serve --faults FILE`); when left out, the scenario's
   * own `faults:` (the one its in-process agents meet), so agents over HTTP meet the same profile; else none.
   */
  faults?: FaultProfile;
  /** Wall waits for latency faults (tests pass a faster one). */
  faultSleep?: (ms: number) => Promise<void>;
  /** Writes the session's report set from the world (serve --out: src/lib/session-report.ts); none without --out. */
  sessionReport?: SessionReportWriter;
}

/** What POST /_sim/report and serve's stop call: the files written, the agents with a verdict, and whether an invariant broke. */
export type SessionReportWriter = (
  world: LiveWorld,
  /** What HTTP clients met on the socket, for the report's faults section beside the world's own. */
  httpFaults: HttpFaults,
) => { files: string[]; agents: number; failed: boolean };

export const DEFAULT_SLICE_MS = 10;
/** A snapshot goes to the socket in chunks of about this many characters: few writes, little held at once. */
const CHUNK_CHARS = 256 * 1024;
const INSTANTS_PER_SLICE = 200; // without a wall clock (tests): a slice is this many instants of world time
const MIN_RESTORE_LIMIT = 64 * 1024 * 1024; // OURS: a snapshot of serve's own population after weeks is far smaller
/** A tick is the real-time clock's own step: an advance or a restore someone asks for stops it and goes first. */
type Job = C.SimJob;

/** Routes the control rows of the table once for every live server: they hold no state of their own. */
const CONTROL = new LiveControlApi();

/** Holds the live world the server answers with; a restore swaps it. */
export class LiveServer implements LiveControl {
  current: LiveWorld;
  readonly clock: ClockMode;
  readonly #realTime: boolean;
  readonly #sessionReport: SessionReportWriter | undefined;
  readonly own: ScenarioWithSource;
  readonly #wallClockMs: (() => number) | undefined;
  readonly #sliceMs: number;
  #job: Job | null = null;
  #running: Promise<unknown> | null = null;
  #cancel = false;
  /** Ends the snapshot being written (its stream destroyed), when one is. */
  #stopWriting: (() => void) | null = null;
  #largestSnapshotBytes = 0;
  /** What HTTP clients meet (src/http/faults.ts): the server hands it to buildServer. */
  readonly httpFaults: HttpFaults;

  constructor(world: LiveWorld, options: LiveServerOptions) {
    this.current = world;
    this.clock = { ...options.clock };
    this.#realTime = options.realTime ?? false;
    this.#sessionReport = options.sessionReport;
    this.own = options.own;
    this.#wallClockMs = options.wallClockMs;
    this.#sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    const scenario = world.world.scenario;
    this.httpFaults = new HttpFaults(options.faults ?? scenario.faults, {
      seed: scenario.seed,
      startMs: scenario.startMs,
      nowMs: () => this.nowMs,
      agentOf: (key) => handleForKey(this.current.world.platform, key),
      ...(options.faultSleep ? { sleep: options.faultSleep } : {}),
    });
  }

  faults(): C.FaultsResponse {
    return {
      success: true as const,
      profile: faultProfileSource(this.httpFaults.injector.profile) as C.FaultsResponse['profile'],
      met_by_kind: this.httpFaults.metByKind(),
    };
  }

  /** A profile that is not one is a `validation_error` naming its first bad field. */
  setFaults(raw: unknown): C.FaultsResponse {
    try {
      this.httpFaults.replace(parseFaultProfile(raw, 'body'));
    } catch (error) {
      if (!(error instanceof FaultProfileError)) throw error;
      const first = error.problems[0]!;
      fail('validation_error', first, { field: first.split(':')[0]!.replace(/^faults\.?/, '') || 'body' });
    }
    return this.faults();
  }

  get job(): Job | null {
    return this.#job;
  }

  get nowMs(): number {
    return this.current.nowMs;
  }

  /**
   * Control requests (/_sim) go to the control rows; platform requests are answered between the world's
   * instants, and refused (503, retry in 1 s) while a restore swaps the world.
   */
  async handle(request: ApiRequest): Promise<ApiResponse> {
    const control = CONTROL.handle(request, this);
    if (control) return control;
    if (this.#job === 'restore') return refusalOf(busy('a snapshot is being restored'));
    if (this.#job === 'snapshot' && !this.current.leavesWorldAsIs(request)) return refusalOf(writingBusy());
    return this.current.handle(request);
  }

  nextTimerDueMs(): number | undefined {
    return this.current.world.platform.nextTimerDueMs();
  }

  advanceTo(toMs: number): Promise<boolean> {
    return this.exclusive('advance', (slicing) => this.current.advanceTo(toMs, slicing));
  }

  stepToNextTimer(): Promise<number | null> {
    return this.exclusive('advance', (slicing) => this.current.stepToNextTimer(slicing));
  }

  /** The snapshot in one string, for a caller in this process (the twin's helper). */
  snapshotText(): string {
    const text = this.current.snapshotText(this.#snapshotHead());
    this.#largestSnapshotBytes = Math.max(this.#largestSnapshotBytes, Buffer.byteLength(text));
    return text;
  }

  /**
   * The snapshot route's answer: the same text, written as a job while the socket takes it, so no slice
   * of it keeps other clients waiting longer than a slice. The world stays as it is until the last piece is
   * made (or the reader goes away, or POST /_sim/clock/cancel cuts it short): no other job runs, and
   * requests that would change it are refused busy (`handle`); reads without a key are answered.
   */
  snapshot(): Promise<JsonStream<C.SnapshotResponse>> {
    return new Promise((answer, refuse) => {
      this.exclusive('snapshot', async (slicing) => {
        const pieces = await this.current.snapshotPieces(this.#snapshotHead(), slicing);
        if (slicing.cancelled?.()) throw busy('the snapshot was cancelled before it was written');
        // The job ends when the last piece is made (what is left to send reads nothing of the world), or
        // when the text is cut short: the reader gone, or a cancel.
        await new Promise<void>((made) => {
          const chunks = this.#chunks(pieces, slicing, made);
          const stream = Readable.from(chunks, { objectMode: false, highWaterMark: CHUNK_CHARS });
          void finished(stream)
            .catch(() => undefined)
            .then(made);
          this.#stopWriting = () => stream.destroy();
          answer(new JsonStream(stream));
        }).finally(() => (this.#stopWriting = null));
      }).catch(refuse); // a refusal before the answer (busy); nothing once the answer is on its way
    });
  }

  #snapshotHead(): Record<string, unknown> {
    return { success: true, faults: this.httpFaults.state() };
  }

  /**
   * The pieces joined into chunks of about CHUNK_CHARS, made a slice at a time: between slices other
   * requests are answered. Calls `made` once the last piece is made; stops (cutting the text short) when
   * the job is cancelled.
   */
  async *#chunks(pieces: Iterator<string>, slicing: Slicing, made: () => void): AsyncGenerator<string> {
    let bytes = 0;
    let chunk = '';
    let shouldPause = slicing.startSlice();
    for (let next = pieces.next(); !next.done; next = pieces.next()) {
      chunk += next.value;
      if (chunk.length >= CHUNK_CHARS) {
        bytes += Buffer.byteLength(chunk);
        yield chunk;
        chunk = '';
      }
      if (!shouldPause()) continue;
      await slicing.yieldNow();
      if (slicing.cancelled?.()) throw new Error('the snapshot was cancelled while it was written');
      shouldPause = slicing.startSlice();
    }
    bytes += Buffer.byteLength(chunk);
    this.#largestSnapshotBytes = Math.max(this.#largestSnapshotBytes, bytes);
    made();
    if (chunk !== '') yield chunk;
  }

  /**
   * A snapshot that does not replay to what it says is a `validation_error` naming the field `snapshot`.
   * Its `faults` (the fault layer, a profile set at run time included) comes back with it; a snapshot
   * without one leaves the profile in force.
   */
  async restore(snapshot: unknown): Promise<void> {
    const raw = isRecord(snapshot) ? snapshot['faults'] : undefined;
    const faults = raw === undefined ? undefined : checkFaultsState(raw);
    if (typeof faults === 'string') fail('validation_error', `snapshot: ${faults}`, { field: 'snapshot' });
    return this.exclusive('restore', async (slicing) => {
      try {
        this.current = await LiveWorld.restore(snapshot, this.own, slicing);
      } catch (error) {
        if (error instanceof SnapshotError)
          fail('validation_error', `snapshot: ${error.message}`, { field: 'snapshot' });
        throw error;
      }
      const { seed, startMs } = this.current.world.scenario;
      this.httpFaults.restore(seed, startMs, faults);
    });
  }

  airdrop(handle: string, lamports: number): { wallet: string; balanceLamports: number } {
    if (this.#job === 'snapshot') throw writingBusy();
    const wallet = this.current.airdrop(handle, lamports);
    return { wallet, balanceLamports: this.current.world.platform.ledger.balance(wallet) };
  }

  invariantResults(): C.InvariantResult[] {
    return this.current.world.invariantResults();
  }

  /** The restore route may read a body as large as restoreLimitBytes(); every other route keeps the server's limit. */
  largeBodies(): LargeBodyRoute[] {
    return [
      {
        method: 'POST',
        path: C.restoreSnapshot.path,
        limitBytes: () => this.restoreLimitBytes(),
        // In slices, and without the state a restore does not read (snapshot-body.ts).
        readBody: (bytes) => readSnapshotBody(bytes, this.#slicing()),
        filter: () => new StateDropper(this.#slicing()),
      },
    ];
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

  /** Asks the running job to stop at its next slice (a snapshot's reader waiting for more is cut off); false when nothing runs. */
  cancel(): boolean {
    if (!this.#job) return false;
    this.#cancel = true;
    this.#stopWriting?.();
    return true;
  }

  pause(): void {
    this.clock.manual = true;
    if (this.#job === 'tick') this.#cancel = true;
  }

  resume(): void {
    this.#requireRealTime('resume');
    this.clock.manual = false;
  }

  setSpeed(speed: number): void {
    this.#requireRealTime('speed');
    this.clock.speed = speed;
  }

  /** The report as a job, so no world event runs while it is read; refused busy while an advance or restore runs. */
  writeReport(): Promise<C.WriteReportResponse> {
    const writer =
      this.#sessionReport ??
      fail('bad_request', 'report: serve was started without --out DIR, so there is nowhere to write it');
    return this.exclusive('report', async () => {
      const written = writer(this.current, this.httpFaults);
      return { success: true as const, ...written, now: toIso(this.nowMs) };
    });
  }

  #requireRealTime(route: string): void {
    if (!this.#realTime)
      fail(
        'bad_request',
        `${route}: this server has no real-time clock (a library twin): advance, set or step it instead`,
      );
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
 * The snapshot goes out as the text the world writes, so the compiler checks its type against the contract
 * here instead: every field of LiveSnapshot (plus `success`) is in the contract with a type it accepts, and
 * the contract has no other.
 */
type SnapshotFields = keyof LiveSnapshot | 'success';
type SnapshotMatchesContract = [LiveSnapshot & { success: true }] extends [C.SnapshotResponse]
  ? [keyof C.SnapshotResponse, SnapshotFields] extends [SnapshotFields, keyof C.SnapshotResponse]
    ? true
    : never
  : never;
const _snapshotMatchesContract: SnapshotMatchesContract = true; // fails to compile when the two drift

function busy(message: string): PlatformError {
  return new PlatformError('busy', message, { retry_after: 1 });
}

function writingBusy(): PlatformError {
  return busy('a snapshot is being written; until it is, only reads without an API key are answered');
}

/** A refusal's answer; one that says when to retry (busy) carries it as a Retry-After header too. */
function refusalOf(error: PlatformError): ApiResponse {
  const response = errorResponse(error.code, error.message, error.details);
  const retry = error.details?.['retry_after'];
  return typeof retry === 'number' ? { ...response, headers: { 'retry-after': String(retry) } } : response;
}
