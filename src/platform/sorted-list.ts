/**
 * An array kept in ascending order of a total order, for the read indexes (leaderboard, ranked feeds,
 * search). Items are immutable snapshots of their sort keys: when a record's key changes, its old item is
 * replaced by a new one, so the items already in the list always agree with their positions.
 */
export class SortedList<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  /** `items` need not be sorted; they are sorted once here. */
  constructor(compare: (a: T, b: T) => number, items: readonly T[] = []) {
    this.#compare = compare;
    for (const item of items) this.#items.push(item);
    this.#items.sort(compare);
  }

  get length(): number {
    return this.#items.length;
  }

  at(index: number): T {
    return this.#items[index]!;
  }

  /** The first index whose item is not below `probe` (the length when every item is). */
  lowerBound(probe: T): number {
    return this.firstIndexWhere((item) => this.#compare(item, probe) >= 0);
  }

  /**
   * The first index whose item satisfies `test`, which must be false for a prefix of the list and true
   * for the rest (monotone along the order); the length when no item does.
   */
  firstIndexWhere(test: (item: T) => boolean): number {
    let low = 0;
    let high = this.#items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (test(this.#items[middle]!)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** Where `item` itself sits, or -1 when it is not in the list. */
  indexOf(item: T): number {
    const index = this.lowerBound(item);
    return this.#items[index] === item ? index : -1;
  }

  insert(item: T): void {
    this.#items.splice(this.lowerBound(item), 0, item);
  }

  remove(item: T): void {
    const index = this.#requireIndex(item);
    this.#items.splice(index, 1);
  }

  /**
   * Puts `next` where `previous` was and moves it to its place. Only the items between the two places
   * shift, so a small change of key (a like, one game's rating change) costs little even in a long list.
   */
  replace(previous: T, next: T): void {
    const items = this.#items;
    const from = this.#requireIndex(previous);
    const to = this.#compare(next, previous) > 0 ? this.#lastBelow(next, from) : this.#firstAbove(next, from);
    if (to > from) for (let i = from; i < to; i++) items[i] = items[i + 1]!;
    else for (let i = from; i > to; i--) items[i] = items[i - 1]!;
    items[to] = next;
  }

  /** Moving up from `from`: the last index whose item is below `next` (the gap at `from` counts as below). */
  #lastBelow(next: T, from: number): number {
    let low = from;
    let high = this.#items.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.#compare(this.#items[middle]!, next) < 0) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Moving down from `from`: the first index whose item is above `next` (the gap at `from` counts as above). */
  #firstAbove(next: T, from: number): number {
    let low = 0;
    let high = from;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#compare(this.#items[middle]!, next) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  #requireIndex(item: T): number {
    const index = this.indexOf(item);
    if (index < 0) throw new Error('sorted list: the item is not in the list (its key changed in place?)');
    return index;
  }
}
