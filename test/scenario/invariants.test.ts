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

  it('lamports: a settled transfer the ledger never made', () => {
    const checks = suite();
    checks.observe({ type: 'transfer_settled', t: t0, transferId: 'x', transferType: 'bounty_payout', from: 'nowhere', to: 'elsewhere', lamports: 5 } as never);
    expect(failing(checks)).toContain('lamports_conserved');
  });

  it('escrow: closed twice, and closed while holding lamports', () => {
    const checks = suite();
    checks.observe({ type: 'escrow_opened', t: t0, escrow: 'E', kind: 'bounty', refId: 'g' });
    checks.observe({ type: 'transfer_queued', t: t0, transferId: 'd', transferType: 'bounty_deposit', from: 'w', to: 'E', lamports: 10, dueMs: t0 + 1 });
    checks.observe({ type: 'escrow_closed', t: t0, escrow: 'E', kind: 'bounty', refId: 'g', outcome: 'refunded', lamportsIn: 0, lamportsOut: 0 });
    checks.observe({ type: 'escrow_closed', t: t0, escrow: 'E', kind: 'bounty', refId: 'g', outcome: 'refunded', lamportsIn: 0, lamportsOut: 0 });
    expect(failing(checks)).toContain('escrow_settles_once');
  });

  it('escrow: a game that ended with its escrow never settled', () => {
    const checks = suite();
    checks.observe({ type: 'escrow_opened', t: t0, escrow: 'E', kind: 'bounty', refId: 'g' });
    checks.observe(ended());
    checks.finish(t0 + 5000);
    expect(failing(checks)).toContain('escrow_settles_once');
  });

  it('bounty fees: payouts that do not add up to the pot, and a wrong fee', () => {
    const checks = suite();
    checks.observe({ type: 'bounty_settled', t: t0, gameId: 'g', pot: 200, fee: 20, white: 181, black: 0 });
    checks.observe({ type: 'bounty_settled', t: t0, gameId: 'h', pot: 200, fee: 19, white: 181, black: 0 });
    expect(failing(checks)).toContain('bounty_fees_exact');
  });

  it('brackets: a draw that advanced the higher seed, and a player twice in a round', () => {
    const checks = suite();
    const tid = 'T';
    checks.observe({ type: 'tournament_created', t: t0, tournamentId: tid, creatorId: 'w', maxParticipants: 8, prizeLamports: 0, entryFeeLamports: 0, distribution: 'winner_only' });
    checks.observe({ type: 'tournament_seeded', t: t0, tournamentId: tid, seeds: ['w', 'b'], elos: [1300, 1200], scheduledStartMs: t0 });
    checks.observe({ type: 'tournament_match_started', t: t0, tournamentId: tid, round: 1, matchIndex: 0, gameId: 'g', whiteId: 'w', blackId: 'b' });
    checks.observe({ type: 'tournament_match_decided', t: t0, tournamentId: tid, round: 1, matchIndex: 0, gameId: 'g', result: '1/2-1/2', advancedId: 'w', eliminatedId: 'b' });
    checks.observe({ type: 'tournament_match_started', t: t0, tournamentId: tid, round: 1, matchIndex: 1, gameId: 'h', whiteId: 'w', blackId: 'x' });
    const result = checks.results().find((r) => r.name === 'tournament_brackets')!;
    expect(result.violationCount).toBe(2);
  });
});
