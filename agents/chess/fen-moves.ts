/**
 * The random persona's turn on a MailBoard (mail-board.ts) instead of chessops: the position read from the
 * FEN a my-turn row carries, its legal moves in the order chess.ts's legalMoves lists them (by from square,
 * then to square, castling as the king taking its own rook, promotions to queen, rook, bishop, knight), and
 * a move written as wire UCI and as SAN exactly as the platform writes them. Parsing the FEN into chessops'
 * position and asking it for every piece's moves allocated square sets by the hundred each turn, the most a
 * crowd run allocated after the cautious persona's look. test/property/fen-moves.test.ts holds the moves
 * and both spellings equal to chessops' on many random positions.
 *
 * A move is legal when, played out, it leaves the mover's king unattacked (chessops' checkers and pins
 * decide the same). Targets are word operations on each side's pieces as masks (square-masks.ts): a king's
 * step lands on no square of one sweep of the other side's attacks; another piece's move, in check, on the
 * checker's square or line, and when pinned on its pin's ray; only en passant is played out, and castling
 * follows chessops' castlingDest (see movesFrom). Only the plain FEN the platform writes is read here;
 * anything else is left to chessops (`turnMoves` answers undefined). The cautious and greedy personas
 * score the same list on the boards it leaves (`board`, `after`).
 *
 * Each turn is read afresh, with no board kept per game: a my-turn row carries no last move, so the
 * opponent's move is known only from this same text, and a kept board must be checked against it, which
 * reads it all the same (a board patched square by square from it measured no faster than the read, issue
 * 32). Reading is now about two fifths of a turn over the smoke's positions, generating the rest.
 */
import { PROMOTIONS } from '../../src/rules/chess/chess.js';
import {
  attackersOf,
  BISHOP,
  BLACK,
  CODE,
  QUEEN,
  isAttacked,
  KING,
  KNIGHT,
  MailBoard,
  PAWN,
  ROOK,
  sign,
  WHITE,
} from './mail-board.js';
import {
  bitHi,
  bitLo,
  firstOnRay,
  KING_MASKS,
  KNIGHT_MASKS,
  PAWN_MASKS,
  pawnMaskBase,
  RAY_MASKS,
  SLIDE,
  slide,
} from './square-masks.js';

/** A legal move as a number: from, to (the rook's square for castling) and the promotion's piece code. */
export type MoveCode = number;

/** The moves of the position last read, and their spellings. Valid until the next `turnMoves`. */
export interface TurnMoves {
  readonly moves: readonly MoveCode[];
  /** The position read. */
  readonly board: MailBoard;
  uci(move: MoveCode): string;
  san(move: MoveCode): string;
  /** The position after `move`, valid until the next call (the capture look reads it, and may try moves on it). */
  after(move: MoveCode): MailBoard;
  /**
   * The other side's pieces that the side to move attacks on the board `after` last returned, as
   * square-masks' two words: the capture look asks who takes a piece only where any piece does.
   */
  attackedPiecesAfter(into: { lo: number; hi: number }): void;
}

/** The legal moves of a plain FEN's position, or undefined when the text is not the platform's plain form. */
export function turnMoves(fen: string): TurnMoves | undefined {
  if (!readFen(POSITION, fen)) return undefined;
  MOVES.length = 0;
  generate(POSITION, MOVES);
  return TURN;
}

/**
 * A MailBoard with each side's occupied squares as masks (square-masks.ts), kept by whoever writes its
 * cells here (the reader, playOn): moves are listed from the masks, and told apart on the cells.
 */
class Position extends MailBoard {
  whiteLo = 0;
  whiteHi = 0;
  blackLo = 0;
  blackHi = 0;

  override copy(from: Position): void {
    super.copy(from);
    this.whiteLo = from.whiteLo;
    this.whiteHi = from.whiteHi;
    this.blackLo = from.blackLo;
    this.blackHi = from.blackHi;
  }

  /** Puts `piece` (0 to empty the square) on `square`, cells and masks alike. */
  put(square: number, piece: number): void {
    this.cells[square] = piece;
    const lo = bitLo(square);
    const hi = bitHi(square);
    this.whiteLo &= ~lo;
    this.whiteHi &= ~hi;
    this.blackLo &= ~lo;
    this.blackHi &= ~hi;
    if (piece > 0) {
      this.whiteLo |= lo;
      this.whiteHi |= hi;
    } else if (piece < 0) {
      this.blackLo |= lo;
      this.blackHi |= hi;
    }
  }
}

