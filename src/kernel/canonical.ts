import { createHash, type Hash } from 'node:crypto';

/** JSON with object keys sorted at every level: one value, one text, on every machine. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function prettyCanonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * The same text as canonicalJson for an object whose values are all primitives (every platform event),
 * without building a sorted copy; undefined when a value is an object (the caller falls back). The sorted
 * keys and their quoted prefixes are worked out once per shape (see KeyOrders).
 */
function flatCanonicalJson(value: Record<string, unknown>, orders: KeyOrders): string | undefined {
  const order = orders.of(value);
  let out = '{';
  let first = true;
  for (let i = 0; i < order.sorted.length; i++) {
    const v = value[order.sorted[i]!];
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object') return undefined;
    out += first ? order.firstPrefixes[i] : order.prefixes[i];
    out += JSON.stringify(v);
    first = false;
  }
  return `${out}}`;
}

interface KeyOrder {
  /** The keys in insertion order, as Object.keys gives them: what identifies the shape. */
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  /** `"key":` and `,"key":` for each sorted key. */
  readonly firstPrefixes: readonly string[];
  readonly prefixes: readonly string[];
}

/**
 * Sorted key orders by shape. Events of one type share one or two shapes (optional fields), so a shape is
 * found by its `type` and then by comparing key lists, which are internalised strings.
 */
class KeyOrders {
  readonly #byType = new Map<unknown, KeyOrder[]>();

  of(value: Record<string, unknown>): KeyOrder {
    const keys = Object.keys(value);
    const type = value['type'];
    let known = this.#byType.get(type);
    if (known === undefined) {
      known = [];
      this.#byType.set(type, known);
    }
    for (const order of known) if (sameKeys(order.keys, keys)) return order;
    const order = keyOrder(keys);
    // A bound for objects without a type field that vary their keys; events never come near it.
    if (known.length < 64) known.push(order);
    return order;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function keyOrder(keys: string[]): KeyOrder {
  const sorted = [...keys].sort();
  return {
    keys,
    sorted,
    firstPrefixes: sorted.map((key) => `${JSON.stringify(key)}:`),
    prefixes: sorted.map((key) => `,${JSON.stringify(key)}:`),
  };
}

/**
 * Canonical lines are hashed in chunks of about this many characters: one native call per few dozen events,
 * and a chunk short-lived enough to die in the young generation.
 */
const CHUNK_CHARS = 1 << 13;

/**
 * A running SHA-256 over canonical lines: the fingerprint of an event log without keeping the log. A `sink`
 * (`run --events`) receives the very text hashed, in order, a chunk at a time, so the file it writes hashes
 * to the fingerprint.
 */
export class Fingerprint {
  readonly #hash: Hash = createHash('sha256');
  readonly #sink: ((text: string) => void) | undefined;
  readonly #orders = new KeyOrders();
  /** Lines not yet fed to the hash (SHA-256 of the concatenation is the same however it is chunked). */
  #pending = '';
  #lines = 0;

  constructor(sink?: (text: string) => void) {
    this.#sink = sink;
  }

  add(value: unknown): void {
    const flat =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? flatCanonicalJson(value as Record<string, unknown>, this.#orders)
        : undefined;
    this.#pending += flat ?? canonicalJson(value);
    this.#pending += '\n';
    this.#lines++;
    if (this.#pending.length >= CHUNK_CHARS) this.#flush();
  }

  get lines(): number {
    return this.#lines;
  }

  digest(): string {
    this.#flush();
    return `sha256:${this.#hash.copy().digest('hex')}`;
  }

  #flush(): void {
    if (this.#pending === '') return;
    this.#hash.update(this.#pending);
    this.#sink?.(this.#pending);
    this.#pending = '';
  }
}
