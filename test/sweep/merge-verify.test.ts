import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shardSeeds } from '../../src/sweep/seeds.js';
import {
  buildShard,
  contentHash,
  MergeError,
  mergeShards,
  shardJson,
  type ShardInput,
} from '../../src/sweep/shard.js';
import { sweepJson } from '../../src/sweep/sweep-result.js';
import { sweepFiles } from '../../src/sweep/outputs/outputs.js';
import { cli, tempDir } from './helpers.js';
import { fakeIdentity, fakeResult } from './synthetic.js';

/**
 * `merge` believes no shard on its word (issue 25): every field of every per-seed result is checked for
 * its range and against the others, and the shard's content_sha256 against its content, before any tally
 * is computed; a refusal is one line naming the shard's directory and the field.
 */
type Json = any;

const SEEDS = [1, 2, 3, 4, 5];
const RESULTS = [
  fakeResult(1),
  fakeResult(2, 'failed'),
  fakeResult(3, 'crashed'),
  fakeResult(4),
  fakeResult(5, 'timed_out'),
];
const IDENTITY = fakeIdentity(SEEDS);

/** The two shard files of the sweep above, as merge reads them (parsed JSON). */
function honest(): ShardInput[] {
  return [1, 2].map((index) => {
    const shard = { index, count: 2 };
    const mine = new Set(shardSeeds(SEEDS, shard));
    const data = buildShard(
      IDENTITY,
      shard,
      RESULTS.filter((r) => mine.has(r.seed)),
    );
    return { dir: `runs/shard-${index}`, data: JSON.parse(shardJson(data)) as unknown };
  });
}

/** Shard 1 (seeds 1, 3, 5) after `edit`, its hash left as written or recomputed as a careful forger would. */
function tampered(edit: (shard: Json) => void, rehash = false): ShardInput[] {
  const [one, two] = honest();
  const data = one!.data as Json;
  edit(data);
  if (rehash) data.content_sha256 = contentHash(data as object);
  return [one!, two!];
}