const POSITION = new Position();
/** Castling rooks of the position read, by side (White, Black) and wing (a, h); -1 for none. */
const CASTLING_ROOKS = new Int8Array(4);
const MOVES: MoveCode[] = [];
/** The position after a move, to judge check and mate for SAN. */
const AFTER = new Position();

/** The position a chess persona looks at after each candidate move. */
const LOOK = new Position();

const TURN: TurnMoves = {
  moves: MOVES,
  board: POSITION,
  uci: (move) => uciOf(POSITION, move),
  san: (move) => sanOf(POSITION, move),
  after: (move) => {
    LOOK.copy(POSITION);
    playOn(LOOK, move, castlingWing(POSITION, move));
    return LOOK;
  },
  attackedPiecesAfter: (into) => {
    const white = LOOK.turn === WHITE;
    const occLo = LOOK.whiteLo | LOOK.blackLo;
    const occHi = LOOK.whiteHi | LOOK.blackHi;
    sweepAttacks(
      LOOK,
      white ? LOOK.whiteLo : LOOK.blackLo,
      white ? LOOK.whiteHi : LOOK.blackHi,
      LOOK.turn,
      occLo,
      occHi,
    );
    into.lo = DANGER_LO & (white ? LOOK.blackLo : LOOK.whiteLo);
    into.hi = DANGER_HI & (white ? LOOK.blackHi : LOOK.whiteHi);
  },
};

export const fromOf = (move: MoveCode): number => move & 63;
/** The target square; a castling move's is its rook's. */
export const toOf = (move: MoveCode): number => (move >> 6) & 63;
/** The promotion's piece code (mail-board's KNIGHT to QUEEN), 0 for none. */
export const promotionOf = (move: MoveCode): number => move >> 12;
const code = (from: number, to: number, promotion: number): MoveCode => from | (to << 6) | (promotion << 12);

// --- legal moves ---------------------------------------------------------------------------------------

/** Piece codes in legalMoves' promotion order. */
const PROMOTION_CODES = PROMOTIONS.map((role) => CODE[role]);

/** The side to move's pieces and the other side's, of the position `generate` lists. */
let OWN_LO = 0;
let OWN_HI = 0;
let ENEMY_LO = 0;
let ENEMY_HI = 0;

/**
 * The side to move's legal moves, appended to `out` in legalMoves' order (by from square, then by target);
 * with `out` null, stops at the first. Returns how many were found.
 */
function generate(b: Position, out: MoveCode[] | null): number {
  const white = b.turn === WHITE;
  OWN_LO = white ? b.whiteLo : b.blackLo;
  OWN_HI = white ? b.whiteHi : b.blackHi;
  ENEMY_LO = white ? b.blackLo : b.whiteLo;
  ENEMY_HI = white ? b.blackHi : b.whiteHi;
  const king = b.kingOf(b.turn);
  findDangers(b, king);
  // The king's own square is attacked alike with the king on it or off it.
  IN_CHECK = ((DANGER_LO & bitLo(king)) | (DANGER_HI & bitHi(king))) !== 0;
  findEvasions(b, king);
  findPins(king);
  let count = 0;
  for (let bits = OWN_LO; bits !== 0 && (out !== null || count === 0); bits &= bits - 1)
    count += movesFrom(b, 31 - Math.clz32(bits & -bits), out);
  for (let bits = OWN_HI; bits !== 0 && (out !== null || count === 0); bits &= bits - 1)
    count += movesFrom(b, 63 - Math.clz32(bits & -bits), out);
  return count;
}

/** Whether the side to move, in the position `generate` lists, is in check. */
let IN_CHECK = false;

/**
 * The squares the other side attacks with the mover's king off the board (a king stepping along a
 * slider's line stays on it): a king's step is legal when it lands on none of them. Each ray runs up to
 * and with its first piece, whichever side's: a defended piece is no safe capture. The sweep also notes
 * the other side's sliders by the lines they pin along.
 */
let DANGER_LO = 0;
let DANGER_HI = 0;
let STRAIGHT_LO = 0;
let STRAIGHT_HI = 0;
let DIAGONAL_LO = 0;
let DIAGONAL_HI = 0;

function findDangers(b: Position, king: number): void {
  const occLo = (OWN_LO | ENEMY_LO) & ~bitLo(king);
  const occHi = (OWN_HI | ENEMY_HI) & ~bitHi(king);
  sweepAttacks(b, ENEMY_LO, ENEMY_HI, -b.turn, occLo, occHi);
}

