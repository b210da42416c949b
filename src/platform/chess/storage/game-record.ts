import type { NormalMove } from 'chessops';
import type { ReplayableIds } from '../../../kernel/replayable-ids.js';
import { asSmallInt } from '../../../kernel/small-int.js';
import {
  currentFen,
  newBoard,
  playMove,
  RepetitionWindow,
  STANDARD_START_FEN,
  type Board,
  type PlayedMove,
} from '../../../rules/chess/chess.js';
import { MoveLog, replayMoves, type LoggedMove, type PackedMoves } from './move-log.js';
import type { Game, GameEnd, GameStatus, MoveRecord } from '../../state.js';
import type { Side } from '../../../rules/chess/game.js';
import { finishedEnd, finishedFen, finishedMoves, packFinished } from './finished-game.js';
import { replaySans } from './san-replay.js';

/** Who plays, and on what terms (the challenge it came from). */
export interface Seating {
  id: string;
  whiteId: string;
  blackId: string;
  bountyLamports?: number;
  escrowAddress?: string;
  tournamentId?: string;
}

/** A game as a checkpoint keeps it (src/platform/checkpoint.ts): its fields, and its moves packed. */
export interface SavedGame {
  readonly seat: Seating;
  readonly seq: number;
  readonly createdAtMs: number;
  readonly status: GameStatus;
  readonly startedAtMs: number | null;
  readonly turnStartedMs: number | null;
  readonly deadlineMs: number | null;
  readonly deadlineTimer: number | null;
  readonly end: GameEnd | null;
  readonly cancelReason: string | null;
  readonly moves: PackedMoves;
  /** A game in play: its board's repetition counts since the last irreversible move (see Board). */
  readonly repetitions: ReadonlyArray<readonly [string, number]>;
}

/** A stake, a tournament or a cancellation: most games have none, so they share one field that is null. */
interface Terms {
  readonly bountyLamports: number | null;
  readonly escrowAddress: string | null;
  readonly tournamentId: string | null;
  cancelReason: string | null;
}

function termsOf(seat: Partial<Seating>): Terms {
  return {
    bountyLamports: seat.bountyLamports ?? null,
    escrowAddress: seat.escrowAddress ?? null,
    tournamentId: seat.tournamentId ?? null,
    cancelReason: null,
  };
}

/**
 * What a game keeps while it can still change: the board it is played on, its log, its turn, the last move's
 * record as the move route made it (polls read it) and, between the end being decided and the game retired,
 * its end. Earlier records are LoggedRecords made when `moves` is read, which read the game's replayed
 * records (`replayed`, rebuilt at most once per move, when an earlier record is read at all); a record object
 * per move kept for the game's whole life was most of what a long crowd run's live games held.
 */
interface LivePlay {
  readonly board: Board;
  readonly log: MoveLog;
  last: MoveRecord | null;
  replayed: MoveRecord[] | null;
  turnStartedMs: number | null;
  deadlineMs: number | null;
  deadlineTimer: number | null;
  end: GameEnd | null;
}

/**
 * A game. Its moves are kept as a packed log (a few bytes a move, see MoveLog). While it can still change
 * (pending, active) it also keeps its live board, turn and last move's record (see LivePlay); once over
 * (completed, cancelled) one string with its final FEN, its end and its packed moves (see finished-game.ts),
 * beside its ids and counts. A finished game costs its moves and a few hundred bytes; fields no finished game
 * needs live in LivePlay, fields most games leave null in Terms, and times after the creation are kept as
 * offsets from it (small integers, which V8 keeps unboxed). Earlier records, and a finished game's board, are
 * rebuilt from the log when read, which is rare (the game detail route, the PGN export): read `plies` and
 * `fen` rather than `moves` where a count or the position is all that is needed.
 */
export class GameRecord implements Game {
  readonly id: string;
  readonly seq: number;
  readonly whiteId: string;
  readonly blackId: string;
  status: GameStatus = 'pending';
  readonly createdAtMs: number;
  #startedAfterMs: number | null = null;
  #plies = 0;
  readonly #moveIds: ReplayableIds;
  #terms: Terms | null;
  /** LivePlay while the game can change; once over, the finished-game text (see packFinished). */
  #kept: LivePlay | string;

