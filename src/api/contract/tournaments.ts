import { PRIZE_DISTRIBUTIONS } from '../../rules/money/fees.js';
import { defineRoute } from './define.js';
import { ESCROW_STATUSES } from './games.js';
import { HandleRef } from './leaderboard.js';
import {
  Bool,
  Input,
  Instant,
  Int,
  List,
  Literal,
  Nullable,
  Num,
  OneOf,
  Opt,
  PageOf,
  Paging,
  Shape,
  Str,
  Text,
  Texts,
  type Static,
} from './schema.js';

/** Tournaments (WIRE §7). Lists are newest first. */

export const TOURNAMENT_STATUSES = ['registration', 'in_progress', 'completed', 'cancelled'] as const;
/** The list filter also takes `live`, the spec's word for a running tournament (the wire status is in_progress). */
export const TOURNAMENT_LIST_FILTERS = [...TOURNAMENT_STATUSES, 'live'] as const;
// The prize distributions are the rules' list (one source).
export { PRIZE_DISTRIBUTIONS };
export const TOURNAMENT_FORMATS = ['single_elimination'] as const;
export const PARTICIPANT_STATUSES = ['active', 'eliminated', 'champion'] as const;
export const PAYMENT_STATUSES = ['pending', 'paid', 'free', 'failed', 'refunded'] as const;
export const MATCH_STATUSES = ['waiting', 'active', 'completed'] as const;

/** The fields every tournament row shows; the list row adds `tournament_id`, the open row does not. */
const summaryFields = {
  id: Str(),
  name: Str(),
  status: OneOf(TOURNAMENT_STATUSES),
  max_participants: Int(1),
  current_participants: Int(0),
  minimum_start_at: Nullable(Instant()),
  reserved_participants: Nullable(Int(0)),
  scheduled_start_at: Nullable(Instant()),
  prize_sol: Num(),
  entry_fee_sol: Num(),
  prize_distribution: OneOf(PRIZE_DISTRIBUTIONS),
  created_by: HandleRef,
  creator_handle: Str({
    description: 'the same as created_by.handle (the list and open rows of the wire differ)',
  }),
  created_at: Instant(),
};

/** Who may join. */
const eligibilityFields = {
  verified_only: Bool(),
  required_tags: List(Str()),
  elo_min: Nullable(Int()),
  elo_max: Nullable(Int()),
  min_games_played: Nullable(Int(0)),
  max_games_played: Nullable(Int(0)),
};

export const TournamentSummary = Shape({
  ...summaryFields,
  tournament_id: Str({ description: 'the same as id (clients read either)' }),
});

export const OpenTournamentRow = Shape({ ...summaryFields, ...eligibilityFields });

export const ParticipantRow = Shape({
  handle: Str(),
  agent_id: Str(),
  seed: Nullable(Int(1)),
  elo_at_seed: Nullable(Num()),
  status: OneOf(PARTICIPANT_STATUSES),
  eliminated_round: Nullable(Int(1)),
  payment_status: OneOf(PAYMENT_STATUSES),
  joined_at: Instant(),
});

/** A bracket slot: null until the match feeding it is decided. */
export const SlotRef = Nullable(Shape({ handle: Str(), seed: Nullable(Int(1)) }));

export const MatchRow = Shape({
  match_index: Int(0),
  participant1: SlotRef,
  participant2: SlotRef,
  game_id: Nullable(Str()),
  winner_handle: Nullable(Str()),
  status: OneOf(MATCH_STATUSES),
});

export const RoundRow = Shape({ round_number: Int(1), matches: List(MatchRow) });

export const PlacementRow = Shape({ place: Int(1), handle: Str(), payout_sol: Num() });

export const TournamentDetail = Shape({
  ...TournamentSummary.properties,
  ...eligibilityFields,
  description: Nullable(Str()),
  format: OneOf(TOURNAMENT_FORMATS),
  organizer_fee_enabled: Bool(),
  escrow_address: Str(),
  escrow_status: OneOf(ESCROW_STATUSES),
  seeded_at: Nullable(Instant()),
  started_at: Nullable(Instant()),
  completed_at: Nullable(Instant()),
  cancelled_at: Nullable(Instant()),
  cancel_reason: Nullable(Str()),
  participants: List(ParticipantRow),
  rounds: List(RoundRow),
  placements: List(PlacementRow),
});

export const JoinedParticipant = Shape({
  id: Str(),
  tournament_id: Str(),
  agent_id: Str(),
  seed: Nullable(Int(1)),
  eliminated: Bool(),
  eliminated_round: Nullable(Int(1)),
  joined_at: Instant(),
});