/** The squares the pieces `lo`/`hi` of `side` attack over the occupied squares `occLo`/`occHi`, in DANGER. */
function sweepAttacks(b: Position, lo: number, hi: number, side: number, occLo: number, occHi: number): void {
  DANGER_LO = 0;
  DANGER_HI = 0;
  STRAIGHT_LO = 0;
  STRAIGHT_HI = 0;
  DIAGONAL_LO = 0;
  DIAGONAL_HI = 0;
  const pawns = pawnMaskBase(side);
  for (let bits = lo; bits !== 0; bits &= bits - 1)
    dangersFrom(b.cells, 31 - Math.clz32(bits & -bits), pawns, occLo, occHi);
  for (let bits = hi; bits !== 0; bits &= bits - 1)
    dangersFrom(b.cells, 63 - Math.clz32(bits & -bits), pawns, occLo, occHi);
}

function dangersFrom(cells: Int8Array, from: number, pawns: number, occLo: number, occHi: number): void {
  const role = Math.abs(cells[from]!);
  if (role === PAWN) addDanger(PAWN_MASKS, pawns + from * 2);
  else if (role === KNIGHT) addDanger(KNIGHT_MASKS, from * 2);
  else if (role === KING) addDanger(KING_MASKS, from * 2);
  else {
    slide(from, role === BISHOP ? 4 : 0, role === ROOK ? 4 : 8, occLo, occHi);
    DANGER_LO |= SLIDE.lo;
    DANGER_HI |= SLIDE.hi;
    if (role !== BISHOP) {
      STRAIGHT_LO |= bitLo(from);
      STRAIGHT_HI |= bitHi(from);
    }
    if (role !== ROOK) {
      DIAGONAL_LO |= bitLo(from);
      DIAGONAL_HI |= bitHi(from);
    }
  }
}

function addDanger(masks: Int32Array, at: number): void {
  DANGER_LO |= masks[at]!;
  DANGER_HI |= masks[at + 1]!;
}

/**
 * The squares a move of an unpinned piece other than the king must land on: all of them out of check; in
 * check the one checker's, and those between it and the king when it slides; none in double check (only
 * the king can answer it).
 */
let EVADE_LO = 0;
let EVADE_HI = 0;
const CHECKERS = new Int8Array(16);

function findEvasions(b: Position, king: number): void {
  EVADE_LO = -1;
  EVADE_HI = -1;
  if (!IN_CHECK) return;
  EVADE_LO = 0;
  EVADE_HI = 0;
  if (attackersOf(b.cells, king, -b.turn, CHECKERS) !== 1) return;
  const checker = CHECKERS[0]!;
  EVADE_LO = bitLo(checker);
  EVADE_HI = bitHi(checker);
  const role = Math.abs(b.cells[checker]!);
  if (role !== BISHOP && role !== ROOK && role !== QUEEN) return;
  for (let direction = 0; direction < 8; direction++) {
    const at = (king * 8 + direction) * 2;
    if ((RAY_MASKS[at]! & EVADE_LO) === 0 && (RAY_MASKS[at + 1]! & EVADE_HI) === 0) continue;
    const beyond = (checker * 8 + direction) * 2;
    EVADE_LO |= RAY_MASKS[at]! & ~RAY_MASKS[beyond]!;
    EVADE_HI |= RAY_MASKS[at + 1]! & ~RAY_MASKS[beyond + 1]!;
    return;
  }
}

/**
 * The side to move's pieces that stand alone between their king and an enemy slider on that line
 * (chessops' blockers), and for each the ray from the king it may move along (it stops at the slider).
 */
let PINNED_LO = 0;
let PINNED_HI = 0;
const PIN_RAYS = new Int32Array(128);

function findPins(king: number): void {
  PINNED_LO = 0;
  PINNED_HI = 0;
  const occLo = OWN_LO | ENEMY_LO;
  const occHi = OWN_HI | ENEMY_HI;
  for (let direction = 0; direction < 8; direction++) {
    const at = (king * 8 + direction) * 2;
    const slidersLo = direction < 4 ? STRAIGHT_LO : DIAGONAL_LO;
    const slidersHi = direction < 4 ? STRAIGHT_HI : DIAGONAL_HI;
    if ((RAY_MASKS[at]! & slidersLo) === 0 && (RAY_MASKS[at + 1]! & slidersHi) === 0) continue;
    const blocker = firstOnRay(king, direction, occLo, occHi);
    if (((OWN_LO & bitLo(blocker)) | (OWN_HI & bitHi(blocker))) === 0) continue;
    const behind = firstOnRay(blocker, direction, occLo, occHi);
    if (behind < 0 || ((slidersLo & bitLo(behind)) | (slidersHi & bitHi(behind))) === 0) continue;
    PINNED_LO |= bitLo(blocker);
    PINNED_HI |= bitHi(blocker);
    PIN_RAYS[blocker * 2] = RAY_MASKS[at]!;
    PIN_RAYS[blocker * 2 + 1] = RAY_MASKS[at + 1]!;
  }
}

