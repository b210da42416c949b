import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MatchTally, pairRecord, planMatch, type MatchSetup } from '../../src/compare/agent-match.js';
import { duelGame, duelScenario, type DuelResult } from '../../src/compare/duel.js';
import { pairDrawRatioPercent, pairElo, pairEloLine, pairLosPercent } from '../../src/compare/match-stats.js';
import { parsePlayer, type PlayerSpec } from '../../src/compare/players.js';
import { erf, scoreInterval } from '../../src/rules/chess/match-elo.js';
import { pairsLlr } from '../../src/rules/chess/sprt.js';

const runs = { numRuns: 100 };

const spec = (word: string) => parsePlayer(word, '--agent', process.cwd()) as PlayerSpec;
const bounds = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };

type Result = '1-0' | '0-1' | '1/2-1/2';

/** A duel world's result as the pool returns it: one game, finished with `result`. */
function duelResult(
  seed: number,
  result: Result,
  ending: 'checkmate' | 'stalemate' = result === '1/2-1/2' ? 'stalemate' : 'checkmate',
): DuelResult {
  const play = { gamesStarted: 1, game: { result, ending } };
  return {
    seed,
    status: 'passed',
    fingerprint: `sha256:${seed}`,
    invariants: [],
    metrics: {},
    error: null,
    play,
  };
}

