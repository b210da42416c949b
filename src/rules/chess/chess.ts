/**
 * Chess rules of the platform: move notation (what agents send and what the wire returns) and game end
 * decided by the board alone. Built on chessops (lichess's rules core); this module adds what chessops
 * does not track: repetition counts, the fifty-move rule, and the platform's notation conventions.
 *
 * Decisions (see docs/rules.md):
 * - Every board ending is AUTOMATIC (the platform has no claim or draw-offer route). Threefold fires when
 *   one position key is seen a 3rd time; fifty-move fires when the halfmove clock reaches 100, unless the
 *   move that reached it also mated (mate wins).
 * - A position key is board + side to move + castling rights + the en-passant square ONLY when an en-passant
 *   capture is really legal (FIDE 9.2.3: positions are the same when the same moves are possible). chess.js
 *   instead keys on the en-passant square whenever an enemy pawn stands next to the double-pushed pawn, even
 *   if that pawn is pinned; test/property/chess-differential.test.ts documents that difference.
 * - Insufficient material is chessops' `isInsufficientMaterial()`: neither side can ever mate by any legal
 *   sequence, judged from material alone (K v K, K+N v K, kings plus bishops all on one square colour).
 *   chess.js's isInsufficientMaterial() coincides exactly (test/property/chess-differential.test.ts).
 *   Blocked-pawn dead positions are not detected (neither library detects them).
 * - Only standard chess: a FEN with Chess960 castling rights is rejected.
 */
import type { CastlingSide, Color, Move, NormalMove, Role } from 'chessops';
import { between, kingAttacks, knightAttacks, pawnAttacks, ray } from 'chessops/attacks';
import { Chess, castlingSide, normalizeMove, type Context } from 'chessops/chess';
import { INITIAL_FEN, makeCastlingFen, makeFen, parseFen } from 'chessops/fen';
import { SquareSet } from 'chessops/squareSet';
import { isNormal } from 'chessops/types';
import {
  kingCastlesTo,
  makeSquare,
  makeUci,
  moveEquals,
  opposite,
  rookCastlesTo,
  squareFile,
  squareRank,
} from 'chessops/util';
import { keyHash, RepetitionWindow } from './repetitions.js';
import { sliderAttacks, slidesOnto } from './slides.js';

export { RepetitionWindow } from './repetitions.js';

export type ColorName = 'white' | 'black';

export const STANDARD_START_FEN: string = INITIAL_FEN;

/** Board state carried by a game: the chessops position plus what chessops does not track. */
export interface Board {
  pos: Chess;
  /**
   * Times each position key was seen since the last irreversible move (see positionKey). newBoard makes a
   * RepetitionWindow; a board written as a literal may bring a Map, which becomes a window when counted.
   */
  repetitions: RepetitionWindow | Map<string, number>;
  /** Plies played on this board since newBoard (not derived from the FEN's fullmove number). */
  plies: number;
  /** What is known of the current position, each fact computed at most once (see factsOf). */
  facts?: PositionFacts;
}

/**
 * Facts of one position, shared by everything asked about it: parsing the next move, listing legal moves,
 * writing SAN and FEN, judging the end. A ply then costs one chessops context instead of four, and one
 * search for a legal move instead of two.
 */
interface PositionFacts {
  readonly pos: Chess;
  /** The position's ply stamp (see plyStamp): a position played on directly (`pos.play`) gets new facts. */
  readonly stamp: number;
  readonly ctx: Context;
  /** Whether the side to move has a legal move; computed when first asked. */
  movable: boolean | undefined;
  fen: string | undefined;
  /** The repetition key: the FEN's first four fields. */
  key: string | undefined;
  /** The key's keyHash, written with it. */
  keyHash: number;
  /**
   * The move parseMove last returned for this position, with its mover's legal targets: legal here, so
   * playMove need not search again, and the move log reuses the targets.
   */
  vouched: Move | undefined;
  vouchedTargets: SquareSet | undefined;
}

export type ParsedMove = { ok: true; move: Move } | { ok: false; reason: string };

export interface PlayedMove {
  san: string;
  /** Wire UCI: castling as the king's two-square move (e1g1), never chessops' king-takes-rook (e1h1). */
  uci: string;
  fenAfter: string;
  color: ColorName;
  isCheck: boolean;
  isCheckmate: boolean;
}

export const BOARD_ENDINGS = [
  'checkmate',
  'stalemate',
  'insufficient_material',
  'threefold_repetition',
  'fifty_move_rule',
] as const;
export type BoardEnding = (typeof BOARD_ENDINGS)[number];

export interface BoardResult {
  ending: BoardEnding;
  winner: ColorName | null;
}

/** Halfmove clock value at which the fifty-move rule ends the game (50 moves by each side). */
export const FIFTY_MOVE_HALFMOVES = 100;
/** Number of occurrences of one position that ends the game. */
export const REPETITION_LIMIT = 3;
/** No accepted spelling is longer than this ("e7e8q", "O-O-O+", "Nb1xc3+!?"); longer text is rejected early. */
const MAX_MOVE_TEXT = 16;

// Standard castling only: king on e1/e8, rooks in the corners. chessops also accepts Chess960 setups.
const STANDARD_CASTLING = {
  white: { king: 4, a: 0, h: 7 },
  black: { king: 60, a: 56, h: 63 },
} as const;

// --- boards -------------------------------------------------------------------------------------------

/** A board from a FEN (default: the standard start). Throws on an invalid FEN: that is a programmer error. */
export function newBoard(fen: string = STANDARD_START_FEN): Board {
  const pos = fen === STANDARD_START_FEN ? Chess.default() : Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  assertStandardCastling(pos, fen);
  const board: Board = { pos, repetitions: new RepetitionWindow(), plies: 0, facts: undefined };
  const facts = factsOf(board);
  windowOf(board).see(keyOf(facts), facts.keyHash);
  return board;
}

/**
 * Strictly increases with every move played on a position (each play flips the side to move, and Black's
 * plays advance the fullmove number), so a stamp that still matches means the position is the one the facts
 * were computed for.
 */
function plyStamp(pos: Chess): number {
  return pos.fullmoves * 2 + (pos.turn === 'white' ? 0 : 1);
}

/**
 * The facts of the board's position: the cached ones while the position is the same, else new ones whose
 * context quickContext works out.
 */
function factsOf(board: Board): PositionFacts {
  const pos = board.pos;
  const stamp = plyStamp(pos);
  const known = board.facts;
  if (known !== undefined && known.pos === pos && known.stamp === stamp) return known;
  const facts: PositionFacts = {
    pos,
    stamp,
    ctx: quickContext(pos),
    movable: undefined,
    fen: undefined,
    key: undefined,
    keyHash: 0,
    vouched: undefined,
    vouchedTargets: undefined,
  };
  board.facts = facts;
  return facts;
}

/**
 * chessops' ctx() worked out from the board's bits: the other side's sliders on the king's lines (from the
 * empty-board lines, where chessops computes sliding attacks), a piece between king and slider a blocker when
 * it is alone there, and the checkers being the sliders with nothing between plus the knights, pawns and king
 * that reach the king's square. Equal to ctx() (test/property/chess.test.ts), without chessops' search for
 * every attacker of the king's square.
 */