/**
 * One piece's legal moves, in ascending target order. A king's step lands on no danger square; castling
 * follows canCastle; another piece's move lands on an evasion square and, pinned, on its pin ray; en
 * passant (it takes a pawn off a line) is played out.
 */
function movesFrom(b: Position, from: number, out: MoveCode[] | null): number {
  const role = Math.abs(b.cells[from]!);
  if (role === KING) {
    let lo = KING_MASKS[from * 2]! & ~OWN_LO & ~DANGER_LO;
    let hi = KING_MASKS[from * 2 + 1]! & ~OWN_HI & ~DANGER_HI;
    if (!IN_CHECK) {
      const rooks = b.turn === WHITE ? 0 : 2;
      for (let wing = 0; wing < 2; wing++) {
        const rook = CASTLING_ROOKS[rooks + wing]!;
        if (rook < 0 || !canCastle(b, from, rook, wing)) continue;
        lo |= bitLo(rook);
        hi |= bitHi(rook);
      }
    }
    return listed(from, lo, hi, false, out);
  }
  if (role === PAWN) pawnTargets(b, from);
  else if (role === KNIGHT) {
    TARGET_LO = KNIGHT_MASKS[from * 2]! & ~OWN_LO;
    TARGET_HI = KNIGHT_MASKS[from * 2 + 1]! & ~OWN_HI;
  } else {
    slide(from, role === BISHOP ? 4 : 0, role === ROOK ? 4 : 8, OWN_LO | ENEMY_LO, OWN_HI | ENEMY_HI);
    TARGET_LO = SLIDE.lo & ~OWN_LO;
    TARGET_HI = SLIDE.hi & ~OWN_HI;
  }
  let lo = TARGET_LO & EVADE_LO;
  let hi = TARGET_HI & EVADE_HI;
  if (((PINNED_LO & bitLo(from)) | (PINNED_HI & bitHi(from))) !== 0) {
    lo &= PIN_RAYS[from * 2]!;
    hi &= PIN_RAYS[from * 2 + 1]!;
  }
  if (role === PAWN && b.ep >= 0 && takesEnPassant(b, from) && leavesKingSafe(b, from, b.ep)) {
    lo |= bitLo(b.ep);
    hi |= bitHi(b.ep);
  }
  return listed(from, lo, hi, role === PAWN, out);
}

/** A piece's pseudo-legal targets (en passant apart), set by movesFrom and pawnTargets. */
let TARGET_LO = 0;
let TARGET_HI = 0;

/** A pawn's captures of enemy pieces and its pushes onto empty squares. */
function pawnTargets(b: Position, from: number): void {
  const side = b.turn;
  const attacks = pawnMaskBase(side) + from * 2;
  TARGET_LO = PAWN_MASKS[attacks]! & ENEMY_LO;
  TARGET_HI = PAWN_MASKS[attacks + 1]! & ENEMY_HI;
  const step = from + 8 * side;
  if (b.cells[step] !== 0) return;
  TARGET_LO |= bitLo(step);
  TARGET_HI |= bitHi(step);
  const doubleStep = step + 8 * side;
  const home = side === WHITE ? from < 16 : from >= 48;
  if (!home || b.cells[doubleStep] !== 0) return;
  TARGET_LO |= bitLo(doubleStep);
  TARGET_HI |= bitHi(doubleStep);
}

/** Whether the pawn on `from` attacks the en-passant square. */
function takesEnPassant(b: Position, from: number): boolean {
  const attacks = pawnMaskBase(b.turn) + from * 2;
  return ((PAWN_MASKS[attacks]! & bitLo(b.ep)) | (PAWN_MASKS[attacks + 1]! & bitHi(b.ep))) !== 0;
}

