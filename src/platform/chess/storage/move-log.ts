import type { NormalMove } from 'chessops';
import { BitReader, BitWriter, RiceSeries } from '../../../kernel/bits.js';
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

export class MoveLog {
  readonly #writer = new BitWriter();
  #count = 0;
  #lastAtMs: number;
  #lastOrdinal = -1;
  readonly #codes = new SeriesCodes();

  constructor(originMs: number) {
    this.#lastAtMs = originMs;
  }

  get count(): number {
    return this.#count;
  }

  /** Appends a legal move of `board`'s position, before it is played there. */
  append(board: Board, entry: LoggedMove): void {
    const writer = this.#writer;
    writeMoveBits(board, entry.move, writer);
    this.#codes.writeTime(writer, entry.atMs - this.#lastAtMs);
    this.#codes.writeIdGap(writer, entry.idOrdinal - this.#lastOrdinal - 1);
    this.#lastAtMs = entry.atMs;
    this.#lastOrdinal = entry.idOrdinal;
    this.#count++;
  }

  /** The moves so far, packed: what a finished game keeps (see replayMoves). */
  packed(): PackedMoves {
    return { text: this.#writer.text(), count: this.#count };
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
  const codes = new SeriesCodes();
  let atMs = originMs;
  let ordinal = -1;
  for (let i = 0; i < moves.count; i++) {
    const move = readMoveBits(board, reader);
    atMs += codes.readTime(reader);
    ordinal += codes.readIdGap(reader) + 1;
    visit({ move, atMs, idOrdinal: ordinal });
  }
}

/** A log's two number series, each in Rice code following its own running mean (the same when read). */
class SeriesCodes {
  readonly #times = new RiceSeries();
  readonly #gaps = new RiceSeries();

  writeTime(writer: BitWriter, ms: number): void {
    this.#times.write(writer, ms);
  }

  writeIdGap(writer: BitWriter, gap: number): void {
    this.#gaps.write(writer, gap);
  }

  readTime(reader: BitReader): number {
    return this.#times.read(reader);
  }

  readIdGap(reader: BitReader): number {
    return this.#gaps.read(reader);
  }
}
