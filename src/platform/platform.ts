import { VirtualClock, toIso } from '../kernel/clock.js';
import { Rng, type AleaState } from '../kernel/rng.js';
import { Scheduler } from '../kernel/scheduler.js';
import { apiKey, uuidV4 } from '../kernel/ids.js';
import { ReplayableIds, type SavedReplayableIds } from '../kernel/replayable-ids.js';
import { HandleHistory } from './handle-history.js';
import { DEFAULT_RULESET, type Ruleset } from '../rules/ruleset.js';
import type { EventListener, PlatformEvent } from './events.js';
import { MockLedger } from '../escrow/ledger.js';
import { checkNetwork, DEFAULT_NETWORK, type NetworkConditions } from '../escrow/network.js';
import { emptyState, type Game, type PlatformState } from './state.js';

/** The id streams drawn through ReplayableIds, under the names they always had, so the ids stay what they were. */
const MOVE_ID_STREAM = 'id:move';
const ACTIVITY_ID_STREAM = 'id:activity';
/** How often each replayable stream notes its generator's state (see the constructor). */
const MOVE_ID_SPACING = 256;
const ACTIVITY_ID_SPACING = 64;

/** Time-driven transitions of the platform itself (not of agents). */
export type PlatformTimer =
  | { kind: 'turn_deadline'; gameId: string; deadlineMs: number }
  | { kind: 'challenge_expiry'; challengeId: string }
  | { kind: 'transfer_due'; transferId: string; attempt: number }
  | { kind: 'bounty_funding_deadline'; gameId: string }
  | {
      kind: 'tournament_timer';
      tournamentId: string;
      phase: 'registration_closes' | 'settlement_ends' | 'round_one';
    };

export type TimerHandler = (platform: Platform, timer: PlatformTimer) => void;
export type GameEndHook = (platform: Platform, game: Game) => void;

export interface PlatformOptions {
  seed: string;
  startMs: number;
  ruleset?: Ruleset;
  clock?: VirtualClock;
  /** Latency and faults of the mock Solana network (not platform rules, so not in the ruleset). */
  network?: NetworkConditions;
  /** Keep the ledger journal, so a run can be cross-checked against the real SVM afterwards. */
  ledgerJournal?: boolean;
  /**
   * A live server's per-start secret, mixed into every API key (see `apiKey`), so a second server with the
   * same (shipped) seed cannot reproduce a victim's key. Absent in runs, whose keys stay seeded only.
   */
  keySecret?: Uint8Array;
}

/** The platform's counters and id streams as a checkpoint keeps them (see `Platform.savedCounters`). */
export interface SavedCounters {
  readonly eventCount: number;
  /** Each id stream's generator state, by purpose, in the order first used. */
  readonly streams: ReadonlyArray<readonly [string, AleaState]>;
  readonly moveIds: SavedReplayableIds;
  readonly activityIds: SavedReplayableIds;
}

/**
 * The platform's plumbing: state, ruleset, clock, its own timer queue, seeded id streams and the event
 * log. It knows no rule; route-group modules (identity, challenges, games, ...) do the work.
 */
export class Platform {
  readonly state: PlatformState = emptyState();
  readonly ruleset: Ruleset;
  readonly clock: VirtualClock;
  readonly timers: Scheduler<PlatformTimer>;
  readonly rng: Rng;
  readonly ledger: MockLedger;
  readonly network: NetworkConditions;
  readonly treasuryAddress: string;
  #gameEndHooks: GameEndHook[] = [];
  #idStreams = new Map<string, Rng>();
  #listeners: EventListener[] = [];
  #timerHandlers = new Map<PlatformTimer['kind'], TimerHandler>();
  #eventCount = 0;
  /** Private, so no snapshot, report or log that walks the platform can carry it. */
  readonly #keySecret: Uint8Array | undefined;
  /**
   * Valid API keys already seen, to their actor's id, so a run hashes each key once rather than on every
   * request. Only when keys are seeded (no secret): such a key is reproducible from the run's seed anyway,
   * so holding it reveals nothing. A live server's keys are secrets and are never held (null here).
   */
  readonly seededKeyIds: Map<string, string> | null;
  #moveIds: ReplayableIds;
  #activityIds: ReplayableIds;
  /** Handles given up, by activity ordinal: the names rows show (see activity-rows.ts). */
  readonly handleHistory = new HandleHistory();

  constructor(options: PlatformOptions) {
    this.ruleset = options.ruleset ?? DEFAULT_RULESET;
    this.clock = options.clock ?? new VirtualClock(options.startMs);
    this.timers = new Scheduler<PlatformTimer>(this.clock);
    this.rng = new Rng(options.seed).fork('platform');
    this.#keySecret = options.keySecret;
    this.seededKeyIds = options.keySecret === undefined ? new Map() : null;
    // A game's moves are read together (one replay of the stretch they span), a page of activity rows one
    // by one: checkpoints every 256 move ids cost an eighth of a byte a move, every 64 row ids keep a row's
    // id within 64 draws.
    this.#moveIds = new ReplayableIds(this.stream(MOVE_ID_STREAM), MOVE_ID_SPACING);
    this.#activityIds = new ReplayableIds(this.stream(ACTIVITY_ID_STREAM), ACTIVITY_ID_SPACING);
    this.network = options.network ?? DEFAULT_NETWORK;
    const problems = checkNetwork(this.network);
    if (problems.length > 0) throw new Error(`bad network conditions: ${problems.join('; ')}`);
    this.ledger = new MockLedger({
      rentExemptMinimum: this.ruleset.escrow.rentExemptMinimumLamports,
      journal: options.ledgerJournal ?? false,
    });
    // Opened before any listener exists, so a platform's first event is still the first registration.
    this.treasuryAddress = this.ledger.open('treasury', this.stream('treasury'));
    this.ledger.mint(this.treasuryAddress, this.ruleset.escrow.treasuryLamports);
  }

