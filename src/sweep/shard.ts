import { createHash } from 'node:crypto';
import { canonicalJson, prettyCanonicalJson } from '../kernel/canonical.js';
import { formatSeedSpec, parseSeedSpec, shardSeeds, type Shard } from './seeds.js';
import {
  closedKeys,
  prefixed,
  seedResultProblem,
  show,
  type FieldProblem,
  type SeedResult,
} from './seed-result.js';
import { buildSweep, type SweepIdentity, type SweepResult } from './sweep-result.js';

/**
 * Static shards: `sweep --shard i/N` writes shard.json (its slice's results with the sweep's identity) and
 * `merge` turns N of them back into the sweep an unsharded run writes, byte for byte, after checking that
 * they belong together and that each says what a run could have said.
 */
export const SHARD_FILE = 'shard.json';
/** 2: shard.json carries content_sha256. */
export const SHARD_FORMAT_VERSION = 2;

export interface ShardResult extends SweepIdentity {
  shard_version: number;
  shard: Shard;
  results: SeedResult[];
  /**
   * SHA-256 (hex) of the canonical JSON of every other field: a shard changed after `sweep --shard` wrote
   * it (by hand, by a tool, by a bad copy) is refused. Not a signature: whoever edits the file can also
   * recompute it, which is why merge checks every field as well. Only shard.json has it; sweep.json's
   * bytes stay those of an unsharded sweep.
   */
  content_sha256: string;
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
  const content = { ...identity, shard_version: SHARD_FORMAT_VERSION, shard, results: sorted };
  return { ...content, content_sha256: contentHash(content) };
}

