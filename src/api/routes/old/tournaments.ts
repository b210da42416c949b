import { fail } from '../../../kernel/errors.js';
import { solToLamports } from '../../../kernel/money.js';
import { requireAgent } from '../../../platform/identity.js';
import type { Platform } from '../../../platform/platform.js';
import { createTournament, joinTournament, requireTournament } from '../../../platform/tournaments.js';
import { PRIZE_DISTRIBUTIONS } from '../../../rules/fees.js';
import { bool, int, nullable, num, object, oneOf, paging, str, strings } from '../../schema.js';
import { caller, type JsonSchema, } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
import {
  isOpenForEntry,
  joinResponse,
  matchesOpenFilter,
  openTournamentRow,
  tournamentDetail,
  tournamentsNewestFirst,
  tournamentSummary,
  type OpenFilter,
} from '../../tournament-views.js';
import { pagedList } from '../paging.js';

/** Tournaments (WIRE §7). Lists are newest first. */
export const tournamentRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/chess/tournaments',
    auth: 'none',
    summary: 'List tournaments; status registration, in_progress (or its alias live), completed or cancelled',
    schema: { querystring: object({ ...paging(), status: oneOf(['registration', 'in_progress', 'live', 'completed', 'cancelled']) }) },
    handler: ({ platform, query }) => {
      // "live" is what the spec calls a running tournament; the wire status is in_progress.
      const status = query.status === 'live' ? 'in_progress' : query.status;
      const rows = tournamentsNewestFirst(platform).filter((t) => status === undefined || t.status === status);
      return pagedList('tournaments', rows, query, (t) => tournamentSummary(platform, t));
    },
  },
  {
    method: 'GET',
    path: '/api/chess/tournaments/open',
    auth: 'none',
    summary: 'Tournaments still taking entries (registration, not full), with join filters',
    schema: {
      querystring: object({
        ...paging(),
        ...{ creator_handle: str(), search: str(), verified_only: bool(), has_entry_fee: bool() },
        ...{ prize_min: num(), entry_fee_max: num(), required_tag: strings() },
      }),
    },
    handler: ({ platform, query }) => {
      const filter = openFilter(platform, query);
      const rows = tournamentsNewestFirst(platform).filter((t) => isOpenForEntry(t) && matchesOpenFilter(t, filter));
      return pagedList('tournaments', rows, query, (t) => openTournamentRow(platform, t));
    },
  },
  {
    method: 'GET',
    path: '/api/chess/tournaments/{id}',
    auth: 'none',
    summary: 'One tournament: participants, seeds, bracket rounds, placements and payouts',
    schema: {},
    handler: ({ platform, params }) => ({ tournament: tournamentDetail(platform, requireTournament(platform, params['id']!)) }),
  },
  {
    method: 'POST',
    path: '/api/chess/tournaments',
    auth: 'required',
    summary: 'Create a tournament (creator needs 100+ games; an organizer prize is funded from the wallet)',
    schema: { body: createBody() },
    handler: (ctx) => {
      const tournament = createTournament(ctx.platform, caller(ctx), ctx.body);
      return { success: true, tournament: tournamentDetail(ctx.platform, tournament) };
    },
  },
  {
    method: 'POST',
    path: '/api/chess/tournaments/{id}/join',
    auth: 'required',
    // No body schema: real clients send this with no body and no Content-Type (WIRE §1).
    summary: 'Join a tournament; a paid entry stays payment_status pending until its transfer settles',
    schema: {},
    handler: (ctx) => {
      const tournament = requireTournament(ctx.platform, ctx.params['id']!);
      const { participant, alreadyJoined } = joinTournament(ctx.platform, caller(ctx), tournament.id);
      return joinResponse(ctx.platform, tournament, participant, alreadyJoined);
    },
  },
];

/** Every optional field may be sent as null (SDKs serialise unset options that way). */
function createBody(): JsonSchema {
  const integer = nullable(int());
  return object(
    {
      ...{ name: str(), max_participants: int(), description: nullable(str()), format: nullable(str()) },
      ...{ prize_sol: nullable(num()), entry_fee_sol: nullable(num()), minimum_start_at: nullable(str()) },
      prize_distribution: { type: ['string', 'null'], enum: [...PRIZE_DISTRIBUTIONS, null] },
      ...{ organizer_fee_enabled: nullable(bool()), verified_only: nullable(bool()) },
      ...{ elo_min: integer, elo_max: integer, min_games_played: integer, max_games_played: integer },
      required_tags: nullable(strings()),
    },
    ['name', 'max_participants'],
  );
}

interface OpenQuery {
  creator_handle?: string;
  search?: string;
  verified_only?: boolean;
  has_entry_fee?: boolean;
  prize_min?: number;
  entry_fee_max?: number;
  required_tag?: string[];
}

/** Query text -> a filter. An unknown creator is not_found, as the open-challenge list's challenger filter is. */
function openFilter(p: Platform, q: OpenQuery): OpenFilter {
  return {
    ...(q.creator_handle !== undefined ? { creatorId: requireAgent(p, q.creator_handle).id } : {}),
    ...(q.search !== undefined ? { search: q.search } : {}),
    ...(q.verified_only !== undefined ? { verifiedOnly: q.verified_only } : {}),
    ...(q.has_entry_fee !== undefined ? { hasEntryFee: q.has_entry_fee } : {}),
    ...(q.prize_min !== undefined ? { prizeMinLamports: solFilter(q.prize_min, 'prize_min') } : {}),
    ...(q.entry_fee_max !== undefined ? { entryFeeMaxLamports: solFilter(q.entry_fee_max, 'entry_fee_max') } : {}),
    ...(q.required_tag !== undefined ? { requiredTags: q.required_tag } : {}),
  };
}

/** Compared in lamports, so a bound equal to a tournament's amount matches exactly. */
function solFilter(sol: number, field: string): number {
  return solToLamports(sol) ?? fail('validation_error', `${field}: must be an amount of SOL of 0 or more, in whole lamports`, { field });
}
