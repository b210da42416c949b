/**
 * A world checkpoint is JSON data that may come from someone else (a snapshot shared in a bug report), so it
 * is read through a closed schema: every loader reads each value through a `Field`, which checks its type and
 * range and names its path on failure, and a record's keys that its loader did not read are refused. Nothing
 * in a checkpoint is ever a program, a module or a path: a loader reads numbers, strings, flags and lists.
 */
import { LazyJson } from './lazy-json.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A checkpoint that is not one this version writes: the message names the first wrong field. */
export class CheckpointError extends Error {}

const MAX_STRING = 1 << 20;

/** One untrusted value and where it sits (`platform.tables.agents[3].elo`), read by type. */
export class Field {
  constructor(
    readonly value: unknown,
    readonly path: string,
  ) {}

  static root(value: unknown, path = 'checkpoint'): Field {
    return new Field(value, path);
  }

  fail(expected: string): never {
    throw new CheckpointError(`${this.path}: must be ${expected}`);
  }

  /** A safe integer in [min, max]. */
  int(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.value;
    if (!(Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max))
      this.fail(`an integer in ${min}..${max}`);
    return v as number;
  }

  /** A non-negative safe integer (a count, an index, epoch milliseconds). */
  nat(): number {
    return this.int(0);
  }

  /** A finite number (a rating, a fraction). */
  num(): number {
    if (typeof this.value !== 'number' || !Number.isFinite(this.value)) this.fail('a finite number');
    return this.value;
  }

  str(maxLength = MAX_STRING): string {
    if (typeof this.value !== 'string' || this.value.length > maxLength)
      this.fail(`a string of at most ${maxLength} characters`);
    return this.value;
  }

  /** One of a fixed list of strings. */
  oneOf<T extends string>(allowed: readonly T[]): T {
    if (!allowed.includes(this.value as T)) this.fail(`one of ${allowed.join(', ')}`);
    return this.value as T;
  }

  bool(): boolean {
    if (typeof this.value !== 'boolean') this.fail('true or false');
    return this.value;
  }

  get isNull(): boolean {
    return this.value === null;
  }

  /** null, or the value read by `read`. */
  nullOr<T>(read: (field: Field) => T): T | null {
    return this.value === null ? null : read(this);
  }

  /** A list, each item read by `read`. */
  list<T>(read: (item: Field, index: number) => T): T[] {
    return Array.from(this.items(), (item, i) => read(item, i));
  }

  /** The items of a list one at a time, for a loader that pauses between rows (a generator). */
  *items(): Generator<Field> {
    const v = this.value;
    if (v instanceof LazyJson && v.kind === 'list') {
      for (const [i, member] of v.members.entries()) yield new Field(v.parse(member), `${this.path}[${i}]`);
      return;
    }
    if (!Array.isArray(v)) this.fail('a list');
    for (const [i, item] of v.entries()) yield new Field(item, `${this.path}[${i}]`);
  }

  /**
   * A record whose keys are exactly those `read` asks for through `get` (an absent key reads as undefined,
   * which the typed readers refuse unless the loader asked with `has` first); any other key is refused.
   */
  record<T>(read: (get: (key: string) => Field, has: (key: string) => boolean) => T): T {
    const record = this.#asRecord();
    const seen = new Set<string>();
    const get = (key: string) => {
      seen.add(key);
      return new Field(record.get(key), `${this.path}.${key}`);
    };
    const has = (key: string) => {
      seen.add(key);
      return record.has(key);
    };
    const result = read(get, has);
    for (const key of record.keys())
      if (!seen.has(key)) throw new CheckpointError(`${this.path}.${key}: is not a field this version reads`);
    return result;
  }

  /** A record used as a dictionary (ids to rows): each key checked by `checkKey`, each value read by `read`. */
  *entries(checkKey: (key: string) => boolean = () => true): Generator<[string, Field]> {
    const record = this.#asRecord();
    for (const key of record.keys()) {
      if (!checkKey(key))
        throw new CheckpointError(`${this.path}: ${JSON.stringify(key.slice(0, 64))} is not a valid key`);
      yield [key, new Field(record.get(key), `${this.path}.${key}`)];
    }
  }

  #asRecord(): RecordView {
    const v = this.value;
    if (v instanceof LazyJson) {
      if (v.kind !== 'object') this.fail('a record');
      return lazyRecord(v);
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail('a record');
    // JSON.parse makes a "__proto__" key an own property; it is read as data and never assigned by key here.
    return plainRecord(v as Record<string, unknown>);
  }
}

/** A record's keys and values, whether parsed already or read member by member (lazy-json.ts). */
interface RecordView {
  keys(): string[];
  has(key: string): boolean;
  /** The value, or undefined when the key is absent. */
  get(key: string): unknown;
}

function plainRecord(value: Record<string, unknown>): RecordView {
  return {
    keys: () => Object.keys(value),
    has: (key) => Object.hasOwn(value, key),
    get: (key) => (Object.hasOwn(value, key) ? value[key] : undefined),
  };
}

function lazyRecord(value: LazyJson): RecordView {
  return {
    keys: () => value.keys(),
    has: (key) => value.member(key) !== undefined,
    get: (key) => {
      const member = value.member(key);
      return member === undefined ? undefined : value.parse(member);
    },
  };
}

/** Runs a loader written as a generator to its end, without pauses (tests, small worlds). */
export function runToEnd<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
