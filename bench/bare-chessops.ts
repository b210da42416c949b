/**
 * The baseline of the platform move-loop benchmark: uniformly random legal games played with bare chessops,
 * doing the least a platform must do per move (list legal moves, write SAN, detect the end). The platform
 * loop (src/rules/chess/chess.ts plus the game route) is reported as a ratio to this, measured in the same run.
 */
import type { NormalMove } from 'chessops';
import { Chess, type Context } from 'chessops/chess';
import { makeSanAndPlay } from 'chessops/san';
import seedrandom from 'seedrandom';

/** Games end at chessops' isEnd (mate, stalemate, insufficient material) or this many plies. */
export const BARE_PLY_CAP = 600;

export function bareRandomGames(games: number, seed: string): { plies: number } {
  const rng = seedrandom.alea(seed);
  let plies = 0;
  for (let game = 0; game < games; game += 1) plies += bareRandomGame(rng);
  return { plies };
}

export const PROMOTIONS = ['queen', 'rook', 'bishop', 'knight'] as const;

// Uniform over legal moves means each promotion piece is its own move, as in the platform's legalMoves.
export function legalMoves(pos: Chess, ctx: Context): NormalMove[] {
  const moves: NormalMove[] = [];
  for (const [from, dests] of pos.allDests(ctx)) {
    const pawn = pos.board.pawn.has(from);
    for (const to of dests) {
      if (pawn && (to < 8 || to >= 56))
        for (const promotion of PROMOTIONS) moves.push({ from, to, promotion });
      else moves.push({ from, to });
    }
  }
  return moves;
}

function bareRandomGame(rng: () => number): number {
  const pos = Chess.default();
  let plies = 0;
  while (plies < BARE_PLY_CAP) {
    const ctx = pos.ctx();
    if (pos.isEnd(ctx)) break;
    const moves = legalMoves(pos, ctx);
    const move = moves[Math.floor(rng() * moves.length)];
    if (move === undefined) break;
    makeSanAndPlay(pos, move);
    plies += 1;
  }
  return plies;
}
