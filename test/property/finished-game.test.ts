import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  finishedEnd,
  finishedFen,
  finishedMoves,
  packFinished,
} from '../../src/platform/chess/storage/finished-game.js';
import { resultFor } from '../../src/rules/chess/game.js';
import { END_REASONS, type GameEnd } from '../../src/platform/state.js';

const fenChars = fc.constantFrom(...'rnbqkpRNBQKP12345678/ w-abcdefgh'.split(''));
const anyDouble = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1500, 1e-300, 2 ** 53, -(2 ** 31)));

const end: fc.Arbitrary<GameEnd> = fc
  .record({
    reason: fc.constantFrom(...END_REASONS),
    winner: fc.constantFrom('white' as const, 'black' as const, null),
    endedAtMs: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    whiteEloBefore: anyDouble,
    blackEloBefore: anyDouble,
    whiteDelta: anyDouble,
    blackDelta: anyDouble,
    equalK: fc.boolean(),
  })
  .map((e) => ({ ...e, result: resultFor(e.winner) }));

describe('a finished game kept as one string', () => {
  it('gives back its FEN, its end (every number exactly) and its moves, whatever bytes the moves hold', () => {
    fc.assert(
      fc.property(
        fc.array(fenChars, { minLength: 1, maxLength: 90 }).map((c) => c.join('')),
        fc.option(end, { nil: null }),
        fc.string({
          unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
          maxLength: 200,
        }),
        (fen, gameEnd, moves) => {
          const text = packFinished({ fen, end: gameEnd, moves });
          expect(finishedFen(text)).toBe(fen);
          expect(finishedMoves(text)).toBe(moves);
          const back = finishedEnd(text);
          if (gameEnd === null) expect(back).toBeNull();
          else {
            expect(back).toEqual(gameEnd);
            for (const key of ['whiteEloBefore', 'blackEloBefore', 'whiteDelta', 'blackDelta'] as const)
              expect(Object.is(back![key], gameEnd[key])).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses an end whose result does not follow from its winner', () => {
    const wrong: GameEnd = {
      result: '1-0',
      reason: 'checkmate',
      winner: 'black',
      endedAtMs: 0,
      whiteEloBefore: 1500,
      blackEloBefore: 1500,
      whiteDelta: -16,
      blackDelta: 16,
      equalK: true,
    };
    expect(() => packFinished({ fen: '8/8/8/8/8/8/8/8 w - - 0 1', end: wrong, moves: '' })).toThrow(/result/);
  });
});
