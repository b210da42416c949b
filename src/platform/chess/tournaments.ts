import { fail, invariant } from '../../kernel/errors.js';
import { toIso } from '../../kernel/clock.js';
import { lamportsToSol, solToLamports } from '../../kernel/money.js';
import {
  advancer,
  firstRoundPairings,
  matchColours,
  nextSlot,
  placements,
  roundsFor,
  seedEntrants,
  type Seeded,
} from '../../rules/chess/brackets.js';
import { eligibilityProblem } from '../../rules/chess/eligibility.js';
import {
  registrationClosesAtMs,
  roundOneStartsAtMs,
  settlementEndsAtMs,
} from '../../rules/chess/tournament-schedule.js';
import { poolProblem, prizeSplit, tournamentPool, type PrizeDistribution } from '../../rules/money/fees.js';
import {
  bookFinishedTransfer,
  depositInto,
  deriveEscrowAddress,
  openEscrow,
  transitionEscrow,
  type OutflowSpec,
} from '../money/escrows.js';
import { gamesPlayed, startGame } from './games.js';
import { requireResearchDone } from '../guards.js';
import type { Platform, PlatformTimer } from '../platform.js';
import type { Agent, Eligibility, Game, Match, Participant, Tournament, Transfer } from '../state.js';
import { requireSpendable } from '../money/transfers.js';
import { downvoteBetween } from '../social/votes.js';

/**
 * Creator-run single-elimination tournaments (SPEC, WIRE §7): registration with funded entries, a
 * settlement window once the bracket fills, Elo seeding, a start delay, matches as ordinary games, and
 * automatic payouts. Cancellation refunds every lamport. The rules themselves (seeding, bracket order,
 * tiebreak, fees, prize split) are pure functions in src/rules.
 */
export interface TournamentInput {
  name: string;
  description?: string | null;
  format?: string | null;
  max_participants: number;
  prize_sol?: number | null;
  entry_fee_sol?: number | null;
  minimum_start_at?: string | null;
  prize_distribution?: PrizeDistribution | null;
  organizer_fee_enabled?: boolean | null;
  verified_only?: boolean | null;
  elo_min?: number | null;
  elo_max?: number | null;
  min_games_played?: number | null;
  max_games_played?: number | null;
  required_tags?: string[] | null;
}

export function createTournament(p: Platform, creator: Agent, input: TournamentInput): Tournament {
  requireResearchDone(p, creator);
  const min = p.ruleset.tournaments.creatorMinGames;
  if (gamesPlayed(creator) < min)
    fail(
      'not_enough_games',
      `creating a tournament needs ${min} games played; you have ${gamesPlayed(creator)}`,
    );
  const terms = checkTerms(p, input);
  requireSpendable(p, creator.walletAddress, terms.prizeLamports, 'the prize fund');
  const tournament = newTournament(p, creator, input, terms);
  p.state.tournaments.set(tournament.id, tournament);
  const escrow = openEscrow(p, 'tournament', tournament.escrowAddress, tournament.id);
  p.emit({
    type: 'tournament_created' as const,
    t: p.nowMs,
    tournamentId: tournament.id,
    creatorId: creator.id,
    maxParticipants: tournament.maxParticipants,
    prizeLamports: tournament.prizeLamports,
    entryFeeLamports: tournament.entryFeeLamports,
    distribution: tournament.distribution,
  });
  if (terms.prizeLamports > 0) {
    const fund = depositInto(p, escrow, {
      type: 'tournament_fund',
      from: creator.walletAddress,
      lamports: terms.prizeLamports,
      agentId: creator.id,
      description: `prize fund - ${tournament.name}`,
    });
    tournament.fundTransferId = fund.id;
  }
  tournament.timer = p.setTimer(tournament.registrationClosesAtMs, {
    kind: 'tournament_timer',
    tournamentId: tournament.id,
    phase: 'registration_closes',
  });
  return tournament;
}

interface Terms {
  prizeLamports: number;
  entryFeeLamports: number;
  minimumStartAtMs: number | null;
  distribution: PrizeDistribution;
  eligibility: Eligibility;
}

