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
 * decide the same). Only en passant and a pinned piece's moves are played out: a king's step is judged
 * against one sweep of the other side's attacks, and in check another piece's move against the checker's
 * square and line (see isLegal); castling follows chessops' castlingDest. Only the plain FEN the platform writes is read
 * here; anything else is left to chessops (`turnMoves` answers undefined).
 *
 * Each turn is read afresh, with no board kept per game: a my-turn row carries no last move, so the
 * opponent's move is known only from this same text, and a kept board patched square by square from it was
 * no faster than the read (issue 32, measured); reading is about a sixth of a turn, generating the rest.
 */
import { PROMOTIONS } from '../../src/rules/chess/chess.js';
import {
  attackersOf,
  BISHOP,
  BLACK,
  CODE,
  QUEEN,
  firstPieceOnRay,
  isAttacked,
  KING,
  KING_STEPS,
  KNIGHT,
  KNIGHT_STEPS,
  MailBoard,
  PAWN,
  RAYS,
  ROOK,
  sign,
  WHITE,
} from './mail-board.js';

/** A legal move as a number: from, to (the rook's square for castling) and the promotion's piece code. */
export type MoveCode = number;

/** The moves of the position last read, and their spellings. Valid until the next `turnMoves`. */
export interface TurnMoves {
  readonly moves: readonly MoveCode[];
  uci(move: MoveCode): string;
  san(move: MoveCode): string;
}

/** The legal moves of a plain FEN's position, or undefined when the text is not the platform's plain form. */
export function turnMoves(fen: string): TurnMoves | undefined {
  if (!readFen(POSITION, fen)) return undefined;
  MOVES.length = 0;
  generate(POSITION, MOVES);
  return TURN;
}

const POSITION = new MailBoard();
/** Castling rooks of the position read, by side (White, Black) and wing (a, h); -1 for none. */
const CASTLING_ROOKS = new Int8Array(4);
const MOVES: MoveCode[] = [];
/** The position after a move, to judge check and mate for SAN. */
const AFTER = new MailBoard();

const TURN: TurnMoves = {
  moves: MOVES,
  uci: (move) => uciOf(POSITION, move),
  san: (move) => sanOf(POSITION, move),
};

const fromOf = (move: MoveCode): number => move & 63;
const toOf = (move: MoveCode): number => (move >> 6) & 63;
const promotionOf = (move: MoveCode): number => move >> 12;
const code = (from: number, to: number, promotion: number): MoveCode => from | (to << 6) | (promotion << 12);

// --- legal moves ---------------------------------------------------------------------------------------

/**
 * A set of squares as two 32-bit words (squares 0-31 and 32-63), the form every set of this module takes:
 * kept in module-level instances and cleared per position, so listing moves allocates none.
 */
class SquareBits {
  lo = 0;
  hi = 0;

  clear(): void {
    this.lo = 0;
    this.hi = 0;
  }

  add(square: number): void {
    if (square < 32) this.lo |= 1 << square;
    else this.hi |= 1 << (square - 32);
  }

  has(square: number): boolean {
    return square < 32 ? (this.lo & (1 << square)) !== 0 : (this.hi & (1 << (square - 32))) !== 0;
  }
}

/** Piece codes in legalMoves' promotion order. */
const PROMOTION_CODES = PROMOTIONS.map((role) => CODE[role]);

/**
 * The side to move's legal moves, appended to `out` in legalMoves' order; with `out` null, stops at the
 * first. Returns how many were found.
 */
function generate(b: MailBoard, out: MoveCode[] | null): number {
  let count = 0;
  const king = b.kingOf(b.turn);
  findPins(b);
  findDangers(b, king);
  // The king's own square is attacked alike with the king on it or off it.
  IN_CHECK = DANGER.has(king);
  if (IN_CHECK) findEvasions(b, king);
  for (let bits = OWN.lo; bits !== 0 && (out !== null || count === 0); bits &= bits - 1)
    count += movesFrom(b, 31 - Math.clz32(bits & -bits), out);
  for (let bits = OWN.hi; bits !== 0 && (out !== null || count === 0); bits &= bits - 1)
    count += movesFrom(b, 63 - Math.clz32(bits & -bits), out);
  return count;
}

