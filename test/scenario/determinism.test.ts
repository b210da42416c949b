import { describe, expect, it } from 'vitest';
import { prettyCanonicalJson } from '../../src/kernel/canonical.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { buildReport } from '../../src/report/report.js';
import { loadScenarioFile, parseScenario, type Scenario } from '../../src/sim/scenario.js';
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

  it('the smoke scenario is byte-identical across two runs, holds every invariant, and ends games every way', async () => {
    const scenario = loadScenarioFile('scenarios/smoke.yaml');
    const first = await runToBytes(scenario);
    const second = await runToBytes(loadScenarioFile('scenarios/smoke.yaml'));
    expect(second.json).toBe(first.json);
    const { report } = first;
    expect(report.passed).toBe(true);
    for (const inv of report.invariants) expect(inv.checks).toBeGreaterThan(0);
    const endings = report.results_by_ending;
    expect(endings.checkmate).toBeGreaterThan(0);
    expect(endings.timeout).toBeGreaterThan(0);
    expect(endings.stalemate + endings.insufficient_material + endings.threefold_repetition + endings.fifty_move_rule).toBeGreaterThan(0);
    expect(endings.fifty_move_rule + endings.threefold_repetition + endings.move_limit).toBeGreaterThan(0);
    const total = Object.values(endings).reduce((a, b) => a + b, 0);
    expect(total).toBe(report.counts.games_completed);
    expect(report.results['1-0'] + report.results['0-1'] + report.results['1/2-1/2']).toBe(total);
  });
});
