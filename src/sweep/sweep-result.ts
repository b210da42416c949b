import { createHash } from 'node:crypto';
import { prettyCanonicalJson } from '../kernel/canonical.js';
import { metricStats, type MetricStats } from './outputs/stats.js';
import { formatSeedSpec, parseSeedSpec } from './seeds.js';
import { requiredNotExercised, seedFailed, type SeedResult, type SeedStatus } from './seed-result.js';
import { notExercisedLine } from '../sim/invariants/exercised.js';

/**
 * The sweep result model (sweep.json). Built from the per-seed results sorted by seed, so the bytes depend
 * on the scenario, the seed set and the code only: not on the number of workers, the order seeds finished,
 * shards, or whether a queue ran them.
 */
export const SWEEP_FORMAT_VERSION = 1;

/** What makes two sweeps (or two shards) the same sweep. */
export interface SweepIdentity {
  tool: 'agent-chess-sim';
  /** The package version that ran it: shards of different versions are not merged. */
  version: string;
  /** `file` is the path as given on the command line; replay commands name it. */
  scenario: { name: string; file: string; sha256: string };
  /** `spec` is the canonical spelling of the seed set (formatSeedSpec). */
  seeds: { spec: string; count: number };
}

export function sweepIdentity(
  version: string,
  scenario: { name: string; file: string; text: string },
  seeds: readonly number[],
): SweepIdentity {
  return {
    tool: 'agent-chess-sim',
    version,
    scenario: {
      name: scenario.name,
      file: scenario.file,
      sha256: createHash('sha256').update(scenario.text).digest('hex'),
    },
    seeds: { spec: formatSeedSpec(seeds), count: seeds.length },
  };
}

export interface SeedFailure {
  seed: number;
  status: SeedStatus;
  reason: string;
  replay: string;
}

export interface InvariantTally {
  name: string;
  held: number;
  broke: number;
  /** Seeds where it ran no check (it neither held nor broke: nothing it watches happened). */
  not_exercised: number;
}

export type SweepResult = ReturnType<typeof buildSweep>;

export function buildSweep(identity: SweepIdentity, results: readonly SeedResult[]) {
  const sorted = sortedResults(identity, results);
  const counts = countStatuses(sorted);
  return {
    ...identity,
    sweep_version: SWEEP_FORMAT_VERSION,
    passed: counts.passed === sorted.length,
    counts,
    invariants: tallyInvariants(sorted),
    aggregate: aggregateMetrics(sorted),
    failures: sorted.filter(seedFailed).map((r) => failureOf(identity, r)),
    results: sorted,
  };
}

export function sweepJson(sweep: SweepResult): string {
  return prettyCanonicalJson(sweep);
}

/** The results in seed order, checked to be exactly the identity's seeds (a gap or a stray is a bug upstream). */
export function sortedResults(identity: SweepIdentity, results: readonly SeedResult[]): SeedResult[] {
  const sorted = [...results].sort((a, b) => a.seed - b.seed);
  const expected = parseSeedSpec(identity.seeds.spec);
  const got = formatSeedSpec(sorted.map((r) => r.seed));
  if (sorted.length !== expected.length || got !== identity.seeds.spec)
    throw new Error(`sweep results cover seeds ${got || 'none'}, not ${identity.seeds.spec}`);
  return sorted;
}

function countStatuses(results: readonly SeedResult[]): Record<SeedStatus, number> & { seeds: number } {
  const counts = { seeds: results.length, passed: 0, failed: 0, crashed: 0, timed_out: 0, lost: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

/** How many seeds held, broke and did not exercise each invariant, in the order the runs report them. */
function tallyInvariants(results: readonly SeedResult[]): InvariantTally[] {
  const tallies = new Map<string, InvariantTally>();
  for (const r of results) {
    for (const i of r.invariants) {
      const tally = tallies.get(i.name) ?? { name: i.name, held: 0, broke: 0, not_exercised: 0 };
      tallies.set(i.name, tally);
      if (!i.passed) tally.broke++;
      else if (i.checks === 0) tally.not_exercised++;
      else tally.held++;
    }
  }
  return [...tallies.values()];
}

/**
 * Each headline metric over the seeds whose run ended (crashed, timed-out and lost seeds have none). A
 * breakdown count is listed only by the runs where its kind happened (src/sweep/outputs/metrics.ts), so a
 * run that ended without it counts 0 there: its mean is over every ended seed, not only those that had it.
 */
function aggregateMetrics(results: readonly SeedResult[]): Record<string, MetricStats> {
  const ended = results.flatMap((r) => (r.metrics === null ? [] : [r.metrics]));
  const names = new Set(ended.flatMap((m) => Object.keys(m)));
  return Object.fromEntries([...names].map((name) => [name, metricStats(ended.map((m) => m[name] ?? 0))]));
}

function failureOf(identity: SweepIdentity, r: SeedResult): SeedFailure {
  return {
    seed: r.seed,
    status: r.status,
    reason: failureReason(r),
    replay: replayCommand(identity, r.seed),
  };
}

function failureReason(r: SeedResult): string {
  if (r.status !== 'failed') return `${r.status.replace('_', ' ')}: ${r.error ?? 'no detail'}`;
  const broken = r.invariants
    .filter((i) => !i.passed)
    .map((i) => `invariant ${i.name} broke ${i.violations} time(s); first: ${i.first_violation ?? '?'}`);
  const unexercised = r.invariants.filter(requiredNotExercised).map((i) => notExercisedLine(i.name));
  return [...broken, ...unexercised].join('; ');
}

/** The command that runs one seed of the sweep alone and writes its report.json and games.pgn. */
export function replayCommand(identity: SweepIdentity, seed: number): string {
  return `npx agent-chess-sim run ${shellWord(identity.scenario.file)} --seed ${seed} --out reports/${shellWord(identity.scenario.name)}-seed-${seed}`;
}

/** A word as a POSIX shell reads it: bare when it holds only safe characters, single-quoted otherwise. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