function movesFrom(b: MailBoard, from: number, out: MoveCode[] | null): number {
  targetsOf(b, from);
  return legalFrom(b, from, out);
}

/** Whether the side to move, in the position `generate` lists, is in check. */
let IN_CHECK = false;
/** Its pieces that stand alone between their king and an enemy slider on that line (chessops' blockers). */
const PINNED = new SquareBits();

function findPins(b: MailBoard): void {
  PINNED.clear();
  const king = b.kingOf(b.turn);
  for (let direction = 0; direction < 8; direction++) {
    const blocker = firstPieceOnRay(b.cells, king, direction);
    if (blocker < 0 || sign(b.cells[blocker]!) !== b.turn) continue;
    const behind = firstPieceOnRay(b.cells, blocker, direction);
    if (behind < 0 || sign(b.cells[behind]!) === b.turn) continue;
    const role = Math.abs(b.cells[behind]!);
    if (role !== QUEEN && role !== (direction < 4 ? ROOK : BISHOP)) continue;
    PINNED.add(blocker);
  }
}

/**
 * The squares the other side attacks with the mover's king off the board (a king stepping along a
 * slider's line stays on it): a king's step is legal when it lands on none of them. One sweep of the other
 * side's pieces instead of an attack test for each of the king's targets, most of a turn's tests.
 */
const DANGER = new SquareBits();
/** The mover's own pieces, noted by the same sweep: its moves are listed from them, by ascending square. */
const OWN = new SquareBits();

function findDangers(b: MailBoard, king: number): void {
  DANGER.clear();
  OWN.clear();
  const cells = b.cells;
  const enemy = -b.turn;
  const kingPiece = cells[king]!;
  cells[king] = 0;
  OWN.add(king);
  for (let square = 0; square < 64; square++) {
    const piece = cells[square]!;
    if (piece === 0) continue;
    if (sign(piece) !== enemy) {
      OWN.add(square);
      continue;
    }
    const role = Math.abs(piece);
    if (role === PAWN) pawnDangers(square, enemy);
    else if (role === KNIGHT) leapDangers(square, KNIGHT_STEPS);
    else if (role === KING) leapDangers(square, KING_STEPS);
    else slideDangers(cells, square, role === BISHOP ? 4 : 0, role === ROOK ? 4 : 8);
  }
  cells[king] = kingPiece;
}

function pawnDangers(from: number, side: number): void {
  const step = from + 8 * side;
  if (step < 0 || step > 63) return;
  if ((from & 7) > 0) DANGER.add(step - 1);
  if ((from & 7) < 7) DANGER.add(step + 1);
}

function leapDangers(from: number, steps: Int8Array): void {
  for (let i = from * 8; i < from * 8 + 8; i++) {
    const to = steps[i]!;
    if (to < 0) break;
    DANGER.add(to);
  }
}

/** Each ray up to and with its first piece, whichever side's: a defended piece is no safe capture. */
function slideDangers(cells: Int8Array, from: number, firstDirection: number, lastDirection: number): void {
  for (let direction = firstDirection; direction < lastDirection; direction++) {
    const start = (from * 8 + direction) * 7;
    for (let i = start; i < start + 7; i++) {
      const to = RAYS[i]!;
      if (to < 0) break;
      DANGER.add(to);
      if (cells[to] !== 0) break;
    }
  }
}

/**
 * In check, the squares a move of an unpinned piece other than the king must land on: the one checker's,
 * and those between it and the king when it slides; none in double check (only the king can answer it).
 */
const EVASIONS = new SquareBits();
const CHECKERS = new Int8Array(16);

