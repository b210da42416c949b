import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/kernel/canonical.js';
import { CheckpointError, Field, type Json } from '../../src/kernel/checkpoint.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import { BUILT_IN_INVARIANTS } from '../../src/sim/invariants/exercised.js';
import { InvariantSuite, type InvariantResult } from '../../src/sim/invariants/invariants.js';
import { UserInvariant } from '../../src/sim/invariants/user-invariants.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';
import { mutateJson, replacementJson } from '../helpers/json-mutate.js';

/**
 * Issue 25, the invariant suite's part of the state checkpoint. A suite only observes, so its twin needs no
 * second world: at T a fresh suite on the same platform loads the world's suite's saved state (through
 * text) and from then on sees the very events and platform state the world's suite sees; at T2 every
 * result, final checks included, must be the same. (test/unit/world-checkpoint.test.ts restores whole
 * worlds, this suite with them.) The scenario exercises every built-in invariant before T (a small
 * knockout, bounties, the social personas, a griefer's downvotes), and a bad event given to the world's
 * suite before T puts violations into the saved state.
 */
const SCENARIO = `
name: invariants-checkpoint
seed: 2025
start: 2026-01-01T00:00:00Z
duration: 2h
ruleset:
  tournaments: { creatorMinGames: 0, startDelayMs: 60000 }
  api: { requestsPerDay: 20000 }
escrow:
  latency: { min: 400ms, max: 1500ms }
population:
  - persona: organizer
    count: 1
    heartbeat: { min: 2s, max: 4s }
    airdrop: 5
    options: { sizes: [8], prizeSol: 1, entryFeeSol: 0.01, maxTournaments: 1, minGames: 0, maxGames: 1 }
  - persona: entrant
    count: 8
    heartbeat: { min: 2s, max: 4s }
    airdrop: 1
    options: { maxGames: 1, joinChance: 0.5, seekChance: 0.2, bountyShare: 0.5, bountyMinSol: 0.01, bountyMaxSol: 0.05 }
  - { persona: slow, count: 2, heartbeat: { min: 5s, max: 15s }, options: { maxGames: 2, lateChance: 0.05, maxThinkMs: 4000 } }
  - { persona: poster, count: 2, heartbeat: { min: 20s, max: 40s }, options: { postChance: 0.5, likeChance: 0.5 } }
  - { persona: replier, count: 2, heartbeat: { min: 20s, max: 40s } }
  - { persona: spammer, count: 1, heartbeat: { min: 5s, max: 10s }, options: { burst: 4 } }
  - { persona: griefer, count: 2, heartbeat: { min: 20s, max: 40s } }
  - { persona: human, account: human, count: 1, heartbeat: { min: 30s, max: 60s } }
`;
const START_MS = Date.UTC(2026, 0, 1);
const minutes = (m: number) => START_MS + m * 60_000;
const T = minutes(11);
const T2 = minutes(14);

/** A game's end that no game had: it breaks the rating and score checks, so the saved state holds violations. */
function bogusEnd(t: number): PlatformEvent {
  return {
    type: 'game_ended',
    t,
    gameId: 'g_bogus',
    whiteId: 'agt_none_w',
    blackId: 'agt_none_b',
    result: '1-0',
    reason: 'checkmate',
    plies: 10,
    whiteEloBefore: 1200,
    blackEloBefore: 1200,
    whiteDelta: 16,
    blackDelta: -15,
    equalK: true,
  };
}

/** Saved state through text, as a snapshot file carries it. */
const throughText = (state: Json): unknown => JSON.parse(canonicalJson(state));

let world: World;
let restored: InvariantSuite;
let savedAtT: Json;
let atT: InvariantResult[];
let atT2: InvariantResult[];

beforeAll(async () => {
  world = new World(parseScenario(SCENARIO, 'invariants-checkpoint'));
  await world.runUntil(minutes(6));
  world.invariants.observe(bogusEnd(world.platform.nowMs));
  await world.runUntil(T);
  atT = world.invariants.results();
  savedAtT = world.invariants.save();
  restored = new InvariantSuite(world.platform);
  restored.load(Field.root(throughText(savedAtT)));
  await world.runUntil(T2);
  atT2 = world.invariants.results();
}, 60_000);

describe('an invariant suite restored into a fresh suite mid-run', () => {
  it('gives the same results as the suite that saw every event, after the final checks too', () => {
    expect(restored.results()).toEqual(atT2);
    expect(restored.finish(T2)).toEqual(world.invariants.finish(T2));
  });

  it('ran a scenario that exercises every built-in invariant before T, and all but two after it', () => {
    expect(atT.filter((r) => r.checks > 0).map((r) => r.name)).toEqual(BUILT_IN_INVARIANTS);
    const idleAfterT = atT2.filter((r, i) => r.checks === atT[i]!.checks).map((r) => r.name);
    // Bounties are checked as they settle, and blocks as direct challenges and joins come: none in these three minutes.
    expect(idleAfterT).toEqual(['bounty_fees_exact', 'downvote_blocks_held']);
  });

  it('stops seeing events once detached', async () => {
    const checks = (results: InvariantResult[]) => results.reduce((sum, r) => sum + r.checks, 0);
    const [restoredBefore, worldBefore] = [restored.results(), checks(world.invariants.results())];
    restored.detach();
    await world.runUntil(minutes(15));
    expect(restored.results()).toEqual(restoredBefore);
    expect(checks(world.invariants.results())).toBeGreaterThan(worldBefore);
  });

  it('carries violations: counts, the kept ones and their event indexes', () => {
    const broken = atT.filter((r) => r.violationCount > 0).map((r) => r.name);
    expect(broken).toEqual(expect.arrayContaining(['elo_conservation', 'social_score_exact']));
    expect(
      restored
        .results()
        .filter((r) => r.violationCount > 0)
        .map((r) => r.name),
    ).toEqual(broken);
  });

  it('saves the same text after a load as before it', () => {
    const again = new InvariantSuite(world.platform);
    again.load(Field.root(throughText(savedAtT)));
    again.detach();
    expect(canonicalJson(again.save())).toBe(canonicalJson(savedAtT));
  });
});