function refusal(inputs: ShardInput[]): string {
  try {
    mergeShards(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(MergeError);
    return (error as Error).message;
  }
  throw new Error('merged a tampered shard');
}

const honestBytes = sweepJson(mergeShards(honest()));

describe('merge verifies each shard', () => {
  it('merges the honest shards into the unsharded bytes, and builds shard.json with a matching content hash', () => {
    const [one] = honest();
    const data = one!.data as Json;
    expect(data.content_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash(data as object)).toBe(data.content_sha256);
    expect(honestBytes).not.toContain('content_sha256');
    const merged = mergeShards(honest());
    expect([merged.counts.passed, merged.counts.failed, merged.counts.crashed]).toEqual([2, 1, 1]);
  });

  // [what was done to shard 1, the edit, hash recomputed?, the refusal]
  const cases: [string, (s: Json) => void, boolean, RegExp][] = [
    [
      'an invariant set to failed in a passed seed',
      (s) =>
        Object.assign(s.results[0].invariants[0], { passed: false, violations: 1, first_violation: 'x' }),
      true,
      /^merge: runs\/shard-1: results\[0\]\.status: "passed" while invariant "elo_conservation" broke; not merged$/,
    ],
    [
      'an invariant set to failed without a violation',
      (s) => (s.results[0].invariants[1].passed = false),
      false,
      /^merge: runs\/shard-1: results\[0\]\.invariants\[1\]\.passed: false with 0 violation\(s\); not merged$/,
    ],
    [
      'a violation count of -5',
      (s) => (s.results[0].invariants[0].violations = -5),
      false,
      /^merge: runs\/shard-1: results\[0\]\.invariants\[0\]\.violations: -5 is not a non-negative integer; not merged$/,
    ],
    [
      'a negative check count',
      (s) => (s.results[0].invariants[1].checks = -1),
      true,
      /: results\[0\]\.invariants\[1\]\.checks: -1 is not a non-negative integer;/,
    ],
    [
      'passed=true with violations',
      (s) => (s.results[0].invariants[0].violations = 2),
      true,
      /: results\[0\]\.invariants\[0\]\.passed: true with 2 violation\(s\);/,
    ],
    [
      'more violations than checks',
      (s) =>
        Object.assign(s.results[0].invariants[0], { passed: false, violations: 11, first_violation: 'x' }),
      true,
      /: results\[0\]\.invariants\[0\]\.violations: 11 is more than its 10 checks;/,
    ],
    [
      'violations without the first one named',
      (s) =>
        Object.assign(s.results[0].invariants[0], { passed: false, violations: 1, first_violation: null }),
      true,
      /: results\[0\]\.invariants\[0\]\.first_violation: null with 1 violation\(s\)/,
    ],
    [
      'a crashed seed that claims metrics',
      (s) => (s.results[1].metrics = { moves: 3 }),
      true,
      /: results\[1\]\.metrics: a crashed run has none;/,
    ],
    [
      'a made-up fingerprint that is not one',
      (s) => (s.results[0].fingerprint = 'sha256:feedface'),
      true,
      /: results\[0\]\.fingerprint: "sha256:feedface" is not sha256:<64 hex digits>;/,
    ],
    [
      'a made-up fingerprint of the right shape',
      (s) => (s.results[0].fingerprint = `sha256:${'f'.repeat(64)}`),
      false,
      /^merge: runs\/shard-1: content_sha256: does not match the shard's content \(shard\.json changed after sweep --shard wrote it\); not merged$/,
    ],
    [
      'a metric edited',
      (s) => (s.results[0].metrics.moves += 1),
      false,
      /^merge: runs\/shard-1: content_sha256: does not match/,
    ],
    [
      'a negative metric',
      (s) => (s.results[0].metrics.moves = -3),
      true,
      /: results\[0\]\.metrics\.moves: -3 is not a non-negative number;/,
    ],
    [
      'a field this version never writes',
      (s) => (s.results[2].note = 'trust me'),
      true,
      /: results\[2\]\.note: not a field this version writes;/,
    ],
    [
      'a status outside the list',
      (s) => (s.results[0].status = 'great'),
      true,
      /: results\[0\]\.status: "great" is not one of passed, failed, crashed, timed_out, lost;/,
    ],
    [
      'a seed outside its slice',
      (s) => (s.results[1].seed = 2),
      true,
      /^merge: runs\/shard-1: results\[1\]\.seed: seed 2 where shard 1\/2 of 1\.\.5 holds 3 /,
    ],
    [
      'the hash removed',
      (s) => delete s.content_sha256,
      false,
      /^merge: runs\/shard-1: content_sha256: missing; not merged$/,
    ],
    [
      'a seed set spelled another way',
      (s) => (s.seeds.spec = '1,2,3,4,5'),
      true,
      /: seeds\.spec: "1,2,3,4,5" is not the canonical spelling of its seeds \(1\.\.5\)/,
    ],
    [
      'a seed that lists fewer invariants',
      (s) => s.results[0].invariants.pop(),
      true,
      /^merge: runs\/shard-(1|2): results\[\d\]\.invariants: seed \d lists .* seed \d \(runs\/shard-\d\) lists /,
    ],
    [
      'an invariant made required on one seed only',
      (s) => (s.results[0].invariants[1].required = true),
      true,
      /^merge: runs\/shard-(1|2): results\[\d\]\.invariants: seed \d lists .*\(required\)/,
    ],
  ];

  for (const [what, edit, rehash, message] of cases) {
    it(`refuses ${what}${rehash ? ' (hash recomputed)' : ''}, naming the shard and the field in one line`, () => {
      const text = refusal(tampered(edit, rehash));
      expect(text).toMatch(message);
      expect(text).not.toContain('\n');
    });
  }

  it('refuses a shard of the previous format (no content hash) and tells to rerun it', () => {
    const text = refusal(tampered((s) => (s.shard_version = 1)));
    expect(text).toBe(
      'merge: runs/shard-1 has shard format 1, this version reads 2 (rerun its sweep --shard)',
    );
  });
});

/** Every path to a value inside a JSON document, as key lists. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((k) => paths(value[k], [...prefix, k]))];
}

/** What a hand edit writes: any JSON, and the values next to the real ones that a forger would try. */
const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(-5, -1, 0, 1, 2, 11, 0.5, 1e308, true, false, null, '', 'passed', 'failed', 'crashed'),
  fc.constantFrom(`sha256:${'0'.repeat(64)}`, '0'.repeat(64), '1..5', '1,3,5', { index: 1, count: 2 }),
);

type Edit = { path: number; kind: 'set' | 'delete' | 'add'; value: Json };
const edits = fc.record({
  path: fc.nat(),
  kind: fc.constantFrom('set', 'set', 'set', 'delete', 'add' as const),
  value: replacement,
});

