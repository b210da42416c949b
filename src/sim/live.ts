import { createHash } from 'node:crypto';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { toIso } from '../kernel/clock.js';
import { requireAgent } from '../platform/identity/identity.js';
import { stateFingerprintParts } from '../platform/snapshot.js';
import { jsonParts } from '../kernel/json-parts.js';
import type { Agent, Human } from '../platform/state.js';
import { airdrop } from '../platform/money/transfers.js';
import {
  checkSnapshot,
  SnapshotError,
  type LiveInput,
  type LiveSnapshot,
  type RecordedRequest,
  type Usage,
} from './live-snapshot.js';
import type { Scenario, ScenarioWithSource } from './scenario/scenario.js';
import { scenarioForRestore } from './scenario/restorable-scenario.js';
import { InputLog } from './live-input-log.js';
import { World, type WorldOptions } from './world.js';
import { CheckpointError, Field } from '../kernel/checkpoint.js';
import type { LazyJson } from '../kernel/lazy-json.js';

export { SnapshotError, type LiveInput, type LiveSnapshot } from './live-snapshot.js';

/**
 * A world that runs on demand, as `serve` runs it: the clock advances when told, and requests from outside
 * (an agent under test, a person with curl) land between the world's own events.
 *
 * A snapshot of a world that can be checkpointed (`World.whyNotCheckpointable`) is its checkpoint: the
 * whole world as data (`World.save`), restored without replay, so such a world keeps no history at all. A
 * world that holds what data cannot (agent modules, an engine process, a fault profile's parked steps) is
 * snapshotted by replay instead: it is deterministic given its scenario, its key secret and what reached it
 * from outside, so its snapshot is those plus the input log, with a hash of the full state to check against.
 *
 * The log holds only what changes state: clock advances (consecutive ones merged), accepted requests that
 * are not plain reads, and airdrops. Reads and refused requests change nothing but the caller's usage
 * counters, so they are not kept; each kept request carries its caller's counters as they were, and the
 * snapshot carries every actor's counters at its end. Memory and snapshot size therefore follow what the
 * world holds, not how often it was polled.
 */
export interface Slicing {
  /** A fresh "time to pause?" test for one slice of work (a wall-clock budget in `serve`). */
  startSlice(): () => boolean;
  /** Lets other work run between slices (the HTTP server's other requests). */
  yieldNow(): Promise<void>;
  /** Asked between slices: stop early (the world stays consistent, the clock where it got to). */
  cancelled?(): boolean;
}

/** One call, no pauses: `run`, tests, and anything with no one else to serve. */
export const UNSLICED: Slicing = { startSlice: () => () => false, yieldNow: () => Promise.resolve() };

export interface LiveOptions {
  /** Mixed into every API key, so a server with the same seed cannot reproduce another's keys (see `keySecret` in the platform). */
  keySecret?: Uint8Array;
  /**
   * Keep the input log and snapshot by replay even when the world could be checkpointed: the path every
   * world with agent modules or a fault profile takes, kept testable on any world.
   */
  replayLog?: boolean;
}

const FORMAT = 'agent-chess-sim/live-snapshot@4';

export class LiveWorld {
  readonly world: World;
  readonly scenarioSource: Record<string, unknown>;
  readonly #keySecret: Uint8Array | undefined;
  readonly #replayLog: boolean;
  /**
   * What changed the world from outside, for a world that cannot be checkpointed (null for one that can: its
   * snapshot is its state, so nothing of its history is kept and memory follows the world).
   */
  #inputs: InputLog | null = new InputLog();
  /** Set while world events run: a request from outside waits for the instant to finish. */
  #instant: Promise<void> | null = null;

  private constructor(loaded: ScenarioWithSource, options: LiveOptions, restored?: World) {
    this.world = restored ?? new World(loaded.scenario, worldOptions(options));
    this.scenarioSource = loaded.source;
    this.#keySecret = options.keySecret;
    this.#replayLog = options.replayLog === true;
  }

  /** After the population exists: a world that can be checkpointed keeps no input log. */
  #chooseLog(): void {
    if (!this.#replayLog && this.world.whyNotCheckpointable() === null) this.#inputs = null;
  }

  /** A world with its population registered, at the scenario's start. */
  static async start(loaded: ScenarioWithSource, options: LiveOptions = {}): Promise<LiveWorld> {
    const live = new LiveWorld(loaded, options);
    await live.world.populate();
    live.#chooseLog();
    return live;
  }

