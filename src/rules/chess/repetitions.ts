/**
 * How many times each position key was seen since a game's last irreversible move (see Board in chess.ts).
 * A Map keyed by the key text hashed each new key, some fifty characters, on every move, which cost more
 * than everything else a move's repetition count needs. The window is short (the fifty-move rule bounds it,
 * and a capture or pawn move empties it), so the keys are kept in an array in the order first seen, each
 * with a 32-bit hash that a search compares first: the text is compared only where the hashes agree, so
 * the counts stay exact. It reads like the Map it replaces (get, entries, values), which is what
 * snapshots and checkpoints read.
 */
export class RepetitionWindow {
  readonly #keys: string[] = [];
  readonly #hashes: number[] = [];
  readonly #counts: number[] = [];
  /**
   * How many of the arrays' slots hold this window's keys: a restart sets it to 0 and later keys overwrite
   * the slots, rather than the arrays shrinking and growing again after every capture or pawn move.
   */
  #size = 0;

  /** A window holding these counts, in this order (a saved window, or a Map's entries). */
  static of(entries: Iterable<readonly [string, number]>): RepetitionWindow {
    const window = new RepetitionWindow();
    for (const [key, count] of entries) window.#put(key, keyTextHash(key), count);
    return window;
  }

  get size(): number {
    return this.#size;
  }

  get(key: string): number | undefined {
    return this.countOf(key, keyTextHash(key));
  }

  /** The key's count, given its keyHash (which the key's writer has at hand). */
  countOf(key: string, hash: number): number | undefined {
    const at = this.#indexOf(key, hash);
    return at < 0 ? undefined : this.#counts[at];
  }

  /** Counts one more sighting of the key (given its keyHash). */
  see(key: string, hash: number): void {
    const at = this.#indexOf(key, hash);
    if (at >= 0) this.#counts[at]!++;
    else this.#append(key, hash, 1);
  }

  /** Forgets every key, then counts this one (given its keyHash) once: after an irreversible move. */
  restart(key: string, hash: number): void {
    this.#size = 0;
    this.#append(key, hash, 1);
  }

  *entries(): IterableIterator<[string, number]> {
    for (let at = 0; at < this.#size; at++) yield [this.#keys[at]!, this.#counts[at]!];
  }

  *values(): IterableIterator<number> {
    for (let at = 0; at < this.#size; at++) yield this.#counts[at]!;
  }

  /** A Map's set: a key already held keeps its place and takes the new count. */
  #put(key: string, hash: number, count: number): void {
    const at = this.#indexOf(key, hash);
    if (at >= 0) this.#counts[at] = count;
    else this.#append(key, hash, count);
  }

  #append(key: string, hash: number, count: number): void {
    const at = this.#size++;
    this.#keys[at] = key;
    this.#hashes[at] = hash;
    this.#counts[at] = count;
  }

  #indexOf(key: string, hash: number): number {
    const hashes = this.#hashes;
    for (let at = 0; at < this.#size; at++) if (hashes[at] === hash && this.#keys[at] === key) return at;
    return -1;
  }
}

/**
 * A key's 32-bit hash from its bytes (a key is one-byte text): FNV-1a, cheap, and any piece moved changes
 * it. The key's writer hashes the bytes it wrote; a key known only as text is hashed through its bytes.
 */
export function keyHash(bytes: Uint8Array, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash;
}

function keyTextHash(key: string): number {
  const bytes = Buffer.from(key, 'latin1');
  return keyHash(bytes, bytes.length);
}
