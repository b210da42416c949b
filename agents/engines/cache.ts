/**
 * The engine answer cache: a least-recently-used map from (position, settings) to a search's answer.
 *
 * The key is the FULL FEN plus the node budget and the MultiPV count. The halfmove clock must stay in it
 * (Stockfish scores positions near the fifty-move rule differently); the fullmove number does not change a
 * node-budgeted search, but dropping it would gain little (a position nearly always recurs at the same move
 * number) against a risk argued only from the engine's internals, so the whole FEN is the key.
 */
export interface CacheKeyParts {
  fen: string;
  nodes: number;
  multiPv: number;
}

export function cacheKey(parts: CacheKeyParts): string {
  return `${parts.fen}|n${parts.nodes}|m${parts.multiPv}`;
}

/** About 1 KB an entry: 50k entries bound the cache near 50 MB. */
export const DEFAULT_CACHE_ENTRIES = 50_000;

export class AnswerCache<V> {
  readonly capacity: number;
  /** A Map iterates in insertion order: re-inserting on use keeps the least recently used entry first. */
  readonly #entries = new Map<string, V>();
  #hits = 0;
  #misses = 0;

  constructor(capacity = DEFAULT_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(capacity) || capacity < 0)
      throw new Error(`cache capacity must be a non-negative integer, got ${capacity}`);
    this.capacity = capacity;
  }

  /** The cached value (now the most recently used), counting a hit or a miss. */
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    if (this.capacity === 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  get hits(): number {
    return this.#hits;
  }

  get misses(): number {
    return this.#misses;
  }
}
