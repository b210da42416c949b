import fc from 'fast-check';
import type { Json } from '../../src/kernel/checkpoint.js';

/**
 * A copy of `value` with one spot changed, for fuzzing checkpoint loaders: `path` picks a step at each level
 * (modulo the list's length, or the record's keys plus one new key `extra`), and the value there becomes
 * `replacement`, or is removed when it is undefined.
 */
export function mutateJson(value: Json, path: readonly number[], replacement: Json | undefined): Json {
  if (value === null || typeof value !== 'object' || path.length === 0) return replacement ?? null;
  const [step, ...rest] = path as [number, ...number[]];
  if (Array.isArray(value)) {
    if (value.length === 0) return replacement === undefined ? [] : [replacement];
    const at = step % value.length;
    if (replacement === undefined && rest.length === 0) return value.filter((_, i) => i !== at);
    return value.map((v, i) => (i === at ? mutateJson(v, rest, replacement) : v));
  }
  const keys = Object.keys(value);
  const key = keys[step % (keys.length + 1)] ?? 'extra';
  const out: { [key: string]: Json } = { ...value };
  if (replacement === undefined && rest.length === 0) delete out[key];
  else out[key] = mutateJson(value[key] ?? null, rest, replacement);
  return out;
}

/** What a mutation puts in: nothing (removal), or a value of each JSON kind, wrong-typed for most fields. */
export const replacementJson: fc.Arbitrary<Json | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.constantFrom(-1, 0, 2 ** 53, 1.5),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant<Json>([]),
  fc.constant<Json>({}),
  fc.constant<Json>([['x', 1]]),
);