/** Appends the moves from `from` to each target, a pawn reaching the last rank once per promotion. */
function listed(from: number, lo: number, hi: number, pawn: boolean, out: MoveCode[] | null): number {
  if (out === null) return (lo | hi) === 0 ? 0 : 1;
  let count = 0;
  for (let bits = lo; bits !== 0; bits &= bits - 1)
    count += push(out, from, 31 - Math.clz32(bits & -bits), pawn);
  for (let bits = hi; bits !== 0; bits &= bits - 1)
    count += push(out, from, 63 - Math.clz32(bits & -bits), pawn);
  return count;
}

function push(out: MoveCode[], from: number, to: number, pawn: boolean): number {
  if (!pawn || (to >= 8 && to < 56)) {
    out.push(code(from, to, 0));
    return 1;
  }
  for (const promotion of PROMOTION_CODES) out.push(code(from, to, promotion));
  return PROMOTION_CODES.length;
}

/**
 * chessops' castlingDest, the king not in check: the squares both pieces cross or land on are empty (but
 * for the two themselves), the king crosses no attacked square, and does not land on one.
 */
function canCastle(b: Position, king: number, rook: number, wing: number): boolean {
  const rank = king & ~7;
  const kingTo = rank + (wing === 0 ? 2 : 6);
  const rookTo = rank + (wing === 0 ? 3 : 5);
  const low = Math.min(king, rook, kingTo, rookTo);
  const high = Math.max(king, rook, kingTo, rookTo);
  for (let square = low; square <= high; square++) {
    const crossed = between(rook, rookTo, square) || between(king, kingTo, square);
    const landed = square === kingTo || square === rookTo;
    if ((crossed || landed) && square !== king && square !== rook && b.cells[square] !== 0) return false;
  }
  const cells = b.cells;
  const kingPiece = cells[king]!;
  const rookPiece = cells[rook]!;
  cells[king] = 0;
  let safe = true;
  for (let square = Math.min(king, kingTo) + 1; square < Math.max(king, kingTo) && safe; square++)
    safe = !isAttacked(cells, square, -b.turn);
  const rookWas = cells[rookTo]!;
  cells[rook] = 0;
  cells[rookTo] = rookPiece;
  safe &&= !isAttacked(cells, kingTo, -b.turn);
  cells[rookTo] = rookWas;
  cells[rook] = rookPiece;
  cells[king] = kingPiece;
  return safe;
}

/** Whether `square` lies strictly between `a` and `b` on one rank. */
function between(a: number, b: number, square: number): boolean {
  return square > Math.min(a, b) && square < Math.max(a, b);
}

/**
 * Whether a piece of `by` attacks `square`, asked of the masks (mail-board's isAttacked walks the cells):
 * for positions whose masks are current, not for cells changed in place to try a move.
 */
function attackedOn(b: Position, square: number, by: number): boolean {
  const cells = b.cells;
  const byLo = by === WHITE ? b.whiteLo : b.blackLo;
  const byHi = by === WHITE ? b.whiteHi : b.blackHi;
  if (
    holds(cells, KNIGHT_MASKS, square * 2, byLo, byHi, KNIGHT * by) ||
    holds(cells, PAWN_MASKS, pawnMaskBase(-by) + square * 2, byLo, byHi, PAWN * by) ||
    holds(cells, KING_MASKS, square * 2, byLo, byHi, KING * by)
  )
    return true;
  const occLo = b.whiteLo | b.blackLo;
  const occHi = b.whiteHi | b.blackHi;
  for (let direction = 0; direction < 8; direction++) {
    const first = firstOnRay(square, direction, occLo, occHi);
    if (first < 0) continue;
    const piece = cells[first]! * by;
    if (piece === QUEEN || piece === (direction < 4 ? ROOK : BISHOP)) return true;
  }
  return false;
}

/** Whether `piece` stands on a square of the mask at `at` among the squares `lo`/`hi`. */
function holds(
  cells: Int8Array,
  masks: Int32Array,
  at: number,
  lo: number,
  hi: number,
  piece: number,
): boolean {
  for (let bits = masks[at]! & lo; bits !== 0; bits &= bits - 1)
    if (cells[31 - Math.clz32(bits & -bits)] === piece) return true;
  for (let bits = masks[at + 1]! & hi; bits !== 0; bits &= bits - 1)
    if (cells[63 - Math.clz32(bits & -bits)] === piece) return true;
  return false;
}

