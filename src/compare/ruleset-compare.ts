import { createHash } from 'node:crypto';
import { prettyCanonicalJson } from '../kernel/canonical.js';
import type { Metrics } from '../sweep/outputs/metrics.js';
import type { SeedResult, SeedStatus, SeedTask } from '../sweep/seed-result.js';
import { formatSeedSpec } from '../sweep/seeds.js';
import { holm } from '../rules/stats/holm.js';
import {
  FAMILY_ALPHA,
  halfWidth,
  minimumDetectable,
  pairedTest,
  seedsNeeded,
  SMALL_EFFECT,
  type PairedTest,
} from './family.js';
import { pairedStats, round6, type PairedStats } from './paired.js';
import type { RulesetSide } from './rulesets.js';

/**
 * The model of a ruleset compare (compare.json): the same seeds run under side a and side b, and for every
 * headline metric (src/sweep/outputs/metrics.ts, the numbers of each run's report) each side's mean, the mean
 * per-seed difference b - a, its paired t test (src/compare/family.ts) and Holm's family-wise verdict over
 * every metric tested (src/rules/stats/holm.ts). Rows run from the largest standardised effect down.
 * Built from the results put back in seed order, so the bytes depend on the scenario, the two rulesets,
 * the seeds and the code only: not on the worker count or the order the runs finished.
 */
export const COMPARE_FORMAT_VERSION = 2;

export interface RulesetCompareIdentity {
  tool: 'agent-chess-sim';
  version: string;
  scenario: { name: string; file: string; sha256: string; duration_ms: number };
  seeds: { spec: string; count: number };
  sides: Array<{ name: string; file: string; overrides: Record<string, unknown> | null; sha256: string }>;
}

