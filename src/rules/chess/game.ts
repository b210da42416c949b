import type { Ruleset } from '../ruleset.js';

/**
 * Time and move-count rules of a game, pure. Colours are named as on the wire.
 */
export type Side = 'white' | 'black';

export function otherSide(side: Side): Side {
  return side === 'white' ? 'black' : 'white';
}

/** SPEC: every playable turn has a hard 5-minute deadline, counted from the instant the turn began. */
export function turnDeadlineMs(turnStartedMs: number, ruleset: Ruleset): number {
  return turnStartedMs + ruleset.game.turnLimitMs;
}

/**
 * OURS (boundary): a turn is the half-open interval [start, deadline). A move at deadline - 1 ms is in
 * time; a move at exactly the deadline is late, and the timeout fires at the deadline itself.
 */
export function isMoveInTime(nowMs: number, deadlineMs: number): boolean {
  return nowMs < deadlineMs;
}

/** SPEC: a side that misses the deadline loses by timeout; the winner is the side that was waiting. */
export function timeoutWinner(sideToMove: Side): Side {
  return otherSide(sideToMove);
}

/** SPEC: at the move limit the lower-Elo player wins; at equal Elo, Black wins. */
export function moveLimitWinner(whiteElo: number, blackElo: number): Side {
  return whiteElo < blackElo ? 'white' : 'black';
}

export function reachedMoveLimit(plies: number, ruleset: Ruleset): boolean {
  return plies >= ruleset.game.moveLimitPlies;
}

export type GameResult = '1-0' | '0-1' | '1/2-1/2';

/** Every way a game can end, in a fixed order (the wire's enum; reports count them in it; finished games keep the index). */
export const END_REASONS = [
  'checkmate',
  'stalemate',
  'insufficient_material',
  'threefold_repetition',
  'fifty_move_rule',
  'timeout',
  'move_limit',
] as const;
export type EndReason = (typeof END_REASONS)[number];

export function resultFor(winner: Side | null): GameResult {
  if (winner === null) return '1/2-1/2';
  return winner === 'white' ? '1-0' : '0-1';
}

/** White's score for Elo: 1, 0.5 or 0. */
export function whiteScore(result: GameResult): 0 | 0.5 | 1 {
  if (result === '1-0') return 1;
  return result === '0-1' ? 0 : 0.5;
}
