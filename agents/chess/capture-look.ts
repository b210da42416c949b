/**
 * The static one-move look of chess-eval.ts (what a move wins, less what the opponent can then win with one
 * capture) worked out on boards of 64 signed bytes (mail-board.ts) that are reused from call to call.
 * chessops answers each attack question with new square sets, and the cautious persona asks some thousands
 * of them a move: that was a quarter of everything a crowd run allocated. Here nothing is allocated.
 *
 * A move is legal when, played out, it leaves the mover's king unattacked. chessops decides the same by
 * checkers and pinned pieces, which is equivalent; test/property/capture-look.test.ts holds this look equal
 * to the chessops one on many random positions.
 */
import type { Move, Role } from 'chessops';
import { castlingSide, type Chess } from 'chessops/chess';
import { isNormal } from 'chessops/types';
import { kingCastlesTo, rookCastlesTo } from 'chessops/util';
import {
  attackersOf,
  CODE,
  isAttacked,
  KING,
  loadPosition,
  MailBoard,
  PAWN,
  pawnAttackersOf,
  QUEEN,
  ROLES,
  sign,
  WHITE,
} from './mail-board.js';
import { fromOf, promotionOf, toOf, type MoveCode, type TurnMoves } from './fen-moves.js';

/** The classical values, in pawns; the king is never captured, so it is worth nothing here. */
export const PIECE_VALUE: Readonly<Record<Role, number>> = {
  pawn: 1,
  knight: 3,
  bishop: 3,
  rook: 5,
  queen: 9,
  king: 0,
};

const VALUE: readonly number[] = [0, ...ROLES.map((role) => PIECE_VALUE[role])];
/** The loss of an illegal move: everything, so it is never the best. */
const ILLEGAL = Infinity;

/** The position before the move looked at, and after it (the opponent to move). */
const BEFORE = new MailBoard();
const AFTER = new MailBoard();

/**
 * A legal move's balance: what it wins now (`gainNow`, chess-eval's materialGain) less what the opponent
 * can then win with its best single capture or promotion.
 */
export function netGainOf(pos: Chess, move: Move, gainNow: number): number {
  loadPosition(BEFORE, pos);
  AFTER.copy(BEFORE);
  playOn(AFTER, pos, move);
  return gainNow - bestWinOn(AFTER);
}

/**
 * What a legal move of a turn read by fen-moves.ts wins on the spot, as chess-eval's materialGain: the
 * enemy piece it takes (a pawn for en passant; castling takes its own rook, nothing) plus what a promotion
 * adds over the pawn.
 */
export function gainOfMove(turn: TurnMoves, move: MoveCode): number {
  const b = turn.board;
  const from = fromOf(move);
  const to = toOf(move);
  const target = b.cells[to]!;
  let taken = 0;
  if (target !== 0) taken = sign(target) === b.turn ? 0 : VALUE[Math.abs(target)]!;
  else if (to === b.ep && Math.abs(b.cells[from]!) === PAWN) taken = VALUE[PAWN]!;
  const promotion = promotionOf(move);
  return taken + (promotion === 0 ? 0 : VALUE[promotion]! - VALUE[PAWN]!);
}

/** netGainOf for a legal move of a turn read by fen-moves.ts, on its boards (no chessops position is made). */
export function netGainOfMove(turn: TurnMoves, move: MoveCode): number {
  const after = turn.after(move);
  turn.attackedPiecesAfter(ATTACKED);
  return gainOfMove(turn, move) - bestWinOn(after, ATTACKED.lo, ATTACKED.hi);
}

/** The mover's pieces its opponent attacks after a move netGainOfMove looks at. */
const ATTACKED = { lo: 0, hi: 0 };

/** What the side to move in `pos` wins by its best single capture or promotion (chess-eval's bestOneMoveWin). */
export function bestWinOf(pos: Chess): number {
  loadPosition(BEFORE, pos);
  return bestWinOn(BEFORE);
}

// --- the look --------------------------------------------------------------------------------------------

/** Attackers found on a square, by the question they answer (a recapture is asked inside a capture). */
const CAPTURERS = new Int8Array(16);
const RECAPTURERS = new Int8Array(16);

/**
 * The best of the side to move's gainful moves: a capture of a piece other than the king (its value, and the
 * queen's gain over the pawn when a pawn takes on the last rank), en passant, a pawn pushed to promote. Each
 * nets its gain less the moved piece when the other side can legally take it back on that square. A move
 * that cannot beat the best so far is not tried, so its legality is never asked (and the best does not
 * depend on the order of the tries). Captures are looked for only on the squares `targetsLo`/`targetsHi`
 * (all, when not given): most pieces stand where nothing attacks them, and a sweep of the mover's attacks
 * is cheaper than asking each square who attacks it.
 */
function bestWinOn(b: MailBoard, targetsLo = -1, targetsHi = -1): number {
  let best = 0;
  for (let bits = targetsLo; bits !== 0; bits &= bits - 1)
    best = bestCaptureOn(b, 31 - Math.clz32(bits & -bits), best);
  for (let bits = targetsHi; bits !== 0; bits &= bits - 1)
    best = bestCaptureOn(b, 63 - Math.clz32(bits & -bits), best);
  best = Math.max(best, bestEnPassant(b, best));
  return Math.max(best, bestPromotionPush(b, best));
}

