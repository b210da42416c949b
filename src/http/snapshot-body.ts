import { Transform, type TransformCallback } from 'node:stream';
import type { Slicing } from '../sim/live.js';
import { MAX_BODY_DEPTH, readJsonBody, type BodyRead } from './server.js';
import { joinInSlices, type BodyChunks } from './body-chunks.js';
import { LazyJson, type LazyMember } from '../kernel/lazy-json.js';

/**
 * The restore route's body reader. A snapshot of a large world is mostly its `state` (140 MB of 153 for
 * 100,000 agents), which a restore never reads: it replays the inputs and checks the replayed world against
 * `stateHash`. Decoding and parsing the whole body in one go stalled every other client for seconds, so
 * this reader walks the bytes in slices, yielding between them, and decodes only what the restore uses:
 * every top-level member but `state`, with `usage` (one entry per actor) parsed a few hundred entries at a
 * time and `checkpoint` checked so but kept as a LazyJson, its rows parsed again as the restore reads them.
 * The answers are those of `readJsonBody` on the whole text (a checkpoint once read whole), except that the
 * `state` value is only scanned for its end (its brackets and strings), not parsed. A body whose outline the scan cannot follow
 * goes to `readJsonBody` whole, which gives the usual one-line refusal.
 */
const SKIPPED = 'state';
/** Members parsed a piece at a time: `usage` has an entry per actor, `checkpoint` the whole world (1.9 KB an agent). */
const SPLIT = new Set(['usage', 'checkpoint']);
/** The most text one JSON.parse takes (about 10 ms of a busy core); a larger object or list is read member by member. */
const BYTES_PER_PARSE = 1 << 19;
/**
 * The most text of an outlined value's members parsed together. Smaller than a parse's share: while the
 * collector marks a large heap, each allocation also pays for marking, and a 512 KB run of small rows took
 * 100-200 ms then (bench serve-scale); a run of 64 KB keeps a slice near its 10 ms.
 */
const BYTES_PER_RUN = 1 << 16;
const BYTES_PER_PAUSE_TEST = 1 << 16;

type Pauses = Pick<Slicing, 'startSlice' | 'yieldNow'>;

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

export async function readSnapshotBody(received: Buffer | BodyChunks, slicing: Pauses): Promise<BodyRead> {
  const bytes = Buffer.isBuffer(received) ? received : await joinInSlices(received, pacer(slicing));
  const outline = await outlineOf(bytes, 0, bytes.length, slicing);
  if (!outline || outline.deepest > MAX_BODY_DEPTH) return readJsonBody(bytes.toString('utf8'));
  const last = new Map(outline.members.map((m) => [m.key, m])); // a repeated key: the last wins, as in JSON.parse
  const split = [...last.values()].filter(
    (m) => SPLIT.has(m.key) && bytes[firstByte(bytes, m.valueStart)] === OPEN_OBJECT,
  );
  const kept = [...last.values()].filter((m) => m.key !== SKIPPED && !split.includes(m));
  const head = readJsonBody(textOf(bytes, kept));
  if ('refusal' in head) return head;
  const body = head.body as Record<string, unknown>;
  const pace = pacer(slicing);
  for (const member of split) {
    const keep = LAZY.has(member.key) ? 'lazy' : 'parsed';
    const value = await readValueInSlices(bytes, member.valueStart, member.valueEnd, { slicing, pace, keep });
    // Refused: the refusal of the whole (state aside), so that its field is named from the top (usage.<id>...).
    if (!value) return readJsonBody(textOf(bytes, [...kept, ...split]));
    body[member.key] = value.value;
  }
  return { body };
}

/** The JSON text of an object of these members. */
function textOf(bytes: Buffer, members: readonly Member[]): string {
  return `{${members.map((m) => bytes.toString('utf8', m.keyStart, m.valueEnd)).join(',')}}`;
}

/**
 * How a large member is kept once its text is checked: parsed into plain values, or (`checkpoint`, the whole
 * world) as a LazyJson whose rows are parsed as the restore reads them, so that they die young.
 */
const LAZY = new Set(['checkpoint']);

interface ReadPieces {
  slicing: Pauses;
  pace: () => Promise<void>;
  keep: 'parsed' | 'lazy';
}

/**
 * The JSON value in bytes[from, to), checked (and parsed) in pieces of at most BYTES_PER_PARSE: a larger
 * object or list is outlined and its members parsed in runs, a member too large for one piece read the same
 * way, with a pause test between pieces. Undefined when some piece is refused (the caller then refuses the whole).
 */
