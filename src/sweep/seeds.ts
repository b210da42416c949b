/**
 * Seed sets and shards. A seed set is written as ranges and single seeds (`1..1000`, `1,5,9`,
 * `1..10,20,30..40`), strictly ascending, so one set has one canonical spelling (`formatSeedSpec`) and the
 * sweep's bytes never depend on how the user wrote it.
 */

export class SeedSpecError extends Error {
  override readonly name = 'SeedSpecError';
}

/** Far past any useful sweep; a bound so that a typo (`1..1e9`) is refused rather than allocated. */
export const MAX_SEEDS = 100_000;

/** A seed is a non-negative integer up to this (what the scenario loader accepts as an integer seed). */
const MAX_SEED = Number.MAX_SAFE_INTEGER;

const SEED = /^\d+$/;
const RANGE = /^(\d+)\.\.(\d+)$/;
/** A seed or a range with a minus sign: said as such, since `-5..-1` reads like a typo of a range otherwise. */
const NEGATIVE = /^-\d+(\.\.-?\d+)?$|^\d+\.\.-\d+$/;

/** The seeds `spec` names, ascending. Throws SeedSpecError with a one-line message naming the bad part. */
export function parseSeedSpec(spec: string): number[] {
  const parts = spec.split(',').map((part) => part.trim());
  if (spec.trim() === '' || parts.some((part) => part === ''))
    throw new SeedSpecError(`--seeds: "${spec}" is empty or has an empty item; write e.g. 1..1000 or 1,5,9`);
  const seeds: number[] = [];
  for (const part of parts) {
    const [from, to] = bounds(part);
    if (seeds.length > 0 && from <= seeds.at(-1)!)
      throw new SeedSpecError(
        `--seeds: ${part} does not come after ${seeds.at(-1)}; list seeds and ranges in ascending order without repeats`,
      );
    if (seeds.length + (to - from + 1) > MAX_SEEDS)
      throw new SeedSpecError(`--seeds: "${spec}" names more than ${MAX_SEEDS} seeds`);
    for (let seed = from; seed <= to; seed++) seeds.push(seed);
  }
  return seeds;
}

function bounds(part: string): [number, number] {
  const range = RANGE.exec(part);
  if (range) {
    const [from, to] = [checkSeed(range[1]!, part), checkSeed(range[2]!, part)];
    if (to < from) throw new SeedSpecError(`--seeds: ${part} is descending; write ${to}..${from}`);
    return [from, to];
  }
  if (NEGATIVE.test(part))
    throw new SeedSpecError(
      `--seeds: "${part}" holds a negative number; seeds are non-negative integers (0 to ${MAX_SEED}), e.g. 0..99`,
    );
  if (!SEED.test(part))
    throw new SeedSpecError(
      `--seeds: "${part}" is neither a seed (a non-negative integer) nor a range such as 1..1000`,
    );
  const seed = checkSeed(part, part);
  return [seed, seed];
}

function checkSeed(text: string, part: string): number {
  const seed = Number(text);
  if (!Number.isSafeInteger(seed) || seed > MAX_SEED)
    throw new SeedSpecError(`--seeds: ${part}: seeds must be integers up to ${MAX_SEED}`);
  return seed;
}

/** The canonical spelling of an ascending seed list: runs of consecutive seeds (3 or more) as ranges. */
export function formatSeedSpec(seeds: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < seeds.length;) {
    let j = i;
    while (j + 1 < seeds.length && seeds[j + 1] === seeds[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${seeds[i]}..${seeds[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(seeds[k]));
    i = j + 1;
  }
  return parts.join(',');
}

/** Shard `index` of `count` (1-based, as written on the command line: `--shard 2/4`). */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!match || !(count >= 1) || !(index >= 1) || index > count || count > MAX_SEEDS) {
    throw new SeedSpecError(`--shard: "${text}" is not i/N with 1 <= i <= N (e.g. --shard 2/4)`);
  }
  return { index, count };
}

/**
 * The seeds shard `index` of `count` runs: every count-th seed of the ascending list, starting at position
 * index - 1. Round robin rather than contiguous blocks, so that shards stay the same size to within one
 * seed and a stretch of expensive neighbouring seeds is shared out. Depends only on the list and the shard.
 */
export function shardSeeds(seeds: readonly number[], shard: Shard): number[] {
  return seeds.filter((_, position) => position % shard.count === shard.index - 1);
}