/** Whether the side to move playing from -> to (en passant included) leaves its king unattacked. */
function leavesKingSafe(b: Position, from: number, to: number): boolean {
  const cells = b.cells;
  const side = b.turn;
  const mover = cells[from]!;
  const taken = cells[to]!;
  const victim = Math.abs(mover) === PAWN && to === b.ep ? to - 8 * side : -1;
  const victimPiece = victim >= 0 ? cells[victim]! : 0;
  cells[from] = 0;
  cells[to] = mover;
  if (victim >= 0) cells[victim] = 0;
  const king = Math.abs(mover) === KING ? to : b.kingOf(side);
  const safe = !isAttacked(cells, king, -side);
  cells[from] = mover;
  cells[to] = taken;
  if (victim >= 0) cells[victim] = victimPiece;
  return safe;
}

// --- writing moves ---------------------------------------------------------------------------------------

const FILES = 'abcdefgh';
const SQUARE_NAMES = Array.from({ length: 64 }, (_, square) => `${FILES[square & 7]}${(square >> 3) + 1}`);
/** UCI's promotion letters and SAN's piece letters, by piece code. */
const UCI_LETTER = ['', 'p', 'n', 'b', 'r', 'q', 'k'];
const SAN_LETTER = ['', '', 'N', 'B', 'R', 'Q', 'K'];

function castlingWing(b: Position, move: MoveCode): 'a' | 'h' | undefined {
  const from = fromOf(move);
  const to = toOf(move);
  const target = b.cells[to]!;
  if (Math.abs(b.cells[from]!) !== KING || target === 0 || sign(target) !== b.turn) return undefined;
  return to > from ? 'h' : 'a';
}

/** Wire UCI: castling as the king's two-square move (e1g1). */
function uciOf(b: Position, move: MoveCode): string {
  const from = fromOf(move);
  const wing = castlingWing(b, move);
  const to = wing === undefined ? toOf(move) : (from & ~7) + (wing === 'a' ? 2 : 6);
  return `${SQUARE_NAMES[from]}${SQUARE_NAMES[to]}${UCI_LETTER[promotionOf(move)]}`;
}

/** SAN with its check or mate suffix, as chess.ts writes it. */
function sanOf(b: Position, move: MoveCode): string {
  const body = sanBody(b, move);
  AFTER.copy(b);
  playOn(AFTER, move, castlingWing(b, move));
  if (!attackedOn(AFTER, AFTER.kingOf(AFTER.turn), -AFTER.turn)) return body;
  return generate(AFTER, null) > 0 ? `${body}+` : `${body}#`;
}

function sanBody(b: Position, move: MoveCode): string {
  const wing = castlingWing(b, move);
  if (wing !== undefined) return wing === 'h' ? 'O-O' : 'O-O-O';
  const from = fromOf(move);
  const to = toOf(move);
  const role = Math.abs(b.cells[from]!);
  const capture = b.cells[to] !== 0 || (role === PAWN && (from & 7) !== (to & 7));
  let san = role === PAWN ? (capture ? FILES[from & 7]! : '') : SAN_LETTER[role]! + disambiguation(b, move);
  if (capture) san += 'x';
  san += SQUARE_NAMES[to]!;
  if (promotionOf(move) !== 0) san += `=${SAN_LETTER[promotionOf(move)]!}`;
  return san;
}

/**
 * The from-file, from-rank or both when another piece of the same kind can also legally reach the target:
 * the file when it tells them apart, else the rank, else both (chessops' rule). Rivals are found among the
 * position's legal moves, read just before.
 */
function disambiguation(b: Position, move: MoveCode): string {
  const from = fromOf(move);
  const to = toOf(move);
  const role = Math.abs(b.cells[from]!);
  if (role === KING) return '';
  let rivals = false;
  let sameFile = false;
  let sameRank = false;
  for (const other of MOVES) {
    const rival = fromOf(other);
    if (toOf(other) !== to || rival === from || Math.abs(b.cells[rival]!) !== role) continue;
    rivals = true;
    sameFile ||= (rival & 7) === (from & 7);
    sameRank ||= rival >> 3 === from >> 3;
  }
  if (!rivals) return '';
  const file = !sameFile || sameRank ? FILES[from & 7]! : '';
  return sameFile ? `${file}${(from >> 3) + 1}` : file;
}

