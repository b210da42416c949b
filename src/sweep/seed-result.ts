import type { Report } from '../report/report.js';
import { headlineMetrics, type Metrics } from './outputs/metrics.js';

/**
 * What a sweep keeps of one seed's run: its fingerprint, every invariant's result and the headline
 * metrics, or why it has none. Only facts that the scenario and the seed decide, so the record is the same
 * whichever thread, process or machine ran it.
 */
export type SeedStatus =
  /** The run ended and every invariant held. */
  | 'passed'
  /** The run ended and an invariant broke, or one the scenario requires to be exercised ran no check. */
  | 'failed'
  /** The run threw, or the thread running it died. */
  | 'crashed'
  /** The run passed the per-seed timeout and was stopped. */
  | 'timed_out'
  /** Queue only: the workers running it died too often, or none finished it in time. */
  | 'lost';

export interface InvariantOutcome {
  name: string;
  passed: boolean;
  checks: number;
  violations: number;
  first_violation: string | null;
  /** The scenario requires it to be exercised (`requireExercised`): with 0 checks it fails the seed. */
  required: boolean;
}

export interface SeedResult {
  seed: number;
  status: SeedStatus;
  fingerprint: string | null;
  invariants: InvariantOutcome[];
  metrics: Metrics | null;
  /** Why a run that did not end has no results (null when it ended). */
  error: string | null;
}

/** What a worker needs to run one seed: the scenario's text and the path it was given as (for agent modules and messages). */
export interface SeedTask {
  scenarioText: string;
  scenarioFile: string;
  seed: number;
}

export function completedSeed(seed: number, report: Report): SeedResult {
  return {
    seed,
    status: report.passed ? 'passed' : 'failed',
    fingerprint: report.fingerprint,
    invariants: report.invariants.map((i) => ({
      name: i.name,
      passed: i.passed,
      checks: i.checks,
      violations: i.violationCount,
      first_violation: i.violations[0]?.message ?? null,
      required: i.required,
    })),
    metrics: headlineMetrics(report),
    error: null,
  };
}

export function unfinishedSeed(
  seed: number,
  status: Exclude<SeedStatus, 'passed' | 'failed'>,
  error: string,
): SeedResult {
  return { seed, status, fingerprint: null, invariants: [], metrics: null, error: oneLine(error) };
}

/** The first line of an error's message: no stack, no machine-specific paths below it. */
export function errorMessage(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.trim() || 'unknown error';
}

/** A required invariant that ran no check: it fails its seed as a broken one does. */
export function requiredNotExercised(i: InvariantOutcome): boolean {
  return i.required && i.checks === 0;
}

export function seedFailed(result: SeedResult): boolean {
  return result.status !== 'passed';
}

const STATUSES: readonly SeedStatus[] = ['passed', 'failed', 'crashed', 'timed_out', 'lost'];
const SEED_FIELDS = ['seed', 'status', 'fingerprint', 'invariants', 'metrics', 'error'] as const;
const INVARIANT_FIELDS = ['name', 'passed', 'checks', 'violations', 'first_violation', 'required'] as const;
const FINGERPRINT = /^sha256:[0-9a-f]{64}$/;

/** What is wrong with a value read back from a file: the field, as a path below it ('' for the value itself), and why. */
export interface FieldProblem {
  field: string;
  why: string;
}

/** `outer.inner`, `outer[0]`, or either alone when the other is empty. */
export function fieldPath(outer: string, inner: string): string {
  if (outer === '' || inner === '') return outer + inner;
  return inner.startsWith('[') ? `${outer}${inner}` : `${outer}.${inner}`;
}

function at(field: string, why: string): FieldProblem {
  return { field, why };
}

/** A problem found inside `outer`, as a problem of the value holding it. */
export function prefixed(outer: string, problem: FieldProblem | undefined): FieldProblem | undefined {
  return problem && at(fieldPath(outer, problem.field), problem.why);
}

/**
 * Why `value`, read back from a file, is not a seed result this code could have written, or undefined when
 * it is one. Beyond each field's type and range, the fields must agree as completedSeed and unfinishedSeed
 * make them: the status with the invariants, each invariant's verdict with its counts, the violation metric
 * with them.
 */
export function seedResultProblem(value: unknown): FieldProblem | undefined {
  const keys = closedKeys(value, SEED_FIELDS);
  if (keys) return keys;
  const r = value as SeedResult;
  if (!isCount(r.seed)) return at('seed', `${show(r.seed)} is not a non-negative integer`);
  if (!STATUSES.includes(r.status))
    return at('status', `${show(r.status)} is not one of ${STATUSES.join(', ')}`);
  return r.status === 'passed' || r.status === 'failed' ? completedProblem(r) : unfinishedProblem(r);
}

