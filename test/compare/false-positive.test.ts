import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildRulesetCompare,
  rulesetCompareIdentity,
  type RulesetCompare,
} from '../../src/compare/ruleset-compare.js';
import { checkGuards } from '../../src/compare/ruleset-guard.js';
import { rulesetSides, type RulesetSide } from '../../src/compare/rulesets.js';
import { headline } from '../../src/compare/ruleset-text.js';
import { loadScenarioFileWithSource } from '../../src/sim/scenario/scenario.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';
import { runSeed } from '../../src/sweep/run-seed.js';
import { tempDir } from './helpers.js';

/**
 * The false-positive rate of `compare --ruleset`, proved on real runs. Four random players for one virtual
 * hour (no tournaments, no money, no social beyond research posts), 8 seeds, run in process:
 * - A against A′, which differs only in the tournament system fee: no run reaches it, every seed runs
 *   identically, and nothing may be flagged;
 * - A against A on other seeds (seed s paired with seed s + 100): a true null with real seed-to-seed noise
 *   in every metric, where a per-metric 95% test would often flag something and Holm must flag nothing;
 * - A against a 60-half-move limit, a rule every game meets: flagged on that rule's own rows.
 * 32 runs of a fraction of a second each; the test allows 150 s, over 3x what it takes on a busy machine.
 */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const SHIFT = 100;

function miniScenario(dir: string): string {
  const file = join(dir, 'mini.yaml');
  writeFileSync(
    file,
    [
      'name: mini',
      'seed: 1',
      'start: 2026-01-01T00:00:00Z',
      'duration: 1h',
      'population:',
      '  - persona: random',
      '    count: 4',
      '    heartbeat: { min: 10s, max: 20s }',
      '    options: { maxGames: 1 }',
      '',
    ].join('\n'),
  );
  return file;
}

async function runSide(side: RulesetSide, file: string, seeds: readonly number[]): Promise<SeedResult[]> {
  const out: SeedResult[] = [];
  for (const seed of seeds)
    out.push(await runSeed({ scenarioText: side.scenarioText, scenarioFile: file, seed }));
  return out;
}

/** The compare model of `a` against `b`, each seed's a run beside the b run at the same index. */
function compareOf(file: string, sides: RulesetSide[], a: SeedResult[], b: SeedResult[]): RulesetCompare {
  const identity = rulesetCompareIdentity(
    '0.0.0-test',
    { name: 'mini', file, text: readFileSync(file, 'utf8'), durationMs: 3_600_000 },
    sides,
    SEEDS,
  );
  return buildRulesetCompare(
    identity,
    a.flatMap((r, i) => [r, { ...b[i]!, seed: r.seed }]),
  );
}

describe('compare --ruleset controls its false-positive rate', () => {
  it('flags nothing for A/A′ (a rule never reached) or A/A on other seeds, and flags a move limit on its own rows', async () => {
    const dir = tempDir();
    const file = miniScenario(dir);
    const fee = join(dir, 'fee.yaml');
    writeFileSync(fee, 'tournaments: { systemFeeBps: 400 }\n');
    const short = join(dir, 'short.yaml');
    writeFileSync(short, 'game: { moveLimitPlies: 60 }\n');
    const { source } = loadScenarioFileWithSource(file);
    const [base, aPrime] = rulesetSides(file, source, ['default', fee]);
    const [, limited] = rulesetSides(file, source, ['default', short]);

    const a = await runSide(base!, file, SEEDS);
    const prime = await runSide(aPrime!, file, SEEDS);
    const other = await runSide(
      base!,
      file,
      SEEDS.map((s) => s + SHIFT),
    );
    const changed = await runSide(limited!, file, SEEDS);

    const aa = compareOf(file, [base!, aPrime!], a, prime);
    expect(aa.counts.identical).toBe(SEEDS.length);
    expect(aa.family.flagged).toBe(0);
    expect(aa.metrics.every((r) => r.unchanged && !r.differs)).toBe(true);
    expect(headline(aa)).toBe(`0 of ${aa.family.tested} metrics changed beyond noise.`);

    const noise = compareOf(file, [base!, base!], a, other);
    const moving = noise.metrics.filter((r) => !r.unchanged);
    // a real null: many metrics differ seed by seed, so an uncorrected test would have much to flag
    expect(moving.length).toBeGreaterThanOrEqual(10);
    expect(noise.metrics.filter((r) => r.differs).map((r) => r.metric)).toEqual([]);

    const real = compareOf(file, [base!, limited!], a, changed);
    const flagged = real.metrics.filter((r) => r.differs).map((r) => r.metric);
    expect(flagged).toContain('ending_move_limit');
    expect(flagged).toContain('moves_per_game');
    const perGame = real.metrics.find((r) => r.metric === 'moves_per_game')!;
    expect(perGame.mean_b).toBeLessThanOrEqual(60);
    expect(perGame.high!).toBeLessThan(0);
    // the CI guard: "must not lengthen games" holds, "must not shorten them" trips
    const [lengthen, shorten] = checkGuards(real, [
      { metric: 'moves_per_game', direction: 'increase' },
      { metric: 'moves_per_game', direction: 'decrease' },
    ]);
    expect([lengthen!.status, shorten!.status]).toEqual(['held', 'tripped']);
    expect(headline(real)).toMatch(
      /^\d+ of \d+ metrics changed beyond noise: .*ending_move_limit 0\/day → [\d.]+\/day/,
    );
  }, 150_000);
});