/** The hash a shard's content_sha256 must hold: of everything in it but that field. */
export function contentHash(shard: object): string {
  const content: Record<string, unknown> = { ...shard };
  delete content['content_sha256'];
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
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
 * The sweep that N shards make together, every tally recomputed from the per-seed results. Refuses, with
 * a one-line MergeError naming the directory and, within a shard, the field: a file that is not a shard
 * result; a field out of range or at odds with another (a negative count, a status the invariants
 * contradict, a violation count below the violations it names); a content_sha256 that does not match;
 * shards of different versions, scenarios or seed sets, a different shard count, a missing or duplicate
 * shard, a shard whose seeds are not its slice, and seeds that list different invariants.
 */
export function mergeShards(inputs: readonly ShardInput[]): SweepResult {
  if (inputs.length === 0) throw new MergeError('merge: name at least one shard directory');
  const shards = inputs.map(checkShard);
  const first = shards[0]!;
  for (const s of shards.slice(1)) checkSameSweep(first, s);
  checkCoverage(shards);
  checkSameInvariants(shards);
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

const SHARD_FIELDS = [
  'tool',
  'version',
  'scenario',
  'seeds',
  'shard_version',
  'shard',
  'results',
  'content_sha256',
];
const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** One shard on its own: its format, every field (each result's too), then its content hash. */
function checkShard(input: ShardInput): CheckedShard {
  const d = input.data as Partial<ShardResult> | null;
  if (typeof d !== 'object' || d === null || Array.isArray(d) || d.tool !== 'agent-chess-sim')
    throw new MergeError(`merge: ${input.dir}/${SHARD_FILE} is not an agent-chess-sim shard result`);
  if (d.shard_version !== SHARD_FORMAT_VERSION)
    throw new MergeError(
      `merge: ${input.dir} has shard format ${show(d.shard_version)}, this version reads ${SHARD_FORMAT_VERSION} (rerun its sweep --shard)`,
    );
  const problem = shardProblem(d);
  if (problem)
    throw new MergeError(`merge: ${input.dir}: ${problem.field || SHARD_FILE}: ${problem.why}; not merged`);
  if (d.content_sha256 !== contentHash(d))
    throw new MergeError(
      `merge: ${input.dir}: content_sha256: does not match the shard's content (shard.json changed after sweep --shard wrote it); not merged`,
    );
  return { dir: input.dir, data: d as ShardResult };
}

function shardProblem(d: Partial<ShardResult>): FieldProblem | undefined {
  const fields =
    closedKeys(d, SHARD_FIELDS) ??
    prefixed('scenario', closedKeys(d.scenario, ['name', 'file', 'sha256'])) ??
    prefixed('seeds', closedKeys(d.seeds, ['spec', 'count'])) ??
    prefixed('shard', closedKeys(d.shard, ['index', 'count']));
  if (fields) return fields;
  const { scenario, seeds, shard } = d as ShardResult;
  const strings = { version: d.version, 'scenario.name': scenario.name, 'scenario.file': scenario.file };
  for (const [field, value] of Object.entries(strings))
    if (typeof value !== 'string' || value === '') return { field, why: `${show(value)} is not a name` };
  if (typeof scenario.sha256 !== 'string' || !HEX_SHA256.test(scenario.sha256))
    return { field: 'scenario.sha256', why: `${show(scenario.sha256)} is not 64 hex digits` };
  const spec = specProblem(seeds.spec);
  if (spec) return { field: 'seeds.spec', why: spec };
  if (!Number.isSafeInteger(seeds.count))
    return { field: 'seeds.count', why: `${show(seeds.count)} is not a count` };
  for (const key of ['index', 'count'] as const)
    if (!Number.isSafeInteger(shard[key]))
      return { field: `shard.${key}`, why: `${show(shard[key])} is not an integer` };
  if (typeof d.content_sha256 !== 'string')
    return { field: 'content_sha256', why: `${show(d.content_sha256)} is not a hash` };
  if (!Array.isArray(d.results)) return { field: 'results', why: 'not a list' };
  for (const [i, r] of d.results.entries()) {
    const problem = prefixed(`results[${i}]`, seedResultProblem(r));
    if (problem) return problem;
  }
  return undefined;
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
  const expected = shardSeeds(all, s.data.shard);
  const got = s.data.results.map((r) => r.seed);
  const at = expected.findIndex((seed, i) => got[i] !== seed);
  const first = at >= 0 ? at : expected.length < got.length ? expected.length : -1;
  if (first < 0) return;
  const which = `shard ${s.data.shard.index}/${s.data.shard.count} of ${s.data.seeds.spec}`;
  const why =
    got[first] === undefined
      ? `seed ${expected[first]} of ${which} is missing`
      : `seed ${got[first]} where ${which} holds ${expected[first] ?? 'no more seeds'}`;
  throw new MergeError(
    `merge: ${s.dir}: results[${first}].seed: ${why} (a shard holds exactly its seeds, ascending)`,
  );
}

/** Why `spec` is not a seed set in its one canonical spelling (the spelling sweep.json records). */
function specProblem(spec: unknown): string | undefined {
  if (typeof spec !== 'string') return `${show(spec)} is not a seed set`;
  let canonical: string;
  try {
    canonical = formatSeedSpec(parseSeedSpec(spec));
  } catch {
    return `${show(spec)} is not a readable seed set`;
  }
  return canonical === spec
    ? undefined
    : `${show(spec)} is not the canonical spelling of its seeds (${canonical})`;
}

/** Every seed whose run ended lists the same invariants, in the same order and equally required: one scenario checks the same things on every seed. */
function checkSameInvariants(shards: readonly CheckedShard[]): void {
  let reference: { dir: string; seed: number; names: string } | undefined;
  for (const s of shards) {
    for (const [i, r] of s.data.results.entries()) {
      if (r.status !== 'passed' && r.status !== 'failed') continue;
      // `required` comes from the scenario too, so it is the same on every seed.
      const names = r.invariants.map((inv) => `${inv.name}${inv.required ? ' (required)' : ''}`).join(', ');
      reference ??= { dir: s.dir, seed: r.seed, names };
      if (names !== reference.names)
        throw new MergeError(
          `merge: ${s.dir}: results[${i}].invariants: seed ${r.seed} lists ${show(names)}, seed ${reference.seed} (${reference.dir}) lists ${show(reference.names)}`,
        );
    }
  }
}
