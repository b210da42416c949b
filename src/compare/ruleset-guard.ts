import type { MetricRow, RulesetCompare } from './ruleset-compare.js';

/**
 * `compare --ruleset ... --fail-if-changed METRIC:DIRECTION`: a CI guard on one metric. DIRECTION names the
 * change that fails: `increase` fails when Holm flags the metric and b's mean is above a's, `decrease` when
 * below, `any` on either. Only a flagged change counts, so noise never fails a build. "This rule change
 * must not lengthen games" reads `--fail-if-changed moves_per_game:increase`.
 */
export type GuardDirection = 'increase' | 'decrease' | 'any';

export interface Guard {
  metric: string;
  direction: GuardDirection;
}

const DIRECTIONS: readonly GuardDirection[] = ['increase', 'decrease', 'any'];

/**
 * Breakdown metrics are listed only in runs where their kind happened (src/sweep/outputs/metrics.ts), so a
 * guard on one of these that no run produced guards a count that stayed 0 on both sides: it holds.
 */
const BREAKDOWN_PREFIXES = ['rate_limited_', 'refused_', 'transfers_', 'sol_', 'games_rated_', 'ending_'];

/** The option's words as guards, or the one-line problem (exit 2, before anything runs). */
export function parseGuards(words: readonly string[]): Guard[] | string {
  const guards: Guard[] = [];
  for (const word of words) {
    const match = /^([a-z0-9_]+):([a-z]+)$/.exec(word);
    if (match === null || !DIRECTIONS.includes(match[2] as GuardDirection))
      return `--fail-if-changed ${word}: give METRIC:DIRECTION, DIRECTION one of ${DIRECTIONS.join(', ')} (e.g. moves_per_game:increase)`;
    guards.push({ metric: match[1]!, direction: match[2] as GuardDirection });
  }
  return guards;
}

export interface GuardOutcome {
  guard: Guard;
  /** `tripped`: flagged in the named direction; `held`: not; `unknown`: no such metric (bad input). */
  status: 'tripped' | 'held' | 'unknown';
  line: string;
}

export function checkGuards(c: RulesetCompare, guards: readonly Guard[]): GuardOutcome[] {
  return guards.map((guard) => {
    const row = c.metrics.find((r) => r.metric === guard.metric);
    const label = `${guard.metric}:${guard.direction}`;
    if (row === undefined) {
      if (BREAKDOWN_PREFIXES.some((prefix) => guard.metric.startsWith(prefix)))
        return { guard, status: 'held', line: `guard ${label} held: no run counted any ${guard.metric}` };
      return {
        guard,
        status: 'unknown',
        line: `--fail-if-changed ${label}: no metric named ${guard.metric}; metrics: ${c.metrics.map((r) => r.metric).join(', ')}`,
      };
    }
    const tripped = row.differs && movedIn(row, guard.direction);
    return {
      guard,
      status: tripped ? 'tripped' : 'held',
      line: tripped
        ? `guard ${label} FAILED: ${guard.metric} changed beyond noise, ${row.mean_a} -> ${row.mean_b} per run (b - a ${row.mean_diff}, Holm-adjusted p ${row.p_holm})`
        : `guard ${label} held: ${row.differs ? 'changed the other way' : 'no change beyond noise'}`,
    };
  });
}

function movedIn(row: MetricRow, direction: GuardDirection): boolean {
  if (direction === 'any') return row.mean_diff !== 0;
  return direction === 'increase' ? row.mean_diff > 0 : row.mean_diff < 0;
}