function quickContext(pos: Chess): Context {
  const board = pos.board;
  const king = board.kingOf(pos.turn);
  if (king === undefined) return pos.ctx();
  const them = board[opposite(pos.turn)];
  const rooks = ROOK_LINES[king]!;
  const bishops = BISHOP_LINES[king]!;
  const straight = board.rook.lo | board.queen.lo;
  const diagonal = board.bishop.lo | board.queen.lo;
  const straightHi = board.rook.hi | board.queen.hi;
  const diagonalHi = board.bishop.hi | board.queen.hi;
  const snipersLo = them.lo & ((rooks.lo & straight) | (bishops.lo & diagonal));
  const snipersHi = them.hi & ((rooks.hi & straightHi) | (bishops.hi & diagonalHi));
  const occupiedLo = board.occupied.lo;
  const occupiedHi = board.occupied.hi;
  let blockersLo = 0;
  let blockersHi = 0;
  let checkersLo =
    them.lo &
    ((knightAttacks(king).lo & board.knight.lo) |
      (kingAttacks(king).lo & board.king.lo) |
      (pawnAttacks(pos.turn, king).lo & board.pawn.lo));
  let checkersHi =
    them.hi &
    ((knightAttacks(king).hi & board.knight.hi) |
      (kingAttacks(king).hi & board.king.hi) |
      (pawnAttacks(pos.turn, king).hi & board.pawn.hi));
  // Each sniper with nothing between it and the king checks; with one piece between, that piece blocks.
  for (let word = 0; word < 2; word++) {
    for (let bits = word === 0 ? snipersLo : snipersHi; bits !== 0; bits &= bits - 1) {
      const sniper = lowestSquare(bits, word === 0 ? 0 : 32);
      const inLo = BETWEEN_LO[king * 64 + sniper]! & occupiedLo;
      const inHi = BETWEEN_HI[king * 64 + sniper]! & occupiedHi;
      if ((inLo | inHi) === 0) {
        if (word === 0) checkersLo |= 1 << sniper;
        else checkersHi |= 1 << (sniper - 32);
      } else if (inHi === 0 ? (inLo & (inLo - 1)) === 0 : inLo === 0 && (inHi & (inHi - 1)) === 0) {
        blockersLo |= inLo;
        blockersHi |= inHi;
      }
    }
  }
  return {
    king,
    blockers: new SquareSet(blockersLo, blockersHi),
    checkers: new SquareSet(checkersLo, checkersHi),
    variantEnd: false,
    mustCapture: false,
  };
}

/** The context chessops would give, by quickContext: exported for its test. */
export function quickContextOf(board: Board): Context {
  return quickContext(board.pos);
}

function isMovable(facts: PositionFacts): boolean {
  facts.movable ??= hasLegalMove(facts);
  return facts.movable;
}

/**
 * Whether the side to move has a legal move: chessops' hasDests, asking the king last, whose targets cost a
 * check for attackers each while another piece usually has a move at once. Out of check, a knight or a pawn
 * that is not pinned has a legal move exactly when it has a pseudo-legal one, which bit operations tell
 * without a move list (quickMoverOf): most positions are answered there.
 */
function hasLegalMove(facts: PositionFacts): boolean {
  if (quickMoverOf(facts) >= 0) return true;
  const pos = facts.pos;
  const own = pos.board[pos.turn];
  const others = own.diff(pos.board.king);
  for (let bits = others.lo; bits !== 0; bits &= bits - 1)
    if (pieceTargets(facts, lowestSquare(bits, 0)).nonEmpty()) return true;
  for (let bits = others.hi; bits !== 0; bits &= bits - 1)
    if (pieceTargets(facts, lowestSquare(bits, 32)).nonEmpty()) return true;
  const king = facts.ctx.king;
  return king !== undefined && destsOf(facts, king).nonEmpty();
}

/**
 * The square of a piece of the side to move that has a legal move, found by bit operations alone, or -1
 * when none is found that way (which says nothing): out of check, an unpinned knight with a square free of
 * its own side's pieces, or an unpinned pawn whose single push is free. Exported for its test.
 */
export function quickMover(board: Board): number {
  return quickMoverOf(factsOf(board));
}

function quickMoverOf(facts: PositionFacts): number {
  const { pos, ctx } = facts;
  if (ctx.checkers.lo !== 0 || ctx.checkers.hi !== 0) return -1;
  const board = pos.board;
  const own = board[pos.turn];
  const unpinnedLo = own.lo & ~ctx.blockers.lo;
  const unpinnedHi = own.hi & ~ctx.blockers.hi;
  for (let bits = unpinnedLo & board.knight.lo; bits !== 0; bits &= bits - 1)
    if (hasSquareOutside(knightAttacks(lowestSquare(bits, 0)), own)) return lowestSquare(bits, 0);
  for (let bits = unpinnedHi & board.knight.hi; bits !== 0; bits &= bits - 1)
    if (hasSquareOutside(knightAttacks(lowestSquare(bits, 32)), own)) return lowestSquare(bits, 32);
  const pawnsLo = unpinnedLo & board.pawn.lo;
  const pawnsHi = unpinnedHi & board.pawn.hi;
  // The squares just in front of those pawns (a rank up for White, down for Black) that are empty.
  const white = pos.turn === 'white';
  const aheadLo = (white ? pawnsLo << 8 : (pawnsLo >>> 8) | (pawnsHi << 24)) & ~board.occupied.lo;
  const aheadHi = (white ? (pawnsHi << 8) | (pawnsLo >>> 24) : pawnsHi >>> 8) & ~board.occupied.hi;
  const push = aheadLo !== 0 ? lowestSquare(aheadLo, 0) : aheadHi !== 0 ? lowestSquare(aheadHi, 32) : -1;
  return push < 0 ? -1 : white ? push - 8 : push + 8;
}

function hasSquareOutside(set: SquareSet, outside: SquareSet): boolean {
  return ((set.lo & ~outside.lo) | (set.hi & ~outside.hi)) !== 0;
}

/**
 * The legal targets of the piece on `from` (chessops' dests), the king's found without chessops' search
 * (see kingTargets and castlingTargets): chessops asks for every attacker of each square around the king,
 * which was the largest single cost of listing a position's moves. The two agree
 * (test/property/chess.test.ts).
 */
function destsOf(facts: PositionFacts, from: number): SquareSet {
  if (from !== facts.ctx.king) return pieceTargets(facts, from);
  const targets = kingTargets(facts.pos, from);
  const rooks = facts.pos.castles.rook[facts.pos.turn];
  if (rooks.a === undefined && rooks.h === undefined) return targets;
  return targets.union(castlingTargets(facts, 'a')).union(castlingTargets(facts, 'h'));
}

/**
 * chessops' dests for a piece other than the king, worked out on the two words of the sets: the piece's
 * pseudo-legal targets off its own side's squares; in check by one piece, only the squares that capture
 * or block it (none in double check); a pinned piece only along its line to the king. A pawn when an
 * en-passant capture may be possible goes to chessops, whose rule for it tries the capture.
 */
function pieceTargets(facts: PositionFacts, from: number): SquareSet {
  const { pos, ctx } = facts;
  const board = pos.board;
  const own = board[pos.turn];
  const king = ctx.king;
  if (!hasBit(own, from)) return SquareSet.empty();
  const role = roleAt(board, from);
  if (king === undefined || role === 'king' || (role === 'pawn' && pos.epSquare !== undefined))
    return pos.dests(from, ctx);
  const pseudo =
    role === 'pawn' ? pawnTargets(pos, from) : pieceAttacks(pos.turn, role, from, board.occupied);
  let lo = pseudo.lo & ~own.lo;
  let hi = pseudo.hi & ~own.hi;
  const checkers = ctx.checkers;
  if ((checkers.lo | checkers.hi) !== 0) {
    if (checkers.moreThanOne()) return SquareSet.empty();
    const checker = checkers.lo !== 0 ? lowestSquare(checkers.lo, 0) : lowestSquare(checkers.hi, 32);
    lo &= BETWEEN_LO[checker * 64 + king]! | lowBit(checker);
    hi &= BETWEEN_HI[checker * 64 + king]! | highBit(checker);
  }
  if (hasBit(ctx.blockers, from)) {
    lo &= RAY_LO[from * 64 + king]!;
    hi &= RAY_HI[from * 64 + king]!;
  }
  return new SquareSet(lo, hi);
}