/** The error a fresh suite's load throws for `state`, or undefined when it loads. */
function loadError(state: unknown): unknown {
  const suite = new InvariantSuite(world.platform);
  suite.detach();
  try {
    suite.load(Field.root(state));
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A copy of the state at T with `change` applied to it. */
function tampered(change: (state: Record<string, Record<string, Record<string, Json>>>) => void): unknown {
  const copy = throughText(savedAtT) as Record<string, Record<string, Record<string, Json>>>;
  change(copy);
  return copy;
}

describe('a tampered suite state is refused, naming the field', () => {
  const cases: Array<[string, (s: Record<string, Record<string, Record<string, Json>>>) => void, string]> = [
    ['an unknown key', (s) => void (s['checkers']!['elo_conservation']!['path'] = '/bin/sh'), 'checkpoint.checkers.elo_conservation.path: is not a field'],
    ['an unknown checker', (s) => void (s['checkers']!['my_module'] = {}), 'checkpoint.checkers.my_module'],
    ['a missing checker', (s) => void delete s['checkers']!['unseen_once'], 'checkpoint.checkers.unseen_once: must be a record'],
    ['a negative count', (s) => void (s['checkers']!['deadlines_exact']!['checks'] = -1), 'checkpoint.checkers.deadlines_exact.checks'],
    ['more violations than counted', (s) => void (s['checkers']!['elo_conservation']!['violationCount'] = 0), 'checkpoint.checkers.elo_conservation.violations'],
    ['a wrong type in a model', (s) => void ((s['checkers']!['lamports_conserved']!['model'] as Record<string, Json>)['supply'] = 'lots'), 'checkpoint.checkers.lamports_conserved.model.supply: must be a finite number'],
    ['a map row that is no pair', (s) => void ((s['checkers']!['social_score_exact']!['model'] as Json[])[0] = ['a', 1, 2]), 'checkpoint.checkers.social_score_exact.model[0]: must be a [key, value] pair'],
    ['a key given twice', (s) => { const rows = s['checkers']!['social_score_exact']!['model'] as Json[]; rows.push(rows[0]!); }, 'a key not given before'],
    ['runs out of order', (s) => void ((s['checkers']!['unseen_once']!['model'] as { served: Json[][] }).served[0]![1] = [5, 3]), 'strictly ascending run bounds'],
    ['a model where none is kept', (s) => void (s['checkers']!['bounty_fees_exact']!['model'] = {}), 'checkpoint.checkers.bounty_fees_exact.model: must be null'],
    ['an event count not a count', (s) => void ((s as Record<string, Json>)['events'] = 1.5), 'checkpoint.events'],
  ]; // prettier-ignore

  for (const [what, change, message] of cases)
    it(what, () => {
      const error = loadError(tampered(change));
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toContain(message);
    });

  it('a well-formed state that lost a knockout is a violation when the knockout goes on, not a crash', () => {
    const state = tampered((s) => void (s['checkers']!['tournament_brackets']!['model'] = { terms: [], eloAtSeed: [], played: [], colours: [], finalWinner: [] })); // prettier-ignore
    const suite = new InvariantSuite(world.platform);
    suite.detach();
    suite.load(Field.root(state));
    const t = world.platform.nowMs;
    const at = { t, tournamentId: 'trn_lost', placements: ['a', 'b'], payouts: [1, 0], pool: 1, systemFee: 0, organizerFee: 0 }; // prettier-ignore
    suite.observe({ type: 'tournament_match_decided', t, tournamentId: 'trn_lost', round: 1, matchIndex: 0, gameId: 'g_lost', result: '1-0', advancedId: 'a', eliminatedId: 'b' }); // prettier-ignore
    suite.observe({ type: 'tournament_completed', ...at });
    const brackets = suite.results().find((r) => r.name === 'tournament_brackets')!;
    expect(brackets.violations.slice(-2).map((v) => v.message)).toEqual([
      'tournament trn_lost game g_lost: never created, seeded or started',
      'tournament trn_lost: never created, seeded or started',
    ]);
  });

  it('a suite with a user invariant module neither saves nor loads (a programming error, not bad data)', () => {
    const suite = new InvariantSuite(world.platform);
    suite.detach();
    suite.add([new UserInvariant('mine', 'a check of the user', { check: () => undefined })]);
    expect(() => suite.save()).toThrow('user invariant modules');
    expect(() => suite.load(Field.root(savedAtT))).toThrow('user invariant modules');
  });
});

describe('loading a mutated suite state', () => {
  it('either succeeds or throws a CheckpointError, nothing else', () => {
    const paths = fc.array(fc.nat(200), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(paths, replacementJson, (path, replacement) => {
        const error = loadError(mutateJson(savedAtT, path, replacement));
        if (error !== undefined) expect(error, (error as Error).message).toBeInstanceOf(CheckpointError);
      }),
      { numRuns: 200 },
    );
  });
});
