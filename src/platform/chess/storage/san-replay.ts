import { newBoard, playForSan } from '../../../rules/chess/chess.js';
import { replayMoves, type PackedMoves } from './move-log.js';

/**
 * The SAN of every move of a packed log, in order, played from `initialFen` on a board of its own: what a
 * game's `sans()` answers (what games.pgn's movetexts are written from). Only the moves are read back: the times and move ids the log also holds are decoded to
 * step over them (their origin, 0 here, changes none of the moves).
 */
export function replaySans(moves: PackedMoves, initialFen: string): string[] {
  const board = newBoard(initialFen);
  const sans: string[] = [];
  replayMoves(moves, board, 0, (entry) => sans.push(playForSan(board, entry.move)));
  return sans;
}
