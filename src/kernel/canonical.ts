import { createHash } from 'node:crypto';
import { Field, type Json } from './checkpoint.js';
import { Sha256 } from './sha256.js';

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
 * The same text as canonicalJson for a plain object whose values are all primitives (every platform
 * event), without building a sorted copy; undefined when a value is an object or the object is not plain
 * (the caller falls back). The sorted keys and their quoted prefixes are worked out once per shape (see
 * KeyOrders).
 */
function flatCanonicalJson(value: Record<string, unknown>, orders: KeyOrders): string | undefined {
  // Only a plain object's for-in walk is its Object.keys (KeyOrders matches shapes by it).
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const order = orders.of(value);
  let out = '{';
  let first = true;
  for (let i = 0; i < order.sorted.length; i++) {
    const v = value[order.sorted[i]!];
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object') return undefined;
    out += first ? order.firstPrefixes[i] : order.prefixes[i];
    out += primitiveJson(v);
    first = false;
  }
  return `${out}}`;
}

/**
 * A primitive's JSON.stringify text, the two commonest cases written directly: a string that needs no
 * escape is quoted as it is, and a finite number's JSON text is its JavaScript text.
 */
function primitiveJson(v: unknown): string {
  if (typeof v === 'string') return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
  if (typeof v !== 'number' || !Number.isFinite(v)) return JSON.stringify(v);
  return v >= MILLION && Number.isSafeInteger(v) ? largeIntegerText(v) : `${v}`;
}

const MILLION = 1_000_000;
/** 000 to 999. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => `${n}`.padStart(3, '0'));

/**
 * A safe integer of at least a million (every time in milliseconds) in decimal, as `${v}` writes it: in
 * parts small enough for the engine's integer printing, which a double of 13 digits does not get.
 */
function largeIntegerText(v: number): string {
  const millions = Math.floor(v / MILLION);
  const rest = v - millions * MILLION;
  const thousands = Math.floor(rest / 1000);
  return `${millions}${THREE_DIGITS[thousands]!}${THREE_DIGITS[rest - thousands * 1000]!}`;
}

/** What JSON.stringify escapes in a string: a quote, a backslash, a control character, a surrogate half. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

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
    const type = value['type'];
    let known = this.#byType.get(type);
    if (known === undefined) {
      known = [];
      this.#byType.set(type, known);
    }
    // Matched key by key as for-in walks them (a plain object's own keys, in Object.keys' order): no list
    // of keys is made per event.
    for (const order of known) if (hasKeys(value, order.keys)) return order;
    const order = keyOrder(Object.keys(value));
    // A bound for objects without a type field that vary their keys; events never come near it.
    if (known.length < 64) known.push(order);
    return order;
  }
}

/** Whether a plain object's own keys are `keys`, in that order. */
function hasKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (key !== keys[i++]) return false;
  return i === keys.length;
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

/** The running hash under a fingerprint: node's (native, the default) or one whose state can be saved. */
interface LineHash {
  update(text: string): void;
  hexDigest(): string;
}

function nodeHash(): LineHash {
  const hash = createHash('sha256');
  return {
    update: (text) => hash.update(text),
    hexDigest: () => hash.copy().digest('hex'),
  };
}

/** SHA-256 of the UTF-8 bytes, as node's hash takes a string. */
class ExportableHash implements LineHash {
  readonly #encoder = new TextEncoder();

  constructor(readonly sha: Sha256 = new Sha256()) {}

  update(text: string): void {
    this.sha.update(this.#encoder.encode(text));
  }

  hexDigest(): string {
    return this.sha.hexDigest();
  }
}

export interface FingerprintOptions {
  /**
   * Hash with a SHA-256 whose running state `save` can write out (a checkpointed world goes on hashing
   * after its restore). Same digests as the default, node's native hash, which cannot export its state.
   */
  exportable?: boolean;
}

/**
 * A running SHA-256 over canonical lines: the fingerprint of an event log without keeping the log. A `sink`
 * (`run --events`) receives the very text hashed, in order, a chunk at a time, so the file it writes hashes
 * to the fingerprint.
 */
export class Fingerprint {
  /** Set once, by the constructor or by `load`. */
  #hash: LineHash;
  readonly #sink: ((text: string) => void) | undefined;
  /** A cache of key orders: what it holds changes no line's text, so a checkpoint leaves it out. */
  readonly #orders = new KeyOrders();
  /** Lines not yet fed to the hash (SHA-256 of the concatenation is the same however it is chunked). */
  #pending = '';
  #lines = 0;

  constructor(sink?: (text: string) => void, options: FingerprintOptions = {}) {
    this.#sink = sink;
    this.#hash = options.exportable ? new ExportableHash() : nodeHash();
  }

  /** Whether `save` can write this fingerprint's state (made with `{ exportable: true }`, or by `load`). */
  get exportable(): boolean {
    return this.#hash instanceof ExportableHash;
  }

  /**
   * The running state of an exportable fingerprint: the hash's state, the lines not yet hashed (nor given
   * to the sink) and the line count. A programming error (plain Error) for node's hash, which has no state
   * to give.
   */
  save(): Json {
    if (!(this.#hash instanceof ExportableHash))
      throw new Error('a fingerprint made without { exportable: true } cannot save its state');
    return { sha256: this.#hash.sha.save(), pending: this.#pending, lines: this.#lines };
  }

  /** An exportable fingerprint that goes on from a saved state; the sink receives the pending lines next. */
  static load(field: Field, sink?: (text: string) => void): Fingerprint {
    const fingerprint = new Fingerprint(sink);
    field.record((get) => {
      fingerprint.#hash = new ExportableHash(Sha256.load(get('sha256')));
      const pending = get('pending').str();
      // Whole lines only: the hash is fed at line ends.
      if (pending !== '' && !pending.endsWith('\n'))
        get('pending').fail('whole lines, each ending in a newline');
      fingerprint.#pending = pending;
      fingerprint.#lines = get('lines').nat();
      if (pending.split('\n').length - 1 > fingerprint.#lines)
        get('lines').fail('at least the pending lines');
    });
    return fingerprint;
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
    return `sha256:${this.#hash.hexDigest()}`;
  }

  #flush(): void {
    if (this.#pending === '') return;
    this.#hash.update(this.#pending);
    this.#sink?.(this.#pending);
    this.#pending = '';
  }
}