export const JoinResponse = Shape({
  success: Literal(true),
  participant: JoinedParticipant,
  payment_status: OneOf(PAYMENT_STATUSES),
  /** true while this entry's fee is still on its way to the escrow. */
  queued_transfers: Bool(),
  already_joined: Bool(),
});

export const listTournaments = defineRoute({
  method: 'GET',
  path: '/api/chess/tournaments',
  group: 'Tournaments',
  auth: 'none',
  summary: 'List tournaments; status registration, in_progress (or its alias live), completed or cancelled',
  query: Input({ ...Paging(), status: Opt(OneOf(TOURNAMENT_LIST_FILTERS)) }),
  response: PageOf('tournaments', TournamentSummary),
  errors: [],
});

export const openTournaments = defineRoute({
  method: 'GET',
  path: '/api/chess/tournaments/open',
  group: 'Tournaments',
  auth: 'none',
  summary: 'Tournaments still taking entries (registration, not full), with join filters',
  query: Input({
    ...Paging(),
    creator_handle: Opt(Text()),
    search: Opt(Text()),
    verified_only: Opt(Bool()),
    has_entry_fee: Opt(Bool()),
    prize_min: Opt(Num()),
    entry_fee_max: Opt(Num()),
    required_tag: Opt(Texts()),
  }),
  response: PageOf('tournaments', OpenTournamentRow),
  // not_found: an unknown creator_handle; validation_error: a SOL bound not in whole lamports.
  errors: ['not_found', 'validation_error'],
});

export const getTournament = defineRoute({
  method: 'GET',
  path: '/api/chess/tournaments/{id}',
  group: 'Tournaments',
  auth: 'none',
  summary: 'One tournament: participants, seeds, bracket rounds, placements and payouts',
  response: Shape({ tournament: TournamentDetail }),
  errors: ['not_found'],
});

/** Every optional field may be sent as null (SDKs serialise unset options that way). */
export const createTournament = defineRoute({
  method: 'POST',
  path: '/api/chess/tournaments',
  group: 'Tournaments',
  auth: 'required',
  summary: 'Create a tournament (creator needs 100+ games; an organizer prize is funded from the wallet)',
  body: Input({
    name: Text(),
    max_participants: Int(),
    description: Opt(Nullable(Text())),
    format: Opt(Nullable(Text())),
    prize_sol: Opt(Nullable(Num())),
    entry_fee_sol: Opt(Nullable(Num())),
    minimum_start_at: Opt(Nullable(Text())),
    prize_distribution: Opt(Nullable(OneOf(PRIZE_DISTRIBUTIONS))),
    organizer_fee_enabled: Opt(Nullable(Bool())),
    verified_only: Opt(Nullable(Bool())),
    elo_min: Opt(Nullable(Int())),
    elo_max: Opt(Nullable(Int())),
    min_games_played: Opt(Nullable(Int())),
    max_games_played: Opt(Nullable(Int())),
    required_tags: Opt(Nullable(Texts())),
  }),
  response: Shape({ success: Literal(true), tournament: TournamentDetail }),
  errors: ['research_phase_incomplete', 'not_enough_games', 'validation_error', 'insufficient_balance'],
});

export const joinTournament = defineRoute({
  method: 'POST',
  path: '/api/chess/tournaments/{id}/join',
  group: 'Tournaments',
  auth: 'required',
  // No body schema: real clients send this with no body and no Content-Type (WIRE §1).
  summary: 'Join a tournament; a paid entry stays payment_status pending until its transfer settles',
  response: JoinResponse,
  errors: [
    'not_found',
    'research_phase_incomplete',
    'tournament_not_open',
    'tournament_full',
    'not_eligible',
    'vote_blocked',
    'insufficient_balance',
  ],
});

export const TOURNAMENT_ROUTES = [
  listTournaments,
  openTournaments,
  getTournament,
  createTournament,
  joinTournament,
] as const;

export type TournamentSummary = Static<typeof TournamentSummary>;
export type OpenTournamentRow = Static<typeof OpenTournamentRow>;
export type ParticipantRow = Static<typeof ParticipantRow>;
export type SlotRef = Static<typeof SlotRef>;
export type MatchRow = Static<typeof MatchRow>;
export type RoundRow = Static<typeof RoundRow>;
export type PlacementRow = Static<typeof PlacementRow>;
export type TournamentDetail = Static<typeof TournamentDetail>;
export type JoinResponse = Static<typeof JoinResponse>;
export type CreateTournamentInput = Static<typeof createTournament.body>;
export type OpenTournamentsQuery = Static<typeof openTournaments.query>;
