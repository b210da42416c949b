/**
 * The position a FEN describes, exactly as chessops' `Chess.fromSetup(parseFen(fen).unwrap()).unwrap()`
 * gives it, for the agents that read a FEN on every turn. chessops sets a parsed board piece by piece, each
 * piece allocating new square sets; here the board's bits are gathered in one pass and each square set is
 * made once. Only the plain six-field form is read this way; anything else (pockets, promoted markers,
 * check counters, another separator, an unusual field) goes to chessops, which also reports every error.
 */
import { Board } from 'chessops/board';
import { Chess } from 'chessops/chess';
import { parseCastlingFen, parseFen } from 'chessops/fen';
import type { Setup } from 'chessops/setup';
import { SquareSet } from 'chessops/squareSet';
import { parseSquare } from 'chessops/util';

export function positionFromFen(fen: string): Chess {
  return Chess.fromSetup(plainSetup(fen) ?? parseFen(fen).unwrap()).unwrap();
}

const COUNTER = /^\d{1,4}$/;

/** The setup of a plain six-field FEN, equal to parseFen's; undefined for any other text. */
function plainSetup(fen: string): Setup | undefined {
  const fields = fen.split(' ');
  if (fields.length !== 6) return undefined;
  const [placement, turn, castling, ep, halfmoves, fullmoves] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if ((turn !== 'w' && turn !== 'b') || !COUNTER.test(halfmoves) || !COUNTER.test(fullmoves))
    return undefined;
  const board = readBoard(placement);
  if (board === undefined) return undefined;
  const castlingRights = readCastling(castling) ?? parseCastlingFen(board, castling).unwrap();
  const epSquare = ep === '-' ? undefined : parseSquare(ep);
  if (ep !== '-' && epSquare === undefined) return undefined;
  return {
    board,
    pockets: undefined,
    turn: turn === 'w' ? 'white' : 'black',
    castlingRights,
    remainingChecks: undefined,
    epSquare,
    halfmoves: parseInt(halfmoves, 10),
    fullmoves: Math.max(1, parseInt(fullmoves, 10)),
  };
}

/** Bits of the board being read: per role (pawn ... king) a low and a high word, then white's and black's. */
const BITS = new Int32Array(16);
const WHITE_AT = 12;
const BLACK_AT = 14;
/** Role slot (its index times two) by piece letter of either case, -1 for any other character. */
const ROLE_AT = roleSlots();
const SLASH = 47;
const DIGIT_ONE = 49;
const DIGIT_EIGHT = 56;
const LOWER_CASE_BIT = 32;

/** The board of a placement field (ranks 8 to 1, files a to h); undefined when it is not plain. */
function readBoard(placement: string): Board | undefined {
  BITS.fill(0);
  let rank = 7;
  let file = 0;
  for (let i = 0; i < placement.length; i++) {
    const code = placement.charCodeAt(i);
    if (code === SLASH) {
      if (file !== 8 || rank === 0) return undefined;
      rank--;
      file = 0;
    } else if (code >= DIGIT_ONE && code <= DIGIT_EIGHT) {
      file += code - 48;
      if (file > 8) return undefined;
    } else {
      const roleAt = code < 128 ? ROLE_AT[code]! : -1;
      if (roleAt < 0 || file === 8) return undefined;
      const colorAt = code & LOWER_CASE_BIT ? BLACK_AT : WHITE_AT;
      const square = rank * 8 + file++;
      const word = square >> 5;
      const bit = 1 << (square & 31);
      BITS[roleAt + word]! |= bit;
      BITS[colorAt + word]! |= bit;
    }
  }
  return rank === 0 && file === 8 ? boardOfBits() : undefined;
}

const NO_CASTLING = SquareSet.empty();
const ROOK_AT = 6;
const KING_AT = 10;

/**
 * The castling rights of a field of K, Q, k and q, by parseCastlingFen's rule, from the bits just read: for K
 * the highest of the side's rooks and king on its back rank, for Q the lowest, that square if a rook stands
 * there and the corner otherwise. Undefined for anything else (Shredder letters, a repeated side), which
 * chessops reads or refuses.
 */
function readCastling(field: string): SquareSet | undefined {
  if (field === '-') return NO_CASTLING;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < field.length; i++) {
    const code = field.charCodeAt(i);
    const kingSide = code === 75 || code === 107; // K, k
    if (!kingSide && code !== 81 && code !== 113) return undefined; // Q, q
    if (code < 97) lo |= 1 << castlingSquare(BITS[WHITE_AT]!, BITS[ROOK_AT]!, BITS[KING_AT]!, 0, kingSide);
    else
      hi |=
        1 << (castlingSquare(BITS[BLACK_AT + 1]!, BITS[ROOK_AT + 1]!, BITS[KING_AT + 1]!, 24, kingSide) - 32);
  }
  // More than two rights on a back rank is an error chessops reports.
  if (popCount(lo & 0xff) > 2 || popCount(hi >>> 24) > 2) return undefined;
  return new SquareSet(lo, hi);
}

/** The square (0 to 63) a castling letter names on the back rank at bit `shift` of one word. */
function castlingSquare(
  color: number,
  rooks: number,
  kings: number,
  shift: number,
  kingSide: boolean,
): number {
  const rank = ((color & (rooks | kings)) >>> shift) & 0xff;
  const base = shift === 0 ? 0 : 56;
  const corner = base + (kingSide ? 7 : 0);
  if (rank === 0) return corner;
  const file = kingSide ? 31 - Math.clz32(rank) : 31 - Math.clz32(rank & -rank);
  return ((rooks >>> shift) & (1 << file)) !== 0 ? base + file : corner;
}

function popCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}

function roleSlots(): Int8Array {
  const slots = new Int8Array(128).fill(-1);
  for (const [at, letter] of ['p', 'n', 'b', 'r', 'q', 'k'].entries()) {
    slots[letter.charCodeAt(0)] = at * 2;
    slots[letter.toUpperCase().charCodeAt(0)] = at * 2;
  }
  return slots;
}

/** Cloned rather than made empty: `Board.empty()` makes ten empty square sets that are replaced at once. */
const EMPTY_BOARD = Board.empty();

function boardOfBits(): Board {
  const board = EMPTY_BOARD.clone();
  board.pawn = new SquareSet(BITS[0]!, BITS[1]!);
  board.knight = new SquareSet(BITS[2]!, BITS[3]!);
  board.bishop = new SquareSet(BITS[4]!, BITS[5]!);
  board.rook = new SquareSet(BITS[6]!, BITS[7]!);
  board.queen = new SquareSet(BITS[8]!, BITS[9]!);
  board.king = new SquareSet(BITS[10]!, BITS[11]!);
  board.white = new SquareSet(BITS[12]!, BITS[13]!);
  board.black = new SquareSet(BITS[14]!, BITS[15]!);
  board.occupied = new SquareSet(BITS[12]! | BITS[14]!, BITS[13]! | BITS[15]!);
  return board;
}
