import { prettyCanonicalJson } from '../kernel/canonical.js';
import { parseSeedSpec, shardSeeds, type Shard } from './seeds.js';
import type { SeedResult } from './seed-result.js';
import { buildSweep, type SweepIdentity, type SweepResult } from './sweep-result.js';

/**
 * Static shards: `sweep --shard i/N` writes shard.json (its slice's results with the sweep's identity) and
 * `merge` turns N of them back into the sweep an unsharded run writes, byte for byte, after checking that
 * they belong together.
 */
export const SHARD_FILE = 'shard.json';
export const SHARD_FORMAT_VERSION = 1;

export interface ShardResult extends SweepIdentity {
  shard_version: number;
  shard: Shard;
  results: SeedResult[];
}

export class MergeError extends Error {
  override readonly name = 'MergeError';
}

export function buildShard(
  identity: SweepIdentity,
  shard: Shard,
  results: readonly SeedResult[],
): ShardResult {
  const expected = shardSeeds(parseSeedSpec(identity.seeds.spec), shard);
  const sorted = [...results].sort((a, b) => a.seed - b.seed);
  if (sorted.map((r) => r.seed).join() !== expected.join())
    throw new Error(`shard ${shard.index}/${shard.count} results do not cover its seeds`);
  return { ...identity, shard_version: SHARD_FORMAT_VERSION, shard, results: sorted };
}

export function shardJson(shard: ShardResult): string {
  return prettyCanonicalJson(shard);
}

/** A shard file as read from DIR, before it is trusted. */
export interface ShardInput {
  dir: string;
  data: unknown;
}

/**
 * The sweep that N shards make together. Refuses, with a one-line MergeError naming the directories:
 * a file that is not a shard result, shards of different versions, scenarios or seed sets, a different
 * shard count, a missing or duplicate shard, and a shard whose seeds are not its slice.
 */
export function mergeShards(inputs: readonly ShardInput[]): SweepResult {
  if (inputs.length === 0) throw new MergeError('merge: name at least one shard directory');
  const shards = inputs.map(checkShape);
  const first = shards[0]!;
  for (const s of shards.slice(1)) checkSameSweep(first, s);
  checkCoverage(shards);
  const identity: SweepIdentity = {
    tool: first.data.tool,
    version: first.data.version,
    scenario: first.data.scenario,
    seeds: first.data.seeds,
  };
  return buildSweep(
    identity,
    shards.flatMap((s) => s.data.results),
  );
}

interface CheckedShard {
  dir: string;
  data: ShardResult;
}

function checkShape(input: ShardInput): CheckedShard {
  const d = input.data as Partial<ShardResult> | null;
  const ok =
    typeof d === 'object' &&
    d !== null &&
    d.tool === 'agent-chess-sim' &&
    typeof d.version === 'string' &&
    typeof d.scenario?.name === 'string' &&
    typeof d.scenario.file === 'string' &&
    typeof d.scenario.sha256 === 'string' &&
    typeof d.seeds?.spec === 'string' &&
    Number.isInteger(d.shard?.index) &&
    Number.isInteger(d.shard?.count) &&
    Array.isArray(d.results);
  if (!ok) throw new MergeError(`merge: ${input.dir}/${SHARD_FILE} is not an agent-chess-sim shard result`);
  if (d.shard_version !== SHARD_FORMAT_VERSION)
    throw new MergeError(
      `merge: ${input.dir} has shard format ${String(d.shard_version)}, this version reads ${SHARD_FORMAT_VERSION}`,
    );
  return { dir: input.dir, data: d as ShardResult };
}

function checkSameSweep(a: CheckedShard, b: CheckedShard): void {
  const differ = (what: string, x: string, y: string) =>
    new MergeError(`merge: ${a.dir} and ${b.dir} are shards of different ${what} (${x} vs ${y})`);
  if (a.data.version !== b.data.version) throw differ('versions', a.data.version, b.data.version);
  const [sa, sb] = [a.data.scenario, b.data.scenario];
  if (sa.sha256 !== sb.sha256 || sa.name !== sb.name)
    throw differ('scenarios', `${sa.name} ${sa.sha256.slice(0, 12)}`, `${sb.name} ${sb.sha256.slice(0, 12)}`);
  if (sa.file !== sb.file) throw differ('scenario paths', sa.file, sb.file);
  if (a.data.seeds.spec !== b.data.seeds.spec)
    throw differ('seed sets', a.data.seeds.spec, b.data.seeds.spec);
  if (a.data.shard.count !== b.data.shard.count)
    throw differ('shard counts', `/${a.data.shard.count}`, `/${b.data.shard.count}`);
}

function checkCoverage(shards: readonly CheckedShard[]): void {
  const count = shards[0]!.data.shard.count;
  const byIndex = new Map<number, string>();
  for (const s of shards) {
    const { index } = s.data.shard;
    if (index < 1 || index > count) throw new MergeError(`merge: ${s.dir} claims shard ${index}/${count}`);
    const seen = byIndex.get(index);
    if (seen !== undefined)
      throw new MergeError(`merge: shard ${index}/${count} given twice (${seen} and ${s.dir})`);
    byIndex.set(index, s.dir);
    checkSlice(s);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new MergeError(
      `merge: missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}`,
    );
}

function checkSlice(s: CheckedShard): void {
  let all: number[];
  try {
    all = parseSeedSpec(s.data.seeds.spec);
  } catch {
    throw new MergeError(`merge: ${s.dir} names an unreadable seed set "${s.data.seeds.spec}"`);
  }
  if (all.length !== s.data.seeds.count)
    throw new MergeError(
      `merge: ${s.dir} counts ${s.data.seeds.count} seeds in ${s.data.seeds.spec}, which has ${all.length}`,
    );
  const expected = shardSeeds(all, s.data.shard).join();
  const got = s.data.results.map((r) => r?.seed).join();
  if (got !== expected)
    throw new MergeError(
      `merge: ${s.dir} does not hold exactly the seeds of shard ${s.data.shard.index}/${s.data.shard.count} of ${s.data.seeds.spec}`,
    );
}
