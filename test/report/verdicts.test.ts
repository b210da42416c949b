import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tallyVerdicts, type VerdictGame, type VerdictPlayer } from '../../src/report/verdicts.js';
import { eloLine, erf, losPercent, scoreLine } from '../../src/report/match-lines.js';
import { eloInterval, verdictSections } from '../../src/report/verdict-table.js';
import type { GameResult } from '../../src/rules/chess/game.js';
import type { EndReason } from '../../src/platform/state.js';

function player(
  id: string,
  group: string,
  persona: string,
  opponentName = persona,
  extra: Partial<VerdictPlayer> = {},
): VerdictPlayer {
  return {
    id,
    handle: `${id}_handle`,
    persona,
    group,
    opponentName,
    eloStart: 1200,
    eloFinal: 1200,
    refused: new Map(),
    requestsMaxPerDay: 0,
    ...extra,
  };
}

function game(
  whiteId: string,
  blackId: string,
  result: GameResult,
  reason: EndReason = 'checkmate',
): VerdictGame {
  return { whiteId, blackId, result, reason };
}

/**
 * A and B (group g1, persona p) and C (group g2, an engine at sf-3). A beats B, draws C, loses to C on time;
 * B beats C with Black.
 */
const PLAYERS = [
  player('a', 'g1', 'p', 'p', {
    refused: new Map([
      ['rate_limit_exceeded', 3],
      ['bad_request', 1],
    ]),
    requestsMaxPerDay: 5200,
    eloFinal: 1231,
  }),
  player('b', 'g1', 'p'),
  player('c', 'g2', 'engine', 'sf-3'),
];
const GAMES = [
  game('a', 'b', '1-0'),
  game('a', 'c', '1/2-1/2', 'threefold_repetition'),
  game('c', 'a', '1-0', 'timeout'),
  game('c', 'b', '0-1'),
];

