import { describe, expect, it } from 'vitest';
import { buildRulesetCompare, type RulesetCompareIdentity } from '../../src/compare/ruleset-compare.js';
import { checkGuards, parseGuards } from '../../src/compare/ruleset-guard.js';
import { headline, rulesetLines, unchangedLine, warningLines } from '../../src/compare/ruleset-text.js';
import type { Metrics } from '../../src/sweep/outputs/metrics.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';

/** A compare model from made-up per-seed metrics (side a then side b per seed), without running anything. */
function modelOf(a: Metrics[], b: Metrics[]) {
  const seeds = a.map((_, i) => i + 1);
  const identity: RulesetCompareIdentity = {
    tool: 'agent-chess-sim',
    version: '0.0.0-test',
    scenario: { name: 'made-up', file: 'made-up.yaml', sha256: 'x', duration_ms: 6 * 3_600_000 },
    seeds: { spec: `1..${seeds.length}`, count: seeds.length },
    sides: [
      { name: 'a', file: 'default', overrides: null, sha256: 'a' },
      { name: 'b', file: 'b.yaml', overrides: {}, sha256: 'b' },
    ],
  };
  const result = (seed: number, metrics: Metrics, side: string): SeedResult => ({
    seed,
    status: 'passed',
    fingerprint: `${side}${seed}`,
    invariants: [],
    metrics,
    error: null,
  });
  return buildRulesetCompare(
    identity,
    seeds.flatMap((seed, i) => [result(seed, a[i]!, 'a'), result(seed, b[i]!, 'b')]),
  );
}

const N = 10;
const range = (f: (i: number) => Metrics) => Array.from({ length: N }, (_, i) => f(i));

describe('the ruleset verdict', () => {
  const noise = [3, -1, 4, -1, -5, 9, -2, 6, -5, 3];
  const c = modelOf(
    range((i) => ({ agents: 6, moves: 100 + i, fee_lamports: 1e9, likes: 50 + noise[i]! })),
    range((i) => ({
      agents: 6,
      moves: 130 + i + (i % 3), // +30 to +32 on every seed: a change no noise explains
      fee_lamports: 2e9 + i * 1e6,
      likes: 50 + noise[(i + 3) % N]!, // the same values in another order: noise
      refused_rate_limit_exceeded: i % 3 === 0 ? 1 : 0, // absent from side a: counted 0 there
    })),
  );

  it('flags the real changes only, names the correction, and sorts by standardised effect', () => {
    expect(c.family).toMatchObject({ correction: 'Holm–Bonferroni', alpha: 0.05, tested: 5 });
    expect(c.metrics.filter((r) => r.differs).map((r) => r.metric)).toEqual(['fee_lamports', 'moves']);
    expect(c.metrics.map((r) => r.metric)).toEqual([
      'fee_lamports',
      'moves',
      'refused_rate_limit_exceeded',
      'likes',
      'agents',
    ]);
    expect(headline(c)).toBe('2 of 5 metrics changed beyond noise: fee_lamports +100%, moves +29.6%.');
    expect(unchangedLine(c)).toBe('1 unchanged (identical on every seed): agents.');
    const refused = c.metrics.find((r) => r.metric === 'refused_rate_limit_exceeded')!;
    expect([refused.mean_a, refused.mean_b, refused.relative_pct]).toEqual([0, 0.4, null]);
  });

  it('reads counts per virtual day and lamports in SOL', () => {
    const lines = rulesetLines(c);
    // moves: 104.5 a run of 6 virtual hours is 418 a day; b 135.4 a run, 541.6 a day (a change of +29.6%)
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^moves +418\/day +542\/day +\+124\/day +\+29\.6% +\[\+120, \+127\] +35\.3 +changed$/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^fee_lamports +1 SOL +2 SOL +\+1 SOL +\+100% /));
  });

  it('warns when an unflagged row moved by a noticeable effect with too few seeds', () => {
    const refused = c.metrics.find((r) => r.metric === 'refused_rate_limit_exceeded')!;
    expect(refused.differs).toBe(false);
    expect(c.underpowered.map((u) => u.metric)).toContain('refused_rate_limit_exceeded');
    expect(warningLines(c)[0]).toMatch(
      /^warning: too few seeds .*refused_rate_limit_exceeded \([\d.]+ sd: \d+ seeds\)/,
    );
  });

  it('guards: trips only on a flagged change in the named direction; an unknown name is bad input', () => {
    const guards = parseGuards([
      'moves:increase',
      'moves:decrease',
      'likes:any',
      'refused_x_y:increase',
      'mvoes:any',
    ]);
    expect(typeof guards).not.toBe('string');
    expect(checkGuards(c, guards as Exclude<typeof guards, string>).map((g) => g.status)).toEqual([
      'tripped',
      'held',
      'held',
      'held',
      'unknown',
    ]);
    expect(parseGuards(['moves'])).toMatch(/^--fail-if-changed moves: give METRIC:DIRECTION/);
    expect(parseGuards(['moves:up'])).toMatch(/DIRECTION one of increase, decrease, any/);
  });
});
