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
  /** The run ended and an invariant broke. */
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

export function seedFailed(result: SeedResult): boolean {
  return result.status !== 'passed';
}
