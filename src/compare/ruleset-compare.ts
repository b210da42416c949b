import { createHash } from 'node:crypto';
import { prettyCanonicalJson } from '../kernel/canonical.js';
import type { Metrics } from '../sweep/outputs/metrics.js';
import type { SeedResult, SeedStatus, SeedTask } from '../sweep/seed-result.js';
import { formatSeedSpec } from '../sweep/seeds.js';
import { excludesZero, pairedStats, type PairedStats } from './paired.js';
import type { RulesetSide } from './rulesets.js';

/**
 * The model of a ruleset compare (compare.json): the same seeds run under side a and side b, and for every
 * headline metric (src/sweep/outputs/metrics.ts, the numbers of each run's report) each side's mean, the mean
 * per-seed difference b - a and its 95% interval (src/compare/paired.ts). Built from the results put back
 * in seed order, so the bytes depend on the scenario, the two rulesets, the seeds and the code only: not on
 * the worker count or the order the runs finished.
 */
export const COMPARE_FORMAT_VERSION = 1;

export interface RulesetCompareIdentity {
  tool: 'agent-chess-sim';
  version: string;
  scenario: { name: string; file: string; sha256: string };
  seeds: { spec: string; count: number };
  sides: Array<{ name: string; file: string; overrides: Record<string, unknown> | null; sha256: string }>;
}

export function rulesetCompareIdentity(
  version: string,
  scenario: { name: string; file: string; text: string },
  sides: readonly RulesetSide[],
  seeds: readonly number[],
): RulesetCompareIdentity {
  return {
    tool: 'agent-chess-sim',
    version,
    scenario: { name: scenario.name, file: scenario.file, sha256: sha256(scenario.text) },
    seeds: { spec: formatSeedSpec(seeds), count: seeds.length },
    sides: sides.map((s) => ({
      name: s.name,
      file: s.file,
      overrides: s.overrides,
      sha256: sha256(s.scenarioText),
    })),
  };
}

/** Seed by seed, side a then side b: the two runs of a seed finish close together, so progress reads in pairs. */
export function rulesetTasks(
  sides: readonly RulesetSide[],
  scenarioFile: string,
  seeds: readonly number[],
): SeedTask[] {
  return seeds.flatMap((seed) =>
    sides.map((side) => ({ scenarioText: side.scenarioText, scenarioFile, seed })),
  );
}

export interface SideRun {
  status: SeedStatus;
  fingerprint: string | null;
  error: string | null;
  metrics: Metrics | null;
}

export interface SeedPair {
  seed: number;
  a: SideRun;
  b: SideRun;
  /** Both runs gave the same event log: the rulesets made no difference on this seed. */
  identical: boolean;
}

export interface MetricRow extends PairedStats {
  metric: string;
  /** The 95% interval of b - a leaves 0 out. */
  differs: boolean;
}

export type RulesetCompare = ReturnType<typeof buildRulesetCompare>;

/** `results[i]` is the result of `rulesetTasks(...)[i]`. */
export function buildRulesetCompare(identity: RulesetCompareIdentity, results: readonly SeedResult[]) {
  const seeds = seedPairs(identity, results);
  const compared = seeds.filter((p) => p.a.metrics !== null && p.b.metrics !== null);
  return {
    ...identity,
    kind: 'rulesets' as const,
    compare_version: COMPARE_FORMAT_VERSION,
    interval: INTERVAL_NOTE,
    passed: seeds.every((p) => p.a.status === 'passed' && p.b.status === 'passed'),
    counts: {
      seeds: seeds.length,
      compared: compared.length,
      identical: seeds.filter((p) => p.identical).length,
      a: statusCounts(seeds.map((p) => p.a.status)),
      b: statusCounts(seeds.map((p) => p.b.status)),
    },
    metrics: metricRows(compared),
    results: seeds,
  };
}

export const INTERVAL_NOTE =
  "95% interval of the mean per-seed difference b - a: Student's t with n - 1 degrees of freedom (table for df 1..30, 40, 60, 120; 1.96 beyond)";

export function compareJson(compare: RulesetCompare): string {
  return prettyCanonicalJson(compare);
}

function seedPairs(identity: RulesetCompareIdentity, results: readonly SeedResult[]): SeedPair[] {
  if (results.length !== identity.seeds.count * 2)
    throw new Error(`compare has ${results.length} results for ${identity.seeds.count} seeds on two sides`);
  const pairs: SeedPair[] = [];
  for (let i = 0; i < results.length; i += 2) {
    const [a, b] = [results[i]!, results[i + 1]!];
    if (a.seed !== b.seed)
      throw new Error(`compare results out of order: seeds ${a.seed} and ${b.seed} paired`);
    pairs.push({
      seed: a.seed,
      a: sideRun(a),
      b: sideRun(b),
      identical: a.fingerprint !== null && a.fingerprint === b.fingerprint,
    });
  }
  return pairs;
}

function sideRun(r: SeedResult): SideRun {
  return { status: r.status, fingerprint: r.fingerprint, error: r.error, metrics: r.metrics };
}

function statusCounts(statuses: readonly SeedStatus[]): Record<SeedStatus, number> {
  const counts: Record<SeedStatus, number> = { passed: 0, failed: 0, crashed: 0, timed_out: 0, lost: 0 };
  for (const s of statuses) counts[s]++;
  return counts;
}

/**
 * One row per metric, in the order the reports list them (then any metric only some runs have, by name),
 * each over the seeds where both sides have it.
 */
function metricRows(compared: readonly SeedPair[]): MetricRow[] {
  const rows: MetricRow[] = [];
  for (const metric of metricNames(compared)) {
    const both = compared.filter(
      (p) => p.a.metrics![metric] !== undefined && p.b.metrics![metric] !== undefined,
    );
    if (both.length === 0) continue;
    const stats = pairedStats(
      both.map((p) => p.a.metrics![metric]!),
      both.map((p) => p.b.metrics![metric]!),
    );
    rows.push({ metric, ...stats, differs: excludesZero(stats) });
  }
  return rows;
}

function metricNames(compared: readonly SeedPair[]): string[] {
  if (compared.length === 0) return [];
  const first = Object.keys(compared[0]!.a.metrics!);
  const rest = new Set(compared.flatMap((p) => [...Object.keys(p.a.metrics!), ...Object.keys(p.b.metrics!)]));
  for (const name of first) rest.delete(name);
  return [...first, ...[...rest].sort()];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
