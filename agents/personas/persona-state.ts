/**
 * Reading a persona's saved state (persona.ts `save`/`load`) back from untrusted JSON. A persona's sets and
 * maps are saved as lists in their iteration order, because its draws pick from them in that order; these
 * readers give them back as lists, refusing repeats, so a loaded persona iterates exactly as the saved one.
 */
import { Field, type Json } from '../../src/kernel/checkpoint.js';

/** The reader of one field of a persona's saved record (`Field.record`'s `get`). */
export type StateField = (key: string) => Field;

/** Ids, handles, reasons: far longer than any the platform hands out, short enough to bound a checkpoint. */
export const TEXT_MAX = 1_024;

/** A list of distinct strings (a saved Set, in its order). */
export function readDistinct(field: Field, maxLength = TEXT_MAX): string[] {
  return distinct(
    field,
    field.list((item) => item.str(maxLength)),
  );
}

/** A list of distinct-keyed `[key, value]` pairs (a saved Map, in its order). */
export function readPairs<K, V>(
  field: Field,
  readKey: (key: Field) => K,
  readValue: (value: Field) => V,
): Array<[K, V]> {
  const pairs = field.list((item): [K, V] => {
    if (!Array.isArray(item.value) || item.value.length !== 2) item.fail('a [key, value] pair');
    const [key, value] = item.list((part) => part);
    return [readKey(key!), readValue(value!)];
  });
  distinct(
    field,
    pairs.map(([key]) => key),
  );
  return pairs;
}

/** A saved Map of counts (a reason, a read kind) to how many. */
export function readCounts<K>(field: Field, readKey: (key: Field) => K): Array<[K, number]> {
  return readPairs(field, readKey, (count) => count.nat());
}

/** A Map as `[key, value]` pairs in its iteration order. */
export function pairsOf<K extends Json, V extends Json>(map: ReadonlyMap<K, V>): Json[] {
  return [...map.entries()].map(([key, value]) => [key, value]);
}

/** Empties `target` and fills it from `items`, in order (a readonly Set or Map member is restored in place). */
export function refill<T>(target: Set<T>, items: Iterable<T>): void {
  target.clear();
  for (const item of items) target.add(item);
}

export function refillMap<K, V>(target: Map<K, V>, pairs: Iterable<[K, V]>): void {
  target.clear();
  for (const [key, value] of pairs) target.set(key, value);
}

function distinct<T>(field: Field, items: T[]): T[] {
  const seen = new Set<T>();
  items.forEach((item, i) => {
    if (seen.has(item)) new Field(item, `${field.path}[${i}]`).fail('an item not listed before it');
    seen.add(item);
  });
  return items;
}