/** Validation in precedence order: the first problem is reported, and nothing has changed yet. */
function checkTerms(p: Platform, input: TournamentInput): Terms {
  const r = p.ruleset.tournaments;
  const invalid = (field: string, why: string): never =>
    fail('validation_error', `${field}: ${why}`, { field });
  if (input.name.trim().length === 0 || input.name.length > r.nameMax)
    invalid('name', `must be 1-${r.nameMax} characters`);
  if ((input.description?.length ?? 0) > r.descriptionMax)
    invalid('description', `at most ${r.descriptionMax} characters`);
  if (input.format && input.format !== 'single_elimination')
    invalid('format', 'only single_elimination is played');
  if (!r.sizes.includes(input.max_participants))
    invalid('max_participants', `must be one of ${r.sizes.join(', ')}`);
  const prizeLamports = solAmount(p, input.prize_sol, r.prizeMaxLamports, 'prize_sol', invalid);
  const entryFeeLamports = solAmount(p, input.entry_fee_sol, r.entryFeeMaxLamports, 'entry_fee_sol', invalid);
  const minimumStartAtMs = startTime(p, input.minimum_start_at, invalid);
  const distribution = input.prize_distribution ?? 'winner_only';
  if (distribution === 'top_four' && input.max_participants < 4)
    invalid('prize_distribution', 'top_four needs at least 4 places');
  const eligibility = checkEligibility(p, input, invalid);
  const pool = tournamentPool({
    prizeLamports,
    entryFeeLamports,
    participants: input.max_participants,
    systemFeeBps: r.systemFeeBps,
    organizerFeeBps: input.organizer_fee_enabled ? r.organizerFeeBps : 0,
    rentExemptMinimum: p.ruleset.escrow.rentExemptMinimumLamports,
  }).pool;
  const problem = poolProblem(pool, p.ruleset.escrow.rentExemptMinimumLamports);
  if (problem) invalid('prize_sol', problem);
  return { prizeLamports, entryFeeLamports, minimumStartAtMs, distribution, eligibility };
}

/**
 * SOL amounts: 0 to the maximum, in whole lamports; a nonzero amount must reach the rent-exempt minimum,
 * so that refunding it can always land in an empty wallet (OURS).
 */
function solAmount(
  p: Platform,
  sol: number | null | undefined,
  maxLamports: number,
  field: string,
  invalid: (f: string, w: string) => never,
): number {
  if (sol === undefined || sol === null || sol === 0) return 0;
  const lamports = solToLamports(sol);
  if (lamports === undefined || lamports > maxLamports)
    invalid(field, `must be from 0 to ${lamportsToSol(maxLamports)} SOL, in whole lamports`);
  const rent = p.ruleset.escrow.rentExemptMinimumLamports;
  if (lamports < rent)
    invalid(field, `a nonzero amount must be at least ${lamportsToSol(rent)} SOL (the rent-exempt minimum)`);
  return lamports;
}

function startTime(
  p: Platform,
  text: string | null | undefined,
  invalid: (f: string, w: string) => never,
): number | null {
  if (text === undefined || text === null) return null;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) invalid('minimum_start_at', 'must be an ISO 8601 UTC time ending in Z');
  // Date.parse rolls impossible dates over (April 31 -> May 1): the text must survive the round trip.
  if (toIso(ms).slice(0, 19) !== text.slice(0, 19))
    invalid('minimum_start_at', 'is not a real calendar time');
  if (ms <= p.nowMs) invalid('minimum_start_at', 'must be in the future');
  return ms;
}

function checkEligibility(
  p: Platform,
  input: TournamentInput,
  invalid: (f: string, w: string) => never,
): Eligibility {
  const bound = (field: keyof TournamentInput, value: number | null | undefined) => {
    if (value === undefined || value === null) return null;
    if (!Number.isSafeInteger(value) || value < 0) invalid(field, 'must be a whole number of 0 or more');
    return value;
  };
  const eloMin = bound('elo_min', input.elo_min);
  const eloMax = bound('elo_max', input.elo_max);
  const minGames = bound('min_games_played', input.min_games_played);
  const maxGames = bound('max_games_played', input.max_games_played);
  if (eloMin !== null && eloMax !== null && eloMin > eloMax) invalid('elo_min', 'must not exceed elo_max');
  if (minGames !== null && maxGames !== null && minGames > maxGames)
    invalid('min_games_played', 'must not exceed max_games_played');
  const tags = input.required_tags ?? [];
  const { tagsMax, tagMax } = p.ruleset.identity; // the same bounds as an agent's own tags
  if (tags.length > tagsMax || tags.some((t) => t.length === 0 || t.length > tagMax))
    invalid('required_tags', `at most ${tagsMax} tags of 1-${tagMax} characters`);
  return {
    verifiedOnly: input.verified_only ?? false,
    eloMin,
    eloMax,
    minGamesPlayed: minGames,
    maxGamesPlayed: maxGames,
    requiredTags: [...tags],
  };
}

