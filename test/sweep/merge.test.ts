import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shardSeeds } from '../../src/sweep/seeds.js';
import { buildShard, contentHash, MergeError, mergeShards, type ShardInput } from '../../src/sweep/shard.js';
import { buildSweep, sweepJson, type SweepIdentity } from '../../src/sweep/sweep-result.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';
import { fakeIdentity, fakeResult, fakeSweeps } from './synthetic.js';

const FC = { numRuns: 200 };

/** The shard files N shards of this sweep would write, as `merge` reads them back (JSON round trip). */
function shardInputs(
  identity: SweepIdentity,
  seeds: number[],
  results: SeedResult[],
  count: number,
): ShardInput[] {
  return Array.from({ length: count }, (_, i) => {
    const shard = { index: i + 1, count };
    const mine = new Set(shardSeeds(seeds, shard));
    const data = buildShard(
      identity,
      shard,
      results.filter((r) => mine.has(r.seed)),
    );
    return { dir: `shard-${i + 1}`, data: JSON.parse(JSON.stringify(data)) as unknown };
  });
}

describe('merge', () => {
  it('N shards, given in any order, merge into exactly the bytes of the unsharded sweep', () => {
    fc.assert(
      fc.property(
        fakeSweeps,
        fc.integer({ min: 1, max: 9 }),
        fc.nat(),
        ({ seeds, results }, count, rotation) => {
          const identity = fakeIdentity(seeds);
          const inputs = shardInputs(identity, seeds, results, count);
          const k = rotation % inputs.length;
          const reordered = [...inputs.slice(k), ...inputs.slice(0, k)].reverse();
          expect(sweepJson(mergeShards(reordered))).toBe(sweepJson(buildSweep(identity, results)));
        },
      ),
      FC,
    );
  });

  const seeds = [1, 2, 3, 4, 5];
  const results = seeds.map((s) => fakeResult(s));
  const identity = fakeIdentity(seeds);
  const two = () => shardInputs(identity, seeds, results, 2);
  const refused = (inputs: ShardInput[], message: RegExp) => {
    expect(() => mergeShards(inputs)).toThrow(MergeError);
    expect(() => mergeShards(inputs)).toThrow(message);
    try {
      mergeShards(inputs);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  };

  it('refuses shards of different scenarios, versions, seed sets or shard counts, naming both directories', () => {
    const [a] = two();
    const otherScenario = shardInputs(
      fakeIdentity(seeds, { text: 'name: fake\n# changed\n' }),
      seeds,
      results,
      2,
    )[1]!;
    refused(
      [a!, otherScenario],
      /^merge: shard-1 and shard-2 are shards of different scenarios \(fake [0-9a-f]{12} vs fake [0-9a-f]{12}\)$/,
    );
    const otherVersion = shardInputs(fakeIdentity(seeds, { version: '0.2.0' }), seeds, results, 2)[1]!;
    refused([a!, otherVersion], /different versions \(0\.1\.0 vs 0\.2\.0\)/);
    const otherPath = shardInputs(
      fakeIdentity(seeds, { file: './scenarios/fake.yaml' }),
      seeds,
      results,
      2,
    )[1]!;
    refused([a!, otherPath], /different scenario paths/);
    const sixSeeds = [...seeds, 6];
    const otherSeeds = shardInputs(fakeIdentity(sixSeeds), sixSeeds, [...results, fakeResult(6)], 2)[1]!;
    refused([a!, otherSeeds], /different seed sets \(1\.\.5 vs 1\.\.6\)/);
    const three = shardInputs(identity, seeds, results, 3);
    refused([a!, three[1]!], /different shard counts \(\/2 vs \/3\)/);
  });

  it('refuses missing and duplicate shards, a shard with the wrong seeds, and files that are not shard results', () => {
    const [a, b] = two();
    refused([a!], /^merge: missing shard 2\/2$/);
    refused([a!, a!], /^merge: shard 1\/2 given twice \(shard-1 and shard-1\)$/);
    refused(shardInputs(identity, seeds, results, 4).slice(0, 2), /missing shards 3\/4, 4\/4/);
    // The hash recomputed, as a careful editor would: the slice check itself refuses.
    const shortData = {
      ...(b!.data as object),
      results: (b!.data as { results: SeedResult[] }).results.slice(1),
    };
    const tampered = { dir: 'shard-2', data: { ...shortData, content_sha256: contentHash(shortData) } };
    refused(
      [a!, tampered],
      /^merge: shard-2: results\[0\]\.seed: seed 4 where shard 2\/2 of 1\.\.5 holds 2 /,
    );
    refused(
      [a!, { dir: 'junk', data: { hello: 1 } }],
      /^merge: junk\/shard\.json is not an agent-chess-sim shard result$/,
    );
    refused(
      [a!, { dir: 'old', data: { ...(b!.data as object), shard_version: 99 } }],
      /old has shard format 99, this version reads 2/,
    );
    refused([], /name at least one shard directory/);
  });
});