  /** `start` in slices (a restore on a running server): a population of 100,000 takes seconds to build. */
  static async #startSliced(
    loaded: ScenarioWithSource,
    options: LiveOptions,
    slicing: Slicing,
  ): Promise<LiveWorld> {
    const live = new LiveWorld(loaded, options);
    if (!(await live.world.populate(slicing))) throw new SnapshotError('the restore was cancelled');
    live.#chooseLog();
    return live;
  }

  get scenario(): Scenario {
    return this.world.scenario;
  }

  get nowMs(): number {
    return this.world.platform.nowMs;
  }

  /** Number of inputs the snapshot log holds (reads are not among them). */
  get loggedInputs(): number {
    return this.#inputs?.length ?? 0;
  }

  /**
   * Runs every world event due at or before `toMs` and moves the clock there, in slices. Between slices
   * other requests are answered (at the instant reached) and `slicing.cancelled` is asked. Returns true
   * when the clock reached `toMs`; a time before now does nothing.
   */
  async advanceTo(toMs: number, slicing: Slicing = UNSLICED): Promise<boolean> {
    if (!Number.isSafeInteger(toMs) || toMs < this.nowMs) return true;
    for (;;) {
      const reached = await this.#slice(toMs, slicing.startSlice());
      this.#recordAdvance(this.nowMs);
      if (reached) return true;
      await slicing.yieldNow();
      if (slicing.cancelled?.()) return false;
    }
  }

  async #slice(toMs: number, shouldPause: () => boolean): Promise<boolean> {
    let done!: () => void;
    this.#instant = new Promise((resolve) => (done = resolve));
    try {
      return await this.world.runSlice(toMs, shouldPause);
    } finally {
      this.#instant = null;
      done();
    }
  }

  #recordAdvance(toMs: number): void {
    this.#inputs?.add({ kind: 'advance', toMs }); // merged with an advance just before it
  }

  /** Moves to the next platform deadline or timer (a turn deadline, an expiry, a transfer landing), if any. */
  async stepToNextTimer(slicing: Slicing = UNSLICED): Promise<number | null> {
    const due = this.world.platform.nextTimerDueMs();
    if (due === undefined) return null;
    await this.advanceTo(Math.max(due, this.nowMs + 1), slicing);
    return due;
  }

  /**
   * A request from outside, answered by the route table between the world's instants (never inside one:
   * an engine persona may be awaiting a search). Kept in the log when it may have changed state.
   */
  async handle(request: ApiRequest): Promise<ApiResponse> {
    while (this.#instant) await this.#instant;
    return this.handleNow(request);
  }

  /** `handle` for a caller that knows no world event is running (tests, and the in-process replay). */
  handleNow(request: ApiRequest): ApiResponse {
    const api = this.world.api;
    if (api.isReadOnly(request)) return api.handle(request);
    const actor = api.actorOf(request);
    const usage = actor ? { ...actor.usage } : undefined;
    const response = api.handle(request);
    if (response.status < 400)
      this.#inputs?.add({ kind: 'request', request: recorded(request, actor?.id, usage) });
    return response;
  }

  /** Mints SOL-devnet lamports into an agent's wallet (the simulator's faucet). */
  airdrop(handle: string, lamports: number): string {
    const agent = requireAgent(this.world.platform, handle);
    airdrop(this.world.platform, agent.walletAddress, lamports);
    this.#inputs?.add({ kind: 'airdrop', handle: agent.handle, lamports });
    return agent.walletAddress;
  }

  /** Everything a restore needs, and the state for reading. It holds the key secret: keep it private. */
  snapshot(): LiveSnapshot {
    return JSON.parse(this.snapshotText()) as LiveSnapshot;
  }

  /** The snapshot as JSON text in one string (the twin, tests, benches): `snapshotPieces` joined. */
  snapshotText(extra: Record<string, unknown> = {}): string {
    return [...this.#snapshotParts(extra, stateHashOf(this.world))].join('');
  }

  /**
   * The snapshot's text as pieces, made as they are read, for a server that writes a large world's snapshot
   * between other requests: the state's hash leads the text, so it is worked out first (a slice at a time);
   * then the head, the checkpoint a row at a time (World.checkpointData), the inputs, every actor's
   * counters and the state's canonical text. The state and counters are written from the world as it is
   * when each piece is made, so the world must not change until the last piece is read: the live server
   * writes it as a job (src/http/live-server.ts).
   */
  async snapshotPieces(extra: Record<string, unknown>, slicing: Slicing): Promise<Generator<string>> {
    return this.#snapshotParts(extra, await slicedStateHash(this.world, slicing));
  }

  /**
   * The head's fields in their order, then the checkpoint, inputs, usage and state spliced in as text (the
   * state's canonical text is already JSON, and is not parsed and written again).
   */
  *#snapshotParts(extra: Record<string, unknown>, stateHash: string): Generator<string> {
    const head = {
      ...extra,
      format: FORMAT,
      scenario: this.scenarioSource,
      keySecret: this.#keySecret ? Buffer.from(this.#keySecret).toString('hex') : null,
      nowMs: this.nowMs,
      now: toIso(this.nowMs),
      stateHash,
      fingerprint: this.world.fingerprintSoFar(),
    };
    yield `${JSON.stringify(head).slice(0, -1)},"checkpoint":`;
    if (this.#inputs) yield 'null';
    else yield* jsonParts(this.world.checkpointData());
    yield ',"inputs":';
    if (this.#inputs) yield* this.#inputs.jsonParts();
    else yield '[]';
    yield ',"usage":';
    yield* usageParts(this);
    yield ',"state":';
    yield* stateFingerprintParts(this.world.platform, { includeUsage: true });
    yield '}';
  }

  /**
   * Whether answering `request` now leaves the world as it is, so it may be answered while a snapshot is
   * written: a read (no route that changes state) carrying no valid key (an authenticated request counts
   * against its caller's quota), with no platform timer due that answering would settle first.
   */
  leavesWorldAsIs(request: ApiRequest): boolean {
    const { api, platform } = this.world;
    const due = platform.nextTimerDueMs();
    return (
      (due === undefined || due > platform.nowMs) &&
      api.isReadOnly(request) &&
      api.actorOf(request) === undefined
    );
  }

  /**
   * Rebuilds the world by replaying a snapshot, checked field by field first. The snapshot's scenario must
   * be data on the closed list of `restorable-scenario.ts` (nothing naming a program, file or module: those
   * come only from the server's owner) and then passes the checks a file does; a snapshot of the server's
   * own scenario uses the owner's copy. Refuses a snapshot whose replay does not end where it says.
   */
  static async restore(
    input: unknown,
    own: ScenarioWithSource,
    slicing: Slicing = UNSLICED,
  ): Promise<LiveWorld> {
    const snapshot = await checkSnapshot(input, FORMAT, slicing);
    const loaded = scenarioForRestore(snapshot.scenario, own);
    const options = snapshot.keySecret ? { keySecret: Buffer.from(snapshot.keySecret, 'hex') } : {};
    const live = snapshot.checkpoint
      ? await LiveWorld.#fromCheckpoint(loaded, options, snapshot.checkpoint, slicing)
      : await LiveWorld.#startSliced(loaded, options, slicing);
    let shouldPause = slicing.startSlice();
    for (const [index, entry] of snapshot.inputs.entries()) {
      await live.#replay(entry, index, slicing);
      if (slicing.cancelled?.()) throw new SnapshotError('the restore was cancelled');
      // An advance yields inside; requests and airdrops are counted here, each one a unit of the slice.
      if (!shouldPause()) continue;
      await slicing.yieldNow();
      shouldPause = slicing.startSlice();
    }
    await live.#applyUsage(snapshot.usage, slicing);
    if (
      live.nowMs !== snapshot.nowMs ||
      (await slicedStateHash(live.world, slicing)) !== snapshot.stateHash ||
      live.world.fingerprintSoFar() !== snapshot.fingerprint
    ) {
      throw new SnapshotError(
        'the replayed world differs from the snapshot (was it edited, or made by another version?)',
      );
    }
    return live;
  }

  /** A world rebuilt from its checkpoint in slices (no replay); it keeps no log, as the world saved kept none. */
  static async #fromCheckpoint(
    loaded: ScenarioWithSource,
    options: LiveOptions,
    checkpoint: Record<string, unknown> | LazyJson,
    slicing: Slicing,
  ): Promise<LiveWorld> {
    const steps = World.restore(loaded.scenario, Field.root(checkpoint, 'checkpoint'), worldOptions(options));
    const live = new LiveWorld(loaded, options, await driveSliced(steps, slicing));
    live.#inputs = null;
    return live;
  }

  async #replay(entry: LiveInput, index: number, slicing: Slicing): Promise<void> {
    if (entry.kind === 'advance') {
      await this.advanceTo(entry.toMs, slicing);
      return;
    }
    if (entry.kind === 'airdrop') {
      this.#replayAirdrop(entry.handle, entry.lamports, index);
      return;
    }
    this.#replayRequest(entry.request, index);
  }

  #replayRequest(request: RecordedRequest, index: number): void {
    const actor = request.actorId === undefined ? undefined : actorWithId(this, request.actorId);
    if (request.actorId !== undefined && !actor)
      throw new SnapshotError(`input ${index}: no actor ${request.actorId} at this point of the replay`);
    if (actor && request.usage) Object.assign(actor.usage, request.usage);
    const replayed = { method: request.method, path: request.path, body: request.body };
    const response = this.world.api.handle(replayed, actor);
    if (response.status >= 400)
      throw new SnapshotError(
        `input ${index}: ${request.method} ${request.path} was accepted when recorded but is refused on replay`,
      );
    this.#inputs?.add({ kind: 'request', request });
  }

  #replayAirdrop(handle: string, lamports: number, index: number): void {
    try {
      this.airdrop(handle, lamports);
    } catch {
      throw new SnapshotError(
        `input ${index}: airdrop to ${handle}, who does not exist at this point of the replay`,
      );
    }
  }

  /** Sets every actor's counters (one per actor: 100,000 in a large world), in slices. */
  async #applyUsage(usage: Record<string, Usage>, slicing: Slicing): Promise<void> {
    let shouldPause = slicing.startSlice();
    for (const id of Object.keys(usage)) {
      const actor = actorWithId(this, id);
      if (!actor) throw new SnapshotError(`usage: no actor ${id} after the replay`);
      Object.assign(actor.usage, usage[id]);
      if (!shouldPause()) continue;
      await slicing.yieldNow();
      shouldPause = slicing.startSlice();
    }
  }
}

