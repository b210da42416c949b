import seedrandom from 'seedrandom';
import { flatString } from './strings.js';

/** alea's whole state: three fractions and a carry. */
export type AleaState = seedrandom.State.Alea;

/**
 * A named stream of seeded randomness. Streams fork by name, and a fork depends only on the root seed and
 * the path of names, never on how many draws other streams made: adding one agent does not change the draws
 * of any other agent.
 */
export class Rng {
  readonly path: string;
  readonly #alea: seedrandom.StatefulPRNG<AleaState>;
  readonly #next: () => number;

  constructor(seed: string, path = 'root', resumeAt?: AleaState) {
    this.path = path;
    // alea is fast and its state is small; the stream's identity is the seed plus the fork path.
    this.#alea =
      resumeAt === undefined
        ? seedrandom.alea(`${seed}\u0000${path}`, { state: true })
        : seedrandom.alea('', { state: resumeAt });
    this.#next = this.#alea;
    this.seed = seed;
  }

  readonly seed: string;

  /** The generator's state now: `resume` continues the stream from exactly this draw. */
  state(): AleaState {
    return this.#alea.state();
  }

  /** The same stream, continued from a state taken with `state()`. */
  static resume(seed: string, path: string, state: AleaState): Rng {
    return new Rng(seed, path, state);
  }

  /** A child stream named `name`; the same name always yields the same stream. */
  fork(name: string): Rng {
    return new Rng(this.seed, this.#childPath(name));
  }

  /** The child stream `fork(name)` gives, continued from a state its `state()` gave (a checkpoint's restore). */
  resumeFork(name: string, state: AleaState): Rng {
    return new Rng(this.seed, this.#childPath(name), state);
  }

  #childPath(name: string): string {
    // Flat: a stream lives as long as its agent, and a template's result is a rope of its pieces.
    return flatString(`${this.path}/${name}`);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.#next();
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
      throw new Error(`bad integer range [${min}, ${max}]`);
    }
    return min + Math.floor(this.#next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.#next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('cannot pick from an empty list');
    return items[Math.floor(this.#next() * items.length)]!;
  }

  /** A new array in a seeded order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.#next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
