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
  if (!isPlainObject(value)) return undefined;
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

/** A value's canonical line, newline included: the text a fingerprint hashes for it. */
function lineText(value: unknown, orders: KeyOrders): string {
  const flat = isRecord(value) ? flatCanonicalJson(value, orders) : undefined;
  return `${flat ?? canonicalJson(value)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only a plain object's for-in walk is its Object.keys (KeyOrders matches shapes by it). */
function isPlainObject(value: Record<string, unknown>): boolean {
  return Object.getPrototypeOf(value) === Object.prototype;
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
  /** The same prefixes in UTF-8, for lines written straight into bytes (LineBytes). */
  readonly firstPrefixBytes: readonly Uint8Array[];
  readonly prefixBytes: readonly Uint8Array[];
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
  const firstPrefixes = sorted.map((key) => `${JSON.stringify(key)}:`);
  const prefixes = sorted.map((key) => `,${JSON.stringify(key)}:`);
  return {
    keys,
    sorted,
    firstPrefixes,
    prefixes,
    firstPrefixBytes: firstPrefixes.map((prefix) => Buffer.from(prefix, 'utf8')),
    prefixBytes: prefixes.map((prefix) => Buffer.from(prefix, 'utf8')),
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

/**
 * Lines are gathered as bytes up to this many before node's hash takes them: one native call per few hundred
 * events, and a buffer made once.
 */
const LINE_BYTES = 1 << 16;
/**
 * Room left free for each line when it begins, so that a line is written without moving what is before it;
 * a line that outgrows what is left (events are a few hundred bytes) is written again as text.
 */
const LINE_ROOM = 1 << 12;
/** The most UTF-8 bytes a UTF-16 code unit takes (a surrogate pair's two units take four). */
const MAX_BYTES_PER_UNIT = 3;
/** A safe integer's most characters: a sign and 16 digits. */
const MAX_INTEGER_CHARS = 17;
/** Where the byte writers below give up: the piece does not fit, or the value is not flat. */
const GAVE_UP = -1;

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Node's hash fed from a reused buffer into which each line is written as UTF-8 while it is made, for a
 * fingerprint whose text nobody reads (no sink, no state to save): no string of a line, or of a chunk of
 * lines, is built for node to flatten and encode again. The bytes are the text's UTF-8, so the digest is the
 * string path's.
 */
class LineBytes {
  readonly #hash = createHash('sha256');
  readonly #bytes = Buffer.alloc(LINE_BYTES);
  /** Bytes written and not yet hashed: whole lines. */
  #filled = 0;

  constructor(readonly orders: KeyOrders) {}

  add(value: unknown): void {
    if (this.#filled + LINE_ROOM > LINE_BYTES) this.#hashWritten();
    const end = isRecord(value) ? writeFlatLine(this.#bytes, this.#filled, value, this.orders) : GAVE_UP;
    if (end === GAVE_UP) this.#writeLineText(lineText(value, this.orders));
    else this.#filled = end;
  }

  hexDigest(): string {
    this.#hashWritten();
    return this.#hash.copy().digest('hex');
  }

  /** A line the byte writer gave up on, as text; one too long for the buffer goes to the hash as it is. */
  #writeLineText(line: string): void {
    if (this.#filled + line.length * MAX_BYTES_PER_UNIT > LINE_BYTES) this.#hashWritten();
    if (line.length * MAX_BYTES_PER_UNIT > LINE_BYTES) this.#hash.update(line);
    else this.#filled += this.#bytes.write(line, this.#filled, 'utf8');
  }

  #hashWritten(): void {
    if (this.#filled > 0) this.#hash.update(this.#bytes.subarray(0, this.#filled));
    this.#filled = 0;
  }
}

/**
 * flatCanonicalJson's line and its newline, written into `bytes` from `at`: the end, or GAVE_UP for an object
 * that is not plain or not flat, or a line that does not fit.
 */
function writeFlatLine(
  bytes: Buffer,
  start: number,
  value: Record<string, unknown>,
  orders: KeyOrders,
): number {
  if (!isPlainObject(value)) return GAVE_UP;
  const order = orders.of(value);
  // The line's start has LINE_ROOM free (LineBytes.add).
  let at = start;
  bytes[at++] = OPEN_BRACE;
  let first = true;
  for (let i = 0; i < order.sorted.length; i++) {
    const v = value[order.sorted[i]!];
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object') return GAVE_UP;
    at = writePiece(bytes, at, first ? order.firstPrefixBytes[i]! : order.prefixBytes[i]!);
    if (at !== GAVE_UP) at = writePrimitive(bytes, at, v);
    if (at === GAVE_UP) return GAVE_UP;
    first = false;
  }
  if (at + 2 > bytes.length) return GAVE_UP;
  bytes[at++] = CLOSE_BRACE;
  bytes[at++] = NEWLINE;
  return at;
}

function writePiece(bytes: Buffer, at: number, piece: Uint8Array): number {
  if (at + piece.length > bytes.length) return GAVE_UP;
  for (let i = 0; i < piece.length; i++) bytes[at + i] = piece[i]!;
  return at + piece.length;
}

/** primitiveJson's text, its commonest cases (a string needing no escape, a safe integer) byte by byte. */
function writePrimitive(bytes: Buffer, at: number, v: unknown): number {
  if (typeof v === 'string') return writeString(bytes, at, v);
  if (Number.isSafeInteger(v)) return writeInteger(bytes, at, v as number);
  return writeText(bytes, at, primitiveJson(v));
}

/** A quoted string; one with a character that is escaped or is not ASCII is left to primitiveJson. */
function writeString(bytes: Buffer, start: number, v: string): number {
  if (start + v.length + 2 > bytes.length) return GAVE_UP;
  let at = start;
  bytes[at++] = QUOTE;
  for (let i = 0; i < v.length; i++) {
    const code = v.charCodeAt(i);
    if (code < 0x20 || code === QUOTE || code === BACKSLASH || code >= 0x80)
      return writeText(bytes, start, primitiveJson(v));
    bytes[at++] = code;
  }
  bytes[at++] = QUOTE;
  return at;
}

/** A safe integer in decimal, as `${v}` writes it (-0 as 0): in two parts, as largeIntegerText does. */
function writeInteger(bytes: Buffer, start: number, v: number): number {
  if (start + MAX_INTEGER_CHARS > bytes.length) return GAVE_UP;
  let at = start;
  let n = v;
  if (n < 0) {
    bytes[at++] = MINUS;
    n = -n;
  }
  if (n < MILLION) return writeDigits(bytes, at, n, 1);
  const millions = Math.floor(n / MILLION);
  return writeDigits(bytes, writeDigits(bytes, at, millions, 1), n - millions * MILLION, 6);
}

/** A non-negative integer's digits, zero-padded to `width`; the caller has made room. */
function writeDigits(bytes: Buffer, at: number, n: number, width: number): number {
  let digits = 1;
  for (let power = 10; power <= n; power *= 10) digits++;
  const end = at + Math.max(digits, width);
  let rest = n;
  for (let i = end - 1; i >= at; i--) {
    const tens = Math.floor(rest / 10);
    bytes[i] = ZERO + rest - tens * 10;
    rest = tens;
  }
  return end;
}

function writeText(bytes: Buffer, at: number, text: string): number {
  if (at + text.length * MAX_BYTES_PER_UNIT > bytes.length) return GAVE_UP;
  return at + bytes.write(text, at, 'utf8');
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
  /** Where lines go instead of `#pending` when nobody reads their text (see LineBytes). */
  readonly #bytes: LineBytes | undefined;

  constructor(sink?: (text: string) => void, options: FingerprintOptions = {}) {
    this.#sink = sink;
    this.#hash = options.exportable ? new ExportableHash() : nodeHash();
    if (sink === undefined && !options.exportable) this.#bytes = new LineBytes(this.#orders);
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
    const fingerprint = new Fingerprint(sink, { exportable: true });
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
    this.#lines++;
    if (this.#bytes !== undefined) {
      this.#bytes.add(value);
      return;
    }
    this.#pending += lineText(value, this.#orders);
    if (this.#pending.length >= CHUNK_CHARS) this.#flush();
  }

  get lines(): number {
    return this.#lines;
  }

  digest(): string {
    if (this.#bytes !== undefined) return `sha256:${this.#bytes.hexDigest()}`;
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