function newTournament(p: Platform, creator: Agent, input: TournamentInput, terms: Terms): Tournament {
  const closes = registrationClosesAtMs(p.nowMs, terms.minimumStartAtMs, p.ruleset);
  return {
    id: p.newId('tournament'),
    seq: p.state.tournaments.size,
    name: input.name,
    description: input.description ?? null,
    creatorId: creator.id,
    maxParticipants: input.max_participants,
    prizeLamports: terms.prizeLamports,
    entryFeeLamports: terms.entryFeeLamports,
    distribution: terms.distribution,
    organizerFeeEnabled: input.organizer_fee_enabled ?? false,
    eligibility: terms.eligibility,
    minimumStartAtMs: terms.minimumStartAtMs,
    createdAtMs: p.nowMs,
    registrationClosesAtMs: closes,
    escrowAddress: deriveEscrowAddress(p, 'tournament_escrow'),
    fundTransferId: null,
    fundSettled: terms.prizeLamports === 0,
    status: 'registration' as const,
    participants: [],
    joins: 0,
    filledAtMs: null,
    seededAtMs: null,
    scheduledStartMs: null,
    startedAtMs: null,
    completedAtMs: null,
    timer: null,
    rounds: [],
    placements: [],
    cancelReason: null,
  };
}

export function requireTournament(p: Platform, id: string): Tournament {
  return p.state.tournaments.get(id) ?? fail('not_found', `no tournament "${id}"`);
}

/** POST /api/chess/tournaments/{id}/join. A repeat returns the existing entry (already_joined). */
export function joinTournament(
  p: Platform,
  agent: Agent,
  id: string,
): { participant: Participant; alreadyJoined: boolean } {
  const t = requireTournament(p, id);
  requireResearchDone(p, agent);
  if (t.status !== 'registration') fail('tournament_not_open', `the tournament is ${t.status}`);
  const existing = t.participants.find((x) => x.agentId === agent.id);
  if (existing) return { participant: existing, alreadyJoined: true };
  if (t.filledAtMs !== null) fail('tournament_full', `all ${t.maxParticipants} places are taken`);
  const ineligible = eligibilityProblem(t.eligibility, {
    verified: agent.verified,
    elo: agent.elo,
    gamesPlayed: gamesPlayed(agent),
    tags: agent.tags,
  });
  if (ineligible) fail('not_eligible', ineligible);
  requireNoBlock(p, t, agent);
  if (t.entryFeeLamports > 0) requireSpendable(p, agent.walletAddress, t.entryFeeLamports, 'the entry fee');
  return { participant: enter(p, t, agent), alreadyJoined: false };
}

/** SPEC: a downvote blocks tournament joins: with the creator, and with anyone already entered (co-entry). */
function requireNoBlock(p: Platform, t: Tournament, agent: Agent): void {
  const others = [t.creatorId, ...t.participants.map((x) => x.agentId)].map((id) => p.state.agents.get(id)!);
  const blocker = others.find((other) => other.id !== agent.id && downvoteBetween(p, agent, other));
  if (blocker)
    fail('vote_blocked', `joining is blocked: a profile downvote stands between you and ${blocker.handle}`);
}

