/**
 * The process's stockfish.wasm pool: a fixed number of instances, each in a worker thread of its own
 * (worker-engine.ts), started lazily (one more each time a search finds every instance busy and the pool
 * is not full) and never terminated during a run, because each start and stop leaks. A search goes to the
 * instance with the fewest searches queued at once, so the engines work through their queues while the
 * world runs; it waits in the pool's queue only while instances start. Answers are cached by position and
 * settings (cache.ts). Every search is independent of the instance and of its history (wasm-engine.ts), so
 * the pool size changes only how fast answers come, never what they are.
 */
import { availableParallelism } from 'node:os';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { AnswerCache, cacheKey, DEFAULT_CACHE_ENTRIES } from './cache.js';
import type { SearchResult } from './uci-lines.js';
import type { SearchRequest } from './wasm-engine.js';
import { WorkerEngine, type EngineJob } from './worker-engine.js';

export type { SearchLine, SearchResult } from './uci-lines.js';
export type { SearchRequest } from './wasm-engine.js';

export interface PoolStats {
  /** Searches the engines ran (cache misses). */
  searches: number;
  /** Requests answered from the cache, including those that joined a search already running. */
  cacheHits: number;
}

export interface PoolOptions {
  size: number;
  /** LRU bound of the answer cache; 0 turns caching off (the bench measures bare engine cost that way). */
  cacheEntries?: number;
}

/** Above this the pool is surely misconfigured (each instance holds a worker thread and its memory). */
const MAX_POOL_SIZE = 64;
/** Stockfish's own MultiPV maximum. */
const MAX_MULTI_PV = 500;

export class EnginePool {
  static #shared: EnginePool | undefined;

  /**
   * The process's pool. The first call fixes its size (`size`, else `ACS_ENGINE_POOL`, else one instance
   * per CPU but one); a later call naming a different size is an error. After `close()`, the next call
   * starts a new pool.
   */
  static shared(size?: number): EnginePool {
    const current = EnginePool.#shared;
    if (current && size !== undefined && size !== current.size)
      throw new Error(`the engine pool already runs with ${current.size} instances, not ${size}`);
    EnginePool.#shared = current ?? new EnginePool({ size: size ?? defaultPoolSize() });
    return EnginePool.#shared;
  }

  /**
   * Stops the process's pool if one was started. A run calls it when its world has finished, so the
   * instances' threads and the answer cache are freed before the report is written (the peak of a long run).
   */
  static closeShared(): void {
    EnginePool.#shared?.close();
  }

  readonly size: number;
  readonly #cache: AnswerCache<Promise<SearchResult>>;
  readonly #engines: WorkerEngine[] = [];
  /** Searches no instance has taken yet (only while instances start). */
  readonly #queue: EngineJob[] = [];
  #starting = 0;
  #searches = 0;
  #closed = false;

  constructor(options: PoolOptions) {
    checkPoolSize(options.size, 'pool size');
    this.size = options.size;
    this.#cache = new AnswerCache(options.cacheEntries ?? DEFAULT_CACHE_ENTRIES);
  }