/** The best so far, or a capture of the piece on `to` that beats it. */
function bestCaptureOn(b: MailBoard, to: number, best: number): number {
  const target = b.cells[to]!;
  if (target === 0 || sign(target) === b.turn || Math.abs(target) === KING) return best;
  const count = attackersOf(b.cells, to, b.turn, CAPTURERS);
  for (let i = 0; i < count; i++) {
    const from = CAPTURERS[i]!;
    const landing = promotes(b.cells[from]!, to) ? QUEEN : Math.abs(b.cells[from]!);
    const gain = VALUE[Math.abs(target)]! + VALUE[landing]! - VALUE[Math.abs(b.cells[from]!)]!;
    if (gain > best) best = Math.max(best, gain - lossAfter(b, from, to, -1, landing));
  }
  return best;
}

function bestEnPassant(b: MailBoard, best: number): number {
  const gain = VALUE[PAWN]!;
  if (b.ep < 0 || gain <= best) return best;
  const victim = b.ep - 8 * b.turn;
  const count = pawnAttackersOf(b.cells, b.ep, b.turn, CAPTURERS, 0);
  for (let i = 0; i < count; i++)
    best = Math.max(best, gain - lossAfter(b, CAPTURERS[i]!, b.ep, victim, PAWN));
  return best;
}

/** A pawn one step from the last rank pushed onto an empty square there, as a queen. */
function bestPromotionPush(b: MailBoard, best: number): number {
  const gain = VALUE[QUEEN]! - VALUE[PAWN]!;
  if (gain <= best) return best;
  const rank = b.turn === WHITE ? 6 : 1;
  for (let from = rank * 8; from < rank * 8 + 8; from++) {
    const to = from + 8 * b.turn;
    if (b.cells[from] === PAWN * b.turn && b.cells[to] === 0)
      best = Math.max(best, gain - lossAfter(b, from, to, -1, QUEEN));
  }
  return best;
}

/**
 * What the side to move loses on `to` by playing from -> to (taking `victim` too when it is not -1, for en
 * passant), the piece landing as `landing`: its value when the other side can legally take it there, 0 when
 * not. ILLEGAL when the move itself is.
 */
function lossAfter(b: MailBoard, from: number, to: number, victim: number, landing: number): number {
  const cells = b.cells;
  const side = b.turn;
  const mover = cells[from]!;
  const taken = cells[to]!;
  const victimPiece = victim >= 0 ? cells[victim]! : 0;
  cells[from] = 0;
  cells[to] = landing * side;
  if (victim >= 0) cells[victim] = 0;
  if (Math.abs(mover) === KING) b.setKing(side, to);
  const legal = !isAttacked(cells, b.kingOf(side), -side);
  const retaken = legal && canCaptureOn(b, to, -side);
  cells[from] = mover;
  cells[to] = taken;
  if (victim >= 0) cells[victim] = victimPiece;
  if (Math.abs(mover) === KING) b.setKing(side, from);
  if (!legal) return ILLEGAL;
  return retaken ? VALUE[landing]! : 0;
}

/** Whether `side` has a legal capture on `square` (which holds a piece of the other side). */
function canCaptureOn(b: MailBoard, square: number, side: number): boolean {
  const count = attackersOf(b.cells, square, side, RECAPTURERS);
  for (let i = 0; i < count; i++) if (leavesKingSafe(b, RECAPTURERS[i]!, square, side)) return true;
  return false;
}

/** Whether `side` capturing from -> to leaves its king unattacked. */
function leavesKingSafe(b: MailBoard, from: number, to: number, side: number): boolean {
  const cells = b.cells;
  const mover = cells[from]!;
  const taken = cells[to]!;
  cells[from] = 0;
  cells[to] = mover;
  const king = Math.abs(mover) === KING ? to : b.kingOf(side);
  const safe = !isAttacked(cells, king, -side);
  cells[from] = mover;
  cells[to] = taken;
  return safe;
}

function promotes(piece: number, to: number): boolean {
  return Math.abs(piece) === PAWN && (to < 8 || to >= 56);
}

// --- the board -------------------------------------------------------------------------------------------

/** Plays a legal move of `pos` on `b` (a copy of it) as chessops' `play` does: castling, en passant, promotion. */
function playOn(b: MailBoard, pos: Chess, move: Move): void {
  if (!isNormal(move)) throw new Error('the capture look plays board moves only');
  const side = b.turn;
  const castling = castlingSide(pos, move);
  b.turn = -side;
  b.ep = -1;
  if (castling) {
    castle(b, side, move.from, pos.castles.rook[pos.turn][castling]!, castling);
    return;
  }
  const piece = b.cells[move.from]!;
  if (Math.abs(piece) === PAWN) {
    if (move.to === pos.epSquare) b.cells[move.to - 8 * side] = 0;
    if (Math.abs(move.from - move.to) === 16 && move.from >= 8 && move.from <= 55)
      b.ep = (move.from + move.to) >> 1;
  }
  b.cells[move.from] = 0;
  b.cells[move.to] = move.promotion ? CODE[move.promotion] * side : piece;
  if (Math.abs(piece) === KING) b.setKing(side, move.to);
}

function castle(b: MailBoard, side: number, kingFrom: number, rookFrom: number, wing: 'a' | 'h'): void {
  const color = side === WHITE ? 'white' : 'black';
  const king = b.cells[kingFrom]!;
  const rook = b.cells[rookFrom]!;
  b.cells[kingFrom] = 0;
  b.cells[rookFrom] = 0;
  b.cells[kingCastlesTo(color, wing)] = king;
  if (rook !== 0) b.cells[rookCastlesTo(color, wing)] = rook;
  b.setKing(side, kingCastlesTo(color, wing));
}