function enter(p: Platform, t: Tournament, agent: Agent): Participant {
  const escrow = p.state.escrows.get(t.escrowAddress)!;
  const entry =
    t.entryFeeLamports === 0
      ? null
      : depositInto(p, escrow, {
          type: 'tournament_entry',
          from: agent.walletAddress,
          lamports: t.entryFeeLamports,
          agentId: agent.id,
          description: `entry fee - ${t.name}`,
        });
  const participant: Participant = {
    id: p.newId('participant'),
    agentId: agent.id,
    joinOrder: t.joins++,
    joinedAtMs: p.nowMs,
    entryTransferId: entry?.id ?? null,
    paymentStatus: entry ? 'pending' : 'free',
    seed: null,
    eloAtSeed: null,
    eliminated: false,
    eliminatedRound: null,
  };
  t.participants.push(participant);
  p.emit({
    type: 'tournament_joined',
    t: p.nowMs,
    tournamentId: t.id,
    agentId: agent.id,
    participants: t.participants.length,
  });
  if (t.participants.length === t.maxParticipants) bracketFilled(p, t);
  return participant;
}

/** SPEC: a filled bracket gets a settlement window (2 min) before seeding; it ends early once all settled. */
function bracketFilled(p: Platform, t: Tournament): void {
  t.filledAtMs = p.nowMs;
  setPhase(p, t, settlementEndsAtMs(p.nowMs, p.ruleset), 'settlement_ends');
  if (fundingSettled(t)) seed(p, t);
}

function setPhase(
  p: Platform,
  t: Tournament,
  dueMs: number,
  phase: 'registration_closes' | 'settlement_ends' | 'round_one',
): void {
  p.cancelTimer(t.timer);
  t.timer = p.setTimer(dueMs, { kind: 'tournament_timer', tournamentId: t.id, phase });
}

function fundingSettled(t: Tournament): boolean {
  return (
    t.fundSettled && t.participants.every((x) => x.paymentStatus === 'paid' || x.paymentStatus === 'free')
  );
}

/** Elo seeding, then round 1 at seeding + 5 minutes or the creator's later minimum_start_at (SPEC). */
function seed(p: Platform, t: Tournament): void {
  const agents = t.participants.map((x) => p.state.agents.get(x.agentId)!);
  const seeded = seedEntrants(
    t.participants.map((x, i) => ({ id: x.agentId, elo: agents[i]!.elo, joinOrder: x.joinOrder })),
  );
  for (const s of seeded) {
    const participant = t.participants.find((x) => x.agentId === s.id)!;
    participant.seed = s.seed;
    participant.eloAtSeed = s.eloAtSeed;
  }
  t.seededAtMs = p.nowMs;
  t.scheduledStartMs = roundOneStartsAtMs(p.nowMs, t.minimumStartAtMs, p.ruleset);
  transitionEscrow(p, p.state.escrows.get(t.escrowAddress)!, { type: 'funding_complete' });
  setPhase(p, t, t.scheduledStartMs, 'round_one');
  p.emit({
    type: 'tournament_seeded',
    t: p.nowMs,
    tournamentId: t.id,
    seeds: seeded.map((s) => s.id),
    elos: seeded.map((s) => s.eloAtSeed),
    scheduledStartMs: t.scheduledStartMs,
  });
}

export function onTournamentTimer(p: Platform, timer: PlatformTimer): void {
  if (timer.kind !== 'tournament_timer') return;
  const t = p.state.tournaments.get(timer.tournamentId)!;
  t.timer = null;
  if (t.status !== 'registration') return;
  if (timer.phase === 'registration_closes' && t.filledAtMs === null)
    cancelTournament(p, t, 'registration_window_expired');
  else if (timer.phase === 'settlement_ends' && t.seededAtMs === null) {
    if (fundingSettled(t)) seed(p, t);
    else cancelTournament(p, t, 'funding_not_settled'); // OURS: the window is the funding deadline
  } else if (timer.phase === 'round_one') startRoundOne(p, t);
}

/**
 * A transfer of the tournament's escrow settled or finally failed: booked against the escrow first
 * (src/platform/money/escrows.ts). Before round 1, a settled entry marks its participant paid (and the last one
 * may trigger seeding); a failed entry drops only that entrant, while a failed prize fund cancels the
 * tournament. After a cancellation, late entries are refunded as they land.
 */