describe('verdicts, against hand-computed examples', () => {
  const verdicts = tallyVerdicts(PLAYERS, GAMES, 5000);
  const agent = (id: string) => verdicts.agents.find((a) => a.handle === `${id}_handle`)!;

  it("counts each agent's games, score, timeouts and opponents by persona or engine level", () => {
    expect(agent('a')).toEqual({
      handle: 'a_handle',
      // no name given: tables fall back to the handle (src/report/agent-names.ts)
      name: 'a_handle',
      persona: 'p',
      group: 'g1',
      games: 3,
      wins: 1,
      draws: 1,
      losses: 1,
      score: 0.5,
      elo_start: 1200,
      elo_final: 1231,
      // s' = (1.5 + 1) / (3 + 2) = 1/2: Elo 0; Wilson on n' = 5: centre 1/2, half-width
      // (1.96 / (1 + 3.8416/5))·sqrt(0.25/5 + 3.8416/100) = 0.3296 -> [0.1704, 0.8296], ±274.9 Elo.
      performance: { elo_diff: 0, low: -274.9, high: 274.9 },
      pool: expect.objectContaining({ elo: expect.any(Number) }) as unknown,
      vs: [
        { opponent: 'p', games: 1, wins: 1, draws: 0, losses: 0, score: 1 },
        { opponent: 'sf-3', games: 2, wins: 0, draws: 1, losses: 1, score: 0.25 },
      ],
      timeouts: 1,
      refused: { bad_request: 1, rate_limit_exceeded: 3 },
      requests_max_per_day: 5200,
      requests_limit: 5000,
    });
    expect(agent('b')).toMatchObject({
      games: 2,
      wins: 1,
      draws: 0,
      losses: 1,
      score: 0.5,
      timeouts: 0,
      performance: { elo_diff: 0 },
    });
    // Every interval finite and of positive width (the one score interval of src/rules/chess/match-elo.ts).
    for (const a of verdicts.agents) expect(a.performance.high! - a.performance.low!).toBeGreaterThan(0);
    expect(agent('c')).toMatchObject({
      games: 3,
      wins: 1,
      draws: 1,
      losses: 1,
      vs: [{ opponent: 'p', games: 3, wins: 1, draws: 1, losses: 1, score: 0.5 }],
    });
  });

  it('sums a group over its agents, vs rows included', () => {
    expect(verdicts.groups.map((g) => g.group)).toEqual(['g1', 'g2']);
    expect(verdicts.groups[0]).toEqual({
      group: 'g1',
      persona: 'p',
      agents: 2,
      games: 5,
      wins: 2,
      draws: 1,
      losses: 2,
      score: 0.5,
      // Against the other group only (a and b's game with each other left out): c, 1 win 1 draw 1 loss
      // from g1's side, so the same interval as agent a's.
      field: { games: 3, wins: 1, draws: 1, losses: 1, score: 0.5 },
      performance: { elo_diff: 0, low: -274.9, high: 274.9 },
      vs: [
        { opponent: 'p', games: 2, wins: 1, draws: 0, losses: 1, score: 0.5 },
        { opponent: 'sf-3', games: 3, wins: 1, draws: 1, losses: 1, score: 0.5 },
      ],
    });
  });

  it('gives nulls only without games: a perfect score has a finite estimate and interval', () => {
    const idle = tallyVerdicts([player('x', 'g', 'p')], [], 5000).agents[0]!;
    expect(idle).toMatchObject({
      games: 0,
      score: null,
      performance: { elo_diff: null, low: null, high: null },
      pool: null,
      vs: [],
    });
    const perfect = tallyVerdicts(
      [player('w', 'g', 'p'), player('l', 'h', 'q')],
      [game('w', 'l', '1-0'), game('l', 'w', '0-1'), game('w', 'l', '1-0')],
      5000,
    );
    // 3 of 3: s' = (3 + 1) / (3 + 2) = 0.8, +240.8 Elo, inside a finite interval; the loser mirrors it.
    const w = perfect.agents.find((a) => a.handle === 'w_handle')!;
    const l = perfect.agents.find((a) => a.handle === 'l_handle')!;
    expect(w.performance.elo_diff).toBe(240.8);
    expect(w.performance.low).toBeLessThan(0);
    expect(w.performance.high).toBeGreaterThan(240.8);
    expect(l.performance).toEqual({
      elo_diff: -240.8,
      low: -w.performance.high!,
      high: -w.performance.low!,
    });
    expect(w.pool!.elo).toBeGreaterThan(0);
    expect(w.pool!.elo).toBeCloseTo(-l.pool!.elo, 0);
  });

  it("a group's Elo against the field leaves out games between its own members", () => {
    // g1 (a, b) beat g2's c twice; a and b also play each other ten times, all won by a.
    const ps = [player('a', 'g1', 'p'), player('b', 'g1', 'p'), player('c', 'g2', 'q')];
    const inside = Array.from({ length: 10 }, () => game('a', 'b', '1-0'));
    const v = tallyVerdicts(ps, [...inside, game('a', 'c', '1-0'), game('c', 'b', '0-1')], 5000);
    const g1 = v.groups.find((g) => g.group === 'g1')!;
    expect(g1).toMatchObject({ games: 22, wins: 12, losses: 10 });
    expect(g1.field).toEqual({ games: 2, wins: 2, draws: 0, losses: 0, score: 1 });
    expect(g1.performance.elo_diff).toBe(190.8); // (2 + 1) / (2 + 2) = 0.75
  });

  it('ignores games against accounts that get no verdict, and sorts agents by handle, groups by label, vs rows by opponent', () => {
    const v = tallyVerdicts(
      [player('z', 'g9', 'p'), player('m', 'g10', 'p')],
      [game('z', 'someone_else', '1-0'), game('m', 'z', '0-1')],
      5000,
    );
    expect(v.agents.map((a) => a.handle)).toEqual(['m_handle', 'z_handle']);
    expect(v.groups.map((g) => g.group)).toEqual(['g10', 'g9']);
    expect(v.agents.find((a) => a.handle === 'z_handle')!.games).toBe(1);
  });
});

/** Every number in a verdict tree with its key: a score has at most 4 decimals, anything else (Elo) at most 1. */
function numbersOf(value: unknown, key = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[key, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => numbersOf(v, Array.isArray(value) ? key : k));
}

function hasAtMostDecimals(x: number, decimals: number): boolean {
  const f = 10 ** decimals;
  return Math.round(x * f) / f === x;
}

