import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatSeedSpec,
  MAX_SEEDS,
  parseSeedSpec,
  parseShard,
  SeedSpecError,
  shardSeeds,
} from '../../src/sweep/seeds.js';

const FC = { numRuns: 300 };

/** Ascending, distinct seeds. */
const seedSets = fc
  .uniqueArray(fc.nat(5000), { minLength: 1, maxLength: 200 })
  .map((seeds) => seeds.sort((a, b) => a - b));

describe('seed specs', () => {
  it('reads ranges, lists and combinations', () => {
    expect(parseSeedSpec('1..4')).toEqual([1, 2, 3, 4]);
    expect(parseSeedSpec('1,5,9')).toEqual([1, 5, 9]);
    expect(parseSeedSpec('0..2, 7 ,10..11')).toEqual([0, 1, 2, 7, 10, 11]);
    expect(parseSeedSpec('3..3')).toEqual([3]);
    expect(parseSeedSpec('1..1000')).toHaveLength(1000);
  });

  it('refuses empty, invalid, descending, repeated and oversized sets with one line naming the fault', () => {
    const refusals: Array<[string, RegExp]> = [
      ['', /empty/],
      ['1,,2', /empty item/],
      ['1..', /neither a seed/],
      ['a..b', /neither a seed/],
      ['-1', /^--seeds: "-1" holds a negative number; seeds are non-negative integers/],
      ['-5..-1', /^--seeds: "-5\.\.-1" holds a negative number; seeds are non-negative integers/],
      ['1,3..-2', /"3\.\.-2" holds a negative number/],
      ['1.5', /neither a seed/],
      ['4..1', /4\.\.1 is descending; write 1\.\.4/],
      ['5,1', /1 does not come after 5/],
      ['1..5,5', /5 does not come after 5/],
      ['1..3,2..4', /2\.\.4 does not come after 3/],
      [`1..${MAX_SEEDS + 1}`, /more than 100000 seeds/],
      ['99999999999999999999', /integers up to/],
    ];
    for (const [spec, message] of refusals) {
      expect(() => parseSeedSpec(spec), spec).toThrow(SeedSpecError);
      expect(() => parseSeedSpec(spec), spec).toThrow(message);
      try {
        parseSeedSpec(spec);
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
      }
    }
  });

  it('spells one set one way: parse(format(s)) = s, and format(parse(x)) is a fixed point', () => {
    fc.assert(
      fc.property(seedSets, (seeds) => {
        const spec = formatSeedSpec(seeds);
        expect(parseSeedSpec(spec)).toEqual(seeds);
        expect(formatSeedSpec(parseSeedSpec(spec))).toBe(spec);
      }),
      FC,
    );
    expect(formatSeedSpec([1, 2, 3, 4])).toBe('1..4');
    expect(formatSeedSpec([1, 2, 5, 6, 7, 9])).toBe('1,2,5..7,9');
    expect(formatSeedSpec(parseSeedSpec('1..3,4,5'))).toBe('1..5');
  });
});

describe('shards', () => {
  it('reads i/N and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/2', '3/2', '1/0', '1', '1/2/3', 'a/b', '-1/2'])
      expect(() => parseShard(bad), bad).toThrow(/--shard: .* is not i\/N/);
  });

  it('cuts every seed set into disjoint round-robin slices that cover it and differ in size by at most one', () => {
    fc.assert(
      fc.property(seedSets, fc.integer({ min: 1, max: 12 }), (seeds, count) => {
        const slices = Array.from({ length: count }, (_, i) => shardSeeds(seeds, { index: i + 1, count }));
        expect(slices.flat().sort((a, b) => a - b)).toEqual(seeds);
        const sizes = slices.map((s) => s.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        slices.forEach((slice, i) => expect(slice).toEqual(seeds.filter((_, p) => p % count === i)));
      }),
      FC,
    );
    expect(shardSeeds([1, 2, 3, 4, 5], { index: 2, count: 2 })).toEqual([2, 4]);
  });
});