export function rulesetCompareIdentity(
  version: string,
  scenario: { name: string; file: string; text: string; durationMs: number },
  sides: readonly RulesetSide[],
  seeds: readonly number[],
): RulesetCompareIdentity {
  return {
    tool: 'agent-chess-sim',
    version,
    scenario: {
      name: scenario.name,
      file: scenario.file,
      sha256: sha256(scenario.text),
      duration_ms: scenario.durationMs,
    },
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

/** How a metric reads: `count` of things over time (shown per virtual day), `sol` (SOL), `level` (as is). */
export type MetricUnit = 'count' | 'sol' | 'level';

export interface MetricRow extends PairedStats {
  metric: string;
  unit: MetricUnit;
  /** Every seed gave the same value on both sides. */
  unchanged: boolean;
  /** (mean b - mean a) / |mean a| in percent; null when side a's mean is 0. */
  relative_pct: number | null;
  /** |mean difference| / sd of the differences; null when the differences have no spread. */
  effect: number | null;
  /** Two-sided p of the paired t test, and Holm's adjusted p; null with one seed. */
  p: number | null;
  p_holm: number | null;
  /** The per-test level `low`..`high` is drawn at (Holm's level for this row); null with one seed. */
  level: number | null;
  /** The smallest mean difference these seeds detect with 80% power at Holm's strictest level. */
  detectable: number | null;
  /** Flagged by Holm: changed beyond noise at the family-wise alpha. */
  differs: boolean;
}

/** A metric that moved by a noticeable effect without being flagged, and the seeds a test with 80% power would need. */
export interface Underpowered {
  metric: string;
  /** Standardised effect; null for the same shift on every seed. */
  effect: number | null;
  seeds_needed: number;
}

export type RulesetCompare = ReturnType<typeof buildRulesetCompare>;

/** `results[i]` is the result of `rulesetTasks(...)[i]`. */
export function buildRulesetCompare(identity: RulesetCompareIdentity, results: readonly SeedResult[]) {
  const seeds = seedPairs(identity, results);
  const compared = seeds.filter((p) => p.a.metrics !== null && p.b.metrics !== null);
  const rows = metricRows(compared);
  return {
    ...identity,
    kind: 'rulesets' as const,
    compare_version: COMPARE_FORMAT_VERSION,
    interval: INTERVAL_NOTE,
    family: familyOf(rows),
    passed: seeds.every((p) => p.a.status === 'passed' && p.b.status === 'passed'),
    counts: {
      seeds: seeds.length,
      compared: compared.length,
      identical: seeds.filter((p) => p.identical).length,
      a: statusCounts(seeds.map((p) => p.a.status)),
      b: statusCounts(seeds.map((p) => p.b.status)),
    },
    metrics: rows,
    underpowered: underpowered(rows),
    results: seeds,
  };
}

export const CORRECTION = 'Holm–Bonferroni';

export const INTERVAL_NOTE =
  "interval of the mean per-seed difference b - a: Student's t with n - 1 degrees of freedom (computed), each row at the level Holm tested it, so an interval leaves 0 out exactly when its row is flagged";

function familyOf(rows: readonly MetricRow[]) {
  return {
    correction: CORRECTION,
    alpha: FAMILY_ALPHA,
    tested: rows.filter((r) => r.p !== null).length,
    flagged: rows.filter((r) => r.differs).length,
    power: 'minimum detectable difference at 80% power and per-test level alpha / tested',
  };
}

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
 * One row per metric over the seeds both sides ran to the end; a metric absent from a run counts 0 there
 * (breakdown counts are listed only when they happened). Holm's correction runs over every row with a
 * test, unchanged rows included, so the family is every metric the compare looked at. Rows are sorted by
 * standardised effect, largest first (a shift with no spread first of all, unchanged rows last), ties in
 * the reports' order.
 */
function metricRows(compared: readonly SeedPair[]): MetricRow[] {
  const names = metricNames(compared);
  const value = (m: Metrics, name: string) => m[name] ?? 0;
  const sides = names.map((name) => ({
    name,
    a: compared.map((p) => value(p.a.metrics!, name)),
    b: compared.map((p) => value(p.b.metrics!, name)),
  }));
  const tests = sides.map((s) => pairedTest(s.b.map((x, i) => x - s.a[i]!)));
  const testedIdx = tests.flatMap((t, i) => (t.p === null ? [] : [i]));
  const family = holm(
    testedIdx.map((i) => tests[i]!.p!),
    FAMILY_ALPHA,
  );
  const strictest = FAMILY_ALPHA / Math.max(1, testedIdx.length);
  const rows = sides.map((s, i) => {
    const k = testedIdx.indexOf(i);
    const verdict =
      k < 0 ? null : { p: family.adjusted[k]!, level: family.level[k]!, differs: family.rejected[k]! };
    return metricRow(s.name, pairedStats(s.a, s.b), tests[i]!, verdict, strictest);
  });
  return rows
    .map((row, i) => ({ row, i }))
    .sort((x, y) => sortKey(y.row) - sortKey(x.row) || x.i - y.i)
    .map(({ row }) => row);
}

function metricRow(
  metric: string,
  stats: PairedStats,
  test: PairedTest,
  verdict: { p: number; level: number; differs: boolean } | null,
  strictest: number,
): MetricRow {
  const margin = verdict === null ? null : halfWidth(test, verdict.level);
  const detectable = minimumDetectable(test, strictest);
  return {
    metric,
    unit: unitOf(metric),
    ...stats,
    low: margin === null ? null : round6(test.mean - margin),
    high: margin === null ? null : round6(test.mean + margin),
    unchanged: test.mean === 0 && test.sd === 0,
    relative_pct: stats.mean_a === 0 ? null : round6((test.mean / Math.abs(stats.mean_a)) * 100),
    effect: test.sd === 0 ? null : round6(Math.abs(test.mean) / test.sd),
    p: test.p === null ? null : precise(test.p),
    p_holm: verdict === null ? null : precise(verdict.p),
    level: verdict === null ? null : precise(verdict.level),
    detectable: detectable === null ? null : round6(detectable),
    differs: verdict?.differs ?? false,
  };
}

/** Largest standardised effect first: a shift with no spread is infinitely large, unchanged rows sort last. */
function sortKey(row: MetricRow): number {
  if (row.unchanged) return -1;
  return row.effect ?? Infinity;
}

/** Six significant digits: p-values and levels are small numbers that six decimals would flatten to 0. */
function precise(x: number): number {
  return Number(x.toPrecision(6));
}

/** Metrics that read as they are rather than per day: sizes and ratios of a run, not things that happen over time. */
const LEVELS = new Set(['agents', 'elo_spread', 'moves_per_game']);

export function unitOf(metric: string): MetricUnit {
  if (metric === 'fee_lamports' || metric.startsWith('sol_')) return 'sol';
  return LEVELS.has(metric) ? 'level' : 'count';
}

/**
 * The seed-count warning's rule: a row not flagged whose differences moved by at least a small effect
 * (0.2 sd) while the seeds run are fewer than a test with 80% power at Holm's strictest level would need;
 * and a row that moved by the same amount on every seed without being flagged, with the seeds at which
 * that pattern's sign-flip p (2 / 2^n) clears the strictest level.
 */
function underpowered(rows: readonly MetricRow[]): Underpowered[] {
  const tested = rows.filter((r) => r.p !== null).length;
  const strictest = FAMILY_ALPHA / Math.max(1, tested);
  return rows.flatMap((r): Underpowered[] => {
    if (r.differs || r.unchanged || r.p === null) return [];
    if (r.effect === null) {
      const needed = Math.ceil(1 + Math.log2(1 / strictest));
      return [{ metric: r.metric, effect: null, seeds_needed: needed }];
    }
    if (r.effect < SMALL_EFFECT) return [];
    const needed = seedsNeeded(r.effect, strictest);
    return needed > r.n ? [{ metric: r.metric, effect: r.effect, seeds_needed: needed }] : [];
  });
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
