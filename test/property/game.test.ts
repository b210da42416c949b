import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isMoveInTime,
  moveLimitWinner,
  otherSide,
  reachedMoveLimit,
  resultFor,
  timeoutWinner,
  turnDeadlineMs,
  whiteScore,
} from '../../src/rules/chess/game.js';
import { DEFAULT_RULESET, resolveRuleset } from '../../src/rules/ruleset.js';

const params = { numRuns: 1000 };

describe('deadline boundary', () => {
  it('a move 1 ms before the deadline is in time; at the deadline it is late', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (turnStart) => {
        const deadline = turnDeadlineMs(turnStart, DEFAULT_RULESET);
        expect(deadline - turnStart).toBe(300_000);
        expect(isMoveInTime(deadline - 1, deadline)).toBe(true);
        expect(isMoveInTime(deadline, deadline)).toBe(false);
        expect(isMoveInTime(deadline + 1, deadline)).toBe(false);
        expect(isMoveInTime(turnStart, deadline)).toBe(true);
      }),
      params,
    );
  });

  it('the side that misses the deadline loses', () => {
    expect(timeoutWinner('white')).toBe('black');
    expect(timeoutWinner('black')).toBe('white');
  });
});

describe('move limit', () => {
  it('the lower-Elo player wins; Black at equal Elo', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4000 }), (white, black) => {
        const winner = moveLimitWinner(white, black);
        if (white < black) expect(winner).toBe('white');
        else if (black < white) expect(winner).toBe('black');
        else expect(winner).toBe('black');
      }),
      params,
    );
  });

  it('is reached at exactly 1000 half-moves', () => {
    expect(reachedMoveLimit(999, DEFAULT_RULESET)).toBe(false);
    expect(reachedMoveLimit(1000, DEFAULT_RULESET)).toBe(true);
  });

  it('is reached from the ruleset’s limit on, whatever the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), fc.nat(3000), (limit, plies) => {
        const { ruleset, errors } = resolveRuleset({ game: { moveLimitPlies: limit } });
        expect(errors).toEqual([]);
        expect(reachedMoveLimit(plies, ruleset)).toBe(plies >= limit);
      }),
      { numRuns: 200 },
    );
  });
});

describe('results', () => {
  it('names the winner in PGN form and scores it for Elo from White’s side', () => {
    expect([resultFor('white'), resultFor('black'), resultFor(null)]).toEqual(['1-0', '0-1', '1/2-1/2']);
    expect([whiteScore('1-0'), whiteScore('0-1'), whiteScore('1/2-1/2')]).toEqual([1, 0, 0.5]);
    for (const side of ['white', 'black'] as const) {
      expect(otherSide(otherSide(side))).toBe(side);
      expect(otherSide(side)).not.toBe(side);
      // The winner scores 1 and the loser 0, seen from either side.
      expect(whiteScore(resultFor(side)) + whiteScore(resultFor(otherSide(side)))).toBe(1);
    }
  });
});

describe('ruleset overrides', () => {
  it('merges a deep partial and names bad fields', () => {
    const ok = resolveRuleset({
      game: { moveLimitPlies: 10 },
      elo: { kFactor: { mode: 'fide', provisionalGames: 30, masterThreshold: 2400 } },
    });
    expect(ok.errors).toEqual([]);
    expect(ok.ruleset.game.moveLimitPlies).toBe(10);
    expect(ok.ruleset.game.turnLimitMs).toBe(300_000);
    expect(ok.ruleset.elo.kFactor.mode).toBe('fide');
    expect(resolveRuleset({ game: { turnLimitMs: 'soon' } }).errors[0]).toMatch(
      /^ruleset\.game\.turnLimitMs/,
    );
    expect(resolveRuleset({ gmae: {} }).errors[0]).toMatch(/^ruleset\.gmae: unknown rule/);
    expect(resolveRuleset({ game: { moveLimitPlies: -1 } }).errors[0]).toMatch(/moveLimitPlies/);
  });
});