async function readValueInSlices(
  bytes: Buffer,
  from: number,
  to: number,
  read: ReadPieces,
): Promise<{ value: unknown } | undefined> {
  const start = firstByte(bytes, from);
  const isList = bytes[start] === OPEN_ARRAY;
  if (to - start <= BYTES_PER_PARSE || !(isList || bytes[start] === OPEN_OBJECT)) {
    const part = readJsonBody(bytes.toString('utf8', start, to));
    return 'refusal' in part ? undefined : { value: part.body };
  }
  const outline = isList
    ? await outlineOfList(bytes, start, to, read.slicing)
    : await outlineOf(bytes, start, to, read.slicing);
  if (!outline) return undefined;
  const into =
    read.keep === 'lazy' ? new LazyInto(bytes, isList) : isList ? new ListInto() : new ObjectInto();
  for (const run of runsOf(outline.members)) {
    await read.pace();
    if (run.length === 1 && run[0]!.valueEnd - run[0]!.valueStart > BYTES_PER_PARSE) {
      const one = await readValueInSlices(bytes, run[0]!.valueStart, run[0]!.valueEnd, read);
      if (!one) return undefined;
      into.add(run[0]!, one.value);
      continue;
    }
    const text = bytes.toString('utf8', run[0]!.keyStart, run[run.length - 1]!.valueEnd);
    const part = readJsonBody(isList ? `[${text}]` : `{${text}}`);
    if ('refusal' in part) return undefined;
    into.addRun(run, part.body);
  }
  return { value: into.value };
}

/** Consecutive members in runs of at most BYTES_PER_RUN of text; a larger member is a run of its own. */
function* runsOf(members: readonly Member[]): Generator<Member[]> {
  let run: Member[] = [];
  let bytes = 0;
  for (const member of members) {
    const size = member.valueEnd - member.keyStart;
    if (run.length > 0 && bytes + size > BYTES_PER_RUN) {
      yield run;
      [run, bytes] = [[], 0];
    }
    run.push(member);
    bytes += size;
  }
  if (run.length > 0) yield run;
}

/** Pauses when the slice is spent; a parse of up to BYTES_PER_PARSE is one unit of a slice. */
function pacer(slicing: Pauses): () => Promise<void> {
  const pause = chunkPacer(slicing);
  return async () => {
    await pause();
  };
}

/** As `pacer`, for a caller that runs on at once when no pause is due (a stream's chunk callback). */
function chunkPacer(slicing: Pauses): () => Promise<void> | undefined {
  let shouldPause = slicing.startSlice();
  return () => {
    if (!shouldPause()) return undefined;
    return slicing.yieldNow().then(() => {
      shouldPause = slicing.startSlice();
    });
  };
}

