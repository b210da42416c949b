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
import type { Move, NormalMove, Role } from 'chessops';
import { Chess, castlingSide, normalizeMove } from 'chessops/chess';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { isNormal } from 'chessops/types';
import { kingCastlesTo, makeUci, moveEquals, opposite, parseSquare } from 'chessops/util';

export type ColorName = 'white' | 'black';

export const STANDARD_START_FEN: string = INITIAL_FEN;

/** Board state carried by a game: the chessops position plus what chessops does not track. */
export interface Board {
  pos: Chess;
  /** Times each position key was seen since the last irreversible move (see positionKey). */
  repetitions: Map<string, number>;
  /** Plies played on this board since newBoard (not derived from the FEN's fullmove number). */
  plies: number;
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
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  assertStandardCastling(pos, fen);
  const board: Board = { pos, repetitions: new Map(), plies: 0 };
  board.repetitions.set(positionKey(pos), 1);
  return board;
}

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
  return makeFen(board.pos.toSetup());
}

// --- parsing what agents send ----------------------------------------------------------------------------

// O-O / 0-0 (digit zero, common from engines and humans) / o-o; one character throughout.
const CASTLING_TEXT = /^([O0o])-\1(-\1)?$/;
const UCI_TEXT = /^([a-h][1-8])([a-h][1-8])([qrbnQRBN])?$/;
// The shape chessops' parseSan accepts for piece and pawn moves (it also takes long algebraic "Ng1-f3").
const SAN_TEXT = /^([NBRQK])?([a-h])?([1-8])?[-x]?([a-h][1-8])(?:=?([nbrqkNBRQK]))?$/;
// Check/mate marks and move-quality annotations; accepted and ignored, whether or not they are true.
const ANNOTATIONS = /[+#!?]+$/;

const fail = (reason: string): ParsedMove => ({ ok: false, reason });

/**
 * Parses SAN or UCI text as agents really send it into the legal chessops move (castling as
 * king-takes-rook, chessops' own form). Never throws: anything unparsable or illegal is an error result.
 */
export function parseMove(board: Board, text: string): ParsedMove {
  if (typeof text !== 'string') return fail('move must be a string');
  const trimmed = text.trim();
  if (trimmed === '') return fail('empty move');
  if (trimmed.length > MAX_MOVE_TEXT) return fail(`unparsable move "${trimmed.slice(0, MAX_MOVE_TEXT)}..."`);
  const core = trimmed.replace(ANNOTATIONS, '');
  const pos = board.pos;
  const castling = CASTLING_TEXT.exec(core);
  if (castling) return parseCastling(pos, castling[2] === undefined ? 'h' : 'a', trimmed);
  const uci = UCI_TEXT.exec(core);
  if (uci) return parseUciMatch(pos, uci, trimmed);
  if (SAN_TEXT.test(core)) {
    // parseSan returns undefined for illegal and for ambiguous moves alike.
    const move = parseSan(pos, core);
    return move ? { ok: true, move } : fail(`illegal or ambiguous move "${trimmed}"`);
  }
  return fail(`unparsable move "${trimmed}"`);
}

function parseCastling(pos: Chess, side: 'a' | 'h', text: string): ParsedMove {
  const king = pos.board.kingOf(pos.turn);
  const rook = pos.castles.rook[pos.turn][side];
  if (king === undefined || rook === undefined) return fail(`illegal move "${text}": no castling right`);
  const move: NormalMove = { from: king, to: rook };
  return pos.isLegal(move) ? { ok: true, move } : fail(`illegal move "${text}"`);
}

function parseUciMatch(pos: Chess, match: RegExpExecArray, text: string): ParsedMove {
  const from = parseSquare(match[1] ?? '');
  const to = parseSquare(match[2] ?? '');
  if (from === undefined || to === undefined) return fail(`unparsable move "${text}"`);
  const move: NormalMove = { from, to };
  if (match[3] !== undefined) move.promotion = PROMOTION_ROLE[match[3].toLowerCase()];
  // isLegal accepts both castling spellings (e1g1 and e1h1); normalizeMove maps e1g1 to chessops' e1h1.
  if (!pos.isLegal(move)) return fail(`illegal move "${text}"`);
  return { ok: true, move: normalizeMove(pos, move) };
}

const PROMOTION_ROLE: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

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
  if (!hasSan) return parseMove(board, uci as string);
  const bySan = parseMove(board, san as string);
  if (!bySan.ok) return fail(`move_san: ${bySan.reason}`);
  const byUci = parseMove(board, uci as string);
  if (!byUci.ok) return fail(`move_uci: ${byUci.reason}`);
  if (!moveEquals(bySan.move, byUci.move)) {
    return fail(`move_san "${(san as string).trim()}" and move_uci "${(uci as string).trim()}" are different moves`);
  }
  return bySan;
}