/** chessops' pawn targets without en passant: captures of the other side's pieces, a step, a double step. */
function pawnTargets(pos: Chess, from: number): SquareSet {
  const board = pos.board;
  const captures = pawnAttacks(pos.turn, from);
  const them = board[opposite(pos.turn)];
  let lo = captures.lo & them.lo;
  let hi = captures.hi & them.hi;
  const delta = pos.turn === 'white' ? 8 : -8;
  const step = from + delta;
  if (step >= 0 && step < 64 && !hasBit(board.occupied, step)) {
    lo |= lowBit(step);
    hi |= highBit(step);
    const double = step + delta;
    const canDouble = pos.turn === 'white' ? from < 16 : from >= 48;
    if (canDouble && !hasBit(board.occupied, double)) {
      lo |= lowBit(double);
      hi |= highBit(double);
    }
  }
  return new SquareSet(lo, hi);
}

/**
 * The king's targets without castling: chessops' dests for a king, each square around it kept unless the
 * other side attacks it with the king gone from its square (chessops' attacksTo, asked slider by slider only
 * where a slider of the other side stands on the square's lines).
 */
function kingTargets(pos: Chess, from: number): SquareSet {
  const board = pos.board;
  const own = board[pos.turn];
  const around = kingAttacks(from);
  let lo = around.lo & ~own.lo;
  let hi = around.hi & ~own.hi;
  const occupied = board.occupied.without(from);
  for (let bits = lo; bits !== 0; bits &= bits - 1) {
    const square = lowestSquare(bits, 0);
    if (isAttacked(pos, square, occupied)) lo &= ~(1 << square);
  }
  for (let bits = hi; bits !== 0; bits &= bits - 1) {
    const square = lowestSquare(bits, 32);
    if (isAttacked(pos, square, occupied)) hi &= ~(1 << (square - 32));
  }
  return new SquareSet(lo, hi);
}

/**
 * The rook's square when castling on `side` is legal (chessops writes castling as the king taking its own
 * rook), else the empty set; chessops' castling rule: not out of check, the right kept, nothing between king
 * and rook or on either's way, no square the king passes attacked with the king lifted, and the king's
 * target not attacked once king and rook stand on their new squares.
 */
function castlingTargets(facts: PositionFacts, side: 'a' | 'h'): SquareSet {
  const { pos, ctx } = facts;
  const king = ctx.king;
  const rook = pos.castles.rook[pos.turn][side];
  if (king === undefined || rook === undefined || ctx.checkers.nonEmpty()) return SquareSet.empty();
  const occupied = pos.board.occupied;
  if (pos.castles.path[pos.turn][side].intersects(occupied)) return SquareSet.empty();
  const kingTo = kingCastlesTo(pos.turn, side);
  const lifted = occupied.without(king);
  for (let bits = between(king, kingTo); bits.nonEmpty(); bits = bits.withoutFirst())
    if (isAttacked(pos, bits.first()!, lifted)) return SquareSet.empty();
  const after = occupied.toggle(king).toggle(rook).toggle(rookCastlesTo(pos.turn, side));
  return isAttacked(pos, kingTo, after) ? SquareSet.empty() : SquareSet.fromSquare(rook);
}

/** Whether the side not to move attacks `square` with the board's pieces standing on `occupied`. */
function isAttacked(pos: Chess, square: number, occupied: SquareSet): boolean {
  const board = pos.board;
  const them = board[opposite(pos.turn)];
  if (meets(knightAttacks(square), board.knight, them)) return true;
  if (meets(kingAttacks(square), board.king, them)) return true;
  if (meets(pawnAttacks(pos.turn, square), board.pawn, them)) return true;
  // The other side's sliders as words: rooksAndQueens() and bishopsAndQueens() would make two sets a call.
  const queen = board.queen;
  const rooksLo = them.lo & (board.rook.lo | queen.lo);
  const rooksHi = them.hi & (board.rook.hi | queen.hi);
  const lines = ROOK_LINES[square]!;
  if (((lines.lo & rooksLo) | (lines.hi & rooksHi)) !== 0)
    if (slidesOnto(square, true, occupied, rooksLo, rooksHi)) return true;
  const bishopsLo = them.lo & (board.bishop.lo | queen.lo);
  const bishopsHi = them.hi & (board.bishop.hi | queen.hi);
  const diagonals = BISHOP_LINES[square]!;
  if (((diagonals.lo & bishopsLo) | (diagonals.hi & bishopsHi)) === 0) return false;
  return slidesOnto(square, false, occupied, bishopsLo, bishopsHi);
}

/**
 * chessops' attacks for a piece of `color` and `role` on `square`: the leapers' from chessops' tables, the
 * sliders' from slides.ts, which makes one set where chessops made some twenty.
 */
function pieceAttacks(color: Color, role: Role, square: number, occupied: SquareSet): SquareSet {
  switch (role) {
    case 'pawn':
      return pawnAttacks(color, square);
    case 'knight':
      return knightAttacks(square);
    case 'king':
      return kingAttacks(square);
    default:
      return sliderAttacks(role, square, occupied);
  }
}

/** Whether the three sets have a square in common. */
function meets(a: SquareSet, b: SquareSet, c: SquareSet): boolean {
  return ((a.lo & b.lo & c.lo) | (a.hi & b.hi & c.hi)) !== 0;
}

/**
 * chessops' between(a, b) for every pair of squares (index a * 64 + b), as the two words of the set: the
 * squares strictly between two squares on one line, else none. Read instead of a SquareSet made per sniper.
 */
const BETWEEN_LO = new Int32Array(64 * 64);
const BETWEEN_HI = new Int32Array(64 * 64);
/** chessops' ray(a, b) the same way: the whole line through two squares, else none (a pinned piece's way). */
const RAY_LO = new Int32Array(64 * 64);
const RAY_HI = new Int32Array(64 * 64);
for (let a = 0; a < 64; a++) {
  for (let b = 0; b < 64; b++) {
    const squares = between(a, b);
    BETWEEN_LO[a * 64 + b] = squares.lo;
    BETWEEN_HI[a * 64 + b] = squares.hi;
    const line = ray(a, b);
    RAY_LO[a * 64 + b] = line.lo;
    RAY_HI[a * 64 + b] = line.hi;
  }
}

/** Each square's rook and bishop lines on an empty board: a slider elsewhere cannot attack it. */
const ROOK_LINES = Array.from({ length: 64 }, (_, square) =>
  sliderAttacks('rook', square, SquareSet.empty()),
);
const BISHOP_LINES = Array.from({ length: 64 }, (_, square) =>
  sliderAttacks('bishop', square, SquareSet.empty()),
);

function assertStandardCastling(pos: Chess, fen: string): void {
  for (const color of ['white', 'black'] as const) {
    const std = STANDARD_CASTLING[color];
    for (const side of ['a', 'h'] as const) {
      const rook = pos.castles.rook[color][side];
      if (rook === undefined) continue;
      if (rook !== std[side] || pos.board.kingOf(color) !== std.king) {
        throw new Error(`not a standard-chess castling setup: ${fen}`);
      }
    }
  }
}

