import type { NormalMove } from 'chessops';
import { BitReader, BitWriter, guideAfter, RiceSeries, riceParameterOf } from '../../../kernel/bits.js';
import { readMoveBits, writeMoveBits, type Board } from '../../../rules/chess/chess.js';

/**
 * A game's moves as a bit stream, a byte or two a move. Per move: the move in the few bits its position
 * needs (see writeMoveBits), the milliseconds since the previous move (since the game's creation for the
 * first), and how many move ids the platform drew between this game's previous move and this one (see
 * ReplayableIds), both in Rice code following a running mean of the same series (see RiceSeries). A move
 * played at the same instant as the previous one, with the next id, takes about 9 bits; one about a minute
 * after the last, in a game whose moves come about a minute apart, about 25.
 */
export interface LoggedMove {
  readonly move: NormalMove;
  readonly atMs: number;
  readonly idOrdinal: number;
}

/**
 * The log is its own bit stream (a BitWriter), and it keeps its two series' guides (see RiceSeries) in fields
 * of its own: a crowd appends to thousands of logs in turn, each seldom touched twice in a row, and a writer,
 * a pair of series and their holder were four more objects to find per move, each a likely cache miss.
 */
export class MoveLog extends BitWriter {
  #count = 0;
  #lastAtMs: number;
  #lastOrdinal = -1;
  /** Four times the guide of the move times' series, and of the id gaps' (RiceSeries' `guideTimesFour`). */
  #timesGuide = 0;
  #gapsGuide = 0;

  constructor(originMs: number) {
    super();
    this.#lastAtMs = originMs;
  }

  get count(): number {
    return this.#count;
  }

  /** Appends a legal move of `board`'s position, before it is played there. */
  append(board: Board, entry: LoggedMove): void {
    writeMoveBits(board, entry.move, this);
    this.#timesGuide = this.#writeInSeries(entry.atMs - this.#lastAtMs, this.#timesGuide);
    this.#gapsGuide = this.#writeInSeries(entry.idOrdinal - this.#lastOrdinal - 1, this.#gapsGuide);
    this.#lastAtMs = entry.atMs;
    this.#lastOrdinal = entry.idOrdinal;
    this.#count++;
  }

  /** Writes a value of a series in Rice code; returns the series' next guide. Each series has one value a move. */
  #writeInSeries(value: number, guideTimesFour: number): number {
    this.writeRice(value, riceParameterOf(guideTimesFour));
    return guideAfter(guideTimesFour, this.#count, value);
  }

  /** The moves so far, packed: what a finished game keeps (see replayMoves). */
  packed(): PackedMoves {
    return { text: this.text(), count: this.#count };
  }
}

/** A move log's bit stream as a one-byte string, and its number of moves. */
export interface PackedMoves {
  readonly text: string;
  readonly count: number;
}

/**
 * The moves of a packed log in order, each handed to `visit` with the board it is played from, which `visit`
 * must play it on (how a move is written depends on its position). `originMs` is the log's origin.
 */
export function replayMoves(
  moves: PackedMoves,
  board: Board,
  originMs: number,
  visit: (entry: LoggedMove) => void,
): void {
  const reader = new BitReader(moves.text);
  const times = new RiceSeries();
  const gaps = new RiceSeries();
  let atMs = originMs;
  let ordinal = -1;
  for (let i = 0; i < moves.count; i++) {
    const move = readMoveBits(board, reader);
    atMs += times.read(reader);
    ordinal += gaps.read(reader) + 1;
    visit({ move, atMs, idOrdinal: ordinal });
  }
}
