import { toIso } from '../kernel/clock.js';
import { lamportsToSol } from '../kernel/money.js';
import type { Platform } from '../platform/platform.js';
import type { Agent, Match, Participant, Tournament, Transfer, TransferType } from '../platform/state.js';
import type * as A from './contract/agents.js';
import type * as L from './contract/leaderboard.js';
import type * as T from './contract/tournaments.js';

/**
 * Wire views of tournaments (WIRE §7), of an agent's money (WIRE §3 transfers) and of the two tournament
 * leaderboards (WIRE §6). Money is kept in lamports until the last step, so sums stay exact and only the
 * printed figure is a SOL double.
 */
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

function agentOf(p: Platform, id: string): Agent {
  return p.state.agents.get(id)!;
}

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

/*
 * The list row, the open row and the detail each repeat the summary fields as one flat literal (the house
 * rule for views: no spreads). The field list lives once, in src/api/contract/tournaments.ts: each view is
 * typed by its contract shape, so a field one of them drops or misspells does not compile.
 */

/** One row of GET /api/chess/tournaments; both creator spellings, since the list and open rows differ. */
export function tournamentSummary(p: Platform, t: Tournament): T.TournamentSummary {
  const creator = agentOf(p, t.creatorId);
  return {
    id: t.id,
    tournament_id: t.id,
    name: t.name,
    status: t.status,
    max_participants: t.maxParticipants,
    current_participants: t.participants.length,
    minimum_start_at: isoOrNull(t.minimumStartAtMs),
    reserved_participants: reservedParticipants(t),
    scheduled_start_at: isoOrNull(t.scheduledStartMs),
    prize_sol: lamportsToSol(t.prizeLamports),
    entry_fee_sol: lamportsToSol(t.entryFeeLamports),
    prize_distribution: t.distribution,
    created_by: { handle: creator.handle },
    creator_handle: creator.handle,
    created_at: toIso(t.createdAtMs),
  };
}

/** One row of GET /api/chess/tournaments/open: what a joiner needs to decide without a second call. */
export function openTournamentRow(p: Platform, t: Tournament): T.OpenTournamentRow {
  const creator = agentOf(p, t.creatorId);
  const e = t.eligibility;
  return {
    id: t.id,
    name: t.name,
    status: t.status,
    max_participants: t.maxParticipants,
    current_participants: t.participants.length,
    minimum_start_at: isoOrNull(t.minimumStartAtMs),
    reserved_participants: reservedParticipants(t),
    scheduled_start_at: isoOrNull(t.scheduledStartMs),
    prize_sol: lamportsToSol(t.prizeLamports),
    entry_fee_sol: lamportsToSol(t.entryFeeLamports),
    prize_distribution: t.distribution,
    created_by: { handle: creator.handle },
    creator_handle: creator.handle,
    created_at: toIso(t.createdAtMs),
    verified_only: e.verifiedOnly,
    required_tags: [...e.requiredTags],
    elo_min: e.eloMin,
    elo_max: e.eloMax,
    min_games_played: e.minGamesPlayed,
    max_games_played: e.maxGamesPlayed,
  };
}

/** GET /api/chess/tournaments/{id} and the create response: the summary plus bracket, money and results. */
export function tournamentDetail(p: Platform, t: Tournament): T.TournamentDetail {
  const creator = agentOf(p, t.creatorId);
  const e = t.eligibility;
  return {
    id: t.id,
    tournament_id: t.id,
    name: t.name,
    status: t.status,
    max_participants: t.maxParticipants,
    current_participants: t.participants.length,
    minimum_start_at: isoOrNull(t.minimumStartAtMs),
    reserved_participants: reservedParticipants(t),
    scheduled_start_at: isoOrNull(t.scheduledStartMs),
    prize_sol: lamportsToSol(t.prizeLamports),
    entry_fee_sol: lamportsToSol(t.entryFeeLamports),
    prize_distribution: t.distribution,
    created_by: { handle: creator.handle },
    creator_handle: creator.handle,
    created_at: toIso(t.createdAtMs),
    verified_only: e.verifiedOnly,
    required_tags: [...e.requiredTags],
    elo_min: e.eloMin,
    elo_max: e.eloMax,
    min_games_played: e.minGamesPlayed,
    max_games_played: e.maxGamesPlayed,
    description: t.description,
    format: 'single_elimination',
    organizer_fee_enabled: t.organizerFeeEnabled,
    escrow_address: t.escrowAddress,
    escrow_status: escrowOf(p, t).status,
    seeded_at: isoOrNull(t.seededAtMs),
    started_at: isoOrNull(t.startedAtMs),
    // The platform stamps completedAtMs on cancellation too; the wire keeps the two apart.
    completed_at: t.status === 'completed' ? isoOrNull(t.completedAtMs) : null,
    cancelled_at: t.status === 'cancelled' ? isoOrNull(t.completedAtMs) : null,
    cancel_reason: t.cancelReason,
    participants: participantsInSeedOrder(t).map((x) => participantRow(p, t, x)),
    rounds: t.rounds.map((matches, i) => roundRow(p, t, matches, i + 1)),
    placements: placementRows(p, t),
  };
}

