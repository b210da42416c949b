/**
 * Each actor's earlier handles, and when each stopped being theirs, counted in activity row ordinals (the
 * platform's activity id stream): a row names actors by their handles when it was made, and a row's ordinal
 * says when that was. Rows therefore keep no handle of their own (two per game row, one per challenge or
 * social row, for the whole run) while a rename, rare and limited per agent, keeps one entry here.
 */
export class HandleHistory {
  readonly #earlier = new Map<string, { readonly handle: string; readonly untilOrdinal: number }[]>();

  /** `actorId` gave up `handle` when the next activity row was to have ordinal `nextOrdinal`. */
  renamed(actorId: string, handle: string, nextOrdinal: number): void {
    let list = this.#earlier.get(actorId);
    if (list === undefined) this.#earlier.set(actorId, (list = []));
    list.push({ handle, untilOrdinal: nextOrdinal });
  }

  /** Every rename in the order made, per actor (a checkpoint; `renamed` in the same order restores it). */
  entries(): Array<[string, { readonly handle: string; readonly untilOrdinal: number }[]]> {
    return [...this.#earlier].map(([actorId, list]) => [actorId, [...list]]);
  }

  /** The handle `actorId` had when the row of ordinal `ordinal` was made; `current` is its handle now. */
  at(actorId: string, current: string, ordinal: number): string {
    const list = this.#earlier.get(actorId);
    if (list !== undefined)
      for (const earlier of list) if (ordinal < earlier.untilOrdinal) return earlier.handle;
    return current;
  }
}
