import { agentOf } from '../identity/actors.js';
import type { Platform } from '../platform.js';
import type { Agent, Tournament } from '../state.js';

/**
 * Questions about tournaments that routes and views ask: the listing order, whether a bracket takes
 * entries, the open list's filters, and the two tournament leaderboards' rankings. Rules of the twin, kept
 * out of the views so that "route -> rule -> test" ends here (test/unit/platform-tournaments.test.ts).
 */
/** Newest first: `seq` is creation order, so ties in creation time still list the same way. */
export function tournamentsNewestFirst(p: Platform): Tournament[] {
  return [...p.state.tournaments.values()].sort((a, b) => b.seq - a.seq);
}

/** WIRE §7: a full bracket that is settling or waiting for round 1 has every place reserved. */
export function reservedParticipants(t: Tournament): number | null {
  return t.status === 'registration' && t.filledAtMs !== null ? t.participants.length : null;
}

/** Joinable: still registering and not full (the open list hides brackets whose slots are all reserved). */
export function isOpenForEntry(t: Tournament): boolean {
  return t.status === 'registration' && t.filledAtMs === null;
}

/** Filters of GET /api/chess/tournaments/open, already parsed (SOL amounts in lamports). */
export interface OpenFilter {
  creatorId?: string;
  search?: string;
  verifiedOnly?: boolean;
  hasEntryFee?: boolean;
  prizeMinLamports?: number;
  entryFeeMaxLamports?: number;
  /** OURS: a tournament matches when it requires every listed tag (case-insensitive), as a containment filter. */
  requiredTags?: readonly string[];
}

export function matchesOpenFilter(t: Tournament, f: OpenFilter): boolean {
  if (f.creatorId !== undefined && t.creatorId !== f.creatorId) return false;
  if (f.search !== undefined && !mentions(t, f.search)) return false;
  if (f.verifiedOnly !== undefined && t.eligibility.verifiedOnly !== f.verifiedOnly) return false;
  if (f.hasEntryFee !== undefined && t.entryFeeLamports > 0 !== f.hasEntryFee) return false;
  if (f.prizeMinLamports !== undefined && t.prizeLamports < f.prizeMinLamports) return false;
  if (f.entryFeeMaxLamports !== undefined && t.entryFeeLamports > f.entryFeeMaxLamports) return false;
  const required = new Set(t.eligibility.requiredTags.map((tag) => tag.toLowerCase()));
  return (f.requiredTags ?? []).every((tag) => required.has(tag.toLowerCase()));
}

function mentions(t: Tournament, search: string): boolean {
  const needle = search.toLowerCase();
  return t.name.toLowerCase().includes(needle) || (t.description ?? '').toLowerCase().includes(needle);
}

export interface TournamentRanked {
  rank: number;
  agent: Agent;
  wins: number;
  earningsLamports: number;
}

function championCounts(p: Platform): Map<string, number> {
  const wins = new Map<string, number>();
  for (const t of p.state.tournaments.values()) {
    const champion = t.status === 'completed' ? t.placements[0] : undefined;
    if (champion !== undefined) wins.set(champion, (wins.get(champion) ?? 0) + 1);
  }
  return wins;
}

/** Settled tournament prize money received, per agent id. */
function earningsByAgent(p: Platform): Map<string, number> {
  const earnings = new Map<string, number>();
  for (const x of p.state.transfers.values()) {
    if (x.type !== 'tournament_payout' || x.status !== 'settled' || x.agentId === null) continue;
    earnings.set(x.agentId, (earnings.get(x.agentId) ?? 0) + x.lamports);
  }
  return earnings;
}

/** Ranks by `key` descending, then handle, a total order so equal figures always list the same way. */
function rankBy(
  p: Platform,
  ids: Iterable<string>,
  key: (r: Omit<TournamentRanked, 'rank'>) => number,
): TournamentRanked[] {
  const wins = championCounts(p);
  const earnings = earningsByAgent(p);
  const rows = [...ids].map((id) => ({
    agent: agentOf(p, id),
    wins: wins.get(id) ?? 0,
    earningsLamports: earnings.get(id) ?? 0,
  }));
  rows.sort(
    (a, b) =>
      key(b) - key(a) || (a.agent.handle < b.agent.handle ? -1 : a.agent.handle > b.agent.handle ? 1 : 0),
  );
  return rows.map((r, i) => ({
    rank: i + 1,
    agent: r.agent,
    wins: r.wins,
    earningsLamports: r.earningsLamports,
  }));
}

/** Agents with at least one completed-tournament win, most wins first. */
export function tournamentWinsRanking(p: Platform): TournamentRanked[] {
  return rankBy(p, championCounts(p).keys(), (r) => r.wins);
}

/** Agents with settled tournament prize money, most first. */
export function tournamentEarningsRanking(p: Platform): TournamentRanked[] {
  return rankBy(p, earningsByAgent(p).keys(), (r) => r.earningsLamports);
}
