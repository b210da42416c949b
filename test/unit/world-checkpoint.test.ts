import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CheckpointError, Field, runToEnd, type Json } from '../../src/kernel/checkpoint.js';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import { parseScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';

/**
 * A world restored from its checkpoint (no replay) goes on exactly as the world it was saved from: the
 * twin-world proof. Every built-in persona but uci (an engine process, never checkpointed) plays, so every
 * persona's state, its steps saved as data, the platform's tables and timers, the invariants and the
 * fingerprint's running hash all cross the checkpoint.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const MIXED = `
name: checkpoint-mix
seed: cp-1
start: 2026-03-01T00:00:00Z
duration: 6h
ruleset:
  api: { requestsPerDay: 100000 }
  tournaments: { creatorMinGames: 0 }
escrow:
  latency: { min: 400ms, max: 4s }
  faultRate: 0.1
population:
  - { persona: random, count: 8, heartbeat: { min: 20s, max: 40s }, airdrop: 1, options: { maxGames: 2, bountyShare: 0.5, bountyMinSol: 0.01, bountyMaxSol: 0.1 } }
  - { persona: slow, count: 3, heartbeat: { min: 30s, max: 60s }, options: { lateChance: 0.05, maxGames: 2 } }
  - { persona: organizer, count: 1, heartbeat: { min: 5s, max: 10s }, airdrop: 10, options: { sizes: [8], prizeSol: 1, entryFeeSol: 0.02, maxTournaments: 2, maxGames: 10, minGames: 0 } }
  - { persona: entrant, count: 8, heartbeat: { min: 10s, max: 20s }, airdrop: 0.5, options: { maxGames: 1, joinChance: 0.5 } }
  - { persona: poster, count: 2, heartbeat: { min: 60s, max: 120s } }
  - { persona: replier, count: 2, heartbeat: { min: 60s, max: 120s } }
  - { persona: spammer, count: 1, heartbeat: { min: 20s, max: 40s } }
  - { persona: griefer, count: 1, heartbeat: { min: 30s, max: 60s } }
  - { persona: human, account: human, count: 2, heartbeat: { min: 120s, max: 240s } }
  - { persona: poller, count: 1, heartbeat: { min: 30s, max: 60s } }
  - { persona: flaky, count: 2, heartbeat: { min: 30s, max: 60s } }
  - { persona: illegal, count: 1, heartbeat: { min: 30s, max: 60s } }
  - { persona: greedy, count: 2, heartbeat: { min: 30s, max: 60s } }
  - { persona: cautious, count: 2, heartbeat: { min: 30s, max: 60s } }
  - { persona: bounty-hunter, count: 2, heartbeat: { min: 30s, max: 60s }, airdrop: 2 }
`;

function mixed(): Scenario {
  return parseScenario(MIXED, 'checkpoint-mix');
}

/** The checkpoint as it crosses a socket: JSON text and back. */
function overTheWire(world: World): unknown {
  return JSON.parse(JSON.stringify(world.save())) as unknown;
}

function restored(scenario: Scenario, saved: unknown): World {
  return runToEnd(World.restore(scenario, Field.root(saved), { checkpoints: true }));
}

function observed(world: World): unknown {
  return {
    fingerprint: world.fingerprintSoFar(),
    state: stateFingerprint(world.platform, { includeUsage: true }),
    invariants: world.invariantResults(),
    requests: world.requests.requests,
    rejected: world.requests.rejected,
  };
}

describe('world checkpoint: a restored world goes on as the one saved', () => {
  it('every checkpointable persona, saved mid-run and restored, runs on to the same history', async () => {
    const scenario = mixed();
    const original = new World(scenario, { checkpoints: true });
    await original.runUntil(scenario.startMs + 40 * MINUTE);
    expect(original.whyNotCheckpointable()).toBeNull();
    const saved = overTheWire(original);
    const copy = restored(scenario, saved);
    expect(JSON.stringify(copy.save())).toBe(JSON.stringify(saved));
    expect(observed(copy)).toEqual(observed(original));
    for (const until of [60 * MINUTE, 90 * MINUTE]) {
      await original.runUntil(scenario.startMs + until);
      await copy.runUntil(scenario.startMs + until);
      expect(observed(copy)).toEqual(observed(original));
    }
    // The run played and the money, tournament and social paths ran: the comparison compared something.
    const state = original.platform.state;
    expect([
      state.games.size > 5,
      state.tournaments.size > 0,
      state.posts.size > 5,
      state.escrows.size > 0,
    ]).toEqual([true, true, true, true]);
  }, 60_000);

  it('a world with what data cannot hold says why and refuses to save', () => {
    const faulty = parseScenario(
      MIXED.replace(
        'population:',
        'faults: { name: proxy, rules: [{ kind: error, statuses: [502] }] }\npopulation:',
      ),
      'checkpoint-faults',
    );
    const world = new World(faulty, { checkpoints: true });
    expect(world.whyNotCheckpointable()).toMatch(/fault profile/);
    expect(() => world.save()).toThrow(/cannot checkpoint/);
    expect(new World(mixed()).whyNotCheckpointable()).toMatch(/not made for checkpoints/);
  });

  it('a tampered checkpoint is refused with a CheckpointError naming the field, and nothing else escapes', async () => {
    const scenario = mixed();
    const world = new World(scenario, { checkpoints: true });
    await world.runUntil(scenario.startMs + HOUR / 2);
    const saved = overTheWire(world) as Record<string, Json>;
    const tamper = (edit: (copy: Record<string, unknown>) => void): unknown => {
      const copy = structuredClone(saved) as Record<string, unknown>;
      edit(copy);
      return copy;
    };
    expect(() =>
      restored(
        scenario,
        tamper((c) => (c['path'] = '/bin/sh')),
      ),
    ).toThrow('checkpoint.path: is not a field');
    expect(() =>
      restored(
        scenario,
        tamper((c) => (c['steps'] = -5)),
      ),
    ).toThrow('checkpoint.steps');
    const agents = (c: Record<string, unknown>) => c['agents'] as Record<string, unknown>[];
    expect(() =>
      restored(
        scenario,
        tamper((c) => (agents(c)[0]!['group'] = 99)),
      ),
    ).toThrow('checkpoint.agents[0].group');
    expect(() =>
      restored(
        scenario,
        tamper((c) => (agents(c)[1]!['handle'] = agents(c)[0]!['handle'])),
      ),
    ).toThrow('checkpoint.agents[1].handle');
    expect(() =>
      restored(
        scenario,
        tamper((c) => (agents(c)[0]!['level'] = 'sf-20')),
      ),
    ).toThrow('checkpoint.agents[0].level');
    fc.assert(
      fc.property(fc.nat(), fc.jsonValue(), (pick, value) => {
        const copy = structuredClone(saved) as Record<string, unknown>;
        setAtRandomPath(copy, pick, value);
        try {
          restored(scenario, copy);
        } catch (error) {
          if (!(error instanceof CheckpointError)) throw error;
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});

/** Sets a value somewhere in a JSON tree, the place chosen by `pick` (a walk down containers). */
function setAtRandomPath(root: Record<string, unknown>, pick: number, value: unknown): void {
  let node: Record<string, unknown> | unknown[] = root;
  let n = pick;
  for (;;) {
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) return;
    const key = keys[n % keys.length]!;
    n = Math.floor(n / keys.length);
    const child = (node as Record<string | number, unknown>)[key];
    if (n === 0 || typeof child !== 'object' || child === null) {
      (node as Record<string | number, unknown>)[key] = value;
      return;
    }
    node = child as Record<string, unknown> | unknown[];
  }
}