/** Plays a legal move on `b` as chessops' `play` does: castling, en passant, a double step's target, promotion. */
function playOn(b: Position, move: MoveCode, wing: 'a' | 'h' | undefined): void {
  const side = b.turn;
  const from = fromOf(move);
  const to = toOf(move);
  const piece = b.cells[from]!;
  const ep = b.ep;
  b.turn = -side;
  b.ep = -1;
  b.put(from, 0);
  if (wing !== undefined) {
    const rank = from & ~7;
    b.put(to, 0);
    b.put(rank + (wing === 'a' ? 2 : 6), piece);
    b.put(rank + (wing === 'a' ? 3 : 5), ROOK * side);
    b.setKing(side, rank + (wing === 'a' ? 2 : 6));
    return;
  }
  if (Math.abs(piece) === PAWN) {
    if (to === ep) b.put(to - 8 * side, 0);
    if (Math.abs(to - from) === 16 && from >= 8 && from <= 55) b.ep = (from + to) >> 1;
  }
  b.put(to, promotionOf(move) === 0 ? piece : promotionOf(move) * side);
  if (Math.abs(piece) === KING) b.setKing(side, to);
}

// --- reading the FEN -------------------------------------------------------------------------------------

/**
 * What each character means in a placement: a FEN letter its piece code, a digit DIGIT_CLASS plus its
 * value, the slash and the space their classes, anything else NOT_PLACEMENT.
 */
const SLASH_CLASS = 7;
const SPACE_CLASS = 8;
const DIGIT_CLASS = 10;
const NOT_PLACEMENT = -100;
const SPACE = 32;
const SLASH = 47;
const DIGIT_ZERO = 48;
const CHAR_CLASS = charClasses();
const LETTER_A = 97;

/** Where each of the six fields of the FEN being read ends: the index of the space after it. */
const FIELD_ENDS = new Int32Array(6);

/**
 * Reads the six plain fields the platform writes into `b` and CASTLING_ROOKS, in place (a split and its
 * strings for every turn were most of a turn's reading). False for anything else, and for what chessops
 * would refuse (kings, pawns on a back rank, the side not to move in check) or read otherwise (castling that
 * is not the standard king and corner rook).
 */
function readFen(b: Position, fen: string): boolean {
  if (!readPlacement(b, fen) || !splitFields(fen) || !isCounter(fen, 4) || !isCounter(fen, 5)) return false;
  const turn = fieldLength(1) === 1 ? fen.charCodeAt(fieldStart(1)) : 0;
  if (turn !== 119 && turn !== 98) return false; // w, b
  b.turn = turn === 119 ? WHITE : BLACK;
  return isSetUp(b) && readCastling(b, fen) && readEnPassant(b, fen);
}

/** The ends of the fields after the placement (whose end readPlacement found): the text is read once. */
function splitFields(fen: string): boolean {
  let field = 1;
  for (let i = FIELD_ENDS[0]! + 1; i < fen.length; i++) {
    if (fen.charCodeAt(i) !== SPACE) continue;
    if (field === 5) return false;
    FIELD_ENDS[field++] = i;
  }
  FIELD_ENDS[5] = fen.length;
  return field === 5;
}

function fieldStart(field: number): number {
  return field === 0 ? 0 : FIELD_ENDS[field - 1]! + 1;
}

function fieldLength(field: number): number {
  return FIELD_ENDS[field]! - fieldStart(field);
}

/** One to four digits, as chessops' plain reader takes a move counter. */
function isCounter(fen: string, field: number): boolean {
  if (fieldLength(field) < 1 || fieldLength(field) > 4) return false;
  for (let i = fieldStart(field); i < FIELD_ENDS[field]!; i++) {
    const char = fen.charCodeAt(i);
    if (char < DIGIT_ZERO || char > DIGIT_ZERO + 9) return false;
  }
  return true;
}

/**
 * Ranks 8 to 1, files a to h up to the first space (noted as the placement's end): eight ranks of eight
 * squares each, or false. Every square is written (a digit's run as empty cells), so nothing is cleared
 * first; each side's pieces are noted as masks, and kings counted, as they are placed. Each character is
 * told by one table (CHAR_CLASS): the order of pieces and digits is what the branches cannot predict.
 */
