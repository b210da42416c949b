import { describe, expect, it } from 'vitest';
import { prettyCanonicalJson } from '../../src/kernel/canonical.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { buildReport, type Report } from '../../src/report/report.js';
import { loadScenarioFile, parseScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { runScenario } from '../../src/sim/world.js';

const SMALL = `
name: small
seed: 11
start: 2026-03-01T00:00:00Z
duration: 3h
population:
  - persona: random
    count: 16
    heartbeat: { min: 30s, max: 60s }
  - persona: slow
    count: 4
    heartbeat: { min: 30s, max: 90s }
    options: { lateChance: 0.05 }
`;

async function runToBytes(scenario: Scenario) {
  const outcome = await runScenario(scenario);
  const report = buildReport(scenario, outcome);
  return { report, json: prettyCanonicalJson(report), pgn: gamesToPgn(outcome.platform, scenario.name) };
}

/** A shipped scenario cut to `hours` of virtual time, so two runs fit in the test budget. */
function shortened(path: string, hours: number): Scenario {
  return { ...loadScenarioFile(path), durationMs: hours * 3_600_000 };
}

const SMALL_CUP = `
name: small-cup
seed: 5
start: 2026-03-01T00:00:00Z
duration: 5h
ruleset: { tournaments: { creatorMinGames: 6 }, api: { requestsPerDay: 100000 } } # the organizer polls past the daily quota
escrow: { latency: { min: 300ms, max: 3s }, faultRate: 0.2 }
population:
  - persona: organizer
    count: 1
    heartbeat: { min: 5s, max: 10s }
    airdrop: 10
    options: { sizes: [8], prizeSol: 1, entryFeeSol: 0.01, maxTournaments: 2, maxGames: 6, minGames: 6 }
  - persona: entrant
    count: 12
    heartbeat: { min: 10s, max: 20s }
    airdrop: 0.2
    options: { maxGames: 1, seekChance: 0.2, directShare: 0, joinChance: 0.5 }
`;

type Run = Awaited<ReturnType<typeof runToBytes>>;

/** One run of the small cup, shared by the two tests that look at it. */
let smallCupRun: Promise<Run> | undefined;
function smallCup(): Promise<Run> {
  smallCupRun ??= runToBytes(parseScenario(SMALL_CUP));
  return smallCupRun;
}

interface MoneyCase {
  name: string;
  load: () => Scenario;
  /** The first run (the second is always a fresh one); a fresh run unless it is shared. */
  first?: () => Promise<Run>;
  /** What the scenario is there to exercise, so a shortened run that misses it fails. */
  exercised: (report: Report) => void;
}

describe('money scenarios are deterministic and lose nothing', () => {
  // Shortened for the test budget; .ci/run runs each money scenario whole, twice, with the litesvm cross-check.
  const cases: MoneyCase[] = [
    {
      name: 'bounty-economy (first 1 h)',
      load: () => shortened('scenarios/bounty-economy.yaml', 1),
      exercised: (report) => {
        // Pots settle: the fee is taken and the winner paid.
        expect(report.invariants.find((i) => i.name === 'bounty_fees_exact')!.checks).toBeGreaterThan(0);
        expect(report.money.escrows.paid_out).toBeGreaterThan(0);
        expect(report.money.by_type['bounty_payout']?.settled).toBeGreaterThan(0);
        expect(report.money.by_type['bounty_system_fee']?.settled).toBeGreaterThan(0);
      },
    },
    {
      name: 'escrow-faults (first 1 h)',
      load: () => shortened('scenarios/escrow-faults.yaml', 1),
      exercised: (report) => {
        // The lossy network at work: single-attempt deposits fail, their games are cancelled and refunded,
        // and the pots that did fill still settle.
        expect(report.money.by_type['bounty_deposit']?.failed).toBeGreaterThan(0);
        expect(report.money.bounty_games.cancelled).toBeGreaterThan(0);
        expect(report.money.escrows.refunded).toBeGreaterThan(0);
        expect(report.money.escrows.paid_out).toBeGreaterThan(0);
        expect(report.invariants.find((i) => i.name === 'bounty_fees_exact')!.checks).toBeGreaterThan(0);
      },
    },
    {
      name: 'a small cup with 20% lost attempts',
      load: () => parseScenario(SMALL_CUP),
      first: smallCup,
      exercised: (report) => expect(report.money.by_type['tournament_entry']?.settled).toBeGreaterThan(0),
    },
  ];
  for (const { name, load, first: firstRun, exercised } of cases) {
    it(`${name}: byte-identical twice, every money invariant checked and held`, async () => {
      const first = await (firstRun ?? (() => runToBytes(load())))();
      const second = await runToBytes(load());
      expect(second.json).toBe(first.json);
      expect(second.pgn).toBe(first.pgn);
      expect(first.report.passed).toBe(true);
      const checked = new Map(first.report.invariants.map((i) => [i.name, i.checks]));
      expect(checked.get('lamports_conserved')).toBeGreaterThan(0);
      expect(checked.get('escrow_settles_once')).toBeGreaterThan(0);
      expect(first.report.money.transfers).toBeGreaterThan(0);
      exercised(first.report);
    });
  }

  it('the small cup completes a tournament and pays it out', async () => {
    const { report } = await smallCup();
    expect(report.tournaments.some((t) => t.status === 'completed' && t.placements.length === 4)).toBe(true);
    expect(report.invariants.find((i) => i.name === 'tournament_brackets')!.checks).toBeGreaterThan(0);
  });
});

describe('the social storm', () => {
  it('social-storm (first 1 h): byte-identical twice; every limit refuses, every social invariant is checked and holds', async () => {
    const first = await runToBytes(shortened('scenarios/social-storm.yaml', 1));
    const second = await runToBytes(shortened('scenarios/social-storm.yaml', 1));
    expect(second.json).toBe(first.json);
    const { report } = first;
    expect(report.passed).toBe(true);
    const checked = new Map(report.invariants.map((i) => [i.name, i.checks]));
    for (const name of [
      'social_score_exact',
      'rate_limits_held',
      'unseen_once',
      'likes_idempotent',
      'replies_anchored',
      'downvote_blocks_held',
    ]) {
      expect(checked.get(name), name).toBeGreaterThan(0);
    }
    const social = report.social;
    expect(Object.keys(social.rate_limited_by_action)).toEqual([
      'follow',
      'like',
      'post',
      'refresh',
      'reply',
      'requests',
      'vote',
    ]);
    expect(social.posts_by_humans).toBeGreaterThan(0);
    expect(social.max_reply_depth).toBeGreaterThanOrEqual(2);
    expect(social.vote_blocked).toBe(report.requests.rejected_by_code['vote_blocked']);
    expect(social.vote_blocked).toBeGreaterThan(0);
    expect(social.verifications).toBeGreaterThan(0);
    expect(social.top_social_scores).toHaveLength(5);
  });
});

describe('determinism', () => {
  it('the same scenario and seed give identical report and PGN bytes; another seed differs', async () => {
    const first = await runToBytes(parseScenario(SMALL));
    const second = await runToBytes(parseScenario(SMALL));
    expect(second.json).toBe(first.json);
    expect(second.pgn).toBe(first.pgn);
    expect(first.report.counts.moves).toBeGreaterThan(1000);
    const other = await runToBytes(parseScenario(SMALL, 'small', '12'));
    expect(other.report.fingerprint).not.toBe(first.report.fingerprint);
  });

  // The whole 24 virtual hours, twice, are .ci/run's job (it compares the bytes and the golden fingerprint).
  // The first hours already end games every way: mates and timeouts early, the draw rules by hour 3.
  const SMOKE_HOURS = 4;
  it(`the smoke scenario (first ${SMOKE_HOURS} h) is byte-identical across two runs, holds every invariant, and ends games every way`, async () => {
    const first = await runToBytes(shortened('scenarios/smoke.yaml', SMOKE_HOURS));
    const second = await runToBytes(shortened('scenarios/smoke.yaml', SMOKE_HOURS));
    expect(second.json).toBe(first.json);
    expect(second.pgn).toBe(first.pgn);
    const { report } = first;
    expect(report.passed).toBe(true);
    const money = new Set([
      'lamports_conserved',
      'escrow_settles_once',
      'bounty_fees_exact',
      'tournament_brackets',
    ]);
    // Random players neither read unseen nor reply; the social storm above exercises those checkers.
    const social = new Set(['unseen_once', 'replies_anchored']);
    for (const inv of report.invariants)
      if (!money.has(inv.name) && !social.has(inv.name)) expect(inv.checks, inv.name).toBeGreaterThan(0);
    const endings = report.results_by_ending;
    expect(endings.checkmate).toBeGreaterThan(0);
    expect(endings.timeout).toBeGreaterThan(0);
    expect(
      endings.stalemate +
        endings.insufficient_material +
        endings.threefold_repetition +
        endings.fifty_move_rule,
    ).toBeGreaterThan(0);
    expect(endings.fifty_move_rule + endings.threefold_repetition + endings.move_limit).toBeGreaterThan(0);
    const total = Object.values(endings).reduce((a, b) => a + b, 0);
    expect(total).toBe(report.counts.games_completed);
    expect(report.results['1-0'] + report.results['0-1'] + report.results['1/2-1/2']).toBe(total);
  });
});
