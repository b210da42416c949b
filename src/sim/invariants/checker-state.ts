import { Field, runToEnd, type Json } from '../../kernel/checkpoint.js';

/**
 * A checker's model as checkpoint data (issue 25). Maps are written as lists of [key, value] pairs and sets
 * as lists, never as records: a list keeps insertion order, which a final check's loop over a map follows
 * (the order of its violations), and an id is never used as an object key. Loaders are generators that
 * pause every few rows, so a restore of a large model can share the event loop; each fills the checker's
 * own (readonly) collection in place.
 */

/** Ids are the platform's own short strings; a bound keeps a tampered checkpoint from holding megabytes in one. */
const ID_MAX = 4096;
/** Rows read between pauses. */
const ROWS_PER_PAUSE = 1024;

export const readId = (field: Field): string => field.str(ID_MAX);
export const readNum = (field: Field): number => field.num();

const same = <V>(value: V): V => value;

export function savePairs<V>(
  map: ReadonlyMap<string, V>,
  save: (value: V) => Json = same as (v: V) => Json,
): Json {
  return [...map].map(([key, value]) => [key, save(value)]);
}

/** The two halves of a `[key, value]` row. */
function pair(row: Field): [Field, Field] {
  const value = row.value;
  if (!Array.isArray(value) || value.length !== 2) row.fail('a [key, value] pair');
  return [new Field(value[0], `${row.path}[0]`), new Field(value[1], `${row.path}[1]`)];
}

/** Replaces `map`'s entries with the saved pairs, refusing a key given twice. */
export function* fillPairs<V>(
  map: Map<string, V>,
  field: Field,
  read: (field: Field) => V,
  readKey: (field: Field) => string = readId,
): Generator<void, void> {
  map.clear();
  let rows = 0;
  for (const row of field.items()) {
    const [keyField, valueField] = pair(row);
    const key = readKey(keyField);
    if (map.has(key)) keyField.fail('a key not given before');
    map.set(key, read(valueField));
    if (++rows % ROWS_PER_PAUSE === 0) yield;
  }
}

/** A map read whole, for a map's values (a few entries each). */
export function readPairs<V>(field: Field, read: (field: Field) => V): Map<string, V> {
  const map = new Map<string, V>();
  runToEnd(fillPairs(map, field, read));
  return map;
}

export function saveSet(set: ReadonlySet<string>): Json {
  return [...set];
}

/** Replaces `set`'s members with the saved ones, refusing a member given twice. */
export function* fillSet(set: Set<string>, field: Field): Generator<void, void> {
  set.clear();
  let rows = 0;
  for (const item of field.items()) {
    const member = readId(item);
    if (set.has(member)) item.fail('a member not given before');
    set.add(member);
    if (++rows % ROWS_PER_PAUSE === 0) yield;
  }
}

/** A set read whole, for a map's values (a few members each). */
export function readSet(field: Field): Set<string> {
  const set = new Set<string>();
  for (const member of field.list(readId)) {
    if (set.has(member)) field.fail('a list without repeats');
    set.add(member);
  }
  return set;
}

/**
 * A model saved as a record of named parts, each then read by a (generator) loader: the record's keys are
 * checked first, and the parts are read after, where a generator may pause.
 */
export function parts(field: Field, names: readonly string[]): Field[] {
  return field.record((get) => names.map((name) => get(name)));
}