  /** The answer for `request`: from the cache, or from the next free instance. Results are frozen (shared). */
  search(request: SearchRequest): Promise<SearchResult> {
    if (this.#closed) throw new Error('engine pool is closed');
    const key = cacheKey(request);
    const cached = this.#cache.get(key);
    if (cached) return cached;
    checkRequest(request);
    const answer = new Promise<SearchResult>((resolve, reject) => {
      this.#queue.push({ request, resolve: (result) => resolve(freezeResult(result)), reject });
      this.#pump();
    });
    this.#cache.set(key, answer);
    // A failed search is not an answer: forget it (the caller still sees the rejection).
    answer.catch(() => this.#cache.delete(key));
    return answer;
  }

  stats(): PoolStats {
    return { searches: this.#searches, cacheHits: this.#cache.hits };
  }

  /** Instances started so far (at most `size`). */
  get started(): number {
    return this.#engines.length;
  }

  /**
   * Stops every instance and refuses further searches. A run need not call it: idle instances do not keep
   * the process alive. After closing the shared pool, `shared()` starts a new one.
   */
  close(): void {
    this.#closed = true;
    const closed = new Error('engine pool closed');
    for (const engine of this.#engines.splice(0)) engine.terminate(closed);
    for (const job of this.#queue.splice(0)) job.reject(closed);
    if (EnginePool.#shared === this) EnginePool.#shared = undefined;
  }

  /**
   * Hands queued searches to instances: an idle one takes a search at once; when all are busy the pool
   * first grows to its size, and only a full pool queues a search behind others on the least busy instance.
   */
  #pump(): void {
    while (this.#queue.length > 0) {
      const engine = this.#leastBusy();
      const canGrow = this.#engines.length + this.#starting < this.size;
      if (engine && (engine.load === 0 || (!canGrow && this.#starting === 0))) {
        this.#run(engine, this.#queue.shift()!);
      } else {
        if (canGrow) this.#grow();
        return;
      }
    }
  }

  #leastBusy(): WorkerEngine | undefined {
    let best: WorkerEngine | undefined;
    for (const engine of this.#engines) if (!best || engine.load < best.load) best = engine;
    return best;
  }

  /** Starts instances for waiting jobs that no instance (running or starting) will take soon, up to `size`. */
  #grow(): void {
    const room = this.size - this.#engines.length - this.#starting;
    const wanted = Math.min(room, this.#queue.length - this.#starting);
    for (let i = 0; i < wanted; i++) {
      this.#starting++;
      WorkerEngine.start((engine, unanswered) => this.#dropBroken(engine, unanswered)).then(
        (engine) => this.#started(engine),
        (error: unknown) => this.#failedToStart(error),
      );
    }
  }

  #started(engine: WorkerEngine): void {
    this.#starting--;
    if (this.#closed) {
      engine.terminate(new Error('engine pool closed'));
      return;
    }
    this.#engines.push(engine);
    this.#pump();
  }

  /** The engine cannot load (a broken install): every waiting search fails with that error, loudly. */
  #failedToStart(error: unknown): void {
    this.#starting--;
    for (const job of this.#queue.splice(0)) job.reject(error);
  }

  #run(engine: WorkerEngine, job: EngineJob): void {
    this.#searches++;
    engine.search(job);
  }

  /** A hung or dead instance is dropped (a later search may start a replacement); its queue runs elsewhere. */
  #dropBroken(engine: WorkerEngine, unanswered: EngineJob[]): void {
    const at = this.#engines.indexOf(engine);
    if (at >= 0) this.#engines.splice(at, 1);
    if (this.#closed) return;
    this.#searches -= unanswered.length;
    this.#queue.unshift(...unanswered);
    this.#pump();
  }
}

/**
 * One instance per CPU but one (the world's own loop needs a core), or `ACS_ENGINE_POOL`. Reading the
 * environment here is safe for determinism: the pool size never changes an answer, only its speed.
 */
export function defaultPoolSize(): number {
  const fromEnv = process.env['ACS_ENGINE_POOL']; // eslint-disable-line no-restricted-properties -- see above
  if (fromEnv !== undefined && fromEnv !== '') return checkPoolSize(Number(fromEnv), 'ACS_ENGINE_POOL');
  return Math.max(1, availableParallelism() - 1);
}

function checkPoolSize(size: number, what: string): number {
  if (!Number.isInteger(size) || size < 1 || size > MAX_POOL_SIZE)
    throw new Error(`${what} must be an integer from 1 to ${MAX_POOL_SIZE}, got ${size}`);
  return size;
}

/**
 * A malformed request could hang the engine (stockfish.wasm does not survive an invalid position) or smuggle
 * a second UCI command through a newline, so it is refused before it reaches an instance.
 */
function checkRequest(request: SearchRequest): void {
  if (!Number.isSafeInteger(request.nodes) || request.nodes < 1)
    throw new Error(`search nodes must be a positive integer, got ${request.nodes}`);
  if (!Number.isInteger(request.multiPv) || request.multiPv < 1 || request.multiPv > MAX_MULTI_PV) {
    throw new Error(`search multiPv must be an integer from 1 to ${MAX_MULTI_PV}, got ${request.multiPv}`);
  }
  if (!isSearchablePosition(request.fen))
    throw new Error(`search fen is not a legal standard position: ${JSON.stringify(request.fen)}`);
}

/**
 * Positions found searchable lately. The engine persona asks about each position twice: the pool checks it
 * when the search is asked for, and the persona again when its think ends, with other agents' searches in
 * between (about one per engine agent). A check costs 20-60 us and 10 KB of garbage (chessops' parser); a
 * remembered answer is the same answer, since the check depends on the text alone.
 */
const recentlySearchable = new AnswerCache<true>(1_024);

/** A FEN the engine may be asked about: printable ASCII (no second command), a legal standard position. */
export function isSearchablePosition(fen: string): boolean {
  if (recentlySearchable.get(fen)) return true;
  const setup = /^[\x20-\x7e]+$/.test(fen) ? parseFen(fen) : undefined;
  const searchable = setup?.isOk === true && Chess.fromSetup(setup.value).isOk;
  if (searchable) recentlySearchable.set(fen, true);
  return searchable;
}

function freezeResult(result: SearchResult): SearchResult {
  for (const line of result.lines) Object.freeze(line);
  Object.freeze(result.lines);
  return Object.freeze(result);
}