/** A tournament's escrow opens with the tournament and is never removed, so it is always there to read. */
function escrowOf(p: Platform, t: Tournament) {
  return p.state.escrows.get(t.escrowAddress)!;
}

function roundRow(p: Platform, t: Tournament, matches: readonly Match[], roundNumber: number): T.RoundRow {
  return { round_number: roundNumber, matches: matches.map((m) => matchRow(p, t, m)) };
}

/** Seed order once seeded; join order before (every seed is null then, so join order decides alone). */
function participantsInSeedOrder(t: Tournament): Participant[] {
  const rank = (x: Participant) => x.seed ?? Number.MAX_SAFE_INTEGER;
  return [...t.participants].sort((a, b) => rank(a) - rank(b) || a.joinOrder - b.joinOrder);
}

function participantRow(p: Platform, t: Tournament, x: Participant): T.ParticipantRow {
  const champion = t.status === 'completed' && t.placements[0] === x.agentId;
  return {
    handle: agentOf(p, x.agentId).handle,
    agent_id: x.agentId,
    seed: x.seed,
    elo_at_seed: x.eloAtSeed,
    status: champion ? 'champion' : x.eliminated ? 'eliminated' : 'active',
    eliminated_round: x.eliminatedRound,
    payment_status: x.paymentStatus,
    joined_at: toIso(x.joinedAtMs),
  };
}

function slotRef(p: Platform, t: Tournament, agentId: string | null): T.SlotRef {
  if (agentId === null) return null;
  return {
    handle: agentOf(p, agentId).handle,
    seed: t.participants.find((x) => x.agentId === agentId)!.seed,
  };
}

function matchRow(p: Platform, t: Tournament, m: Match): T.MatchRow {
  return {
    match_index: m.matchIndex,
    participant1: slotRef(p, t, m.slots[0]),
    participant2: slotRef(p, t, m.slots[1]),
    game_id: m.gameId,
    winner_handle: m.winnerId === null ? null : agentOf(p, m.winnerId).handle,
    status: m.status,
  };
}

/**
 * Payouts are read from the transfers actually queued, not recomputed: a place whose share was folded
 * into 1st (too small to land in an empty wallet) then shows 0, as the money did.
 */
function placementRows(p: Platform, t: Tournament): T.PlacementRow[] {
  return t.placements.map((agentId, i) => {
    const paid = agentTransfers(p, agentId).filter(
      (x) =>
        x.type === 'tournament_payout' &&
        x.status !== 'failed' &&
        x.purpose.kind === 'tournament' &&
        x.purpose.tournamentId === t.id,
    );
    return { place: i + 1, handle: agentOf(p, agentId).handle, payout_sol: lamportsToSol(sumLamports(paid)) };
  });
}

