import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boardResult,
  legalMoves,
  newBoard,
  playMove,
  STANDARD_START_FEN,
} from '../../src/rules/chess/chess.js';
import { MoveLog } from '../../src/platform/chess/storage/move-log.js';
import { deadlineComment, movetext } from '../../src/report/pgn-movetext.js';
import { replaySans } from '../../src/platform/chess/storage/san-replay.js';
import type { PackedMoves } from '../../src/platform/chess/storage/move-log.js';
import type { NormalMove } from 'chessops';

/** A random game (each number picks a legal move, modulo their count): its packed log and the SAN playMove wrote. */
/** A game's packed log, where it starts and how it ended: what a game record keeps of its moves. */
interface PackedGame {
  moves: PackedMoves;
  initialFen: string;
  result: string;
}

function randomGame(choices: number[]): { job: PackedGame; sans: string[] } {
  const board = newBoard();
  const log = new MoveLog(0);
  const sans: string[] = [];
  for (const [ply, choice] of choices.entries()) {
    if (boardResult(board) !== null) break;
    const moves = legalMoves(board);
    const move = moves[choice % moves.length] as NormalMove;
    log.append(board, { move, atMs: ply * 1000, idOrdinal: ply });
    sans.push(playMove(board, move).san);
  }
  const end = boardResult(board);
  const result =
    end === null ? '*' : end.winner === null ? '1/2-1/2' : end.winner === 'white' ? '1-0' : '0-1';
  return { job: { moves: log.packed(), initialFen: STANDARD_START_FEN, result }, sans };
}

// 'max' size spreads the lengths, so the games reach promotions, castling, en passant and mates.
const GAMES = fc
  .sample(fc.array(fc.nat(), { maxLength: 300, size: 'max' }), { seed: 32, numRuns: 60 })
  .map(randomGame);
const COMMENT = deadlineComment(60_000);

describe('a game movetext from its packed moves', () => {
  it('is the comment, the numbered SAN playMove wrote and the result, greedily wrapped under 80 characters', () => {
    expect(GAMES.flatMap((g) => g.sans).some((san) => san.includes('='))).toBe(true);
    expect(GAMES.flatMap((g) => g.sans).some((san) => san.endsWith('#'))).toBe(true);
    for (const { job, sans } of GAMES) {
      const numbered = sans.flatMap((san, i) => (i % 2 === 0 ? [`${i / 2 + 1}.`, san] : [san]));
      const lines = movetext(replaySans(job.moves, job.initialFen), job.result, COMMENT).split('\n');
      expect(lines.join(' ')).toBe([COMMENT, ...numbered, job.result].join(' '));
      for (const [i, line] of lines.entries()) {
        expect(line.length).toBeLessThanOrEqual(79);
        // Greedy: the next line's first word would not have fitted on this one.
        if (i + 1 < lines.length)
          expect(line.length + 1 + lines[i + 1]!.split(' ')[0]!.length).toBeGreaterThan(79);
      }
    }
  });
});
