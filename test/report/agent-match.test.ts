import { describe, expect, it } from 'vitest';
import { buildAgentMatch, matchCells, matchRows } from '../../src/report/agent-match.js';
import { matchElo } from '../../src/rules/chess/match-elo.js';
import { losPercent } from '../../src/report/match-lines.js';

describe("run --agent's match as the report keeps it", () => {
  const byOpponent = new Map([
    ['sf-3', { games: 4, wins: 0, draws: 1, losses: 3 }],
    ['random', { games: 6, wins: 5, draws: 1, losses: 0 }],
  ]);
  const m = buildAgentMatch('my_bot', 10, byOpponent);

  it('sums the opponents into the overall row, opponents by name, with the figures of the score lines', () => {
    expect(m.opponents.map((o) => o.opponent)).toEqual(['random', 'sf-3']);
    expect(m.overall).toMatchObject({ opponent: 'all', games: 10, wins: 5, draws: 2, losses: 3, score: 0.6 });
    expect(m.games_played).toBe(10);
    const e = matchElo({ wins: 5, draws: 2, losses: 3 });
    expect(m.overall.elo!.estimate).toBeCloseTo(e.estimate, 1);
    expect(m.overall.elo!.low).toBeCloseTo(e.low, 1);
    expect(m.overall.elo!.high).toBeCloseTo(e.high, 1);
    expect(m.overall.los_percent).toBeCloseTo(losPercent({ wins: 5, losses: 3 })!, 1);
    expect(m.overall.draw_ratio_percent).toBe(20);
  });

  it('shows the overall row only beside two or more opponents, and nulls without games', () => {
    expect(matchRows(m).map((r) => r.opponent)).toEqual(['random', 'sf-3', 'all']);
    const one = buildAgentMatch(
      'my_bot',
      5,
      new Map([['random', { games: 0, wins: 0, draws: 0, losses: 0 }]]),
    );
    expect(matchRows(one).map((r) => r.opponent)).toEqual(['random']);
    expect(one.overall).toMatchObject({
      score: null,
      elo: null,
      los_percent: null,
      draw_ratio_percent: null,
    });
    expect(matchCells(one.overall)).toEqual(['all', '0', '0 / 0 / 0', '-', '-', 'n/a', '-']);
  });
});