describe('verdict rounding', () => {
  // A draw-heavy record against one opponent makes every interval end and estimate a long fraction.
  it('rounds every figure: Elo to 0.1, scores to 4 decimals, never -0', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<GameResult>('1-0', '0-1', '1/2-1/2'), { minLength: 1, maxLength: 40 }),
        (results) => {
          const ps = [player('a', 'g1', 'p'), player('b', 'g2', 'q'), player('c', 'g2', 'q')];
          const games = results.map((r, i) => game(i % 3 === 0 ? 'c' : 'a', 'b', r));
          const numbers = numbersOf(tallyVerdicts(ps, games, 5000));
          expect(numbers.length).toBeGreaterThan(10);
          for (const [key, x] of numbers) {
            expect(Object.is(x, -0), key).toBe(false);
            expect(hasAtMostDecimals(x, key === 'score' ? 4 : 1), `${key}: ${x}`).toBe(true);
          }
        },
      ),
    );
  });
});

describe('verdict arithmetic, as a property', () => {
  const players = fc.integer({ min: 1, max: 8 }).chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }), // each player's group
      fc.array(
        fc.record({
          white: fc.nat(n - 1),
          black: fc.nat(n - 1),
          result: fc.constantFrom<GameResult>('1-0', '0-1', '1/2-1/2'),
          timeout: fc.boolean(),
        }),
        { maxLength: 60 },
      ),
    ),
  );

  it('W + D + L = games, scores within [0, 1], intervals ordered, and group sums equal agent sums', () => {
    fc.assert(
      fc.property(players, ([n, groupOf, raw]) => {
        const ps = Array.from({ length: n }, (_, i) =>
          player(`p${i}`, `g${groupOf[i]}`, `persona${groupOf[i]}`),
        );
        const games = raw
          .filter((g) => g.white !== g.black)
          .map((g) =>
            game(
              `p${g.white}`,
              `p${g.black}`,
              g.result,
              g.timeout && g.result !== '1/2-1/2' ? 'timeout' : 'checkmate',
            ),
          );
        const v = tallyVerdicts(ps, games, 5000);
        let sum = 0;
        for (const row of [
          ...v.agents,
          ...v.groups,
          ...v.agents.flatMap((a) => a.vs),
          ...v.groups.flatMap((g) => g.vs),
        ]) {
          expect(row.wins + row.draws + row.losses).toBe(row.games);
          if (row.games === 0) expect(row.score).toBeNull();
          else {
            expect(row.score).toBeGreaterThanOrEqual(0);
            expect(row.score).toBeLessThanOrEqual(1);
          }
        }
        for (const a of v.agents) {
          sum += a.games;
          expect(a.vs.reduce((s, r) => s + r.games, 0)).toBe(a.games);
          expect(a.timeouts).toBeLessThanOrEqual(a.losses);
          const p = a.performance;
          expect(p.elo_diff === null).toBe(a.games === 0);
          if (a.games > 0) {
            expect(p.low!).toBeLessThan(p.elo_diff!);
            expect(p.high!).toBeGreaterThan(p.elo_diff!);
            expect(a.pool!.low).toBeLessThan(a.pool!.high);
          }
        }
        expect(sum).toBe(2 * games.length); // every game counts once for each side
        for (const g of v.groups) {
          const members = v.agents.filter((a) => a.group === g.group);
          expect(g.agents).toBe(members.length);
          const inside = games.filter(
            (x) =>
              ps.find((q) => q.id === x.whiteId)!.group === g.group &&
              ps.find((q) => q.id === x.blackId)!.group === g.group,
          ).length;
          expect(g.field.games).toBe(g.games - 2 * inside);
          for (const key of ['games', 'wins', 'draws', 'losses'] as const)
            expect(g[key]).toBe(members.reduce((s, a) => s + a[key], 0));
        }
        const wins = v.agents.reduce((s, a) => s + a.wins, 0);
        expect(wins).toBe(v.agents.reduce((s, a) => s + a.losses, 0));
      }),
    );
  });
});

