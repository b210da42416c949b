import { fail } from '../../kernel/errors.js';
import { solToLamports } from '../../kernel/money.js';
import { requireAgent } from '../../platform/identity/identity.js';
import type { Platform } from '../../platform/platform.js';
import { createTournament, joinTournament, requireTournament } from '../../platform/chess/tournaments.js';
import * as C from '../contract/tournaments.js';
import {
  isOpenForEntry,
  matchesOpenFilter,
  tournamentsNewestFirst,
  type OpenFilter,
} from '../../platform/chess/tournament-queries.js';
import { joinResponse, openTournamentRow, tournamentDetail, tournamentSummary } from '../tournament-views.js';
import { caller, implement, type Route } from '../types.js';
import { pagedList } from './paging.js';

/** Tournaments (WIRE §7). Lists are newest first. */
export const tournamentRoutes: Route[] = [
  implement(C.listTournaments, ({ platform, query }) => {
    // "live" is what the spec calls a running tournament; the wire status is in_progress.
    const status = query.status === 'live' ? 'in_progress' : query.status;
    const rows = tournamentsNewestFirst(platform).filter((t) => status === undefined || t.status === status);
    return pagedList('tournaments', rows, query, (t) => tournamentSummary(platform, t));
  }),
  implement(C.openTournaments, ({ platform, query }) => {
    const filter = openFilter(platform, query);
    const rows = tournamentsNewestFirst(platform).filter(
      (t) => isOpenForEntry(t) && matchesOpenFilter(t, filter),
    );
    return pagedList('tournaments', rows, query, (t) => openTournamentRow(platform, t));
  }),
  implement(C.getTournament, ({ platform, params }) => ({
    tournament: tournamentDetail(platform, requireTournament(platform, params['id']!)),
  })),
  implement(C.createTournament, (ctx) => {
    const tournament = createTournament(ctx.platform, caller(ctx), ctx.body);
    return { success: true as const, tournament: tournamentDetail(ctx.platform, tournament) };
  }),
  implement(C.joinTournament, (ctx) => {
    const tournament = requireTournament(ctx.platform, ctx.params['id']!);
    const { participant, alreadyJoined } = joinTournament(ctx.platform, caller(ctx), tournament.id);
    return joinResponse(ctx.platform, tournament, participant, alreadyJoined);
  }),
];

/**
 * Query text -> a filter; an absent field stays undefined and filters nothing. An unknown creator is
 * not_found, as the open-challenge list's challenger filter is.
 */
function openFilter(p: Platform, q: C.OpenTournamentsQuery): OpenFilter {
  return {
    creatorId: q.creator_handle === undefined ? undefined : requireAgent(p, q.creator_handle).id,
    search: q.search,
    verifiedOnly: q.verified_only,
    hasEntryFee: q.has_entry_fee,
    prizeMinLamports: q.prize_min === undefined ? undefined : solFilter(q.prize_min, 'prize_min'),
    entryFeeMaxLamports:
      q.entry_fee_max === undefined ? undefined : solFilter(q.entry_fee_max, 'entry_fee_max'),
    requiredTags: q.required_tag,
  };
}

/** Compared in lamports, so a bound equal to a tournament's amount matches exactly. */
function solFilter(sol: number, field: string): number {
  return (
    solToLamports(sol) ??
    fail('validation_error', `${field}: must be an amount of SOL of 0 or more, in whole lamports`, { field })
  );
}
