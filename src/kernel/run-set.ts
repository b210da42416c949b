import type { Field } from './checkpoint.js';

/**
 * A set of natural numbers kept as sorted runs of consecutive members: `[start, end)` pairs in one flat
 * array. A set filled mostly in order (the ordinals of the posts an actor was served, say) stays a few
 * numbers long however many members it has, where a Set of keys costs tens of bytes a member.
 */
export class RunSet {
  /** start0, end0, start1, end1, ...: ascending, each run non-empty, no two runs touching. */
  readonly #bounds: number[] = [];

  has(value: number): boolean {
    const at = this.#runAtOrBefore(value);
    return at >= 0 && value < this.#bounds[at + 1]!;
  }

  /** Adds `value` (a safe integer >= 0); false when it was already a member. */
  add(value: number): boolean {
    const bounds = this.#bounds;
    const at = this.#runAtOrBefore(value);
    if (at >= 0 && value < bounds[at + 1]!) return false;
    const next = at + 2;
    const joinsBefore = at >= 0 && bounds[at + 1] === value;
    const joinsAfter = next < bounds.length && bounds[next] === value + 1;
    if (joinsBefore && joinsAfter) bounds.splice(at + 1, 2);
    else if (joinsBefore) bounds[at + 1] = value + 1;
    else if (joinsAfter) bounds[next] = value;
    else bounds.splice(next, 0, value, value + 1);
    return true;
  }

  /** The runs as a checkpoint writes them: start0, end0, start1, end1, ... */
  save(): number[] {
    return [...this.#bounds];
  }

  /** A set from saved runs; strictly ascending bounds are non-empty runs, none touching the next. */
  static load(field: Field): RunSet {
    const bounds = field.list((bound) => bound.nat());
    if (bounds.length % 2 !== 0) field.fail('a list of run bounds (an even count)');
    for (let i = 1; i < bounds.length; i++)
      if (bounds[i - 1]! >= bounds[i]!) field.fail('strictly ascending run bounds');
    const set = new RunSet();
    set.#bounds.push(...bounds);
    return set;
  }

  /** How many runs the set is kept as. */
  get runs(): number {
    return this.#bounds.length / 2;
  }

  /** The index in `#bounds` of the last run starting at or before `value`, -2 when none does. */
  #runAtOrBefore(value: number): number {
    const bounds = this.#bounds;
    let low = 0;
    let high = bounds.length / 2 - 1;
    // Sets filled in order are asked about their last run most: try it before searching.
    if (high >= 0 && bounds[high * 2]! <= value) return high * 2;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (bounds[middle * 2]! <= value) low = middle + 1;
      else high = middle - 1;
    }
    return high * 2;
  }
}