/**
 * The repetition key of a position: the first four FEN fields. chessops writes the en-passant field only
 * when an en-passant capture is legal, which is exactly FIDE's notion of "the same position".
 */
export function positionKey(pos: Chess): string {
  return makeFen(pos.toSetup(), { epd: true });
}

export function sideToMove(board: Board): ColorName {
  return board.pos.turn;
}

export function currentFen(board: Board): string {
  const facts = factsOf(board);
  if (facts.fen === undefined) writePositionTexts(facts);
  return facts.fen!;
}

// --- writing FEN ----------------------------------------------------------------------------------------
// The same text as chessops' makeFen(pos.toSetup()) (test/property/chess.test.ts compares them), without
// cloning the board or computing a second context for the en-passant field.

/** The FEN's first four fields (positionKey), which the full FEN extends with the move counters. */
function keyOf(facts: PositionFacts): string {
  if (facts.key === undefined) writePositionTexts(facts);
  return facts.key!;
}

/**
 * Writes the position's FEN and key (its first four fields) at once: every position played needs both.
 * One flat string comes out of a byte buffer, and the key is its start (V8 makes that a slice of it, no
 * copy): concatenated piece by piece, the FEN would be a rope of some forty pieces until first read.
 */
function writePositionTexts(facts: PositionFacts): void {
  const pos = facts.pos;
  let at = writeBoardBytes(pos.board);
  at = writeText(at, pos.turn === 'white' ? ' w ' : ' b ');
  at = writeText(at, writeCastlingFen(pos));
  const ep = legalEpSquare(pos, facts.ctx);
  at = writeText(at, ep === undefined ? ' -' : ` ${makeSquare(ep)}`);
  const keyLength = at;
  FEN_BYTES[at++] = SPACE;
  at = writeNumber(at, Math.min(pos.halfmoves, 150));
  FEN_BYTES[at++] = SPACE;
  at = writeNumber(at, Math.min(Math.max(pos.fullmoves, 1), 9999));
  facts.fen = FEN_BYTES.toString('latin1', 0, at);
  facts.key = facts.fen.slice(0, keyLength);
  facts.keyHash = keyHash(FEN_BYTES, keyLength);
}

/** Room for the longest FEN: 64 squares and 7 slashes, side, castling, en passant and both counters. */
const FEN_BYTES = Buffer.alloc(128);

function writeText(at: number, text: string): number {
  for (let i = 0; i < text.length; i++) FEN_BYTES[at++] = text.charCodeAt(i);
  return at;
}

/** A counter's decimal digits (the counters are small non-negative integers). */
function writeNumber(at: number, value: number): number {
  if (value >= 10) at = writeNumber(at, Math.floor(value / 10));
  FEN_BYTES[at++] = DIGIT_ZERO + (value % 10);
  return at;
}

/**
 * Ranks 8 to 1, files a to h, from the start of FEN_BYTES. Each rank's occupied squares are read from the
 * bits of its byte of the occupied set, so empty squares cost nothing and a run of them is one digit. An
 * occupied square's letter is looked up by its colour and three role bits read from the same rank's bytes
 * of three unions of role sets (see PIECE_LETTERS), rather than by testing each role's set in turn.
 */
function writeBoardBytes(board: Chess['board']): number {
  const { occupied, white, knight, bishop, rook, queen, king } = board;
  const oneLo = knight.lo | rook.lo | king.lo;
  const oneHi = knight.hi | rook.hi | king.hi;
  const twoLo = bishop.lo | rook.lo;
  const twoHi = bishop.hi | rook.hi;
  const fourLo = queen.lo | king.lo;
  const fourHi = queen.hi | king.hi;
  let at = 0;
  for (let rank = 7; rank >= 0; rank--) {
    const high = rank >= 4;
    const shift = (rank & 3) * 8;
    const row = ((high ? occupied.hi : occupied.lo) >>> shift) & 0xff;
    const whites = (high ? white.hi : white.lo) >>> shift;
    const ones = (high ? oneHi : oneLo) >>> shift;
    const twos = (high ? twoHi : twoLo) >>> shift;
    const fours = (high ? fourHi : fourLo) >>> shift;
    let file = 0; // the first file not yet written
    for (let bits = row; bits !== 0; bits &= bits - 1) {
      const pieceFile = 31 - Math.clz32(bits & -bits);
      if (pieceFile > file) FEN_BYTES[at++] = DIGIT_ZERO + pieceFile - file;
      const letter =
        (((whites >>> pieceFile) & 1) << 3) |
        (((fours >>> pieceFile) & 1) << 2) |
        (((twos >>> pieceFile) & 1) << 1) |
        ((ones >>> pieceFile) & 1);
      FEN_BYTES[at++] = PIECE_LETTERS[letter]!;
      file = pieceFile + 1;
    }
    if (file < 8) FEN_BYTES[at++] = DIGIT_ZERO + 8 - file;
    if (rank > 0) FEN_BYTES[at++] = SLASH;
  }
  return at;
}

const DIGIT_ZERO = 48;
const SLASH = 47;
const SPACE = 32;
/**
 * FEN letters by colour (8 for White) and three role bits: 1 for a knight, rook or king, 2 for a bishop or
 * rook, 4 for a queen or king, so a pawn is 0, N 1, B 2, R 3, Q 4 and K 5; 6 and 7 are never read.
 */
const PIECE_LETTERS = Uint8Array.from('pnbrqk..PNBRQK..', (letter) => letter.charCodeAt(0));

/** Standard castling (the only kind newBoard admits) writes as KQkq; anything else goes to chessops. */
function writeCastlingFen(pos: Chess): string {
  const rights = pos.castles.castlingRights;
  if (rights.lo === 0 && rights.hi === 0) return '-';
  if ((rights.lo & ~STANDARD_ROOK_CORNERS.lo) !== 0 || (rights.hi & ~STANDARD_ROOK_CORNERS.hi) !== 0)
    return makeCastlingFen(pos.board, rights);
  const index =
    (rights.lo & 0x80 ? 8 : 0) |
    (rights.lo & 1 ? 4 : 0) |
    (rights.hi >>> 31 ? 2 : 0) |
    (rights.hi & 0x01000000 ? 1 : 0);
  return CASTLING_FIELDS[index]!;
}

/** The castling field by four bits, K (h1) 8, Q (a1) 4, k (h8) 2, q (a8) 1: read, not concatenated per move. */
const CASTLING_FIELDS = Array.from(
  { length: 16 },
  (_, bits) => (bits & 8 ? 'K' : '') + (bits & 4 ? 'Q' : '') + (bits & 2 ? 'k' : '') + (bits & 1 ? 'q' : ''),
);

const STANDARD_ROOK_CORNERS = SquareSet.fromSquare(0).with(7).with(56).with(63);

/** The en-passant square only when a capture there is legal (chessops' toSetup rule, FIDE's notion). */
function legalEpSquare(pos: Chess, ctx: Context): number | undefined {
  const ep = pos.epSquare;
  if (ep === undefined) return undefined;
  const capturers = pos.board.pieces(pos.turn, 'pawn').intersect(pawnAttacks(opposite(pos.turn), ep));
  for (const from of capturers) if (pos.dests(from, ctx).has(ep)) return ep;
  return undefined;
}

// --- parsing what agents send ----------------------------------------------------------------------------