/** An object built from parsed pieces; each key an own property, as JSON.parse makes `__proto__` one. */
class ObjectInto {
  readonly value: Record<string, unknown> = {};
  add(member: Member, item: unknown): void {
    this.#set(member.key, item);
  }
  addRun(_run: Member[], part: unknown): void {
    for (const [key, item] of Object.entries(part as Record<string, unknown>)) this.#set(key, item);
  }
  #set(key: string, item: unknown): void {
    Object.defineProperty(this.value, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

class ListInto {
  readonly value: unknown[] = [];
  add(_member: Member, item: unknown): void {
    this.value.push(item);
  }
  addRun(_run: Member[], part: unknown): void {
    for (const item of part as unknown[]) this.value.push(item);
  }
}

/** The members' places only (their text is checked already); LazyJson parses each when it is read. */
class LazyInto {
  readonly #members: LazyMember[] = [];
  readonly value: LazyJson;
  constructor(bytes: Buffer, isList: boolean) {
    this.value = new LazyJson(isList ? 'list' : 'object', this.#members, (start, end) =>
      bytes.toString('utf8', start, end),
    );
  }
  add(member: Member, item: unknown): void {
    const nested = item instanceof LazyJson ? item : undefined;
    this.#members.push({ key: member.key, start: member.valueStart, end: member.valueEnd, nested });
  }
  addRun(run: Member[]): void {
    for (const m of run) this.#members.push({ key: m.key, start: m.valueStart, end: m.valueEnd });
  }
}

/**
 * The items of the JSON list in bytes[from, to), found as `outlineOf` finds an object's members (each item's
 * `keyStart` is its `valueStart`); undefined when the bytes are not shaped as one list.
 */
async function outlineOfList(
  bytes: Buffer,
  from: number,
  to: number,
  slicing: Pauses,
): Promise<Outline | undefined> {
  const start = firstByte(bytes, from);
  if (bytes[start] !== OPEN_ARRAY) return undefined;
  const members: Member[] = [];
  let [depth, deepest, inString, itemStart] = [1, 1, false, start + 1];
  const push = (end: number) => {
    const first = firstByte(bytes, itemStart);
    if (first >= end) return false; // an empty item: `[,` or `,]`
    members.push({ key: String(members.length), keyStart: first, valueStart: first, valueEnd: end });
    return true;
  };
  const pace = pacer(slicing);
  for (let i = start + 1; i < to; i++) {
    if ((i & (BYTES_PER_PAUSE_TEST - 1)) === 0) await pace();
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) deepest = Math.max(deepest, ++depth);
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (--depth > 0) continue;
      if (byte !== CLOSE_ARRAY) return undefined;
      const empty = members.length === 0 && firstByte(bytes, itemStart) === i;
      if (!empty && !push(i)) return undefined;
      return closed(bytes, i + 1, to, members, deepest);
    } else if (depth === 1 && byte === COMMA) {
      if (!push(i)) return undefined;
      itemStart = i + 1;
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function firstByte(bytes: Buffer, from: number): number {
  let i = from;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return i;
}

/** What the scan of one object found: its members' byte ranges and the deepest nesting inside it. */
interface Outline {
  members: Member[];
  deepest: number;
}

/**
 * The members of the JSON object in bytes[from, to), found by following strings and brackets only (UTF-8
 * keeps every structural character a single byte, so no decoding is needed); undefined when the bytes are
 * not shaped as one object. Values are not checked here: those that are kept are parsed afterwards.
 */
async function outlineOf(
  bytes: Buffer,
  from: number,
  to: number,
  slicing: Pauses,
): Promise<Outline | undefined> {
  const start = firstByte(bytes, from);
  if (bytes[start] !== OPEN_OBJECT) return undefined;
  const members: Member[] = [];
  let depth = 1;
  let deepest = 1;
  let inString = false;
  let expectKey = true;
  let keyStart = -1;
  let valueStart = -1;
  const pace = pacer(slicing);
  for (let i = start + 1; i < to; i++) {
    if ((i & (BYTES_PER_PAUSE_TEST - 1)) === 0) await pace();
    const byte = bytes[i]!;
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) {
      inString = true;
      if (depth === 1 && expectKey) {
        keyStart = i;
        expectKey = false;
      }
    } else if (depth === 1 && expectKey) {
      // Between `{` or `,` and a key: only spaces, or the `}` of an empty object.
      if (byte === CLOSE_OBJECT && members.length === 0 && keyStart === -1)
        return closed(bytes, i + 1, to, members, deepest);
      if (!isSpace(byte)) return undefined;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) deepest = Math.max(deepest, ++depth);
    else if (byte === CLOSE_ARRAY) {
      if (--depth < 1) return undefined;
    } else if (byte === CLOSE_OBJECT) {
      if (--depth > 0) continue;
      if (!pushMember(bytes, members, keyStart, valueStart, i)) return undefined;
      return closed(bytes, i + 1, to, members, deepest);
    } else if (depth === 1 && byte === COLON && valueStart === -1) valueStart = i + 1;
    else if (depth === 1 && byte === COMMA) {
      if (!pushMember(bytes, members, keyStart, valueStart, i)) return undefined;
      expectKey = true;
      valueStart = -1;
    }
  }
  return undefined;
}

function pushMember(
  bytes: Buffer,
  members: Member[],
  keyStart: number,
  valueStart: number,
  end: number,
): boolean {
  if (keyStart === -1 || valueStart === -1) return false;
  const keyEnd = valueStart - 1; // the colon; the key's text runs from its quote to the last quote before it
  let key: unknown;
  try {
    key = JSON.parse(bytes.toString('utf8', keyStart, keyEnd));
  } catch {
    return false;
  }
  if (typeof key !== 'string') return false;
  members.push({ key, keyStart, valueStart, valueEnd: end });
  return true;
}

/** The outline, when nothing but spaces follows the object's closing brace. */
function closed(
  bytes: Buffer,
  after: number,
  to: number,
  members: Member[],
  deepest: number,
): Outline | undefined {
  for (let i = after; i < to; i++) if (!isSpace(bytes[i]!)) return undefined;
  return { members, deepest };
}

/** A key longer than this is not `state`, and is not collected to find out. */
const MAX_KEY_BYTES = 64;
const NULL = Buffer.from('null');
/** Stands for a dropped state nested deeper than a body may be: readJsonBody refuses it as it would the original. */
const TOO_DEEP = Buffer.from(`${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}`);

/**
 * Drops the top-level `state` value of a restore body while it arrives, writing `null` in its place, so the
 * 140 MB a restore never reads are never held: holding them made the collector mark the whole heap (the
 * old world's, 800 MB for 100,000 agents) in pauses of 300-400 ms. Everything else passes unchanged; a
 * body that is not shaped as an object passes whole, to be refused as usual. `receivedEncodedLength` is
 * what fastify compares with Content-Length.
 */
export class StateDropper extends Transform {
  receivedEncodedLength = 0;
  /**
   * Pause tests between chunks: a socket on loopback hands over megabytes per turn of the event loop, and
   * scanning them all before answering anyone stalled other clients 200-300 ms (bench serve-scale). Holding
   * back a chunk's callback makes the stream push back on the socket until the yield has let others run.
   */
  readonly #pace: () => Promise<void> | undefined;
  #mode: 'start' | 'scan' | 'pass' = 'start';
  #depth = 0;
  #deepestDropped = 0;
  #inString = false;
  #escaped = false;
  #expectKey = false;
  #key: number[] | null = null;
  #lastKey: string | null = null;
  #dropping = false;

  constructor(slicing?: Pauses) {
    super();
    this.#pace = slicing ? chunkPacer(slicing) : () => undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    this.#scan(chunk);
    const paused = this.#pace();
    if (paused) void paused.then(() => callback());
    else callback();
  }

  #scan(chunk: Buffer): void {
    if (this.#mode === 'pass') {
      this.push(chunk);
      return;
    }
    let emitFrom = 0;
    for (let i = 0; i < chunk.length && !this.#passing(); i++) {
      const step = this.#step(chunk[i]!);
      if (step === 'drop') {
        this.push(chunk.subarray(emitFrom, i + 1)); // up to the colon
        this.#dropping = true;
        this.#deepestDropped = 1;
      } else if (step === 'end-drop') {
        this.push(this.#deepestDropped > MAX_BODY_DEPTH ? TOO_DEEP : NULL);
        this.#dropping = false;
        emitFrom = i; // the comma or brace stays
      }
    }
    if (!this.#dropping) this.push(chunk.subarray(emitFrom));
  }

  #passing(): boolean {
    return this.#mode === 'pass';
  }

  #step(byte: number): 'drop' | 'end-drop' | undefined {
    if (this.#mode === 'start') {
      if (byte === OPEN_OBJECT) [this.#mode, this.#depth, this.#expectKey] = ['scan', 1, true];
      else if (!isSpace(byte)) this.#mode = 'pass';
      return undefined;
    }
    if (this.#inString) return this.#stringByte(byte);
    if (byte === QUOTE) {
      this.#inString = true;
      if (this.#depth === 1 && this.#expectKey) [this.#key, this.#expectKey] = [[byte], false];
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.#depth++;
      if (this.#dropping) this.#deepestDropped = Math.max(this.#deepestDropped, this.#depth);
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (--this.#depth === 0) this.#mode = 'pass';
      if (this.#depth === 0 && this.#dropping) return 'end-drop';
    } else if (this.#depth === 1 && byte === COMMA) {
      [this.#expectKey, this.#lastKey] = [true, null];
      if (this.#dropping) return 'end-drop';
    } else if (this.#depth === 1 && byte === COLON && !this.#dropping && this.#lastKey === SKIPPED) {
      this.#lastKey = null;
      return 'drop';
    }
    return undefined;
  }

  /** A byte inside a string; a top-level key's bytes are collected (up to MAX_KEY_BYTES) to read it. */
  #stringByte(byte: number): undefined {
    this.#key?.push(byte);
    if (this.#key && this.#key.length > MAX_KEY_BYTES) this.#key = null;
    if (this.#escaped) this.#escaped = false;
    else if (byte === BACKSLASH) this.#escaped = true;
    else if (byte === QUOTE) {
      this.#inString = false;
      if (this.#key) this.#lastKey = keyOf(this.#key);
      this.#key = null;
    }
    return undefined;
  }
}

function keyOf(bytes: number[]): string | null {
  try {
    const key: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return typeof key === 'string' ? key : null;
  } catch {
    return null;
  }
}