function readPlacement(b: Position, fen: string): boolean {
  const cells = b.cells;
  let whiteLo = 0;
  let whiteHi = 0;
  let blackLo = 0;
  let blackHi = 0;
  let kings = 0;
  let rank = 7;
  let file = 0;
  for (let i = 0; i < fen.length; i++) {
    const char = fen.charCodeAt(i);
    const piece = char < 128 ? CHAR_CLASS[char]! : NOT_PLACEMENT;
    if (piece >= -KING && piece <= KING) {
      if (piece === 0 || file === 8) return false;
      const square = rank * 8 + file++;
      const bit = 1 << square; // a shift counts modulo 32: the bit within its word
      cells[square] = piece;
      if (piece > 0) {
        if (rank < 4) whiteLo |= bit;
        else whiteHi |= bit;
        if (piece === KING) {
          kings += 1;
          b.whiteKing = square;
        } else if (piece === PAWN && (rank === 0 || rank === 7)) return false; // chessops refuses it
      } else {
        if (rank < 4) blackLo |= bit;
        else blackHi |= bit;
        if (piece === -KING) {
          kings += KING_COUNT_BASE;
          b.blackKing = square;
        } else if (piece === -PAWN && (rank === 0 || rank === 7)) return false;
      }
    } else if (piece > DIGIT_CLASS) {
      const end = file + piece - DIGIT_CLASS;
      if (end > 8) return false;
      while (file < end) cells[rank * 8 + file++] = 0;
    } else if (piece === SLASH_CLASS) {
      if (file !== 8 || rank === 0) return false;
      rank--;
      file = 0;
    } else if (piece === SPACE_CLASS) {
      FIELD_ENDS[0] = i;
      b.whiteLo = whiteLo;
      b.whiteHi = whiteHi;
      b.blackLo = blackLo;
      b.blackHi = blackHi;
      return rank === 0 && file === 8 && kings === ONE_KING_EACH;
    } else return false;
  }
  return false; // no field follows
}

/**
 * Kings are counted in one number, a Black king as KING_COUNT_BASE and a White one as 1: one of each makes
 * ONE_KING_EACH, and (as the placement has 64 squares) no other mix does.
 */
const KING_COUNT_BASE = 100;
const ONE_KING_EACH = KING_COUNT_BASE + 1;

function charClasses(): Int8Array {
  const classes = new Int8Array(128).fill(NOT_PLACEMENT);
  for (const [at, letter] of ['P', 'N', 'B', 'R', 'Q', 'K'].entries()) {
    classes[letter.charCodeAt(0)] = at + 1;
    classes[letter.toLowerCase().charCodeAt(0)] = -(at + 1);
  }
  for (let digit = 1; digit <= 8; digit++) classes[DIGIT_ZERO + digit] = DIGIT_CLASS + digit;
  classes[SLASH] = SLASH_CLASS;
  classes[SPACE] = SPACE_CLASS;
  return classes;
}

/** The side not to move not in check (readPlacement saw one king a side and no pawn on a back rank: chessops' validate). */
function isSetUp(b: Position): boolean {
  return !attackedOn(b, b.kingOf(-b.turn), b.turn);
}

/** The castling letters by CASTLING_ROOKS' index: Q, K, q, k. */
const CASTLING_LETTERS = [81, 75, 113, 107];

/** KQkq rights of a king on e1/e8 with rooks in the corners; anything else is left to chessops. */
function readCastling(b: Position, fen: string): boolean {
  CASTLING_ROOKS.fill(-1);
  if (fieldLength(2) === 1 && fen.charCodeAt(fieldStart(2)) === 45) return true; // -
  for (let i = fieldStart(2); i < FIELD_ENDS[2]!; i++) {
    const at = CASTLING_LETTERS.indexOf(fen.charCodeAt(i));
    if (at < 0 || CASTLING_ROOKS[at]! >= 0) return false;
    const side = at < 2 ? WHITE : BLACK;
    const rank = side === WHITE ? 0 : 56;
    const rook = rank + (at % 2 === 0 ? 0 : 7);
    if (b.cells[rank + 4] !== KING * side || b.cells[rook] !== ROOK * side) return false;
    CASTLING_ROOKS[at] = rook;
  }
  return fieldLength(2) > 0;
}

/** The en-passant square, kept only when a pawn just stepped over it (chessops drops it otherwise). */
function readEnPassant(b: Position, fen: string): boolean {
  b.ep = -1;
  const start = fieldStart(3);
  if (fieldLength(3) === 1 && fen.charCodeAt(start) === 45) return true; // -
  const file = fen.charCodeAt(start) - LETTER_A;
  const rank = fen.charCodeAt(start + 1) - DIGIT_ZERO - 1;
  if (fieldLength(3) !== 2 || file < 0 || file > 7 || rank < 0 || rank > 7) return false;
  const square = rank * 8 + file;
  const forward = 8 * b.turn;
  const rankOk = rank === (b.turn === WHITE ? 5 : 2);
  if (rankOk && b.cells[square + forward] === 0 && b.cells[square - forward] === -PAWN * b.turn)
    b.ep = square;
  return true;
}