// The text shapes parseMove reads, each read by character codes (sanShapeOf, castlingTextSide, isPlainUci)
// rather than a regular expression, since every move a SAN-writing agent sends passes through them. Castling:
// O-O / 0-0 (digit zero, common from engines and humans) / o-o, one character throughout. UCI: two squares
// and perhaps a promotion letter (qrbnQRBN). SAN: the shape chessops' parseSan accepts for piece and pawn
// moves, /^([NBRQK])?([a-h])?([1-8])?[-x]?([a-h][1-8])(?:=?([nbrqkNBRQK]))?$/ (it also takes long
// algebraic "Ng1-f3"). Check/mate marks and move-quality annotations (a trailing run of + # ! ?) are
// accepted and ignored, whether or not they are true.

const fail = (reason: string): ParsedMove => ({ ok: false, reason });

/**
 * Parses SAN or UCI text as agents really send it into the legal chessops move (castling as
 * king-takes-rook, chessops' own form). Never throws: anything unparsable or illegal is an error result.
 */
export function parseMove(board: Board, text: string): ParsedMove {
  if (typeof text !== 'string') return fail('move must be a string');
  // UCI as engines send it, with nothing around it: nothing to trim, no annotation, not castling's text.
  if (isPlainUci(text)) return parseUciText(factsOf(board), text, text);
  const trimmed = text.trim();
  if (trimmed === '') return fail('empty move');
  if (trimmed.length > MAX_MOVE_TEXT) return fail(`unparsable move "${trimmed.slice(0, MAX_MOVE_TEXT)}..."`);
  const core = withoutAnnotations(trimmed);
  const facts = factsOf(board);
  const castling = castlingTextSide(core);
  if (castling !== undefined) return parseCastling(facts, castling, trimmed);
  if (isPlainUci(core)) return parseUciText(facts, core, trimmed);
  const san = sanShapeOf(core);
  if (san !== undefined) return sanMove(facts, san) ?? fail(`illegal or ambiguous move "${trimmed}"`);
  return fail(`unparsable move "${trimmed}"`);
}

