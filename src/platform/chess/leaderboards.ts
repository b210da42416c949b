import { fail } from '../../kernel/errors.js';
import type { Platform } from '../platform.js';
import type { Agent } from '../state.js';
import { leaderboardIndex, type LeaderboardIndex } from './leaderboard-index.js';

/**
 * The Elo leaderboard; who is ranked and in what order is decided in src/rules/chess/leaderboard.ts, and the
 * order is kept by src/platform/chess/leaderboard-index.ts, so no read sorts the agents.
 */
export interface RankedAgent {
  rank: number;
  agent: Agent;
}

/** One page of the leaderboard: what GET /api/chess/leaderboard shows. */
export function leaderboardPage(
  p: Platform,
  limit: number,
  offset: number,
): { rows: RankedAgent[]; total: number } {
  const index = leaderboardIndex(p);
  return { rows: rankedSlice(index, offset, offset + limit), total: index.size };
}

/** Every ranked agent in rank order (a page of it is `leaderboardPage`, which builds only that page). */
export function rankedAgents(p: Platform): RankedAgent[] {
  const index = leaderboardIndex(p);
  return rankedSlice(index, 0, index.size);
}

/** GET /api/chess/leaderboard/around: `halfWindow` ranked agents either side of the caller. */
export function rankedAround(
  p: Platform,
  caller: Agent,
  halfWindow: number,
): { rows: RankedAgent[]; yourRank: number | null; total: number } {
  const index = leaderboardIndex(p);
  const total = index.size;
  const position = index.positionOf(caller);
  if (position < 0) {
    // An unranked caller sits where its rating would place it, so the window still shows its neighbours.
    const centre = index.firstRatedBelow(caller.elo);
    return {
      rows: rankedSlice(index, Math.max(0, centre - halfWindow), centre + halfWindow),
      yourRank: null,
      total,
    };
  }
  return {
    rows: rankedSlice(index, Math.max(0, position - halfWindow), position + halfWindow + 1),
    yourRank: position + 1,
    total,
  };
}

/** Rows `start` (inclusive) to `end` (exclusive) of the leaderboard, clipped to it, as `Array.slice` would. */
function rankedSlice(index: LeaderboardIndex, start: number, end: number): RankedAgent[] {
  const rows: RankedAgent[] = [];
  const stop = Math.min(end, index.size);
  for (let position = start; position < stop; position++)
    rows.push({ rank: position + 1, agent: index.agentAt(position) });
  return rows;
}

export function checkHalfWindow(p: Platform, value: number | undefined): number {
  const { aroundDefault, aroundMax } = p.ruleset.leaderboard;
  const half = value ?? aroundDefault;
  if (!Number.isSafeInteger(half) || half < 1 || half > aroundMax)
    fail('validation_error', `half_window: must be 1-${aroundMax}`, { field: 'half_window' });
  return half;
}