function findEvasions(b: MailBoard, king: number): void {
  EVASIONS.clear();
  if (attackersOf(b.cells, king, -b.turn, CHECKERS) !== 1) return;
  const checker = CHECKERS[0]!;
  EVASIONS.add(checker);
  const role = Math.abs(b.cells[checker]!);
  if (role !== BISHOP && role !== ROOK && role !== QUEEN) return;
  for (let direction = 0; direction < 8; direction++) {
    if (firstPieceOnRay(b.cells, king, direction) !== checker) continue;
    const start = (king * 8 + direction) * 7;
    for (let i = start; RAYS[i] !== checker; i++) EVASIONS.add(RAYS[i]!);
    return;
  }
}

/** The pseudo-legal targets of one piece. */
const TARGETS = new SquareBits();

function targetsOf(b: MailBoard, from: number): void {
  TARGETS.clear();
  const role = Math.abs(b.cells[from]!);
  if (role === PAWN) pawnTargets(b, from);
  else if (role === KNIGHT) leapTargets(b, from, KNIGHT_STEPS);
  else if (role === KING) kingTargets(b, from);
  else slideTargets(b, from, role === BISHOP ? 4 : 0, role === ROOK ? 4 : 8);
}

function pawnTargets(b: MailBoard, from: number): void {
  const side = b.turn;
  const step = from + 8 * side;
  if ((from & 7) > 0) pawnCapture(b, step - 1);
  if ((from & 7) < 7) pawnCapture(b, step + 1);
  if (step < 0 || step > 63 || b.cells[step] !== 0) return;
  TARGETS.add(step);
  const doubleStep = step + 8 * side;
  const home = side === WHITE ? from < 16 : from >= 48;
  if (home && b.cells[doubleStep] === 0) TARGETS.add(doubleStep);
}

/** A pawn takes diagonally an enemy piece, or the en-passant square. */
function pawnCapture(b: MailBoard, to: number): void {
  if (to < 0 || to > 63) return;
  const target = b.cells[to]!;
  if ((target !== 0 && sign(target) !== b.turn) || to === b.ep) TARGETS.add(to);
}

function leapTargets(b: MailBoard, from: number, steps: Int8Array): void {
  for (let i = from * 8; i < from * 8 + 8; i++) {
    const to = steps[i]!;
    if (to < 0) break;
    if (b.cells[to] === 0 || sign(b.cells[to]!) !== b.turn) TARGETS.add(to);
  }
}

function slideTargets(b: MailBoard, from: number, firstDirection: number, lastDirection: number): void {
  for (let direction = firstDirection; direction < lastDirection; direction++) {
    const stop = firstPieceOnRay(b.cells, from, direction);
    const start = (from * 8 + direction) * 7;
    for (let i = start; i < start + 7; i++) {
      const to = RAYS[i]!;
      if (to < 0 || to === stop) break;
      TARGETS.add(to);
    }
    if (stop >= 0 && sign(b.cells[stop]!) !== b.turn) TARGETS.add(stop);
  }
}

function kingTargets(b: MailBoard, from: number): void {
  leapTargets(b, from, KING_STEPS);
  const side = b.turn;
  if (IN_CHECK) return; // the king stands on `from`
  for (let wing = 0; wing < 2; wing++) {
    const rook = CASTLING_ROOKS[(side === WHITE ? 0 : 2) + wing]!;
    if (rook >= 0 && canCastle(b, from, rook, wing)) TARGETS.add(rook);
  }
}

/**
 * chessops' castlingDest, the king not in check: the squares both pieces cross or land on are empty (but
 * for the two themselves), the king crosses no attacked square, and does not land on one.
 */