  /** Move ids, drawn again from their ordinals when a finished game's moves are read (see GameRecord). */
  get moveIds(): ReplayableIds {
    return this.#moveIds;
  }

  /** Activity row ids, drawn again from their ordinals when a row is read (see activity-rows.ts). */
  get activityIds(): ReplayableIds {
    return this.#activityIds;
  }

  /** What a checkpoint keeps of the platform's counters and id streams (src/platform/checkpoint.ts). */
  savedCounters(): SavedCounters {
    return {
      eventCount: this.#eventCount,
      streams: [...this.#idStreams].map(([purpose, rng]) => [purpose, rng.state()]),
      moveIds: this.#moveIds.save(),
      activityIds: this.#activityIds.save(),
    };
  }

  /**
   * Continues a checkpoint's counters and id streams on a platform just made with the same options: each
   * stream resumes at its saved state (one drawn from since is replaced), the replayable ones with their
   * noted states. Before any record that holds the replayable streams is restored.
   */
  restoreCounters(saved: SavedCounters): void {
    this.#eventCount = saved.eventCount;
    for (const [purpose, state] of saved.streams)
      this.#idStreams.set(purpose, Rng.resume(this.rng.seed, `${this.rng.path}/${purpose}`, state));
    this.#moveIds = ReplayableIds.restore(this.stream(MOVE_ID_STREAM), MOVE_ID_SPACING, saved.moveIds);
    this.#activityIds = ReplayableIds.restore(
      this.stream(ACTIVITY_ID_STREAM),
      ACTIVITY_ID_SPACING,
      saved.activityIds,
    );
  }

  registerGameEndHook(hook: GameEndHook): void {
    this.#gameEndHooks.push(hook);
  }

  /** Called by the games module after a game is completed and rated. */
  gameEnded(game: Game): void {
    for (const hook of this.#gameEndHooks) hook(this, game);
  }

  get nowMs(): number {
    return this.clock.nowMs;
  }

  get eventCount(): number {
    return this.#eventCount;
  }

  iso(ms: number): string {
    return toIso(ms);
  }

  /** A seeded stream per purpose, so e.g. drawing a move id never shifts the next agent id. */
  stream(purpose: string): Rng {
    let stream = this.#idStreams.get(purpose);
    if (!stream) {
      stream = this.rng.fork(purpose);
      this.#idStreams.set(purpose, stream);
    }
    return stream;
  }

  /** A new agent's or human's API key: the seeded draw, keyed with the server's secret when there is one. */
  newApiKey(): string {
    return apiKey(this.stream('api-keys'), this.#keySecret);
  }

  newId(purpose: string): string {
    const stream = `id:${purpose}`;
    // Replayed streams are drawn again by ordinal; a draw from one of them elsewhere would shift them all.
    if (stream === MOVE_ID_STREAM || stream === ACTIVITY_ID_STREAM)
      throw new Error(`${purpose} ids come from their replayable stream`);
    return uuidV4(this.stream(stream));
  }

  onEvent(listener: EventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  emit(event: PlatformEvent): void {
    this.#eventCount++;
    for (const listener of this.#listeners) listener(event);
  }

  registerTimerHandler(kind: PlatformTimer['kind'], handler: TimerHandler): void {
    this.#timerHandlers.set(kind, handler);
  }

  setTimer(dueMs: number, timer: PlatformTimer): number {
    return this.timers.at(dueMs, timer);
  }

  cancelTimer(id: number | null): void {
    if (id !== null) this.timers.cancel(id);
  }

  nextTimerDueMs(): number | undefined {
    return this.timers.peekDueMs();
  }

  /**
   * Fires every platform timer due at or before `untilMs`, in due order, then moves the clock there.
   * Every request calls this first, so a deadline that has passed is settled before the request is
   * judged: time-driven transitions at an instant happen before requests at that instant.
   */
  advanceTo(untilMs: number): void {
    const bound = 10_000_000;
    let fired = 0;
    for (let event = this.timers.popDue(untilMs); event; event = this.timers.popDue(untilMs)) {
      if (++fired > bound) throw new Error('platform timers did not settle');
      const handler = this.#timerHandlers.get(event.payload.kind);
      if (!handler) throw new Error(`no handler for timer ${event.payload.kind}`);
      handler(this, event.payload);
    }
    if (untilMs > this.clock.nowMs) this.clock.advanceTo(untilMs);
  }
}