describe('compare --agent: pairs, colours and the SPRT in seed order', () => {
  it('plans two duel worlds per seed head to head, A with White first; four through an opponent', () => {
    const setup: MatchSetup = { a: spec('greedy'), b: spec('random'), vs: [], bounds, seeds: [1, 2] };
    const { pairs, tasks } = planMatch(setup);
    expect(pairs.map((p) => [p.seed, p.first, p.count])).toEqual([
      [1, 0, 2],
      [2, 2, 2],
    ]);
    expect(tasks.map((t) => t.seed)).toEqual([1, 1, 2, 2]);
    const name = (t: (typeof tasks)[number]) => duelScenario(t.white, t.black, t.seed).name;
    expect(name(tasks[0]!)).toBe('duel greedy (white) vs random (black)');
    expect(name(tasks[1]!)).toBe('duel random (white) vs greedy (black)');
    const through = planMatch({ ...setup, vs: [spec('cautious'), spec('sf-1')], seeds: [5, 6, 7] });
    expect(through.pairs.map((p) => p.opponent?.name)).toEqual(['cautious', 'sf-1', 'cautious']);
    expect(through.tasks.slice(0, 4).map(name)).toEqual([
      'duel greedy (white) vs cautious (black)',
      'duel cautious (white) vs greedy (black)',
      'duel random (white) vs cautious (black)',
      'duel cautious (white) vs random (black)',
    ]);
  });

  it("scores a pair from A's side: A's White game, then A's Black game", () => {
    const setup: MatchSetup = { a: spec('greedy'), b: spec('random'), vs: [], bounds, seeds: [1] };
    const plan = planMatch(setup).pairs[0]!;
    expect(pairRecord(setup, plan, [duelResult(1, '1-0'), duelResult(1, '1/2-1/2')]).scores).toEqual([
      1, 0.5,
    ]);
    expect(pairRecord(setup, plan, [duelResult(1, '0-1'), duelResult(1, '0-1')]).scores).toEqual([0, 1]);
    const record = pairRecord(setup, plan, [duelResult(1, '1-0'), duelResult(1, '1-0')]);
    expect(record.games).toEqual([
      { white: 'greedy', black: 'random', result: '1-0', ending: 'checkmate' },
      { white: 'random', black: 'greedy', result: '1-0', ending: 'checkmate' },
    ]);
    expect(record.scores).toEqual([1, 0]);
  });

  it('through an opponent, sets A against B game by game: more, equal or less of the same seed and colour', () => {
    const setup: MatchSetup = {
      a: spec('greedy'),
      b: spec('random'),
      vs: [spec('cautious')],
      bounds,
      seeds: [1],
    };
    const plan = planMatch(setup).pairs[0]!;
    // A: won with White, drew with Black; B: drew with White, lost with Black
    const results = [
      duelResult(1, '1-0'),
      duelResult(1, '1/2-1/2'),
      duelResult(1, '1/2-1/2'),
      duelResult(1, '1-0'),
    ];
    expect(pairRecord(setup, plan, results)).toMatchObject({
      opponent: 'cautious',
      scores: [1, 1],
      void: null,
    });
    const even = [duelResult(1, '0-1'), duelResult(1, '1-0'), duelResult(1, '0-1'), duelResult(1, '1-0')];
    expect(pairRecord(setup, plan, even).scores).toEqual([0.5, 0.5]);
  });

  it('makes a pair void when a world did not give one finished game, and keeps a broken invariant as a note', () => {
    const setup: MatchSetup = { a: spec('greedy'), b: spec('random'), vs: [], bounds, seeds: [1] };
    const plan = planMatch(setup).pairs[0]!;
    const crashed: DuelResult = {
      seed: 1,
      status: 'crashed',
      fingerprint: null,
      invariants: [],
      metrics: null,
      error: 'boom',
    };
    expect(pairRecord(setup, plan, [duelResult(1, '1-0'), crashed])).toMatchObject({
      scores: null,
      void: 'crashed: boom',
    });
    const unfinished = duelResult(1, '1-0');
    unfinished.play = { gamesStarted: 1, game: null };
    expect(duelGame(unfinished)).toBe('the duel game did not finish inside the world');
    expect(duelGame({ ...unfinished, play: { gamesStarted: 0, game: null } })).toMatch(/never started/);
    const broke: DuelResult = {
      ...duelResult(1, '1-0'),
      status: 'failed',
      invariants: [
        {
          name: 'deadlines_exact',
          passed: false,
          checks: 9,
          violations: 2,
          first_violation: 'x',
          required: false,
        },
      ],
    };
    expect(pairRecord(setup, plan, [broke, duelResult(1, '0-1')])).toMatchObject({
      scores: [1, 1],
      void: null,
      broken: ['deadlines_exact (2)'],
    });
  });

  it('takes pairs in seed order whatever order the worlds finish in, and nothing after the decision', () => {
    const outcomes = fc.array(fc.constantFrom<Result>('1-0', '0-1', '1/2-1/2', '1-0', '1-0'), {
      minLength: 80,
      maxLength: 80,
    });
    fc.assert(
      fc.property(outcomes, fc.infiniteStream(fc.nat()), (games, draws) => {
        const setup: MatchSetup = {
          a: spec('greedy'),
          b: spec('random'),
          vs: [],
          bounds: { ...bounds, elo1: 40 },
          seeds: Array.from({ length: 40 }, (_, i) => i + 1),
        };
        const { pairs, tasks } = planMatch(setup);
        const results = tasks.map((t, i) => duelResult(t.seed, games[i]!));
        const inOrder = new MatchTally(setup, pairs);
        results.forEach((r, i) => inOrder.accept(i, r));
        // a random finishing order, as worker threads give it
        const order = [...results.keys()];
        const it = draws[Symbol.iterator]();
        for (let i = order.length - 1; i > 0; i--) {
          const j = it.next().value! % (i + 1);
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        const shuffled = new MatchTally(setup, pairs);
        for (const i of order) shuffled.accept(i, results[i]!);
        expect(shuffled.records).toEqual(inOrder.records);
        expect(shuffled.state).toEqual(inOrder.state);
        expect(inOrder.records.map((r) => r.seed)).toEqual(setup.seeds.slice(0, inOrder.records.length));
        if (inOrder.decided) expect(pairsLlr(inOrder.pairs, setup.bounds)).toBe(inOrder.state.llr);
        else expect(inOrder.records).toHaveLength(40);
      }),
      runs,
    );
  });

  it('gives the Elo of the mean pair score from the pairs, a perfect pair score bounded from the pairs too', () => {
    // 10 pairs: 2 x 1/2, 6 x 3/4, 2 x 1 of the pair; one virtual even pair: s' = (7.5 + 0.5) / 11.
    const mixed = { lossLoss: 0, lossDraw: 0, even: 2, winDraw: 6, winWin: 2 };
    const e = pairElo(mixed);
    const interval = scoreInterval(7.5, 10, 2);
    const elo = (s: number) => 400 * Math.log10(s / (1 - s));
    expect(interval.score).toBeCloseTo(8 / 11, 12);
    expect(e.elo).toBeCloseTo(elo(interval.score), 9);
    // The pairs' own spread (0.025 observed, a little more with the prior's virtual pair) is well under the
    // binomial 0.198 of a pair as one unit: the interval is narrower than that, and holds the estimate.
    expect(e.low).toBeGreaterThan(elo(interval.low));
    expect(e.high).toBeLessThan(elo(interval.high));
    expect(e.low).toBeLessThan(e.elo);
    expect(e.elo).toBeLessThan(e.high);
    // 10 pairs won of 10: finite, and the lower bound from 10 pairs (about the exact binomial +140 over
    // 10 pairs), not from 20 games as if independent (+277).
    const perfect = pairElo({ lossLoss: 0, lossDraw: 0, even: 0, winDraw: 0, winWin: 10 });
    expect(Number.isFinite(perfect.elo) && Number.isFinite(perfect.high)).toBe(true);
    expect(perfect.low).toBeGreaterThan(100);
    expect(perfect.low).toBeLessThan(160);
    // Pair LOS and draw ratio, as fastchess: Φ((s - 1/2)/sqrt(var/n)); even pairs over all pairs.
    // s = 0.75, var = (2·0.0625 + 0 + 2·0.0625) / 10 = 0.025: z = 0.25 / 0.05 = 5.
    expect(pairLosPercent(mixed)).toBeCloseTo(100 * (0.5 * (1 + erf(5 / Math.SQRT2))), 6);
    expect(pairDrawRatioPercent(mixed)).toBe(20);
    expect(pairLosPercent({ lossLoss: 0, lossDraw: 0, even: 4, winDraw: 0, winWin: 0 })).toBe(50);
  });

  it("labels the Elo after an SPRT's early stop as uncorrected", () => {
    const pairs = { lossLoss: 0, lossDraw: 1, even: 2, winDraw: 6, winWin: 2 };
    expect(pairEloLine(pairs, true)).toMatch(
      /^Elo difference: \+137\.0 \[[-+]\d+\.\d, \+\d+\.\d\] \(95%, not corrected for the SPRT stopping early\), LOS: [\d.]+ %, DrawRatio: 18\.2 % \(by pairs\)$/,
    );
    expect(pairEloLine(pairs, false)).toContain('(95%), LOS');
  });
});