export function onTournamentTransfer(p: Platform, transfer: Transfer): void {
  if (transfer.purpose.kind !== 'tournament') return;
  const t = p.state.tournaments.get(transfer.purpose.tournamentId)!;
  const change = bookFinishedTransfer(p, p.state.escrows.get(t.escrowAddress)!, transfer);
  if (change !== 'deposit_settled' && change !== 'deposit_failed') return;
  const entrant = t.participants.find((x) => x.entryTransferId === transfer.id);
  if (t.status === 'cancelled') {
    if (entrant) entrant.paymentStatus = change === 'deposit_settled' ? 'refunded' : 'failed';
    return;
  }
  if (change === 'deposit_failed')
    return entrant ? dropEntrant(p, t, entrant) : cancelTournament(p, t, 'prize_funding_failed');
  if (entrant) entrant.paymentStatus = 'paid';
  else t.fundSettled = true;
  if (t.filledAtMs !== null && t.seededAtMs === null && fundingSettled(t)) seed(p, t);
}

/** OURS: an entry fee that never lands frees the place; a full bracket reopens for registration. */
function dropEntrant(p: Platform, t: Tournament, entrant: Participant): void {
  t.participants.splice(t.participants.indexOf(entrant), 1);
  p.emit({
    type: 'tournament_entry_dropped',
    t: p.nowMs,
    tournamentId: t.id,
    agentId: entrant.agentId,
    participants: t.participants.length,
  });
  if (t.filledAtMs === null) return;
  t.filledAtMs = null;
  if (p.nowMs >= t.registrationClosesAtMs) return cancelTournament(p, t, 'registration_window_expired');
  setPhase(p, t, t.registrationClosesAtMs, 'registration_closes');
}

/** OURS: a bracket that does not fill in time, or whose prize funding fails, is cancelled; every lamport goes back. */
function cancelTournament(p: Platform, t: Tournament, reason: string): void {
  p.cancelTimer(t.timer);
  t.timer = null;
  t.status = 'cancelled';
  t.cancelReason = reason;
  t.completedAtMs = p.nowMs;
  for (const x of t.participants) if (x.paymentStatus === 'paid') x.paymentStatus = 'refunded';
  p.emit({ type: 'tournament_cancelled', t: p.nowMs, tournamentId: t.id, reason });
  transitionEscrow(p, p.state.escrows.get(t.escrowAddress)!, { type: 'cancel' });
}

function startRoundOne(p: Platform, t: Tournament): void {
  t.status = 'in_progress';
  t.startedAtMs = p.nowMs;
  p.emit({ type: 'tournament_started', t: p.nowMs, tournamentId: t.id });
  const bySeed = new Map(t.participants.map((x) => [x.seed!, x.agentId]));
  const rounds = roundsFor(t.maxParticipants);
  for (let r = 1; r <= rounds; r++) {
    const count = t.maxParticipants >> r;
    t.rounds.push(
      Array.from({ length: count }, (_, i): Match => ({
        matchIndex: i,
        slots: [null, null],
        gameId: null,
        winnerId: null,
        status: 'waiting',
      })),
    );
  }
  firstRoundPairings(t.maxParticipants).forEach(([a, b], i) => {
    const match = t.rounds[0]![i]!;
    match.slots[0] = bySeed.get(a)!;
    match.slots[1] = bySeed.get(b)!;
    startMatch(p, t, 1, match);
  });
}

function seededOf(t: Tournament, agentId: string): Seeded {
  const x = t.participants.find((q) => q.agentId === agentId)!;
  return { id: agentId, elo: x.eloAtSeed!, joinOrder: x.joinOrder, seed: x.seed!, eloAtSeed: x.eloAtSeed! };
}

/** OURS: the better seed plays White (the draw tiebreak favours the lower seed; White balances it). */
function startMatch(p: Platform, t: Tournament, round: number, match: Match): void {
  const { white, black } = matchColours(seededOf(t, match.slots[0]!), seededOf(t, match.slots[1]!));
  const game = startGame(p, {
    id: p.newId('tournament-game'),
    whiteId: white.id,
    blackId: black.id,
    tournamentId: t.id,
  });
  match.gameId = game.id;
  match.status = 'active';
  p.emit({
    type: 'tournament_match_started',
    t: p.nowMs,
    tournamentId: t.id,
    round,
    matchIndex: match.matchIndex,
    gameId: game.id,
    whiteId: white.id,
    blackId: black.id,
  });
}