function completedProblem(r: SeedResult): FieldProblem | undefined {
  if (typeof r.fingerprint !== 'string' || !FINGERPRINT.test(r.fingerprint))
    return at('fingerprint', `${show(r.fingerprint)} is not sha256:<64 hex digits>`);
  if (r.error !== null) return at('error', `a seed whose run ended has none (got ${show(r.error)})`);
  if (!Array.isArray(r.invariants)) return at('invariants', 'not a list');
  const names = new Set<string>();
  for (const [i, inv] of r.invariants.entries()) {
    const problem = prefixed(`invariants[${i}]`, invariantProblem(inv));
    if (problem) return problem;
    if (names.has(inv.name)) return at(`invariants[${i}].name`, `${show(inv.name)} is listed twice`);
    names.add(inv.name);
  }
  const broken = r.invariants.filter((i) => !i.passed);
  if (r.status === 'passed' && broken.length > 0)
    return at('status', `"passed" while invariant ${show(broken[0]!.name)} broke`);
  const unexercised = r.invariants.filter(requiredNotExercised);
  if (r.status === 'passed' && unexercised.length > 0)
    return at('status', `"passed" while required invariant ${show(unexercised[0]!.name)} ran no check`);
  if (r.status === 'failed' && broken.length === 0 && unexercised.length === 0)
    return at('status', '"failed" while every invariant held');
  return metricsProblem(r.metrics, r.invariants);
}

function invariantProblem(value: unknown): FieldProblem | undefined {
  const keys = closedKeys(value, INVARIANT_FIELDS);
  if (keys) return keys;
  const i = value as InvariantOutcome;
  if (typeof i.name !== 'string' || i.name === '') return at('name', `${show(i.name)} is not a name`);
  if (typeof i.passed !== 'boolean') return at('passed', `${show(i.passed)} is not true or false`);
  if (!isCount(i.checks)) return at('checks', `${show(i.checks)} is not a non-negative integer`);
  if (!isCount(i.violations)) return at('violations', `${show(i.violations)} is not a non-negative integer`);
  // Each violation is a failed check (Checker.expect), and an invariant holds exactly when none failed.
  if (i.violations > i.checks) return at('violations', `${i.violations} is more than its ${i.checks} checks`);
  if (i.passed !== (i.violations === 0))
    return at('passed', `${String(i.passed)} with ${i.violations} violation(s)`);
  if (typeof i.required !== 'boolean') return at('required', `${show(i.required)} is not true or false`);
  const firstOk = i.violations === 0 ? i.first_violation === null : typeof i.first_violation === 'string';
  if (!firstOk)
    return at(
      'first_violation',
      `${show(i.first_violation)} with ${i.violations} violation(s) (a message exactly when it broke)`,
    );
  return undefined;
}

function metricsProblem(metrics: unknown, invariants: readonly InvariantOutcome[]): FieldProblem | undefined {
  if (typeof metrics !== 'object' || metrics === null || Array.isArray(metrics))
    return at('metrics', `${show(metrics)}: a seed whose run ended has its metrics`);
  const m = metrics as Metrics;
  for (const [name, value] of Object.entries(m)) {
    // Every headline metric is a count, a ratio of counts or an amount moved (headlineMetrics): never negative.
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      return at(`metrics.${name}`, `${show(value)} is not a non-negative number`);
  }
  const violations = invariants.reduce((sum, i) => sum + i.violations, 0);
  const counted = m['invariant_violations'];
  if (counted !== undefined && counted !== violations)
    return at('metrics.invariant_violations', `${counted}, while the invariants count ${violations}`);
  const [started, completed, unfinished] = [m['games_started'], m['games_completed'], m['games_unfinished']];
  if (started !== undefined && completed !== undefined && unfinished !== undefined)
    if (started !== completed + unfinished)
      return at(
        'metrics.games_started',
        `${started} is not games_completed + games_unfinished (${completed} + ${unfinished})`,
      );
  return undefined;
}

function unfinishedProblem(r: SeedResult): FieldProblem | undefined {
  const none = `a ${r.status.replace('_', ' ')} run has none`;
  if (r.fingerprint !== null) return at('fingerprint', `${none} (got ${show(r.fingerprint)})`);
  if (!Array.isArray(r.invariants) || r.invariants.length > 0) return at('invariants', none);
  if (r.metrics !== null) return at('metrics', none);
  if (typeof r.error !== 'string' || r.error === '' || r.error !== oneLine(r.error))
    return at('error', `${show(r.error)} is not the one line saying why the run did not end`);
  return undefined;
}

/** A problem when `value` is not an object with exactly `fields` (one missing, or one this code never writes). */
export function closedKeys(value: unknown, fields: readonly string[]): FieldProblem | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return at('', `${show(value)} is not an object`);
  const missing = fields.find((f) => !Object.hasOwn(value, f));
  if (missing) return at(missing, 'missing');
  const extra = Object.keys(value).find((k) => !fields.includes(k));
  if (extra) return at(extra, 'not a field this version writes');
  return undefined;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A value as it appears in the file, cut short: the refusal stays one line. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