  constructor(seat: Seating, seq: number, createdAtMs: number, moveIds: ReplayableIds) {
    this.id = seat.id;
    this.seq = seq;
    this.whiteId = seat.whiteId;
    this.blackId = seat.blackId;
    this.createdAtMs = createdAtMs;
    this.#moveIds = moveIds;
    const hasTerms =
      seat.bountyLamports !== undefined ||
      seat.escrowAddress !== undefined ||
      seat.tournamentId !== undefined;
    this.#terms = hasTerms ? termsOf(seat) : null;
    this.#kept = {
      board: newBoard(STANDARD_START_FEN),
      log: new MoveLog(createdAtMs),
      last: null,
      replayed: null,
      turnStartedMs: null,
      deadlineMs: null,
      deadlineTimer: null,
      end: null,
    };
  }

  /**
   * A saved game made again. A game in play has its moves replayed onto a new board and log, so its board
   * and log continue exactly (its repetition counts are the saved ones); a finished one keeps its text as
   * saved, its moves replayed only lightly (the pieces moved, no SAN, FEN or repetition) to check they end
   * at `finalFen`. Throws (a plain Error)
   * where the packed moves do not replay; `moveIds` must already hold every id the moves drew.
   */
  static restore(saved: SavedGame, moveIds: ReplayableIds, finalFen: string): GameRecord {
    const game = new GameRecord(saved.seat, saved.seq, saved.createdAtMs, moveIds);
    game.status = saved.status;
    game.startedAtMs = saved.startedAtMs;
    if (saved.cancelReason !== null) game.cancelReason = saved.cancelReason;
    game.#plies = saved.moves.count;
    if (saved.status === 'completed' || saved.status === 'cancelled') {
      // Kept as its text, as `retire` leaves it; checked by the light replay a PGN export makes.
      game.#kept = packFinished({ fen: finalFen, end: saved.end, moves: saved.moves.text });
      const board = newBoard(game.initialFen);
      replayMoves(saved.moves, board, saved.createdAtMs, (entry) => board.pos.play(entry.move));
      if (currentFen(board) !== finalFen) throw new Error(`the moves end at ${currentFen(board)}`);
      return game;
    }
    const live = game.liveOrFail();
    let last: { played: PlayedMove; entry: LoggedMove } | null = null;
    let played = 0;
    // Only the last move is played in full (its record is what polls read); the others move the pieces
    // alone, and the board's ply count and repetition counts are the saved ones.
    replayMoves(saved.moves, live.board, saved.createdAtMs, (entry) => {
      live.log.append(live.board, entry);
      if (++played < saved.moves.count) live.board.pos.play(entry.move);
      else last = { played: playMove(live.board, entry.move), entry };
    });
    live.board.plies = saved.moves.count;
    live.board.repetitions = RepetitionWindow.of(saved.repetitions);
    const lastMove = last as { played: PlayedMove; entry: LoggedMove } | null;
    if (lastMove !== null) {
      const [moveId] = moveIds.idsAt([lastMove.entry.idOrdinal]);
      live.last = toRecord(lastMove.played, game.#plies - 1, lastMove.entry.atMs, moveId!);
    }
    live.turnStartedMs = saved.turnStartedMs;
    live.deadlineMs = saved.deadlineMs;
    live.deadlineTimer = saved.deadlineTimer;
    live.end = saved.end;
    return game;
  }

  get initialFen(): string {
    return STANDARD_START_FEN;
  }

  get plies(): number {
    return this.#plies;
  }

  /**
   * The platform's one answer to whose move it is (my-turn, the move route, the turn deadline, the game's
   * view), read from the ply count, not the board: every game starts from the standard position
   * (`initialFen`, which the checkpoint loader holds to), where White moves, and each ply passes the move.
   * Every agent's my-turn poll asks this of each of its live games, and the count is this object's own
   * field where the board's turn is three objects away.
   */
  get sideToMove(): Side {
    return (this.#plies & 1) === 0 ? 'white' : 'black';
  }

  /**
   * The current position (after the last move). A game in play reads it from its last move's record, which
   * holds the board's FEN after that move (only `play` moves the live board): every my-turn row asks this,
   * and the record is two objects from the game where the board's cached text is five, each a likely cache
   * miss in a crowd, whose games are seldom touched twice in a row.
   */
  get fen(): string {
    const kept = this.#kept;
    if (typeof kept === 'string') return finishedFen(kept);
    return kept.last === null ? this.initialFen : kept.last.fenAfter;
  }

  get board(): Board {
    const kept = this.#kept;
    return typeof kept === 'string' ? this.replay().board : kept.board;
  }

  get startedAtMs(): number | null {
    return this.#startedAfterMs === null ? null : this.createdAtMs + this.#startedAfterMs;
  }
  set startedAtMs(ms: number | null) {
    this.#startedAfterMs = ms === null ? null : asSmallInt(ms - this.createdAtMs);
  }

  get end(): GameEnd | null {
    const kept = this.#kept;
    return typeof kept === 'string' ? finishedEnd(kept) : kept.end;
  }
  set end(end: GameEnd | null) {
    this.liveOrFail().end = end;
  }

  get turnStartedMs(): number | null {
    return this.livePlay()?.turnStartedMs ?? null;
  }
  set turnStartedMs(ms: number | null) {
    this.liveOrFail().turnStartedMs = ms;
  }
  get deadlineMs(): number | null {
    return this.livePlay()?.deadlineMs ?? null;
  }
  set deadlineMs(ms: number | null) {
    this.liveOrFail().deadlineMs = ms;
  }
  get deadlineTimer(): number | null {
    return this.livePlay()?.deadlineTimer ?? null;
  }
  set deadlineTimer(timer: number | null) {
    this.liveOrFail().deadlineTimer = timer;
  }

  get bountyLamports(): number | null {
    return this.#terms?.bountyLamports ?? null;
  }
  get escrowAddress(): string | null {
    return this.#terms?.escrowAddress ?? null;
  }
  get tournamentId(): string | null {
    return this.#terms?.tournamentId ?? null;
  }
  get cancelReason(): string | null {
    return this.#terms?.cancelReason ?? null;
  }
  set cancelReason(reason: string | null) {
    this.#terms ??= termsOf({});
    this.#terms.cancelReason = reason;
  }

  get moves(): readonly MoveRecord[] {
    const live = this.livePlay();
    if (live === null) return this.replay().records;
    const records: MoveRecord[] = [];
    for (let index = 0; index < this.#plies - 1; index++) records.push(new LoggedRecord(this, index));
    if (live.last !== null) records.push(live.last);
    return records;
  }

  /** The SAN of every move, in order (what a PGN export needs): only the SAN is replayed. */
  sans(): string[] {
    const { moves, initialFen } = this.sanReplay();
    return replaySans(moves, initialFen);
  }

  /** What `sans` replays: plain data, which another thread can replay the same way. */
  sanReplay(): { moves: PackedMoves; initialFen: string } {
    return { moves: this.packed(), initialFen: this.initialFen };
  }

  /** Record number `index` as the log rebuilds it (what a LoggedRecord reads; a live game keeps the rebuild until its next move). */
  replayedRecord(index: number): MoveRecord {
    const live = this.livePlay();
    if (live === null) return this.replay().records[index]!;
    live.replayed ??= this.replay().records;
    return live.replayed[index]!;
  }

  /** Plays a parsed, legal move at `atMs` and records it; the record is the move route's answer. */
  play(move: NormalMove, atMs: number): MoveRecord {
    const live = this.liveOrFail();
    const ordinal = this.#moveIds.nextOrdinal;
    const moveId = this.#moveIds.next();
    live.log.append(live.board, { move, atMs, idOrdinal: ordinal });
    const record = toRecord(playMove(live.board, move), this.#plies, atMs, moveId);
    this.#plies++;
    live.last = record;
    live.replayed = null;
    return record;
  }

  /**
   * The game is over (completed or cancelled): from now on only the finished-game text is kept (its final
   * FEN, its end, its packed moves), and it has no turn (its last deadline and turn start go with its board).
   */
  retire(): void {
    const live = this.livePlay();
    if (live === null) return;
    this.#kept = packFinished({ fen: currentFen(live.board), end: live.end, moves: live.log.packed().text });
  }

  /** The packed move log as text, for state snapshots (src/platform/snapshot.ts). */
  packedMoves(): string {
    return this.packed().text;
  }

  // Plain private methods, not #methods: a class with #methods gives every instance a brand field (8 bytes).
  private packed(): PackedMoves {
    const kept = this.#kept;
    return typeof kept === 'string' ? { text: finishedMoves(kept), count: this.#plies } : kept.log.packed();
  }

  private livePlay(): LivePlay | null {
    const kept = this.#kept;
    return typeof kept === 'string' ? null : kept;
  }

  private liveOrFail(): LivePlay {
    const kept = this.#kept;
    if (typeof kept === 'string')
      throw new Error(`game ${this.id}: it is ${this.status}, nothing about it can change`);
    return kept;
  }

  /** The board and records the log rebuilds (the move ids drawn again only when one is read). */
  private replay(): { board: Board; records: MoveRecord[] } {
    const board = newBoard(this.initialFen);
    const records: MoveRecord[] = [];
    const ids = new GameMoveIds(this.#moveIds);
    replayMoves(this.packed(), board, this.createdAtMs, (entry) => {
      records.push(new ReplayedMove(playMove(board, entry.move), records.length, entry, ids));
    });
    return { board, records };
  }
}

/** The move number of the move at 0-based ply `index` (games start with White). */
function moveNumberOf(index: number): number {
  return Math.floor(index / 2) + 1;
}

function toRecord(played: PlayedMove, index: number, atMs: number, moveId: string): MoveRecord {
  return {
    moveNumber: moveNumberOf(index),
    san: played.san,
    uci: played.uci,
    fenAfter: played.fenAfter,
    color: played.color,
    isCheck: played.isCheck,
    isCheckmate: played.isCheckmate,
    playedAtMs: atMs,
    moveId,
  };
}

/** The move ids of one replayed game, drawn again all at once when the first is read. */
class GameMoveIds {
  readonly #source: ReplayableIds;
  readonly ordinals: number[] = [];
  #ids: string[] | null = null;

  constructor(source: ReplayableIds) {
    this.#source = source;
  }

  at(index: number): string {
    this.#ids ??= this.#source.idsAt(this.ordinals);
    return this.#ids[index]!;
  }
}

/** A move record rebuilt from a finished game's log. */
class ReplayedMove implements MoveRecord {
  readonly moveNumber: number;
  readonly san: string;
  readonly uci: string;
  readonly fenAfter: string;
  readonly color: PlayedMove['color'];
  readonly isCheck: boolean;
  readonly isCheckmate: boolean;
  readonly playedAtMs: number;
  readonly #index: number;
  readonly #ids: GameMoveIds;

  constructor(played: PlayedMove, index: number, entry: LoggedMove, ids: GameMoveIds) {
    this.moveNumber = moveNumberOf(index);
    this.san = played.san;
    this.uci = played.uci;
    this.fenAfter = played.fenAfter;
    this.color = played.color;
    this.isCheck = played.isCheck;
    this.isCheckmate = played.isCheckmate;
    this.playedAtMs = entry.atMs;
    this.#index = index;
    this.#ids = ids;
    ids.ordinals.push(entry.idOrdinal);
  }

  get moveId(): string {
    return this.#ids.at(this.#index);
  }
}

/** An earlier move of a live game: reads the game's replayed record (see LivePlay). */
class LoggedRecord implements MoveRecord {
  readonly #game: GameRecord;
  readonly #index: number;

  constructor(game: GameRecord, index: number) {
    this.#game = game;
    this.#index = index;
  }

  get moveNumber(): number {
    return this.#game.replayedRecord(this.#index).moveNumber;
  }
  get san(): string {
    return this.#game.replayedRecord(this.#index).san;
  }
  get uci(): string {
    return this.#game.replayedRecord(this.#index).uci;
  }
  get fenAfter(): string {
    return this.#game.replayedRecord(this.#index).fenAfter;
  }
  get color(): PlayedMove['color'] {
    return this.#game.replayedRecord(this.#index).color;
  }
  get isCheck(): boolean {
    return this.#game.replayedRecord(this.#index).isCheck;
  }
  get isCheckmate(): boolean {
    return this.#game.replayedRecord(this.#index).isCheckmate;
  }
  get playedAtMs(): number {
    return this.#game.replayedRecord(this.#index).playedAtMs;
  }
  get moveId(): string {
    return this.#game.replayedRecord(this.#index).moveId;
  }
}