function canCastle(b: MailBoard, king: number, rook: number, wing: number): boolean {
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

/** The legal moves among one piece's TARGETS, in ascending target order. */
function legalFrom(b: MailBoard, from: number, out: MoveCode[] | null): number {
  let count = 0;
  for (let bits = TARGETS.lo; bits !== 0 && (out !== null || count === 0); bits &= bits - 1)
    count += legalTo(b, from, 31 - Math.clz32(bits & -bits), out);
  for (let bits = TARGETS.hi; bits !== 0 && (out !== null || count === 0); bits &= bits - 1)
    count += legalTo(b, from, 63 - Math.clz32(bits & -bits), out);
  return count;
}

function legalTo(b: MailBoard, from: number, to: number, out: MoveCode[] | null): number {
  const piece = b.cells[from]!;
  if (!isLegal(b, from, to)) return 0;
  const promotes = Math.abs(piece) === PAWN && (to < 8 || to >= 56);
  if (!promotes) {
    out?.push(code(from, to, 0));
    return 1;
  }
  if (out !== null) for (const promotion of PROMOTION_CODES) out.push(code(from, to, promotion));
  return PROMOTION_CODES.length;
}

/**
 * Whether a pseudo-legal move (castling already checked by canCastle) leaves the mover's king unattacked.
 * A king's step lands on no danger square; en passant (it takes a pawn off a line) and a pinned piece's
 * move are played out; any other move opens no line to its king, so out of check it is legal, and in check
 * it must take the checker or block its line.
 */
function isLegal(b: MailBoard, from: number, to: number): boolean {
  const piece = Math.abs(b.cells[from]!);
  if (piece === KING) {
    const target = b.cells[to]!;
    const castles = target !== 0 && sign(target) === b.turn;
    return castles || !DANGER.has(to);
  }
  if ((piece === PAWN && to === b.ep) || PINNED.has(from)) return leavesKingSafe(b, from, to);
  return !IN_CHECK || EVASIONS.has(to);
}

/** Whether the side to move playing from -> to (en passant included) leaves its king unattacked. */
function leavesKingSafe(b: MailBoard, from: number, to: number): boolean {
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

function castlingWing(b: MailBoard, move: MoveCode): 'a' | 'h' | undefined {
  const from = fromOf(move);
  const to = toOf(move);
  const target = b.cells[to]!;
  if (Math.abs(b.cells[from]!) !== KING || target === 0 || sign(target) !== b.turn) return undefined;
  return to > from ? 'h' : 'a';
}

/** Wire UCI: castling as the king's two-square move (e1g1). */
function uciOf(b: MailBoard, move: MoveCode): string {
  const from = fromOf(move);
  const wing = castlingWing(b, move);
  const to = wing === undefined ? toOf(move) : (from & ~7) + (wing === 'a' ? 2 : 6);
  return `${SQUARE_NAMES[from]}${SQUARE_NAMES[to]}${UCI_LETTER[promotionOf(move)]}`;
}

/** SAN with its check or mate suffix, as chess.ts writes it. */
function sanOf(b: MailBoard, move: MoveCode): string {
  const body = sanBody(b, move);
  AFTER.copy(b);
  playOn(AFTER, move, castlingWing(b, move));
  if (!isAttacked(AFTER.cells, AFTER.kingOf(AFTER.turn), -AFTER.turn)) return body;
  return generate(AFTER, null) > 0 ? `${body}+` : `${body}#`;
}

function sanBody(b: MailBoard, move: MoveCode): string {
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
function disambiguation(b: MailBoard, move: MoveCode): string {
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
function playOn(b: MailBoard, move: MoveCode, wing: 'a' | 'h' | undefined): void {
  const side = b.turn;
  const from = fromOf(move);
  const to = toOf(move);
  const piece = b.cells[from]!;
  const ep = b.ep;
  b.turn = -side;
  b.ep = -1;
  b.cells[from] = 0;
  if (wing !== undefined) {
    const rank = from & ~7;
    b.cells[to] = 0;
    b.cells[rank + (wing === 'a' ? 2 : 6)] = piece;
    b.cells[rank + (wing === 'a' ? 3 : 5)] = ROOK * side;
    b.setKing(side, rank + (wing === 'a' ? 2 : 6));
    return;
  }
  if (Math.abs(piece) === PAWN) {
    if (to === ep) b.cells[to - 8 * side] = 0;
    if (Math.abs(to - from) === 16 && from >= 8 && from <= 55) b.ep = (from + to) >> 1;
  }
  b.cells[to] = promotionOf(move) === 0 ? piece : promotionOf(move) * side;
  if (Math.abs(piece) === KING) b.setKing(side, to);
}

// --- reading the FEN -------------------------------------------------------------------------------------

/** The piece code of each FEN letter by character code, 0 for any other character. */
const PIECE_OF_CHAR = pieceOfChar();
const SPACE = 32;
const SLASH = 47;
const DIGIT_ZERO = 48;
const LETTER_A = 97;

/** Where each of the six fields of the FEN being read ends: the index of the space after it. */
const FIELD_ENDS = new Int32Array(6);

/**
 * Reads the six plain fields the platform writes into `b` and CASTLING_ROOKS, in place (a split and its
 * strings for every turn were most of a turn's reading). False for anything else, and for what chessops
 * would refuse (kings, pawns on a back rank, the side not to move in check) or read otherwise (castling that
 * is not the standard king and corner rook).
 */
function readFen(b: MailBoard, fen: string): boolean {
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
 * squares each, or false.
 */
function readPlacement(b: MailBoard, fen: string): boolean {
  b.cells.fill(0);
  WHITE_KINGS = 0;
  BLACK_KINGS = 0;
  let rank = 7;
  let file = 0;
  for (let i = 0; i < fen.length; i++) {
    const char = fen.charCodeAt(i);
    if (char === SPACE) {
      FIELD_ENDS[0] = i;
      return rank === 0 && file === 8;
    }
    if (char === SLASH) {
      if (file !== 8 || rank === 0) return false;
      rank--;
      file = 0;
    } else if (char > DIGIT_ZERO && char <= DIGIT_ZERO + 8) {
      file += char - DIGIT_ZERO;
      if (file > 8) return false;
    } else {
      const piece = char < 128 ? PIECE_OF_CHAR[char]! : 0;
      if (piece === 0 || file === 8) return false;
      if (!place(b, rank * 8 + file++, piece)) return false;
    }
  }
  return false; // no field follows
}

/** How many kings of each side the FEN being read placed. */
let WHITE_KINGS = 0;
let BLACK_KINGS = 0;

/** Puts a piece on its square, noting kings; false for a pawn on a back rank (chessops refuses it). */
function place(b: MailBoard, square: number, piece: number): boolean {
  b.cells[square] = piece;
  if (piece === KING) WHITE_KINGS++;
  if (piece === -KING) BLACK_KINGS++;
  if (Math.abs(piece) === KING) b.setKing(sign(piece), square);
  return Math.abs(piece) !== PAWN || (square >= 8 && square < 56);
}

function pieceOfChar(): Int8Array {
  const pieces = new Int8Array(128);
  for (const [at, letter] of ['P', 'N', 'B', 'R', 'Q', 'K'].entries()) {
    pieces[letter.charCodeAt(0)] = at + 1;
    pieces[letter.toLowerCase().charCodeAt(0)] = -(at + 1);
  }
  return pieces;
}

/** One king a side and the side not to move not in check (with no pawn on a back rank: chessops' validate). */
function isSetUp(b: MailBoard): boolean {
  if (WHITE_KINGS !== 1 || BLACK_KINGS !== 1) return false;
  return !isAttacked(b.cells, b.kingOf(-b.turn), b.turn);
}

/** KQkq rights of a king on e1/e8 with rooks in the corners; anything else is left to chessops. */
function readCastling(b: MailBoard, fen: string): boolean {
  CASTLING_ROOKS.fill(-1);
  if (fieldLength(2) === 1 && fen.charCodeAt(fieldStart(2)) === 45) return true; // -
  for (let i = fieldStart(2); i < FIELD_ENDS[2]!; i++) {
    const at = 'QKqk'.indexOf(fen[i]!);
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
function readEnPassant(b: MailBoard, fen: string): boolean {
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
