import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isMoveInTime,
  moveLimitWinner,
  reachedMoveLimit,
  timeoutWinner,
  turnDeadlineMs,
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
