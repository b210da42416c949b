import { toIso } from '../kernel/clock.js';
import { lamportsToSol } from '../kernel/money.js';
import type { Platform } from '../platform/platform.js';
import type { Match, Participant, Tournament } from '../platform/state.js';
import { agentTransfers, sumLamports } from '../platform/money/agent-money.js';
import { reservedParticipants, type TournamentRanked } from '../platform/chess/tournament-queries.js';
import type * as L from './contract/leaderboard.js';
import type * as T from './contract/tournaments.js';
import { agentOf } from './views.js';

/**
 * Wire views of tournaments (WIRE §7) and of the two tournament leaderboards' rows (WIRE §6). The questions
 * they answer (listing order, the open filter, the rankings) are in src/platform/chess/tournament-queries.ts,
 * an agent's money in src/platform/money/agent-money.ts.
 */
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

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
