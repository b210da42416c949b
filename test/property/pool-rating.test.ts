import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolRatings, PRIOR_SD_ELO, type PoolGame } from '../../src/rules/chess/pool-rating.js';

const C = Math.LN10 / 400;

/**
 * The same posterior, maximised by another algorithm: plain gradient ascent on every parameter at once
 * (ratings and ln ν), each game's log-likelihood written out from the Davidson probabilities directly.
 */
function referenceFit(players: string[], games: PoolGame[]): { ratings: number[]; nu: number } {
  const index = new Map(players.map((p, i) => [p, i]));
  const x = new Array<number>(players.length + 1).fill(0); // θ..., then η = ln ν
  x[players.length] = Math.log(2);
  const tau2 = (PRIOR_SD_ELO * C) ** 2;
  const logPosterior = (v: number[]): number => {
    const nu = Math.exp(v[players.length]!);
    let sum = Math.log(nu / (2 + nu)) + Math.log(2 / (2 + nu)); // ν's two virtual games
    for (let i = 0; i < players.length; i++) sum -= v[i]! ** 2 / (2 * tau2);
    for (const g of games) {
      const a = Math.exp(v[index.get(g.white)!]!);
      const b = Math.exp(v[index.get(g.black)!]!);
      const draw = nu * Math.sqrt(a * b);
      const total = a + b + draw;
      sum += Math.log((g.score === 1 ? a : g.score === 0 ? b : draw) / total);
    }
    return sum;
  };
  const h = 1e-6;
  for (let step = 0; step < 20000; step++) {
    const base = logPosterior(x);
    const gradient = x.map((_, k) => {
      const moved = [...x];
      moved[k] = moved[k]! + h;
      return (logPosterior(moved) - base) / h;
    });
    x.forEach((_, k) => (x[k] = x[k]! + 0.02 * gradient[k]!));
  }
  return { ratings: x.slice(0, players.length).map((t) => t / C), nu: Math.exp(x[players.length]!) };
}

const game = (white: string, black: string, score: 1 | 0.5 | 0): PoolGame => ({ white, black, score });

describe('pool ratings (Bradley-Terry with Davidson draws, weak priors)', () => {
  it('agrees with a generic gradient ascent on the same posterior (fixture of 4 players, 11 games)', () => {
    const players = ['a', 'b', 'c', 'd'];
    const games = [
      game('a', 'b', 1),
      game('b', 'a', 0.5),
      game('a', 'c', 1),
      game('c', 'a', 0),
      game('b', 'c', 0.5),
      game('c', 'b', 1),
      game('d', 'a', 0),
      game('b', 'd', 1),
      game('d', 'c', 0.5),
      game('c', 'd', 0.5),
      game('d', 'b', 1),
    ];
    const fit = poolRatings(players, games);
    const ref = referenceFit(players, games);
    players.forEach((p, i) => expect(fit.ratings.get(p)!.rating).toBeCloseTo(ref.ratings[i]!, 1));
    expect(fit.drawParameter).toBeCloseTo(ref.nu, 3);
    expect(fit.ratings.get('a')!.rating).toBeGreaterThan(fit.ratings.get('d')!.rating);
  });

  it('gives 2 wins of 2 a finite estimate with a wide interval, and 18 draws of 18 a real interval', () => {
    const two = poolRatings(['x', 'y'], [game('x', 'y', 1), game('y', 'x', 0)]);
    const x = two.ratings.get('x')!;
    expect(Number.isFinite(x.rating) && x.rating > 0).toBe(true);
    expect(x.low).toBeLessThan(0);
    expect(x.high - x.low).toBeGreaterThan(400);
    const draws = poolRatings(
      ['x', 'y'],
      Array.from({ length: 18 }, (_, k) => game(k % 2 ? 'x' : 'y', k % 2 ? 'y' : 'x', 0.5)),
    );
    const d = draws.ratings.get('x')!;
    expect(d.rating).toBeCloseTo(0, 9);
    expect(d.high - d.low).toBeGreaterThan(20);
    expect(Number.isFinite(draws.drawParameter)).toBe(true);
  });

  const record = fc.record({
    wins: fc.integer({ min: 0, max: 30 }),
    draws: fc.integer({ min: 0, max: 30 }),
    losses: fc.integer({ min: 0, max: 30 }),
  });
  const gamesOf = (r: { wins: number; draws: number; losses: number }): PoolGame[] => [
    ...Array.from({ length: r.wins }, () => game('x', 'y', 1)),
    ...Array.from({ length: r.draws }, () => game('x', 'y', 0.5)),
    ...Array.from({ length: r.losses }, () => game('x', 'y', 0)),
  ];

  it('is finite with positive width for any record, mirrors when the record is swapped, and a win more raises the rating', () => {
    fc.assert(
      fc.property(record, (r) => {
        const fit = poolRatings(['x', 'y'], gamesOf(r)).ratings;
        const x = fit.get('x')!;
        expect(Number.isFinite(x.low) && Number.isFinite(x.high)).toBe(true);
        expect(x.high - x.low).toBeGreaterThan(0);
        expect(x.rating).toBeCloseTo(-fit.get('y')!.rating, 2);
        const swapped = poolRatings(['x', 'y'], gamesOf({ ...r, wins: r.losses, losses: r.wins })).ratings;
        expect(swapped.get('x')!.rating).toBeCloseTo(-x.rating, 2);
        const more = poolRatings(['x', 'y'], gamesOf({ ...r, wins: r.wins + 1 })).ratings.get('x')!;
        expect(more.rating).toBeGreaterThan(x.rating);
      }),
      { numRuns: 200 },
    );
  });

  it('does not depend on the order the games come in', () => {
    const games = [game('a', 'b', 1), game('b', 'c', 0.5), game('c', 'a', 0), game('a', 'c', 1)];
    const forward = poolRatings(['a', 'b', 'c'], games);
    const backward = poolRatings(['a', 'b', 'c'], [...games].reverse());
    expect([...backward.ratings]).toEqual([...forward.ratings]);
  });

  it('refuses a game with an unknown player', () => {
    expect(() => poolRatings(['a'], [game('a', 'b', 1)])).toThrow(RangeError);
  });
});
