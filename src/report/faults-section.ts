import { toIso } from '../kernel/clock.js';
import type { FaultKind } from '../faults/profile.js';
import type { RunOutcome } from '../sim/world.js';
import { findAgent } from '../platform/identity/identity.js';

/**
 * report.json's `faults` section: the profile the run met and, per agent that met a fault or crashed, the
 * faults by kind, the requests it sent again after one, the games it lost while a fault was active (a
 * fault other than latency between the game's start and its end) and its crash line. Absent from a run
 * with no profile and no crash, so such reports keep their bytes.
 */
export interface FaultsSection {
  profile: string | null;
  met_by_kind: Record<string, number>;
  agents: AgentFaultRow[];
}

export interface AgentFaultRow {
  handle: string;
  met: Record<string, number>;
  retried: number;
  games_lost_while_faulted: number;
  crashed: string | null;
}

/** The agents a fault or a crash cost something: crashed, lost a game under a fault, or had to retry. */
export function agentsHurt(section: FaultsSection): AgentFaultRow[] {
  return section.agents.filter((a) => a.crashed !== null || a.games_lost_while_faulted > 0 || a.retried > 0);
}

/** Every fault an agent met, all kinds together. */
export function faultsMet(row: AgentFaultRow): number {
  return Object.values(row.met).reduce((sum, n) => sum + n, 0);
}

/** "crashed at <ISO virtual time>, <error>" for an agent whose own code threw; null otherwise. */
export function crashedLine(outcome: RunOutcome, handle: string): string | null {
  const crash = outcome.crashes.get(handle);
  return crash ? `crashed at ${toIso(crash.atMs)}, ${crash.error}` : null;
}

export function faultsSection(outcome: RunOutcome): FaultsSection | undefined {
  if (!outcome.faults && outcome.crashes.size === 0) return undefined;
  const tally = outcome.faults?.tally;
  const lost = tally ? lostWhileFaulted(outcome) : new Map<string, number>();
  const totals = new Map<FaultKind, number>();
  const handles = new Set([...(tally?.byAgent.keys() ?? []), ...outcome.crashes.keys()]);
  const agents = [...handles].sort().map((handle): AgentFaultRow => {
    const own = tally?.byAgent.get(handle);
    for (const [kind, n] of own?.byKind ?? []) totals.set(kind, (totals.get(kind) ?? 0) + n);
    return {
      handle,
      met: sortedRecord(own?.byKind),
      retried: own?.retried ?? 0,
      games_lost_while_faulted: lost.get(handle) ?? 0,
      crashed: crashedLine(outcome, handle),
    };
  });
  return {
    profile: outcome.faults?.profile.name ?? null,
    met_by_kind: sortedRecord(totals),
    agents,
  };
}

/** Games each agent lost (on the board or on time) with a fault met between the game's start and its end. */
function lostWhileFaulted(outcome: RunOutcome): Map<string, number> {
  const tally = outcome.faults!.tally;
  const byId = new Map<string, string>();
  for (const sim of outcome.agents) {
    const agent = sim.account === 'agent' ? findAgent(outcome.platform, sim.handle) : undefined;
    if (agent) byId.set(agent.id, sim.handle);
  }
  const out = new Map<string, number>();
  for (const game of outcome.platform.state.games.values()) {
    const end = game.end;
    if (game.status !== 'completed' || !end || end.winner === null) continue;
    const loser = byId.get(end.winner === 'white' ? game.blackId : game.whiteId);
    if (loser === undefined) continue;
    if (tally.faultBetween(loser, game.startedAtMs ?? game.createdAtMs, end.endedAtMs))
      out.set(loser, (out.get(loser) ?? 0) + 1);
  }
  return out;
}

function sortedRecord(map: ReadonlyMap<string, number> | undefined): Record<string, number> {
  return Object.fromEntries([...(map ?? [])].sort(([a], [b]) => (a < b ? -1 : 1)));
}