function worldOptions(options: LiveOptions): WorldOptions {
  return options.keySecret ? { keySecret: options.keySecret, checkpoints: true } : { checkpoints: true };
}

/** Runs a loader written as a generator, pausing between slices; a checkpoint's bad field is the snapshot's. */
async function driveSliced<T>(steps: Generator<void, T>, slicing: Slicing): Promise<T> {
  let shouldPause = slicing.startSlice();
  for (;;) {
    let next: IteratorResult<void, T>;
    try {
      next = steps.next();
    } catch (error) {
      if (error instanceof CheckpointError) throw new SnapshotError(error.message);
      throw error;
    }
    if (next.done) return next.value;
    if (!shouldPause()) continue;
    await slicing.yieldNow();
    if (slicing.cancelled?.()) throw new SnapshotError('the restore was cancelled');
    shouldPause = slicing.startSlice();
  }
}

function recorded(
  request: ApiRequest,
  actorId: string | undefined,
  usage: Usage | undefined,
): RecordedRequest {
  const copy: RecordedRequest = { method: request.method.toUpperCase(), path: request.path };
  if (request.body !== undefined) copy.body = request.body; // written to text at once, so not copied
  if (actorId !== undefined) copy.actorId = actorId;
  if (usage !== undefined) copy.usage = usage;
  return copy;
}

