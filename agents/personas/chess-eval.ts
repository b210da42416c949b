/**
 * Material arithmetic the chess personas share (greedy, cautious, bounty hunter): piece values, what a
 * move wins on the spot, and what the opponent could win back with one capture. A static one-move look,
 * no search: these personas are meant to be weak in known, checkable ways.
 */
import type { Move, Role } from 'chessops';
import type { Chess } from 'chessops/chess';
import { isNormal } from 'chessops/types';
import type { MyTurnRow } from '../../src/client/wire.js';
import type { Rng } from '../../src/kernel/rng.js';
import { legalMoves, toWireUci, type Board } from '../../src/rules/chess/chess.js';
import { positionFromFen } from '../../src/rules/chess/fen-reader.js';
import type { AgentContext } from '../persona.js';
import { bestWinOf, netGainOf, PIECE_VALUE } from '../chess/capture-look.js';
import { turnMoves, type MoveCode, type TurnMoves } from '../chess/fen-moves.js';
import { tolerate } from './random.js';

export { PIECE_VALUE };

/**
 * The agent's view of a position: a parsed FEN, with no repetition history (these personas ignore it, and
 * a platform board would write the position's key for it on every turn).
 */
export function boardFromFen(fen: string): Board {
  return { pos: positionFromFen(fen), repetitions: new Map(), plies: 0 };
}

/** Material of one side, in pawns. */
export function material(pos: Chess, color: 'white' | 'black'): number {
  let total = 0;
  for (const square of pos.board[color]) total += PIECE_VALUE[pos.board.getRole(square)!];
  return total;
}

/**
 * The enemy piece a legal move takes, if any. chessops writes castling as king-takes-own-rook, so the
 * piece on the target square counts only when it is the opponent's; en passant takes a pawn that is not
 * on the target square.
 */
export function capturedRole(pos: Chess, move: Move): Role | undefined {
  if (!isNormal(move)) return undefined;
  const target = pos.board.get(move.to);
  if (target) return target.color === pos.turn ? undefined : target.role;
  const enPassant = pos.board.pawn.has(move.from) && move.to === pos.epSquare;
  return enPassant ? 'pawn' : undefined;
}

export function isCapture(pos: Chess, move: Move): boolean {
  return capturedRole(pos, move) !== undefined;
}

/** Material a legal move wins on the spot: the piece it takes plus what a promotion adds over the pawn. */
export function materialGain(pos: Chess, move: Move): number {
  const captured = capturedRole(pos, move);
  const taken = captured ? PIECE_VALUE[captured] : 0;
  const promoted = isNormal(move) && move.promotion ? PIECE_VALUE[move.promotion] - PIECE_VALUE.pawn : 0;
  return taken + promoted;
}

/**
 * What the side to move wins by its best single gainful move (a capture or a promotion), judged
 * statically: the gain, less the moved piece when the other side can legally take it back on that square.
 * 0 when nothing wins material. This is "the opponent can take a hanging or under-defended piece".
 */
export function bestOneMoveWin(pos: Chess): number {
  return bestWinOf(pos);
}

/**
 * A move's material balance by a static one-move look: what it wins now, less what the opponent can then
 * win with one capture. Negative = the move hangs material (or leaves something hanging).
 */
export function netGain(pos: Chess, move: Move): number {
  return netGainOf(pos, move, materialGain(pos, move));
}

/** Legal moves of a bare position (promotions expanded), in a stable order. */
export function movesOf(pos: Chess): Move[] {
  return legalMoves({ pos, repetitions: new Map(), plies: 0 });
}

/** The highest-scoring moves, one drawn from `rng` among equals. `moves` must not be empty. */
export function pickBest<M>(moves: readonly M[], score: (move: M) => number, rng: Rng): M {
  let best: M[] = [];
  let bestScore = -Infinity;
  for (const move of moves) {
    const s = score(move);
    if (s > bestScore) [best, bestScore] = [[move], s];
    else if (s === bestScore) best.push(move);
  }
  return rng.pick(best);
}

/**
 * Plays the move `choose` picks in a my-turn game, sent as wire UCI (castling e1g1), as engine-style agents
 * send it. A refusal a busy world produces (the game just ended) is tolerated like any other persona's.
 */
export async function playChosenMove(ctx: AgentContext, game: MyTurnRow, choose: MoveChooser): Promise<void> {
  const board = boardFromFen(game.current_fen);
  const moves = legalMoves(board);
  if (moves.length === 0) return; // mate or stalemate: the platform has already ended the game
  const move = choose(board.pos, moves, ctx.rng);
  await tolerate(ctx.client.move({ game_id: game.game_id, move_uci: toWireUci(board, move) }));
}

/** A persona's move rule: one of `moves` (the legal moves of `pos`, never empty), drawing only from `rng`. */
export type MoveChooser = (pos: Chess, moves: readonly Move[], rng: Rng) => Move;

/** A move's score on the boards of a turn read by fen-moves.ts (capture-look's gainOfMove, netGainOfMove). */
export type BoardScore = (turn: TurnMoves, move: MoveCode) => number;

/**
 * playChosenMove for a rule that plays the best score, a seeded draw among equals, scored on fen-moves'
 * boards: the same moves in the same order as chess.ts's legalMoves (test/property/fen-moves.test.ts), so
 * the same draw picks the same move, without a chessops position and its move list each turn (the most a
 * cautious player cost). `rule` (the same rule on chessops) plays what fen-moves does not read.
 */
export async function playBestMove(
  ctx: AgentContext,
  game: MyTurnRow,
  score: BoardScore,
  rule: MoveChooser,
): Promise<void> {
  const turn = turnMoves(game.current_fen);
  if (turn === undefined) return playChosenMove(ctx, game, rule);
  if (turn.moves.length === 0) return; // mate or stalemate: the platform has already ended the game
  const move = pickBest(turn.moves, (candidate) => score(turn, candidate), ctx.rng);
  await tolerate(ctx.client.move({ game_id: game.game_id, move_uci: turn.uci(move) }));
}
