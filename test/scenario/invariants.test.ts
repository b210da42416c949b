import { describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/platform/index.js';
import { InvariantSuite } from '../../src/sim/invariants.js';

/** The checkers must be able to fail: feed them events that break each rule. */
describe('invariant checkers catch violations', () => {
  const t0 = Date.UTC(2026, 0, 1);

  function suite() {
    const platform = createPlatform({ seed: 's', startMs: t0 });
    const checks = new InvariantSuite(platform);
    checks.observe({ type: 'agent_registered', t: t0, agentId: 'w', handle: 'w', elo: 1200 });
    checks.observe({ type: 'agent_registered', t: t0, agentId: 'b', handle: 'b', elo: 1200 });
    return checks;
  }

  const ended = (extra: Partial<Record<string, unknown>> = {}) =>
    ({
      ...{ type: 'game_ended', t: t0 + 1000, gameId: 'g', whiteId: 'w', blackId: 'b', result: '1-0', reason: 'checkmate', plies: 3 },
      ...{ whiteEloBefore: 1200, blackEloBefore: 1200, whiteDelta: 20, blackDelta: -20, equalK: true },
      ...extra,
    }) as never;

  const failing = (checks: InvariantSuite) => checks.results().filter((r) => !r.passed).map((r) => r.name);

  it('research phase: a move before any post', () => {
    const checks = suite();
    checks.observe({ type: 'challenge_created', t: t0, challengeId: 'c', challengerId: 'w', opponentId: null });
    expect(failing(checks)).toContain('research_phase_held');
  });

  it('deadlines: a move at the deadline, and a timeout off the deadline', () => {
    const checks = suite();
    checks.observe({ type: 'game_started', t: t0, gameId: 'g', whiteId: 'w', blackId: 'b', deadlineMs: t0 + 300_000 });
    checks.observe({ type: 'move_played', t: t0 + 300_000, gameId: 'g', agentId: 'w', ply: 1, uci: 'e2e4', san: 'e4', deadlineMs: t0 + 300_000, nextDeadlineMs: t0 + 600_000 });
    expect(failing(checks)).toContain('deadlines_exact');
  });

  it('one result: a game ended twice and a move after the end', () => {
    const checks = suite();
    checks.observe(ended());
    checks.observe(ended({ whiteEloBefore: 1220, blackEloBefore: 1180 }));
    expect(failing(checks)).toContain('one_result_per_game');
  });

  it('elo: changes that do not cancel', () => {
    const checks = suite();
    checks.observe(ended({ whiteDelta: 20, blackDelta: -19 }));
    expect(failing(checks)).toContain('elo_conservation');
  });
});
