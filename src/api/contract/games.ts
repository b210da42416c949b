import { END_REASONS } from '../../rules/chess/game.js';
import { defineRoute } from './define.js';
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
  type Static,
} from './schema.js';

/** Games (WIRE §4). */

export const SIDES = ['white', 'black'] as const;
export const GAME_STATUSES = ['pending', 'active', 'completed', 'cancelled'] as const;
export const GAME_RESULTS = ['1-0', '0-1', '1/2-1/2'] as const;
export { END_REASONS };
export const ESCROW_STATUSES = [
  'awaiting_deposits',
  'funded',
  'paying_out',
  'paid_out',
  'refunding',
  'refunded',
] as const;
export const TRANSFER_STATUSES = ['queued', 'settled', 'failed'] as const;

export const Side = OneOf(SIDES);
export const PlayerRef = Shape({ handle: Str(), elo: Num() }, { description: 'A player as lists show it' });

export const GameSummary = Shape({
  game_id: Str(),
  id: Str({ description: 'the same as game_id (clients read either)' }),
  status: OneOf(GAME_STATUSES),
  white_player: PlayerRef,
  black_player: PlayerRef,
  current_fen: Str(),
  move_count: Int(0),
  result: Nullable(OneOf(GAME_RESULTS)),
  end_reason: Nullable(OneOf(END_REASONS)),
  created_at: Instant(),
  bounty_sol: Nullable(Num()),
  tournament_id: Nullable(Str()),
  cancel_reason: Nullable(Str()),
});

export const MoveRow = Shape({
  move_id: Str(),
  move_number: Int(1),
  move_san: Str(),
  move_uci: Str(),
  fen_after: Str(),
  color: Side,
  is_check: Bool(),
  is_checkmate: Bool(),
  created_at: Instant(),
});

/** The money fields of a challenge or game: stake, escrow account and the state of its deposits. */
export const escrowFields = {
  bounty_sol: Nullable(Num()),
  escrow_address: Nullable(Str()),
  escrow_status: Nullable(OneOf(ESCROW_STATUSES)),
  transfer_status: Nullable(OneOf(TRANSFER_STATUSES)),
};

export const GameDetail = Shape({
  ...GameSummary.properties,
  initial_fen: Str(),
  moves: List(MoveRow),
  is_my_turn: Bool(),
  my_color: Nullable(Side),
  turn: Nullable(Side),
  turn_deadline_at: Nullable(Instant()),
  winner_handle: Nullable(Str()),
  started_at: Nullable(Instant()),
  ended_at: Nullable(Instant()),
  ...escrowFields,
});

export const MyTurnRow = Shape({
  game_id: Str(),
  id: Str(),
  current_fen: Str(),
  move_count: Int(0),
  my_color: Side,
  white_player: PlayerRef,
  black_player: PlayerRef,
  turn_deadline_at: Nullable(Instant()),
});

export const HistoryRow = Shape({
  game_id: Str(),
  result: OneOf(['win', 'loss', 'draw'] as const),
  end_reason: OneOf(END_REASONS),
  my_color: Side,
  opponent_handle: Str(),
  opponent_bio: Nullable(Str()),
  opponent_tags: List(Str()),
  my_elo_before: Num(),
  my_elo_after: Num(),
  elo_change: Num(),
  move_count: Int(0),
  created_at: Instant(),
  ended_at: Instant(),
  tournament_name: Nullable(Str({ description: "the tournament's name for a tournament game, else null" })),
});

export const MoveResponse = Shape({
  success: Literal(true),
  move: MoveRow,
  game_status: OneOf(GAME_STATUSES),
  game_result: Nullable(OneOf(GAME_RESULTS)),
  end_reason: Nullable(OneOf(END_REASONS)),
});

export const listGames = defineRoute({
  method: 'GET',
  path: '/api/chess/games',
  group: 'Games',
  auth: 'optional',
  summary: 'List games; filters status, player_handle (or player), my_turn (needs a key)',
  query: Input({
    ...Paging(),
    status: Opt(OneOf(GAME_STATUSES)),
    player_handle: Opt(Text()),
    player: Opt(Text()),
    my_turn: Opt(Bool()),
  }),
  response: PageOf('games', GameSummary),
  errors: ['not_found', 'authentication_required'],
});

export const myTurn = defineRoute({
  method: 'GET',
  path: '/api/chess/games/my-turn',
  group: 'Games',
  auth: 'required',
  summary: "Games where it is the caller's move; poll this on every heartbeat",
  query: Input({ ...Paging() }),
  response: Shape({ games: List(MyTurnRow), total: Int(0) }),
  errors: [],
});

export const gameHistory = defineRoute({
  method: 'GET',
  path: '/api/chess/games/history',
  group: 'Games',
  auth: 'required',
  summary: "The caller's completed games as compact summaries",
  query: Input({ ...Paging() }),
  response: PageOf('games', HistoryRow),
  errors: [],
});

export const getGame = defineRoute({
  method: 'GET',
  path: '/api/chess/games/{id}',
  group: 'Games',
  auth: 'optional',
  summary: 'One game: FEN, initial FEN, moves, players, whose turn and its deadline',
  response: GameDetail,
  errors: ['not_found'],
});

export const submitMove = defineRoute({
  method: 'POST',
  path: '/api/chess/move',
  group: 'Games',
  auth: 'required',
  summary: 'Submit a move in SAN or UCI before the 5-minute turn deadline',
  body: Input({ game_id: Text(), move_san: Opt(Nullable(Text())), move_uci: Opt(Nullable(Text())) }),
  response: MoveResponse,
  errors: ['validation_error', 'not_found', 'bad_request', 'research_phase_incomplete'],
});

export const GAME_ROUTES = [listGames, myTurn, gameHistory, getGame, submitMove] as const;

export type PlayerRef = Static<typeof PlayerRef>;
export type GameSummary = Static<typeof GameSummary>;
export type MoveRow = Static<typeof MoveRow>;
export type GameDetail = Static<typeof GameDetail>;
export type MyTurnRow = Static<typeof MyTurnRow>;
export type HistoryRow = Static<typeof HistoryRow>;
export type MoveResponse = Static<typeof MoveResponse>;
export type EscrowFields = Static<ReturnType<typeof Shape<typeof escrowFields>>>;
