import { afterAll, describe, expect, it } from 'vitest';
import {
  buildLadder,
  calibrationPairings,
  nameOf,
  playPairings,
  RANDOM_ANCHOR,
} from '../../src/sim/calibration.js';
import { LEVELS } from '../../agents/engines/levels.js';
import { EnginePool } from '../../agents/engines/pool.js';
import {
  levelsFor,
  nearestLevel,
  SHIPPED_LADDER,
  standardNormal,
  type Ladder,
} from '../../agents/engines/strength.js';
import { Rng } from '../../src/kernel/rng.js';
import { matchElo } from '../../src/rules/chess/match-elo.js';

const meta = { seed: 't', gamesPerPairing: 10, checkGames: 4, nodesScale: 1 };
const settings = { nodes: 100, multiPv: 2, spreadCp: 10 };
const levels = (...names: string[]) => names.map((name) => ({ ...settings, name }));

describe('the calibration ladder', () => {
  it('chains each level onto the one below, from random at 400', () => {
    const results = [
      { first: 'sf-a', second: 'random', wins: 6, draws: 2, losses: 2 },
      { first: 'sf-b', second: 'sf-a', wins: 12, draws: 4, losses: 4 },
    ];
    const ladder = buildLadder(levels('sf-a', 'sf-b'), results, meta);
    const a = matchElo(results[0]!);
    const b = matchElo(results[1]!);
    expect(ladder.anchor).toEqual({ name: 'random', elo: 400 });
    expect(ladder.levels[0]).toEqual({
      ...settings,
      name: 'sf-a',
      elo: Math.round(400 + a.estimate),
      low: Math.round(400 + a.low),
      high: Math.round(400 + a.high),
      games: 10,
    });
    const top = 400 + a.estimate + b.estimate;
    expect(ladder.levels[1]).toEqual({
      ...settings,
      name: 'sf-b',
      elo: Math.round(top),
      low: Math.round(top - Math.hypot(a.estimate - a.low, b.estimate - b.low)),
      high: Math.round(top + Math.hypot(a.high - a.estimate, b.high - b.estimate)),
      games: 30,
    });
  });

  it('counts a perfect score as a finite estimate with both bounds (two virtual draws, Wilson interval)', () => {
    const results = [
      { first: 'sf-a', second: 'random', wins: 10, draws: 0, losses: 0 },
      { first: 'sf-b', second: 'sf-a', wins: 3, draws: 0, losses: 1 },
      { first: 'sf-b', second: 'random', wins: 10, draws: 0, losses: 0 },
    ];
    const ladder = buildLadder(levels('sf-a', 'sf-b'), results, meta);
    const { estimate, low, high } = matchElo(results[0]!); // (10 + 1) / (10 + 2) -> +416.6
    expect(estimate).toBeCloseTo(416.6, 1);
    expect(ladder.levels[0]).toMatchObject({
      elo: Math.round(400 + estimate),
      low: Math.round(400 + low),
      high: Math.round(400 + high),
    });
    const b = matchElo(results[1]!); // (3 + 1) / (4 + 2) -> +120.4
    expect(ladder.levels[1]!.elo).toBe(Math.round(400 + estimate + b.estimate));
    expect(ladder.levels[1]!.high).not.toBeNull();
    // The sanity check against random is recorded, not chained, with a finite Elo and interval.
    expect(ladder.pairings[2]).toMatchObject({ first: 'sf-b', second: 'random', elo: Math.round(estimate) });
  });

  it('pairs every level with the one below it and, as a check, with random', () => {
    const names = calibrationPairings(LEVELS, meta).map(
      (p) => `${nameOf(p.first)}/${nameOf(p.second)}/${p.games}`,
    );
    expect(names[0]).toBe(`${LEVELS[0]!.name}/random/10`);
    expect(names).toContain(`${LEVELS[1]!.name}/${LEVELS[0]!.name}/10`);
    expect(names).toContain(`${LEVELS.at(-1)!.name}/random/4`);
    expect(names).toHaveLength(2 * LEVELS.length - 1);
  });

  it('ships a ladder measured on the current levels, ascending in Elo', () => {
    expect(SHIPPED_LADDER.anchor).toEqual(RANDOM_ANCHOR);
    expect(SHIPPED_LADDER.nodesScale).toBe(1);
    // A stale ladder (levels.ts changed since) fails here: run `agent-chess-sim calibrate`.
    expect(
      SHIPPED_LADDER.levels.map(({ name, nodes, multiPv, spreadCp }) => ({ name, nodes, multiPv, spreadCp })),
    ).toEqual(LEVELS.map(({ name, nodes, multiPv, spreadCp }) => ({ name, nodes, multiPv, spreadCp })));
    SHIPPED_LADDER.levels.forEach((level, i) => {
      expect(level.games).toBeGreaterThan(0);
      if (i > 0) expect(level.elo).toBeGreaterThan(SHIPPED_LADDER.levels[i - 1]!.elo);
    });
  });
});