/** Game-end hook: the advancer (winner, or the tiebreak on a draw) moves on; the final completes it. */
export function onTournamentGameEnded(p: Platform, game: Game): void {
  if (game.tournamentId === null) return;
  const t = p.state.tournaments.get(game.tournamentId)!;
  const round = t.rounds.findIndex((matches) => matches.some((m) => m.gameId === game.id)) + 1;
  invariant(round > 0, `tournament game ${game.id} has no match`);
  const match = t.rounds[round - 1]!.find((m) => m.gameId === game.id)!;
  const side = advancer(seededOf(t, game.whiteId), seededOf(t, game.blackId), game.end!.winner);
  const [winnerId, loserId] = side === 'white' ? [game.whiteId, game.blackId] : [game.blackId, game.whiteId];
  match.winnerId = winnerId;
  match.status = 'completed';
  const loser = t.participants.find((x) => x.agentId === loserId)!;
  loser.eliminated = true;
  loser.eliminatedRound = round;
  p.emit({
    type: 'tournament_match_decided' as const,
    t: p.nowMs,
    tournamentId: t.id,
    round,
    matchIndex: match.matchIndex,
    gameId: game.id,
    result: game.end!.result,
    advancedId: winnerId,
    eliminatedId: loserId,
  });
  if (round === t.rounds.length) return completeTournament(p, t);
  const next = nextSlot(round, match.matchIndex);
  const target = t.rounds[next.round - 1]![next.matchIndex]!;
  target.slots[next.slot] = winnerId;
  if (target.slots[0] !== null && target.slots[1] !== null) startMatch(p, t, next.round, target);
}

function completeTournament(p: Platform, t: Tournament): void {
  const decided = (m: Match) => ({ winner: m.winnerId!, loser: m.slots.find((id) => id !== m.winnerId)! });
  const final = decided(t.rounds.at(-1)![0]!);
  t.placements =
    t.rounds.length >= 2 ? placements(final, t.rounds.at(-2)!.map(decided)) : [final.winner, final.loser];
  t.status = 'completed';
  t.completedAtMs = p.nowMs;
  const money = tournamentPool({
    prizeLamports: t.prizeLamports,
    entryFeeLamports: t.entryFeeLamports,
    participants: t.maxParticipants,
    systemFeeBps: p.ruleset.tournaments.systemFeeBps,
    organizerFeeBps: t.organizerFeeEnabled ? p.ruleset.tournaments.organizerFeeBps : 0,
    rentExemptMinimum: p.ruleset.escrow.rentExemptMinimumLamports,
  });
  const shares = prizeSplit(money.pool, t.distribution, p.ruleset.escrow.rentExemptMinimumLamports);
  p.emit({
    type: 'tournament_completed',
    t: p.nowMs,
    tournamentId: t.id,
    placements: [...t.placements],
    payouts: shares,
    pool: money.pool,
    systemFee: money.systemFee,
    organizerFee: money.organizerFee,
  });
  payOut(p, t, shares, money);
}

const PLACE_NAMES = ['1st', '2nd', '3rd', '4th'];

/** Places, then the system fee, then the organizer fee; with nothing to pay (free, no prize) the escrow closes at once. */
function payOut(
  p: Platform,
  t: Tournament,
  shares: number[],
  money: { systemFee: number; organizerFee: number },
): void {
  const outflows: OutflowSpec[] = [];
  shares.forEach((lamports, place) => {
    if (lamports === 0) return;
    const agent = p.state.agents.get(t.placements[place]!)!;
    outflows.push({
      type: 'tournament_payout',
      to: agent.walletAddress,
      lamports,
      agentId: agent.id,
      description: `${PLACE_NAMES[place]} place - ${t.name}`,
    });
  });
  if (money.systemFee > 0) {
    outflows.push({
      type: 'tournament_system_fee',
      to: p.treasuryAddress,
      lamports: money.systemFee,
      agentId: null,
      description: `system fee - ${t.name}`,
    });
  }
  if (money.organizerFee > 0) {
    const creator = p.state.agents.get(t.creatorId)!;
    outflows.push({
      type: 'tournament_organizer_fee',
      to: creator.walletAddress,
      lamports: money.organizerFee,
      agentId: creator.id,
      description: `organizer fee - ${t.name}`,
    });
  }
  transitionEscrow(p, p.state.escrows.get(t.escrowAddress)!, { type: 'pay_out', outflows });
}