/** The join response (WIRE §7). `queued_transfers`: this entry's fee is still on its way to the escrow. */
export function joinResponse(
  p: Platform,
  t: Tournament,
  x: Participant,
  alreadyJoined: boolean,
): T.JoinResponse {
  const entry = x.entryTransferId === null ? undefined : p.state.transfers.get(x.entryTransferId);
  return {
    success: true,
    participant: {
      id: x.id,
      tournament_id: t.id,
      agent_id: x.agentId,
      seed: x.seed,
      eliminated: x.eliminated,
      eliminated_round: x.eliminatedRound,
      joined_at: toIso(x.joinedAtMs),
    },
    payment_status: x.paymentStatus,
    queued_transfers: entry?.status === 'queued',
    already_joined: alreadyJoined,
  };
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

// ---- money --------------------------------------------------------------------------------------------

/** The transfers that move money in or out of an agent's wallet, oldest first. */
function agentTransfers(p: Platform, agentId: string): Transfer[] {
  return (p.state.transfersByAgent.get(agentId) ?? []).map((id) => p.state.transfers.get(id)!);
}

function sumLamports(transfers: readonly Transfer[]): number {
  return transfers.reduce((sum, x) => sum + x.lamports, 0);
}

function signedLamports(agent: Agent, x: Transfer): number {
  return x.to === agent.walletAddress ? x.lamports : -x.lamports;
}

function transferRow(agent: Agent, x: Transfer): A.TransferRow {
  const amount = lamportsToSol(x.lamports);
  const incoming = signedLamports(agent, x) > 0;
  return {
    id: x.id,
    transfer_type: x.type,
    amount_sol: amount,
    direction: incoming ? 'in' : 'out',
    signed: incoming ? amount : -amount,
    description: x.description,
    status: x.status,
    created_at: toIso(x.createdAtMs),
    settled_at: isoOrNull(x.settledAtMs),
  };
}

/**
 * The wallet's balance at the end of each UTC day on which a settled transfer moved it, oldest day first.
 * Airdrops are ledger mints, not transfers, and the state keeps no record of them, so the history is
 * computed backwards from the current ledger balance by undoing later transfers: exact whenever the mints
 * came before the days shown (as scenario airdrops do); a mint after a day would be counted in that day.
 */
function balanceHistory(p: Platform, agent: Agent, settled: readonly Transfer[]) {
  const bySettlement = [...settled].sort((a, b) => b.settledAtMs! - a.settledAtMs! || b.seq - a.seq);
  let balance = p.ledger.balance(agent.walletAddress);
  const days: Array<{ date: string; balance_sol: number }> = [];
  for (const x of bySettlement) {
    const date = toIso(x.settledAtMs!).slice(0, 10);
    if (days.at(-1)?.date !== date) days.push({ date, balance_sol: lamportsToSol(balance) });
    balance -= signedLamports(agent, x);
  }
  return days.reverse();
}

/** Settled lamports per transfer type (each type moves one way for the agent it belongs to). */
function settledByType(settled: readonly Transfer[]): (type: TransferType) => number {
  const totals = new Map<TransferType, number>();
  for (const x of settled) totals.set(x.type, (totals.get(x.type) ?? 0) + x.lamports);
  return (type) => totals.get(type) ?? 0;
}

/**
 * Fees the agent paid: bounty fees charged on its winnings, and entry fees of tournaments that were not
 * cancelled (OURS: a cancelled tournament refunds every entry, so that money was never a fee).
 */
function feesPaidLamports(p: Platform, agent: Agent, settled: readonly Transfer[]): number {
  const bountyFees = (p.state.feesByAgent.get(agent.id) ?? []).map((id) => p.state.transfers.get(id)!);
  const charged = bountyFees.filter((x) => x.status === 'settled' && x.type === 'bounty_system_fee');
  const entries = settled.filter(
    (x) =>
      x.type === 'tournament_entry' &&
      x.purpose.kind === 'tournament' &&
      !wasCancelled(p, x.purpose.tournamentId),
  );
  return sumLamports(charged) + sumLamports(entries);
}

function wasCancelled(p: Platform, tournamentId: string): boolean {
  return p.state.tournaments.get(tournamentId)?.status === 'cancelled';
}

/** Completed tournaments by the agent's place: [gold, silver, bronze]. */
function medals(p: Platform, agentId: string): [number, number, number] {
  const counts: [number, number, number] = [0, 0, 0];
  for (const t of p.state.tournaments.values()) {
    const place = t.status === 'completed' ? t.placements.indexOf(agentId) : -1;
    if (place >= 0 && place < 3) counts[place as 0 | 1 | 2]++;
  }
  return counts;
}

function tournamentsEntered(p: Platform, agentId: string): number {
  let count = 0;
  for (const t of p.state.tournaments.values())
    if (t.participants.some((x) => x.agentId === agentId)) count++;
  return count;
}

/** GET /api/agents/{handle}/transfers. CamelCase top-level keys, as the real service sends them (WIRE §3). */
export function transfersReport(
  p: Platform,
  agent: Agent,
  query: { limit?: number; offset?: number },
): A.TransfersReport {
  const all = agentTransfers(p, agent.id);
  const settled = all.filter((x) => x.status === 'settled');
  const byType = settledByType(settled);
  const winnings = byType('bounty_payout') + byType('tournament_payout');
  const [gold, silver, bronze] = medals(p, agent.id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  return {
    transfers: [...all]
      .reverse()
      .slice(offset, offset + limit)
      .map((x) => transferRow(agent, x)),
    total: all.length,
    limit,
    offset,
    balanceHistory: balanceHistory(p, agent, settled),
    totalWinnings: lamportsToSol(winnings),
    tournamentWinningsSol: lamportsToSol(byType('tournament_payout')),
    totalEarningsSol: lamportsToSol(winnings + byType('tournament_organizer_fee')),
    feesPaidSol: lamportsToSol(feesPaidLamports(p, agent, settled)),
    tournamentsEntered: tournamentsEntered(p, agent.id),
    gold,
    silver,
    bronze,
    wallet_address: agent.walletAddress,
    balance_sol: lamportsToSol(p.ledger.balance(agent.walletAddress)),
  };
}

// ---- tournament leaderboards ----------------------------------------------------------------------------

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

export function tournamentWinsRow(r: TournamentRanked): L.TournamentWinsRow {
  return {
    rank: r.rank,
    agent: { handle: r.agent.handle },
    handle: r.agent.handle,
    tournament_wins: r.wins,
    elo: r.agent.elo,
  };
}

export function tournamentEarningsRow(r: TournamentRanked): L.TournamentEarningsRow {
  return {
    rank: r.rank,
    agent: { handle: r.agent.handle },
    handle: r.agent.handle,
    earnings_sol: lamportsToSol(r.earningsLamports),
    tournament_wins: r.wins,
  };
}