describe('ladder monotonicity', () => {
  afterAll(() => EnginePool.shared().close());

  it('the strongest level beats the weakest in a seeded mini-match, the same way twice', async () => {
    const [weakest, strongest] = [LEVELS[0]!, LEVELS.at(-1)!];
    const match = () =>
      playPairings([{ first: strongest, second: weakest, games: 4 }], {
        seed: 'monotone',
        nodesScale: 1,
        pool: EnginePool.shared(),
      });
    const [result] = await match();
    expect(result).toMatchObject({ first: strongest.name, second: weakest.name });
    expect(result!.wins + result!.draws + result!.losses).toBe(4);
    expect(matchElo(result!).score).toBeGreaterThanOrEqual(0.75);
    // The replay is served mostly from the pool's answer cache: same seed, same moves, same result.
    expect(await match()).toEqual([result]);
  });
});

describe('strength selection', () => {
  const ladder: Ladder = {
    ...meta,
    method: 'test',
    anchor: RANDOM_ANCHOR,
    pairings: [],
    levels: [1000, 1200, 1400, 1600].map((elo, i) => ({
      ...settings,
      name: `l${i}`,
      elo,
      low: null,
      high: null,
      games: 1,
    })),
  };

  it('maps a target to the nearest level, ties to the weaker', () => {
    expect(nearestLevel(1290, ladder).name).toBe('l1');
    expect(nearestLevel(1310, ladder).name).toBe('l2');
    expect(nearestLevel(1300, ladder).name).toBe('l1');
    expect(nearestLevel(0, ladder).name).toBe('l0');
    expect(nearestLevel(9000, ladder).name).toBe('l3');
  });

  it('is deterministic for a seed and varies with it', () => {
    const draw = (seed: string) =>
      levelsFor({ mean: 1300, sd: 200 }, 50, new Rng(seed).fork('population'), ladder);
    expect(draw('s1')).toEqual(draw('s1'));
    expect(draw('s1')).not.toEqual(draw('s2'));
    expect(new Set(draw('s1'))).toEqual(new Set(['l0', 'l1', 'l2', 'l3']));
  });

  it('with no spread, every pick is the level nearest the mean', () => {
    expect(levelsFor({ mean: 1390, sd: 0 }, 5, new Rng('x'), ladder)).toEqual(['l2', 'l2', 'l2', 'l2', 'l2']);
    expect(levelsFor({ mean: 1390, sd: 0 }, 0, new Rng('x'), ladder)).toEqual([]);
  });

  it('draws targets from a standard normal', () => {
    const rng = new Rng('normal');
    const draws = Array.from({ length: 20_000 }, () => standardNormal(rng));
    const mean = draws.reduce((s, x) => s + x, 0) / draws.length;
    const sd = Math.sqrt(draws.reduce((s, x) => s + (x - mean) ** 2, 0) / draws.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
    expect(draws.filter((x) => Math.abs(x) < 1.96).length / draws.length).toBeCloseTo(0.95, 1);
  });

  it('rejects a request that is not a population', () => {
    expect(() => levelsFor({ mean: 1500, sd: -1 }, 3, new Rng('x'), ladder)).toThrow(RangeError);
    expect(() => levelsFor({ mean: 1500, sd: 100 }, 1.5, new Rng('x'), ladder)).toThrow(RangeError);
  });
});
