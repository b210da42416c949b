import fc from 'fast-check';
import type { SeedResult } from '../../src/sweep/seed-result.js';
import { sweepIdentity, type SweepIdentity } from '../../src/sweep/sweep-result.js';

/** Made-up per-seed results for the pure model tests: what a run could report, without running one. */
export function fakeResult(
  seed: number,
  kind: 'passed' | 'failed' | 'crashed' | 'timed_out' = 'passed',
  moves = seed * 10,
): SeedResult {
  if (kind === 'crashed' || kind === 'timed_out') {
    return {
      seed,
      status: kind,
      fingerprint: null,
      invariants: [],
      metrics: null,
      error: kind === 'crashed' ? 'boom' : 'no result within 5 s',
    };
  }
  const broke = kind === 'failed';
  return {
    seed,
    status: kind,
    fingerprint: `sha256:${String(seed).padStart(64, '0')}`,
    invariants: [
      {
        name: 'elo_conservation',
        passed: !broke,
        checks: 10,
        violations: broke ? 2 : 0,
        first_violation: broke ? 'game g1: 3 + -2 != 0 <&>' : null,
        required: false,
      },
      {
        name: 'one_result_per_game',
        passed: true,
        checks: 4,
        violations: 0,
        first_violation: null,
        required: false,
      },
    ],
    metrics: { moves, games_completed: seed % 3 },
    error: null,
  };
}

export function fakeIdentity(
  seeds: readonly number[],
  overrides: { version?: string; text?: string; file?: string } = {},
): SweepIdentity {
  return sweepIdentity(
    overrides.version ?? '0.1.0',
    { name: 'fake', file: overrides.file ?? 'scenarios/fake.yaml', text: overrides.text ?? 'name: fake\n' },
    seeds,
  );
}

/** A seed set with a made-up result for each seed. */
export const fakeSweeps = fc
  .uniqueArray(
    fc.tuple(
      fc.nat(3000),
      fc.constantFrom('passed', 'passed', 'passed', 'failed', 'crashed', 'timed_out' as const),
      fc.nat(5000),
    ),
    {
      minLength: 1,
      maxLength: 60,
      selector: ([seed]) => seed,
    },
  )
  .map((rows) => {
    const sorted = rows.sort((a, b) => a[0] - b[0]);
    return {
      seeds: sorted.map(([seed]) => seed),
      results: sorted.map(([seed, kind, moves]) => fakeResult(seed, kind, moves)),
    };
  });