function actorWithId(live: LiveWorld, id: string): Agent | Human | undefined {
  const state = live.world.platform.state;
  return state.agents.get(id) ?? state.humans.get(id);
}

/**
 * Every actor's counters as the snapshot's `usage` object, an actor a piece: JSON.stringify's text of the
 * object keyed by id in insertion order (an id is never an array index, which JSON.stringify would put first).
 */
function* usageParts(live: LiveWorld): Generator<string> {
  const state = live.world.platform.state;
  yield '{';
  let first = true;
  for (const actors of [state.agents.values(), state.humans.values()])
    for (const actor of actors) {
      yield `${first ? '' : ','}${JSON.stringify(actor.id)}:${JSON.stringify(actor.usage satisfies Usage)}`;
      first = false;
    }
  yield '}';
}

/** The state hash a snapshot states, worked out a piece of the state's text at a time, yielding between slices. */
export async function slicedStateHash(world: World, slicing: Slicing = UNSLICED): Promise<string> {
  const hash = createHash('sha256');
  let shouldPause = slicing.startSlice();
  for (const part of stateFingerprintParts(world.platform, { includeUsage: true })) {
    hash.update(part);
    if (!shouldPause()) continue;
    await slicing.yieldNow();
    shouldPause = slicing.startSlice();
  }
  return `sha256:${hash.digest('hex')}`;
}

/** `slicedStateHash` in one call. */
function stateHashOf(world: World): string {
  const hash = createHash('sha256');
  for (const part of stateFingerprintParts(world.platform, { includeUsage: true })) hash.update(part);
  return `sha256:${hash.digest('hex')}`;
}
