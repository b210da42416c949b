import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { runScenario } from '../../src/sim/world.js';
import { runSeed } from '../../src/sweep/run-seed.js';
import { buildSweep, sweepIdentity, sweepJson } from '../../src/sweep/sweep-result.js';

const TEXT = `
name: faulty-sweep
seed: 1
start: 2026-01-01T00:00:00Z
duration: 90m
ruleset: { api: { requestsPerDay: 100000 } }
population:
  - { persona: random, count: 6, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 2 } }
faults:
  name: sweep-mix
  rules:
    - { kind: latency, median: 300ms, p99: 4s }
    - { kind: error, rate: 0.01, statuses: [502, 503] }
    - { kind: lost, rate: 0.02, scope: { routes: [move] } }
`;

describe('a sweep with faults (src/sweep/run-seed.ts)', () => {
  it('per-seed results finishing in any order give the same sweep.json bytes; an agent crashing under faults does not crash its seed', async () => {
    const seeds = [1, 2, 3];
    const task = (seed: number) => ({ scenarioText: TEXT, scenarioFile: 'faulty-sweep.yaml', seed });
    const inOrder = [];
    for (const seed of seeds) inOrder.push(await runSeed(task(seed)));
    const reversed = [];
    for (const seed of [...seeds].reverse()) reversed.push(await runSeed(task(seed)));
    const identity = sweepIdentity(
      '0.0.0',
      { name: 'faulty-sweep', file: 'faulty-sweep.yaml', text: TEXT },
      seeds,
    );
    const first = sweepJson(buildSweep(identity, inOrder));
    expect(sweepJson(buildSweep(identity, reversed))).toBe(first);
    expect(inOrder.map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
    expect(new Set(inOrder.map((r) => r.fingerprint)).size).toBe(3);
    // Seed 1 does have agents that died of a fault (built-in personas handle no 502), yet it passed.
    const outcome = await runScenario(parseScenario(TEXT, 'faulty-sweep', '1'));
    expect(outcome.crashes.size).toBeGreaterThan(0);
    expect(outcome.fingerprint).toBe(inOrder[0]!.fingerprint);
  });
});