describe('score lines and the verdict table', () => {
  it('writes cutechess-style lines: W - L - D, the score, the games; the Elo line with LOS and draw ratio', () => {
    const t = { games: 10, wins: 3, draws: 2, losses: 5 };
    expect(scoreLine('my_agent', 'sf-3', t)).toBe('Score of my_agent vs sf-3: 3 - 5 - 2 [0.400] 10');
    // s' = (4 + 1) / (10 + 2): Elo -58.5, in its Wilson interval; LOS 0.5(1 + erf(-2 / sqrt(16))) = 23.98 %.
    expect(eloLine(t)).toMatch(
      /^Elo difference: -58\.5 \[-\d+\.\d, \+\d+\.\d\] \(95%\), LOS \(per game, as cutechess\): 24\.0 %, DrawRatio: 20\.0 %$/,
    );
    // 4 of 4: finite, (4 + 1) / (4 + 2) -> +279.6, with a finite upper bound; LOS 0.5(1 + erf(4 / sqrt(8))).
    expect(eloLine({ games: 4, wins: 4, draws: 0, losses: 0 })).toMatch(
      /^Elo difference: \+279\.6 \[-\d+\.\d, \+\d+\.\d\] \(95%\), LOS \(per game, as cutechess\): 97\.7 %, DrawRatio: 0\.0 %$/,
    );
    expect(eloLine({ games: 2, wins: 0, draws: 2, losses: 0 })).toContain('cutechess): n/a');
    expect(losPercent({ wins: 5, losses: 5 })).toBeCloseTo(50, 9);
    expect(erf(0.5)).toBeCloseTo(0.5204999, 6);
    expect(erf(-1.2)).toBeCloseTo(-0.910314, 6);
  });

  it('the console line and the verdict table give the same interval for the same games (one method)', () => {
    // 4 wins, 4 draws, 12 losses: the record behind the "-107.5 +/- 111.9" beside "[-230, -7]".
    const ps = [player('me', 'g1', 'p'), player('them', 'g2', 'q')];
    const games = [
      ...Array.from({ length: 4 }, () => game('me', 'them', '1-0')),
      ...Array.from({ length: 4 }, () => game('me', 'them', '1/2-1/2')),
      ...Array.from({ length: 12 }, () => game('them', 'me', '1-0')),
    ];
    const me = tallyVerdicts(ps, games, 5000).agents.find((a) => a.handle === 'me_handle')!;
    const line = eloLine(me);
    const p = me.performance;
    const tenth = (x: number) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));
    expect(line).toContain(`${tenth(p.elo_diff!)} [${tenth(p.low!)}, ${tenth(p.high!)}] (95%)`);
    expect(line).not.toContain('+/-');
  });

  it('shows every agent of a small run, and only groups plus the top and bottom three ranked agents of a large one', () => {
    const small = verdictSections(tallyVerdicts(PLAYERS, GAMES, 5000));
    expect(small.map((s) => s.title)).toEqual([
      'groups (2)',
      'agents (3; ranked by pool Elo, at least 10 games to be ranked)',
    ]);
    expect(small[1]!.rows.map((r) => r[0])).toEqual(['-', '-', '-']); // nobody has 10 games
    // 20 agents in a chain: p(i+1) beats p(i) ten times; p00 and p01 also play once more, p00 winning.
    const many = Array.from({ length: 20 }, (_, i) => player(`p${String(i).padStart(2, '0')}`, 'g', 'p'));
    const games = many
      .slice(1)
      .flatMap((p, i) => Array.from({ length: 10 }, () => game(p.id, many[i]!.id, '1-0')));
    // A newcomer with 2 wins in 2 games: the best score, but too few games to be ranked.
    const lucky = player('lucky', 'g', 'p');
    const all = [...many, lucky];
    const large = verdictSections(
      tallyVerdicts(all, [...games, game('lucky', 'p00', '1-0'), game('p01', 'lucky', '0-1')], 5000),
    );
    expect(large[0]!.title).toBe('groups (1)');
    expect(large[1]!.title).toBe(
      'agents: top 3 and bottom 3 of 21 (ranked by pool Elo, at least 10 games to be ranked; 1 with fewer games not ranked)',
    );
    expect(large[1]!.rows).toHaveLength(6);
    expect(large[1]!.rows.map((r) => r[0])).toEqual(['1', '2', '3', '18', '19', '20']);
    expect(large[1]!.rows[0]![1]).toBe('p19_handle'); // top of the chain
    expect(large[1]!.rows.map((r) => r[1])).not.toContain('lucky_handle');
    expect(eloInterval({ elo_diff: 88.04, low: 12.2, high: 170.5 })).toBe('+88 [+12, +171]');
  });
});
