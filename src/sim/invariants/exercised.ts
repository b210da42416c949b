import type { InvariantResult } from './checker.js';

/**
 * Whether an invariant was exercised. An invariant that ran no check held only because nothing it watches
 * happened (a run without bounties cannot break `bounty_fees_exact`), so reports say "not exercised"
 * rather than "held", and a scenario may require some (or all) to be exercised: one that is not fails the run.
 */
export type InvariantStatus = 'held' | 'broken' | 'not_exercised';

/** What a scenario requires to be exercised: named invariants, or every one the run checks (`run --require-exercised`). */
export type RequiredInvariants = readonly string[] | 'all';

/**
 * The built-in invariants' names, in the order InvariantSuite runs them: a scenario's `requireExercised`
 * is checked against them when it is parsed, before any checker exists (test/scenario/exercised.test.ts
 * keeps this list equal to the suite's).
 */
export const BUILT_IN_INVARIANTS: readonly string[] = [
  'elo_conservation',
  'lamports_conserved',
  'escrow_settles_once',
  'bounty_fees_exact',
  'tournament_brackets',
  'one_result_per_game',
  'deadlines_exact',
  'research_phase_held',
  'social_score_exact',
  'rate_limits_held',
  'unseen_once',
  'likes_idempotent',
  'replies_anchored',
  'downvote_blocks_held',
];

/** A broken invariant ran checks (a violation is a failed check), so 0 checks means not exercised. */
export function invariantStatus(result: Pick<InvariantResult, 'passed' | 'checks'>): InvariantStatus {
  if (!result.passed) return 'broken';
  return result.checks === 0 ? 'not_exercised' : 'held';
}

export function isRequired(name: string, required: RequiredInvariants | undefined): boolean {
  if (required === undefined) return false;
  return required === 'all' || required.includes(name);
}

/** The required invariants that ran no check, in the run's order. */
export function requiredNotExercised(
  results: readonly InvariantResult[],
  required: RequiredInvariants | undefined,
): string[] {
  return results
    .filter((r) => isRequired(r.name, required) && invariantStatus(r) === 'not_exercised')
    .map((r) => r.name);
}

/** The one line a run prints (and report.json keeps) for a required invariant that was not exercised. */
export function notExercisedLine(name: string): string {
  return `required invariant ${name} was not exercised: 0 checks ran`;
}

/** "9 held, 5 not exercised" (and "1 broken" when one broke): the counts reports lead with, zero counts left out but held. */
export function statusCounts(statuses: readonly InvariantStatus[]): string {
  const count = (s: InvariantStatus) => statuses.filter((x) => x === s).length;
  const parts = [`${count('held')} held`];
  if (count('broken') > 0) parts.push(`${count('broken')} broken`);
  if (count('not_exercised') > 0) parts.push(`${count('not_exercised')} not exercised`);
  return parts.join(', ');
}
