import type { NormalMove } from 'chessops';
import type { ReplayableIds } from '../../kernel/replayable-ids.js';
import { flatString } from '../../kernel/strings.js';
import {
  currentFen,
  newBoard,
  playForSan,
  playMove,
  STANDARD_START_FEN,
  type Board,
  type PlayedMove,
} from '../../rules/chess/chess.js';
import { MoveLog, replayMoves, type LoggedMove, type PackedMoves } from './move-log.js';
import type { Game, GameEnd, GameStatus, MoveRecord } from '../state.js';

/** Who plays, and on what terms (the challenge it came from). */
export interface Seating {
  id: string;
  whiteId: string;
  blackId: string;
  bountyLamports?: number;
  escrowAddress?: string;
  tournamentId?: string;
}

/**
 * What a game keeps while it can still change: the board it is played on, its log, how many moves it has and
 * the last one's record as the move route made it (polls read it). Earlier records are LoggedRecords made
 * when `moves` is read, which read the game's replayed records (`replayed`, rebuilt at most once per move,
 * when an earlier record is read at all); a record object per move kept for the game's whole life was most
 * of what a long crowd run's live games held.
 */
interface LivePlay {
  readonly board: Board;
  readonly log: MoveLog;
  plies: number;
  last: MoveRecord | null;
  replayed: MoveRecord[] | null;
}

/**
 * A game. Its moves are kept as a packed log (a few bytes a move, see MoveLog). While it can still change
 * (pending, active) it also keeps its live board and its last move's record (see LivePlay); once over
 * (completed, cancelled) only the log, its final FEN and the counts. A finished game costs about a
 * kilobyte instead of hundreds, and a live one its log's few bytes a move instead of 300 (records kept
 * until the game ended were most of what a run's old generation collected). Earlier records, and a finished game's
 * board, are rebuilt from the log when read, which is rare (the game detail route, the PGN export): read
 * `plies` and `fen` rather than `moves` where a count or the position is all that is needed.
 */
export class GameRecord implements Game {
  readonly id: string;
  readonly seq: number;
  readonly whiteId: string;
  readonly blackId: string;
  status: GameStatus = 'pending';
  readonly initialFen: string;
  readonly createdAtMs: number;
  startedAtMs: number | null = null;
  turnStartedMs: number | null = null;
  deadlineMs: number | null = null;
  deadlineTimer: number | null = null;
  end: GameEnd | null = null;
  cancelReason: string | null = null;
  readonly bountyLamports: number | null;
  readonly escrowAddress: string | null;
  readonly tournamentId: string | null;
  readonly #moveIds: ReplayableIds;
  #live: LivePlay | null;
  /** Once the game is over: its packed moves (see MoveLog), and the position after the last (every game summary shows it). */
  #packedText = '';
  #packedCount = 0;
  #finalFen: string | null = null;

  constructor(seat: Seating, seq: number, createdAtMs: number, moveIds: ReplayableIds) {
    this.id = seat.id;
    this.seq = seq;
    this.whiteId = seat.whiteId;
    this.blackId = seat.blackId;
    this.initialFen = STANDARD_START_FEN;
    this.createdAtMs = createdAtMs;
    this.bountyLamports = seat.bountyLamports ?? null;
    this.escrowAddress = seat.escrowAddress ?? null;
    this.tournamentId = seat.tournamentId ?? null;
    this.#moveIds = moveIds;
    this.#live = {
      board: newBoard(STANDARD_START_FEN),
      log: new MoveLog(createdAtMs),
      plies: 0,
      last: null,
      replayed: null,
    };
  }

  get plies(): number {
    return this.#live?.plies ?? this.#packedCount;
  }

  /** The current position (after the last move). */
  get fen(): string {
    return this.#live === null ? this.#finalFen! : currentFen(this.#live.board);
  }

  get board(): Board {
    return this.#live?.board ?? this.#replay().board;
  }

  get moves(): readonly MoveRecord[] {
    const live = this.#live;
    if (live === null) return this.#replay().records;
    const records: MoveRecord[] = [];
    for (let index = 0; index < live.plies - 1; index++) records.push(new LoggedRecord(this, index));
    if (live.last !== null) records.push(live.last);
    return records;
  }

  /** The SAN of every move, in order (what a PGN export needs): only the SAN is replayed. */
  sans(): string[] {
    const board = newBoard(this.initialFen);
    const sans: string[] = [];
    replayMoves(this.#packed(), board, this.createdAtMs, (entry) => sans.push(playForSan(board, entry.move)));
    return sans;
  }

  /** Record number `index` as the log rebuilds it (what a LoggedRecord reads; a live game keeps the rebuild until its next move). */
  replayedRecord(index: number): MoveRecord {
    const live = this.#live;
    if (live === null) return this.#replay().records[index]!;
    live.replayed ??= this.#replay().records;
    return live.replayed[index]!;
  }

  /** Plays a parsed, legal move at `atMs` and records it; the record is the move route's answer. */
  play(move: NormalMove, atMs: number): MoveRecord {
    const live = this.#liveOrFail();
    const ordinal = this.#moveIds.nextOrdinal;
    const moveId = this.#moveIds.next();
    live.log.append(live.board, { move, atMs, idOrdinal: ordinal });
    const record = toRecord(playMove(live.board, move), live.plies, atMs, moveId);
    live.plies++;
    live.last = record;
    live.replayed = null;
    return record;
  }

  /**
   * The game is over (completed or cancelled): from now on only the packed log and the final FEN are kept,
   * and it has no turn (its last deadline and turn start are dropped with its board).
   */
  retire(): void {
    if (this.#live === null) return;
    this.turnStartedMs = null;
    this.deadlineMs = null;
    const packed = this.#live.log.packed();
    this.#finalFen = flatString(currentFen(this.#live.board));
    this.#packedText = packed.text;
    this.#packedCount = packed.count;
    this.#live = null;
  }

  /** The packed move log as text, for state snapshots (src/platform/snapshot.ts). */
  packedMoves(): string {
    return this.#packed().text;
  }

  /** The moves as MoveLog packed them (a finished game keeps them as two fields, not an object: one fewer per game). */
  #packed(): PackedMoves {
    return this.#live?.log.packed() ?? { text: this.#packedText, count: this.#packedCount };
  }

  #liveOrFail(): LivePlay {
    if (this.#live === null)
      throw new Error(`game ${this.id}: no move can be recorded once it is ${this.status}`);
    return this.#live;
  }

  /** The board and records the log rebuilds (the move ids drawn again only when one is read). */
  #replay(): { board: Board; records: MoveRecord[] } {
    const board = newBoard(this.initialFen);
    const records: MoveRecord[] = [];
    const ids = new GameMoveIds(this.#moveIds);
    replayMoves(this.#packed(), board, this.createdAtMs, (entry) => {
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
