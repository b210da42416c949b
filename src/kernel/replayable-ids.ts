import { UUID_DRAWS, uuidV4 } from './ids.js';
import { Rng, type AleaState } from './rng.js';

/**
 * A seeded id stream whose ids can be drawn again later from their ordinals (0 for the first id drawn,
 * 1 for the next, ...). Every `spacing` ids it notes the generator's state (32 bytes), so the id of ordinal
 * n is recomputed by resuming at the last checkpoint before n, drawing at most `spacing` ids: a record keeps
 * a small ordinal instead of a 36-character id, and the ids are the same ones the plain stream gives.
 */
export class ReplayableIds {
  readonly #rng: Rng;
  readonly #spacing: number;
  #drawn = 0;
  /** The generator's state before ordinal k * spacing, four numbers per checkpoint. */
  readonly #checkpoints: number[] = [];

  /** `rng` must be the stream's own generator, drawn from by nothing else. */
  constructor(rng: Rng, spacing: number) {
    this.#rng = rng;
    this.#spacing = spacing;
  }

  /**
   * A stream continued from a checkpoint: `rng` resumed where the saved stream stood, `drawn` ids drawn so
   * far and `checkpoints` the states noted before each `spacing`-th (four numbers each, as `saved` gives them).
   */
  static restore(rng: Rng, spacing: number, saved: SavedReplayableIds): ReplayableIds {
    if (saved.checkpoints.length !== 4 * Math.ceil(saved.drawn / spacing))
      throw new Error(
        `replayable ids: ${saved.drawn} ids need ${Math.ceil(saved.drawn / spacing)} noted states`,
      );
    const ids = new ReplayableIds(rng, spacing);
    ids.#drawn = saved.drawn;
    ids.#checkpoints.push(...saved.checkpoints);
    return ids;
  }

  /** What a checkpoint keeps besides the generator's state (the stream's own generator's, see `restore`). */
  save(): SavedReplayableIds {
    return { drawn: this.#drawn, checkpoints: [...this.#checkpoints] };
  }

  /** The ordinal the next id will have. */
  get nextOrdinal(): number {
    return this.#drawn;
  }

  next(): string {
    if (this.#drawn % this.#spacing === 0) pushState(this.#checkpoints, this.#rng.state());
    this.#drawn++;
    return uuidV4(this.#rng);
  }

  /** The ids of the given ordinals (each already drawn), in ascending ordinal order. */
  idsAt(ordinals: readonly number[]): string[] {
    const ids: string[] = [];
    let rng: Rng | undefined;
    let at = 0; // the ordinal `rng` draws next
    for (const ordinal of ordinals) {
      if (ordinal >= this.#drawn || ordinal < at)
        throw new Error(`id ordinal ${ordinal} not drawn, or out of order`);
      const checkpoint = Math.floor(ordinal / this.#spacing);
      if (rng === undefined || checkpoint * this.#spacing > at) {
        rng = Rng.resume(this.#rng.seed, this.#rng.path, stateAt(this.#checkpoints, checkpoint));
        at = checkpoint * this.#spacing;
      }
      for (; at < ordinal; at++) skipId(rng);
      ids.push(uuidV4(rng));
      at++;
    }
    return ids;
  }
}

/** A replayable stream's ids drawn and the generator states noted every `spacing` ids. */
export interface SavedReplayableIds {
  readonly drawn: number;
  readonly checkpoints: readonly number[];
}

function skipId(rng: Rng): void {
  for (let draw = 0; draw < UUID_DRAWS; draw++) rng.float();
}

function pushState(into: number[], state: AleaState): void {
  into.push(state.s0, state.s1, state.s2, state.c);
}

function stateAt(checkpoints: readonly number[], index: number): AleaState {
  const at = index * 4;
  return {
    s0: checkpoints[at]!,
    s1: checkpoints[at + 1]!,
    s2: checkpoints[at + 2]!,
    c: checkpoints[at + 3]!,
  };
}