/** The text without its trailing run of check, mate and quality marks (+ # ! ?). */
function withoutAnnotations(text: string): string {
  let end = text.length;
  while (end > 0 && ANNOTATION_MARKS.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

const ANNOTATION_MARKS = '+#!?';

/** The castling side the text names (O-O is 'h', O-O-O is 'a', in O, 0 or o throughout), else undefined. */
function castlingTextSide(text: string): 'a' | 'h' | undefined {
  const mark = text[0];
  if (mark !== 'O' && mark !== '0' && mark !== 'o') return undefined;
  if (text.length !== 3 && text.length !== 5) return undefined;
  for (let at = 1; at < text.length; at += 2) if (text[at] !== '-' || text[at + 1] !== mark) return undefined;
  return text.length === 3 ? 'h' : 'a';
}

/** A piece or pawn move as SAN writes it (the groups of the SAN shape above); -1 for a hint not given. */
interface SanShape {
  role: Role;
  fileHint: number;
  rankHint: number;
  to: number;
  /** The promotion letter's piece; 'king' is read (the shape admits k) and refused by sanMove. */
  promotion: Role | undefined;
}

/**
 * The SAN shape of the text, or undefined when it has another. The shape has at most one reading: the
 * text ends in a rank digit, a promotion letter, or '=' and one, which fixes where the target stands, and
 * the piece letter, file, rank and separator before it are of four disjoint kinds in a fixed order.
 */
function sanShapeOf(text: string): SanShape | undefined {
  let end = text.length;
  let promotion: Role | undefined;
  const last = text[end - 1]!;
  if (!isRankDigit(text.charCodeAt(end - 1))) {
    promotion = SAN_PROMOTION_LETTERS.includes(last) ? PROMOTION_ROLE[last.toLowerCase()] : undefined;
    if (promotion === undefined) return undefined;
    end -= text[end - 2] === '=' ? 2 : 1;
  }
  if (end < 2) return undefined;
  const to = uciSquare(text, end - 2);
  if (to < 0) return undefined;
  const prefixEnd = end - 2;
  let at = 0;
  const role = at < prefixEnd ? PIECE_ROLE[text[at]!] : undefined;
  if (role !== undefined) at++;
  const fileHint = at < prefixEnd ? fileIndexOf(text.charCodeAt(at)) : -1;
  if (fileHint >= 0) at++;
  const rankHint = at < prefixEnd && isRankDigit(text.charCodeAt(at)) ? text.charCodeAt(at) - 49 : -1;
  if (rankHint >= 0) at++;
  if (at < prefixEnd && (text[at] === '-' || text[at] === 'x')) at++;
  if (at !== prefixEnd) return undefined;
  return { role: role ?? 'pawn', fileHint, rankHint, to, promotion };
}

const SAN_PROMOTION_LETTERS = 'nbrqkNBRQK';

function isRankDigit(code: number): boolean {
  return code >= 49 && code <= 56;
}

/** The file of a file letter's code (a = 0), or -1. */
function fileIndexOf(code: number): number {
  return code >= 97 && code <= 104 ? code - 97 : -1;
}

function parseCastling(facts: PositionFacts, side: 'a' | 'h', text: string): ParsedMove {
  const pos = facts.pos;
  const king = pos.board.kingOf(pos.turn);
  const rook = pos.castles.rook[pos.turn][side];
  if (king === undefined || rook === undefined) return fail(`illegal move "${text}": no castling right`);
  const move: NormalMove = { from: king, to: rook };
  const targets = legalTargets(facts, move);
  return targets ? vouch(facts, move, targets) : fail(`illegal move "${text}"`);
}

/** The move of UCI-shaped text (see isPlainUci), legal or refused; `shown` is the text as errors quote it. */
function parseUciText(facts: PositionFacts, text: string, shown: string): ParsedMove {
  const move: NormalMove = { from: uciSquare(text, 0), to: uciSquare(text, 2) };
  if (text.length === 5) move.promotion = PROMOTION_ROLE[text[4]!.toLowerCase()];
  // Both castling spellings (e1g1 and e1h1) are legal; normalizeMove maps e1g1 to chessops' e1h1.
  const targets = legalTargets(facts, move);
  if (!targets) return fail(`illegal move "${shown}"`);
  return vouch(facts, normalizeMove(facts.pos, move) as NormalMove, targets);
}

/** Whether the text is UCI's shape: two squares and perhaps a promotion letter, with nothing around it. */
function isPlainUci(text: string): boolean {
  if (text.length !== 4 && text.length !== 5) return false;
  if (uciSquare(text, 0) < 0 || uciSquare(text, 2) < 0) return false;
  return text.length === 4 || PROMOTION_LETTERS.includes(text[4]!);
}

const PROMOTION_LETTERS = 'qrbnQRBN';

/** The square written at `at` in the text ([a-h][1-8]), or -1. */
function uciSquare(text: string, at: number): number {
  const file = text.charCodeAt(at) - 97;
  const rank = text.charCodeAt(at + 1) - 49;
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 ? rank * 8 + file : -1;
}

/**
 * The mover's legal targets when the move is legal here (chessops' isLegal for a normal move, keeping the
 * targets it computes), else undefined.
 */
function legalTargets(facts: PositionFacts, move: NormalMove): SquareSet | undefined {
  const pos = facts.pos;
  if (move.promotion === 'pawn' || move.promotion === 'king') return undefined;
  if ((move.promotion !== undefined) !== (pos.board.pawn.has(move.from) && BACKRANKS(move.to)))
    return undefined;
  const targets = destsOf(facts, move.from);
  return targets.has(move.to) || targets.has(normalizeMove(pos, move).to) ? targets : undefined;
}

/** A parsed move, noted as legal in this position (see PositionFacts.vouched). */
function vouch(facts: PositionFacts, move: NormalMove, targets: SquareSet): ParsedMove {
  facts.vouched = move;
  facts.vouchedTargets = targets;
  return { ok: true, move };
}

const PROMOTION_ROLE: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', k: 'king' };
const PIECE_ROLE: Record<string, Role> = { N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };

/**
 * The legal move a SAN shape names, or undefined when it is illegal or ambiguous. The rules of chessops'
 * parseSan (its answers are compared in test/property/chess.test.ts), judged in the cached context: the
 * piece letter (a pawn without one), optional from-file and from-rank hints, the target, and a promotion
 * exactly when a pawn reaches the back rank. A pawn without a file hint moves along its file. Only pieces
 * that reach the target by a push or an attack qualify, so a king named onto its own rook's square
 * (chessops' castling move) is not castling in SAN. The candidates are kept as the two words of a square
 * set: the SquareSet methods would make a set per step.
 */
function sanMove(facts: PositionFacts, shape: SanShape): ParsedMove | undefined {
  const { role, rankHint, to, promotion } = shape;
  if ((promotion !== undefined) !== (role === 'pawn' && BACKRANKS(to)) || promotion === 'king')
    return undefined;
  const pos = facts.pos;
  const board = pos.board;
  const own = board[pos.turn];
  const kind = board[role];
  // The squares from which such a piece reaches the target: a pawn's pushes come along its file.
  const reach = pieceAttacks(opposite(pos.turn), role, to, board.occupied);
  const file = shape.fileHint >= 0 ? shape.fileHint : role === 'pawn' ? squareFile(to) : -1;
  const pushes = role === 'pawn' ? FILE_MASK << squareFile(to) : 0;
  let lo = own.lo & kind.lo & (reach.lo | pushes);
  let hi = own.hi & kind.hi & (reach.hi | pushes);
  if (file >= 0) {
    lo &= FILE_MASK << file;
    hi &= FILE_MASK << file;
  }
  if (rankHint >= 0) {
    lo = rankHint < 4 ? lo & (0xff << (rankHint * 8)) : 0;
    hi = rankHint < 4 ? 0 : hi & (0xff << ((rankHint - 4) * 8));
  }
  let from = -1;
  let fromTargets: SquareSet | undefined;
  for (let word = 0; word < 2; word++) {
    for (let bits = word === 0 ? lo : hi; bits !== 0; bits &= bits - 1) {
      const candidate = lowestSquare(bits, word === 0 ? 0 : 32);
      const targets = destsOf(facts, candidate);
      if (!targets.has(to)) continue;
      if (from >= 0) return undefined;
      from = candidate;
      fromTargets = targets;
    }
  }
  if (from < 0) return undefined;
  return vouch(facts, promotion === undefined ? { from, to } : { from, to, promotion }, fromTargets!);
}

/** File a's squares in one word of a square set (four ranks); shifted left by a file's index for that file. */
const FILE_MASK = 0x01010101;

/**
 * The move route's body carries move_san and/or move_uci. Either alone is parsed leniently (parseMove
 * accepts both notations in either field); when both are given they must denote the same move. A blank
 * or null field counts as absent.
 */
export function parseMoveFields(board: Board, san: string | undefined, uci: string | undefined): ParsedMove {
  const hasSan = typeof san === 'string' && san.trim() !== '';
  const hasUci = typeof uci === 'string' && uci.trim() !== '';
  if (!hasSan && !hasUci) return fail('no move given: send move_san or move_uci');
  if (!hasUci) return parseMove(board, san as string);
  if (!hasSan) return parseMove(board, uci);
  const bySan = parseMove(board, san);
  if (!bySan.ok) return fail(`move_san: ${bySan.reason}`);
  const byUci = parseMove(board, uci);
  if (!byUci.ok) return fail(`move_uci: ${byUci.reason}`);
  if (!moveEquals(bySan.move, byUci.move)) {
    return fail(`move_san "${san.trim()}" and move_uci "${uci.trim()}" are different moves`);
  }
  return byUci; // the same move as bySan, and the one parsed last (see PositionFacts.vouched)
}

// --- playing and game end -----------------------------------------------------------------------------

/** Wire UCI of a legal move in this position: castling as the king's two-square move (e1g1). */
export function toWireUci(board: Board, move: Move): string {
  if (!isNormal(move)) return makeUci(move);
  return wireUciOf(move, board.pos.turn, castlingSide(board.pos, move));
}

/** toWireUci for a normal move whose castling side (or none) the caller has already worked out. */
function wireUciOf(move: NormalMove, turn: ColorName, side: CastlingSide | undefined): string {
  return makeUci(side === undefined ? move : { from: move.from, to: kingCastlesTo(turn, side) });
}

/**
 * Applies a legal move (from parseMove or legalMoves) and records the repetition. An illegal move here is
 * a programmer error: chessops' play() would silently corrupt the position, so it stops loudly instead.
 * SAN and FEN are written once, from the facts of the positions before and after the move, and the facts
 * of the position reached stay cached for boardResult, the next parseMove and legalMoves.
 */
export function playMove(board: Board, move: Move): PlayedMove {
  const before = factsOf(board);
  const pos = board.pos;
  if (move !== before.vouched && !pos.isLegal(move, before.ctx))
    throw new Error(`playMove: illegal move ${makeUci(move)} in ${currentFen(board)}`);
  const color = pos.turn;
  const normal = move as NormalMove;
  const side = castlingSide(pos, normal);
  const uci = wireUciOf(normal, color, side);
  const role = roleAt(pos.board, normal.from);
  const sanBody = writeSanBody(before, normal, role, side);
  playLegal(pos, normal, role, side);
  board.plies += 1;
  const after = factsOf(board);
  const isCheck = after.ctx.checkers.nonEmpty();
  // SAN's suffix: '#' exactly when the side to move is mated, '+' on any other check.
  const isCheckmate = isCheck && !isMovable(after);
  const fenAfter = currentFen(board);
  recordRepetition(board);
  return {
    san: isCheckmate ? `${sanBody}#` : isCheck ? `${sanBody}+` : sanBody,
    uci,
    fenAfter,
    color,
    isCheck,
    isCheckmate,
  };
}

/**
 * Plays a move known to be legal (from a game's own log) and returns its SAN, nothing else: no legality
 * search, FEN or repetition count, so the board's repetitions and plies are left behind. For re-reading a
 * finished game's moves (a PGN export), on a board of its own.
 */
export function playForSan(board: Board, move: NormalMove): string {
  const pos = board.pos;
  const side = castlingSide(pos, move);
  const role = roleAt(pos.board, move.from);
  const sanBody = writeSanBody(factsOf(board), move, role, side);
  playLegal(pos, move, role, side);
  const after = factsOf(board);
  if (after.ctx.checkers.isEmpty()) return sanBody;
  return isMovable(after) ? `${sanBody}+` : `${sanBody}#`;
}

/**
 * chessops' play for a legal normal move of standard chess (the mover's role and castling side given, as
 * playMove has them already): each set the move changes is replaced once, by a xor of the squares it
 * changes on, where chessops' take and set look the pieces up again and replace a set per square.
 * test/property/chess.test.ts and the chess differential compare the positions reached.
 */
function playLegal(pos: Chess, move: NormalMove, role: Role, side: CastlingSide | undefined): void {
  const turn = pos.turn;
  const epSquare = pos.epSquare;
  pos.epSquare = undefined;
  pos.halfmoves += 1;
  if (turn === 'black') pos.fullmoves += 1;
  pos.turn = opposite(turn);
  const { from, to } = move;
  if (side !== undefined) {
    playCastling(pos, turn, from, side);
    return;
  }
  const board = pos.board;
  const them = opposite(turn);
  const captured = hasBit(board[them], to) ? roleAt(board, to) : undefined;
  if (captured !== undefined) {
    toggle(board, them, lowBit(to), highBit(to));
    toggle(board, captured, lowBit(to), highBit(to));
    pos.halfmoves = 0;
    if (captured === 'rook') pos.castles.discardRook(to);
  }
  // The occupied set loses `from` and gains `to`, unless a capture left `to` occupied.
  const landedLo = captured === undefined ? lowBit(to) : 0;
  const landedHi = captured === undefined ? highBit(to) : 0;
  toggle(board, 'occupied', lowBit(from) | landedLo, highBit(from) | landedHi);
  const movedLo = lowBit(from) | lowBit(to);
  const movedHi = highBit(from) | highBit(to);
  toggle(board, turn, movedLo, movedHi);
  const landing = move.promotion ?? role;
  if (landing === role) toggle(board, role, movedLo, movedHi);
  else {
    toggle(board, role, lowBit(from), highBit(from));
    toggle(board, landing, lowBit(to), highBit(to));
  }
  if (role === 'pawn') playPawnRules(pos, move, epSquare);
  else if (role === 'rook') pos.castles.discardRook(from);
  else if (role === 'king') pos.castles.discardColor(turn);
}

/** A pawn move's own rules, after the pawn moved: the clock reset, en passant taken, or made possible. */
function playPawnRules(pos: Chess, move: NormalMove, epSquare: number | undefined): void {
  const { from, to } = move;
  pos.halfmoves = 0;
  if (to === epSquare) {
    const taken = to + (pos.turn === 'white' ? 8 : -8); // the side that moved is no longer pos.turn
    toggle(pos.board, pos.turn, lowBit(taken), highBit(taken));
    toggle(pos.board, 'pawn', lowBit(taken), highBit(taken));
    toggle(pos.board, 'occupied', lowBit(taken), highBit(taken));
  }
  if (Math.abs(from - to) === 16 && from >= 8 && from <= 55) pos.epSquare = (from + to) >> 1;
}

/** chessops' castling: the king to its castled square, the rook of the castles' record beside it. */
function playCastling(pos: Chess, turn: ColorName, king: number, side: CastlingSide): void {
  const board = pos.board;
  const rook = pos.castles.rook[turn][side]!;
  const kingTo = kingCastlesTo(turn, side);
  const rookTo = rookCastlesTo(turn, side);
  const kingLo = lowBit(king) ^ lowBit(kingTo);
  const kingHi = highBit(king) ^ highBit(kingTo);
  const rookLo = lowBit(rook) ^ lowBit(rookTo);
  const rookHi = highBit(rook) ^ highBit(rookTo);
  toggle(board, 'king', kingLo, kingHi);
  toggle(board, 'rook', rookLo, rookHi);
  toggle(board, turn, kingLo ^ rookLo, kingHi ^ rookHi);
  toggle(board, 'occupied', kingLo ^ rookLo, kingHi ^ rookHi);
  pos.castles.discardColor(turn);
}

/** A square's bit in the low word of a square set (squares 0 to 31), else 0. */
function lowBit(square: number): number {
  return square < 32 ? 1 << square : 0;
}

/** A square's bit in the high word of a square set (squares 32 to 63), else 0. */
function highBit(square: number): number {
  return square < 32 ? 0 : 1 << (square - 32);
}

/** Replaces one of the board's sets (SquareSets are immutable) by itself with the given squares toggled. */
function toggle(board: Chess['board'], name: ColorName | Role | 'occupied', lo: number, hi: number): void {
  const set = board[name];
  board[name] = new SquareSet(set.lo ^ lo, set.hi ^ hi);
}

/** The role of the piece on an occupied square. */
function roleAt(board: Chess['board'], square: number): Role {
  if (hasBit(board.pawn, square)) return 'pawn';
  if (hasBit(board.knight, square)) return 'knight';
  if (hasBit(board.bishop, square)) return 'bishop';
  if (hasBit(board.rook, square)) return 'rook';
  if (hasBit(board.queen, square)) return 'queen';
  return 'king';
}

/** SquareSet.has as one shift of the right word. */
function hasBit(set: SquareSet, square: number): boolean {
  return ((square < 32 ? set.lo >>> square : set.hi >>> (square - 32)) & 1) !== 0;
}

const SAN_LETTER: Readonly<Record<Role, string>> = {
  pawn: '',
  knight: 'N',
  bishop: 'B',
  rook: 'R',
  queen: 'Q',
  king: 'K',
};

/**
 * SAN without its check suffix, as chessops writes it (test/property/chess.test.ts compares the two):
 * castling as O-O / O-O-O; a piece letter; the from-file, from-rank or both when another piece of the same
 * kind could also legally reach the target (the file when it tells them apart, else the rank, else both);
 * 'x' on a capture; the target; '=' and the piece of a promotion.
 */
function writeSanBody(
  facts: PositionFacts,
  move: NormalMove,
  role: Role,
  side: CastlingSide | undefined,
): string {
  const pos = facts.pos;
  if (side !== undefined) return side === 'h' ? 'O-O' : 'O-O-O';
  const capture =
    pos.board.occupied.has(move.to) || (role === 'pawn' && squareFile(move.from) !== squareFile(move.to));
  let san =
    role === 'pawn'
      ? capture
        ? FILE_LETTERS[squareFile(move.from)]!
        : ''
      : SAN_LETTER[role] + disambiguation(facts, move, role);
  if (capture) san += 'x';
  san += makeSquare(move.to);
  if (move.promotion !== undefined) san += `=${SAN_LETTER[move.promotion]}`;
  return san;
}

const FILE_LETTERS = 'abcdefgh';

function disambiguation(facts: PositionFacts, move: NormalMove, role: Role): string {
  if (role === 'king') return '';
  const pos = facts.pos;
  // Most moves are of a piece with no other of its kind on the board: no rival to look for.
  const own = pos.board[pos.turn];
  const kind = pos.board[role];
  const othersLo = own.lo & kind.lo & (move.from < 32 ? ~(1 << move.from) : -1);
  const othersHi = own.hi & kind.hi & (move.from < 32 ? -1 : ~(1 << (move.from - 32)));
  if ((othersLo | othersHi) === 0) return '';
  // The rivals that reach the target and may legally go there, kept as two words (as sanMove's candidates):
  // SquareSet's iterator is a generator, and each without or intersect would make a set.
  const reach = pieceAttacks(pos.turn, role, move.to, pos.board.occupied);
  let rivalsLo = othersLo & reach.lo;
  let rivalsHi = othersHi & reach.hi;
  for (let bits = rivalsLo; bits !== 0; bits &= bits - 1) {
    const rival = lowestSquare(bits, 0);
    if (!hasBit(pieceTargets(facts, rival), move.to)) rivalsLo &= ~(1 << rival);
  }
  for (let bits = rivalsHi; bits !== 0; bits &= bits - 1) {
    const rival = lowestSquare(bits, 32);
    if (!hasBit(pieceTargets(facts, rival), move.to)) rivalsHi &= ~(1 << (rival - 32));
  }
  if ((rivalsLo | rivalsHi) === 0) return '';
  const fromFile = squareFile(move.from);
  const fromRank = squareRank(move.from);
  const sameFile = ((rivalsLo | rivalsHi) & (FILE_MASK << fromFile)) !== 0;
  const sameRank = (fromRank < 4 ? rivalsLo >>> (fromRank * 8) : rivalsHi >>> ((fromRank - 4) * 8)) & 0xff;
  const file = !sameFile || sameRank !== 0 ? FILE_LETTERS[fromFile]! : '';
  return sameFile ? `${file}${fromRank + 1}` : file;
}

function recordRepetition(board: Board): void {
  // After a capture or pawn move (clock reset) no earlier position can recur: forget them, which keeps
  // the window as small as the fifty-move rule allows.
  const facts = factsOf(board);
  const key = keyOf(facts);
  if (board.pos.halfmoves === 0) windowOf(board).restart(key, facts.keyHash);
  else windowOf(board).see(key, facts.keyHash);
}

/** The board's repetition counts as a window, a literal board's Map moved into one the first time. */
function windowOf(board: Board): RepetitionWindow {
  const counts = board.repetitions;
  if (counts instanceof RepetitionWindow) return counts;
  const window = RepetitionWindow.of(counts);
  board.repetitions = window;
  return window;
}

/**
 * The game end decided by the board alone, or null. Precedence: checkmate (so a mate that also reaches
 * the fifty-move limit wins), stalemate, insufficient material, threefold repetition, fifty-move rule.
 * All draws after checkmate have winner null; the order only fixes which label a double draw gets.
 */
export function boardResult(board: Board): BoardResult | null {
  const facts = factsOf(board);
  const pos = facts.pos;
  if (!isMovable(facts)) {
    if (facts.ctx.checkers.nonEmpty()) return { ending: 'checkmate', winner: opposite(pos.turn) };
    return { ending: 'stalemate', winner: null };
  }
  if (!hasPawnRookOrQueen(pos.board) && pos.isInsufficientMaterial())
    return { ending: 'insufficient_material', winner: null };
  if (isThreefold(board)) return { ending: 'threefold_repetition', winner: null };
  if (pos.halfmoves >= FIFTY_MOVE_HALFMOVES) return { ending: 'fifty_move_rule', winner: null };
  return null;
}

/**
 * Whether a pawn, rook or queen is on the board. chessops' isInsufficientMaterial is false then (the side that
 * has one has material), so the question, several set operations a side, is asked only without one.
 */
function hasPawnRookOrQueen(board: Chess['board']): boolean {
  const { pawn, rook, queen } = board;
  return (pawn.lo | rook.lo | queen.lo | pawn.hi | rook.hi | queen.hi) !== 0;
}

function isThreefold(board: Board): boolean {
  const facts = factsOf(board);
  const key = keyOf(facts);
  return (windowOf(board).countOf(key, facts.keyHash) ?? 0) >= REPETITION_LIMIT;
}

/** Promotion order inside legalMoves: strongest first. */
export const PROMOTIONS: readonly Role[] = ['queen', 'rook', 'bishop', 'knight'];
const BACKRANKS = (sq: number): boolean => sq < 8 || sq >= 56;

/**
 * Every legal move in a deterministic order: by from square, then to square (chessops indices, a1 = 0 ..
 * h8 = 63; castling's `to` is the rook square), then promotion queen, rook, bishop, knight.
 */
export function legalMoves(board: Board): Move[] {
  const facts = factsOf(board);
  const moves: Move[] = [];
  // Squares are visited in ascending order (low word, then high), so the result is sorted without a sort.
  const own = facts.pos.board[facts.pos.turn];
  for (let bits = own.lo; bits !== 0; bits &= bits - 1) pushMovesFrom(facts, lowestSquare(bits, 0), moves);
  for (let bits = own.hi; bits !== 0; bits &= bits - 1) pushMovesFrom(facts, lowestSquare(bits, 32), moves);
  return moves;
}

function pushMovesFrom(facts: PositionFacts, from: number, moves: Move[]): void {
  const targets = destsOf(facts, from);
  const promotes = facts.pos.board.pawn.has(from);
  for (let bits = targets.lo; bits !== 0; bits &= bits - 1)
    pushMove(from, lowestSquare(bits, 0), promotes, moves);
  for (let bits = targets.hi; bits !== 0; bits &= bits - 1)
    pushMove(from, lowestSquare(bits, 32), promotes, moves);
}

function pushMove(from: number, to: number, promotes: boolean, moves: Move[]): void {
  if (promotes && BACKRANKS(to)) {
    for (const promotion of PROMOTIONS) moves.push({ from, to, promotion });
  } else {
    moves.push({ from, to });
  }
}

// --- compact move codes ----------------------------------------------------------------------------------

/**
 * Writes a legal move in as few bits as its position needs: the mover's index among the side's pieces (by
 * square), the target's index among that piece's legal targets, and the promotion piece (2 bits) when a pawn
 * reaches the last rank. A field with one choice takes no bits, so a move usually takes 6 to 8 bits.
 * readMoveBits reverses it from the same position.
 */
export function writeMoveBits(
  board: Board,
  move: NormalMove,
  bits: { write(value: number, width: number): void },
): void {
  const facts = factsOf(board);
  const pos = facts.pos;
  const own = pos.board[pos.turn];
  bits.write(countBelow(own, move.from), choiceBits(own.size()));
  const targets = move === facts.vouched ? facts.vouchedTargets! : destsOf(facts, move.from);
  bits.write(countBelow(targets, move.to), choiceBits(targets.size()));
  if (move.promotion !== undefined) bits.write(PROMOTIONS.indexOf(move.promotion), 2);
}

export function readMoveBits(board: Board, bits: { read(width: number): number }): NormalMove {
  const facts = factsOf(board);
  const pos = facts.pos;
  const own = pos.board[pos.turn];
  const from = nthSquare(own, bits.read(choiceBits(own.size())));
  const targets = destsOf(facts, from);
  const to = nthSquare(targets, bits.read(choiceBits(targets.size())));
  if (!pos.board.pawn.has(from) || !BACKRANKS(to)) return { from, to };
  return { from, to, promotion: PROMOTIONS[bits.read(2)]! };
}

/** Bits to tell `count` choices apart (none for one). */
function choiceBits(count: number): number {
  return count <= 1 ? 0 : 32 - Math.clz32(count - 1);
}

/** How many squares of the set lie below `square`. */
function countBelow(set: SquareSet, square: number): number {
  if (square < 32) return square === 0 ? 0 : popcount(set.lo & (0xffffffff >>> (32 - square)));
  return popcount(set.lo) + (square === 32 ? 0 : popcount(set.hi & (0xffffffff >>> (64 - square))));
}

/** The number of set bits of a 32-bit word, by adding neighbouring counts (no loop over the bits). */
function popcount(bits: number): number {
  const pairs = bits - ((bits >>> 1) & 0x55555555);
  const nibbles = (pairs & 0x33333333) + ((pairs >>> 2) & 0x33333333);
  return Math.imul((nibbles + (nibbles >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The set's square at ascending index `n`. */
function nthSquare(set: SquareSet, n: number): number {
  let seen = 0;
  for (let bits = set.lo; bits !== 0; bits &= bits - 1) if (seen++ === n) return lowestSquare(bits, 0);
  for (let bits = set.hi; bits !== 0; bits &= bits - 1) if (seen++ === n) return lowestSquare(bits, 32);
  throw new Error(`no square number ${n} in the set`);
}

/**
 * The lowest square in one word of a square set (`base` 0 for the low word, 32 for the high). Sets are
 * walked word by word with `bits &= bits - 1`: SquareSet's own iterator is a generator, several times slower.
 */
function lowestSquare(bits: number, base: 0 | 32): number {
  return base + 31 - Math.clz32(bits & -bits);
}
