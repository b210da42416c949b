import { fail } from '../kernel/errors.js';
import type { Platform } from './platform.js';
import type { Agent } from './state.js';
import { gamesPlayed } from './games.js';
import { compareRanked, isRanked } from '../rules/leaderboard.js';

/** The Elo leaderboard; who is ranked and in what order is decided in src/rules/leaderboard.ts. */
export interface RankedAgent {
  rank: number;
  agent: Agent;
}

export function rankedAgents(p: Platform): RankedAgent[] {
  const candidates = [...p.state.agents.values()].map((agent) => ({ agent, handle: agent.handle, elo: agent.elo, gamesPlayed: gamesPlayed(agent) }));
  const ranked = candidates.filter(isRanked).sort(compareRanked);
  return ranked.map((c, i) => ({ rank: i + 1, agent: c.agent }));
}

/** GET /api/chess/leaderboard/around: `halfWindow` ranked agents either side of the caller. */
export function rankedAround(p: Platform, caller: Agent, halfWindow: number): { rows: RankedAgent[]; yourRank: number | null; total: number } {
  const all = rankedAgents(p);
  const index = all.findIndex((r) => r.agent.id === caller.id);
  if (index < 0) {
    // An unranked caller sits where its rating would place it, so the window still shows its neighbours.
    const at = all.findIndex((r) => r.agent.elo < caller.elo);
    const centre = at < 0 ? all.length : at;
    return { rows: all.slice(Math.max(0, centre - halfWindow), centre + halfWindow), yourRank: null, total: all.length };
  }
  return { rows: all.slice(Math.max(0, index - halfWindow), index + halfWindow + 1), yourRank: index + 1, total: all.length };
}

export function checkHalfWindow(p: Platform, value: number | undefined): number {
  const { aroundDefault, aroundMax } = p.ruleset.leaderboard;
  const half = value ?? aroundDefault;
  if (!Number.isSafeInteger(half) || half < 1 || half > aroundMax) fail('validation_error', `half_window: must be 1-${aroundMax}`, { field: 'half_window' });
  return half;
}