// --- playing and game end -----------------------------------------------------------------------------

/** Wire UCI of a legal move in this position: castling as the king's two-square move (e1g1). */
export function toWireUci(board: Board, move: Move): string {
  if (!isNormal(move)) return makeUci(move);
  const side = castlingSide(board.pos, move);
  if (side === undefined) return makeUci(move);
  return makeUci({ from: move.from, to: kingCastlesTo(board.pos.turn, side) });
}

/**
 * Applies a legal move (from parseMove or legalMoves) and records the repetition. An illegal move here is
 * a programmer error: chessops' play() would silently corrupt the position, so it stops loudly instead.
 */
export function playMove(board: Board, move: Move): PlayedMove {
  const pos = board.pos;
  if (!pos.isLegal(move)) throw new Error(`playMove: illegal move ${makeUci(move)} in ${currentFen(board)}`);
  const color = pos.turn;
  const uci = toWireUci(board, move);
  // makeSanAndPlay plays the move and suffixes '#' exactly when the side to move is mated, '+' on check.
  const san = makeSanAndPlay(pos, move);
  board.plies += 1;
  const fenAfter = currentFen(board);
  recordRepetition(board, fenAfter);
  const isCheckmate = san.endsWith('#');
  return { san, uci, fenAfter, color, isCheck: isCheckmate || san.endsWith('+'), isCheckmate };
}

function recordRepetition(board: Board, fenAfter: string): void {
  // After a capture or pawn move (clock reset) no earlier position can recur: forget them, which keeps
  // the map as small as the fifty-move window.
  if (board.pos.halfmoves === 0) board.repetitions.clear();
  const key = epdOf(fenAfter);
  board.repetitions.set(key, (board.repetitions.get(key) ?? 0) + 1);
}

/** The first four fields of a FEN (board, turn, castling, en passant) = positionKey of that position. */
function epdOf(fen: string): string {
  let end = fen.length;
  for (let spaces = 0; spaces < 2; spaces += 1) end = fen.lastIndexOf(' ', end - 1);
  return fen.slice(0, end);
}

/**
 * The game end decided by the board alone, or null. Precedence: checkmate (so a mate that also reaches
 * the fifty-move limit wins), stalemate, insufficient material, threefold repetition, fifty-move rule.
 * All draws after checkmate have winner null; the order only fixes which label a double draw gets.
 */
export function boardResult(board: Board): BoardResult | null {
  const pos = board.pos;
  const ctx = pos.ctx();
  if (!pos.hasDests(ctx)) {
    if (ctx.checkers.nonEmpty()) return { ending: 'checkmate', winner: opposite(pos.turn) };
    return { ending: 'stalemate', winner: null };
  }
  if (pos.isInsufficientMaterial()) return { ending: 'insufficient_material', winner: null };
  if (isThreefold(board)) return { ending: 'threefold_repetition', winner: null };
  if (pos.halfmoves >= FIFTY_MOVE_HALFMOVES) return { ending: 'fifty_move_rule', winner: null };
  return null;
}

function isThreefold(board: Board): boolean {
  // Scanning the (small) counts first skips building the current key on almost every move.
  let any = false;
  for (const n of board.repetitions.values()) any ||= n >= REPETITION_LIMIT;
  return any && (board.repetitions.get(positionKey(board.pos)) ?? 0) >= REPETITION_LIMIT;
}

// Promotion order inside legalMoves: strongest first.
const PROMOTIONS: readonly Role[] = ['queen', 'rook', 'bishop', 'knight'];
const BACKRANKS = (sq: number): boolean => sq < 8 || sq >= 56;

/**
 * Every legal move in a deterministic order: by from square, then to square (chessops indices, a1 = 0 ..
 * h8 = 63; castling's `to` is the rook square), then promotion queen, rook, bishop, knight.
 */
export function legalMoves(board: Board): Move[] {
  const pos = board.pos;
  const ctx = pos.ctx();
  const moves: Move[] = [];
  // SquareSet iterates in ascending square order, so the result is sorted without a sort.
  for (const from of pos.board[pos.turn]) {
    const promotes = pos.board.pawn.has(from);
    for (const to of pos.dests(from, ctx)) {
      if (promotes && BACKRANKS(to)) {
        for (const promotion of PROMOTIONS) moves.push({ from, to, promotion });
      } else {
        moves.push({ from, to });
      }
    }
  }
  return moves;
}