/** Applies one edit at the path chosen by index (modulo the number of paths); the root is replaced whole. */
function applyEdit(data: Json, edit: Edit): Json {
  const all = paths(data);
  const path = all[edit.path % all.length]!;
  if (path.length === 0) return edit.kind === 'set' ? edit.value : data;
  const parent = path.slice(0, -1).reduce((node, key) => node[key], data);
  const key = path.at(-1)!;
  if (edit.kind === 'set') parent[key] = edit.value;
  else if (edit.kind === 'delete' && Array.isArray(parent)) parent.splice(key as number, 1);
  else if (edit.kind === 'delete') delete parent[key];
  else if (Array.isArray(parent)) parent.push(edit.value);
  else parent[`extra_${String(key)}`] = edit.value;
  return data;
}

function editedShards(edit: Edit, target: number, rehash: boolean): ShardInput[] {
  const inputs = honest();
  const input = inputs[target]!;
  let data = applyEdit(input.data as Json, edit);
  if (rehash && data !== null && typeof data === 'object' && !Array.isArray(data))
    data = { ...data, content_sha256: contentHash(data as object) };
  inputs[target] = { dir: input.dir, data };
  return inputs;
}

/** The merge, or the refusal's text; anything but a MergeError (a crash, a stack trace) fails the property. */
function attempt(inputs: ShardInput[]): { refused: string } | { files: Record<string, string> } {
  try {
    return { files: sweepFiles(mergeShards(inputs)) };
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    return { refused: error.message };
  }
}

const honestFiles = sweepFiles(mergeShards(honest()));

describe('merge under random single-field edits', () => {
  it('refuses an edited shard in one line naming its directory, or writes exactly the honest files', () => {
    fc.assert(
      fc.property(edits, fc.nat(1), (edit, target) => {
        const outcome = attempt(editedShards(edit, target, false));
        if ('files' in outcome) expect(outcome.files).toEqual(honestFiles);
        else {
          expect(outcome.refused).toMatch(/^merge: /);
          expect(outcome.refused).toContain(`runs/shard-${target + 1}`);
          expect(outcome.refused).not.toContain('\n');
        }
      }),
      { numRuns: 400 },
    );
  });

  it('with the hash recomputed, refuses the edit or merges files whose tallies agree with their seeds', () => {
    fc.assert(
      fc.property(edits, fc.nat(1), (edit, target) => {
        const outcome = attempt(editedShards(edit, target, true));
        if ('refused' in outcome) {
          expect(outcome.refused).not.toContain('\n');
          return;
        }
        const sweep: Json = JSON.parse(outcome.files['sweep.json']!);
        const junit = outcome.files['junit.xml']!;
        const results = sweep.results as Json[];
        const broke = results.filter((r) => r.invariants.some((i: Json) => !i.passed));
        // A seed failed exactly when an invariant broke, so counts, junit and the verdict tell one story.
        expect(sweep.counts.failed).toBe(broke.length);
        expect(sweep.counts.passed + sweep.counts.failed + sweep.counts.crashed).toBeLessThanOrEqual(
          sweep.counts.seeds,
        );
        const suiteFailures = [...junit.matchAll(/<testsuite [^>]* failures="(\d+)"/g)].filter(
          (m) => m[1] !== '0',
        ).length;
        expect(suiteFailures).toBe(sweep.counts.failed);
        expect(sweep.passed).toBe(sweep.counts.passed === sweep.counts.seeds);
        for (const r of results)
          for (const i of r.invariants)
            expect(i.violations >= 0 && i.passed === (i.violations === 0)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('agent-chess-sim merge (the CLI)', () => {
  it('refuses the hand-edited shard of issue 25 with exit 2, one line naming the shard and the field, and writes nothing', async () => {
    const dir = tempDir();
    const [one, two] = tampered((s) =>
      Object.assign(s.results[0].invariants[0], { passed: false, violations: 1, first_violation: 'x' }),
    );
    for (const input of [one!, two!]) {
      mkdirSync(join(dir, input.dir), { recursive: true });
      writeFileSync(join(dir, input.dir, 'shard.json'), JSON.stringify(input.data, null, 2));
    }
    const out = join(dir, 'merged');
    const result = await cli(['merge', join(dir, one!.dir), join(dir, two!.dir), '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toEqual([
      `merge: ${join(dir, 'runs/shard-1')}: results[0].status: "passed" while invariant "elo_conservation" broke; not merged`,
    ]);
    expect(existsSync(out)).toBe(false);
    // The honest pair still merges, into the files an unsharded sweep writes (exit 1: seed 2 broke an invariant).
    for (const input of honest())
      writeFileSync(join(dir, input.dir, 'shard.json'), JSON.stringify(input.data, null, 2));
    const merged = await cli(['merge', join(dir, 'runs/shard-1'), join(dir, 'runs/shard-2'), '--out', out]);
    expect(merged.code, merged.stderr).toBe(1);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(honestFiles['sweep.json']);
  });
});
