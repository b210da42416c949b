import type { LedgerAccountKind } from './ledger.js';

/**
 * What the litesvm cross-check (src/escrow/litesvm.ts) reports, and its one-line description: apart from the
 * replay, so that reading or printing a result loads none of Solana's web3.js or litesvm.
 */

/** Enough to show where things went wrong without holding a long run's worth of mismatches in memory. */
export const MISMATCH_CAP = 20;

export interface CrossCheckMismatch {
  address: string;
  kind?: LedgerAccountKind;
  expected: number;
  actual: number;
}

export interface OutcomeMismatch {
  index: number;
  entry: string;
  mock: string;
  svm: string;
}

export interface CrossCheckResult {
  passed: boolean;
  /** Accounts compared. */
  accounts: number;
  /** Transfer entries replayed. */
  transfers: number;
  /** Transfers both backends refused, for the same reason. */
  rejectedAlike: number;
  balanceMismatches: CrossCheckMismatch[];
  /** A transfer (or mint) one backend accepted and the other refused, or refused for a different reason. */
  outcomeMismatches: OutcomeMismatch[];
}

export function describeCrossCheck(result: CrossCheckResult): string {
  const head = `litesvm cross-check: ${result.transfers} transfers, ${result.accounts} accounts, ${result.rejectedAlike} refused alike`;
  if (result.passed) return `${head}: identical balances`;
  const outcomes = result.outcomeMismatches
    .slice(0, 3)
    .map((m) => `#${m.index} ${m.entry}: mock ${m.mock}, svm ${m.svm}`);
  const balances = result.balanceMismatches
    .slice(0, 3)
    .map((m) => `${m.kind ?? 'account'} ${m.address}: expected ${m.expected}, actual ${m.actual}`);
  const counts = `${countLabel(result.outcomeMismatches.length)} outcome and ${countLabel(result.balanceMismatches.length)} balance mismatches`;
  return `${head}: MISMATCH, ${counts}; ${[...outcomes, ...balances].join('; ')}`;
}

/** The lists are capped, so a full list means "at least". */
function countLabel(listed: number): string {
  return listed >= MISMATCH_CAP ? `${MISMATCH_CAP}+` : String(listed);
}
