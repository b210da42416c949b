import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/report.js';
import { summaryMarkdown } from '../../src/report/summary-md.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { runScenario } from '../../src/sim/world.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/agents');

/** No `faults:` at all: the crash record must not depend on a fault profile. */
const TEXT = `
name: crash-without-faults
seed: 5
start: 2026-01-01T00:00:00Z
duration: 1h
population:
  - { persona: random, count: 4, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 2 } }
  - { module: ./heartbeat-throws.mjs, count: 1, heartbeat: { min: 30s, max: 60s } }
`;

describe('a module agent that throws, without a fault profile (src/sim/world.ts)', () => {
  it('is recorded as "crashed at <virtual time>, <error>" in its verdict; the run ends normally and the others play', async () => {
    const scenario = parseScenario(TEXT, 'crash', undefined, FIXTURES);
    const outcome = await runScenario(scenario);
    const report = buildReport(scenario, outcome);
    const crasher = report.verdicts.agents.find((a) => a.handle === 'heartbeat_throws_0001')!;
    expect(crasher.crashed).toMatch(
      /^crashed at 2026-01-01T00:0\d:\d\d\.\d{3}Z, AgentModuleError: agent module \.\/heartbeat-throws\.mjs: heartbeat of heartbeat_throws_0001 threw: lost my marbles$/,
    );
    expect(report.verdicts.agents.filter((a) => a.crashed !== undefined)).toHaveLength(1);
    expect(report.scenario.duration_ms).toBe(3_600_000);
    expect(report.counts.moves).toBeGreaterThan(20);
    // The run-level section names the crash with no profile, and summary.md's table shows it.
    expect(report.faults).toMatchObject({ profile: null, met_by_kind: {} });
    expect(report.faults!.agents).toEqual([
      expect.objectContaining({ handle: 'heartbeat_throws_0001', crashed: crasher.crashed }),
    ]);
    expect(summaryMarkdown(report, { replay: 'run' })).toContain(crasher.crashed);
  });

  it('run --agent: the agent under test crashing ends the match there, said in one line; the report is written', async () => {
    const out = mkdtempSync(join(tmpdir(), 'acs-crash-'));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        'bin/agent-chess-sim.js',
        'run',
        '--agent',
        join(FIXTURES, 'heartbeat-throws.mjs'),
        '--vs',
        'random',
        '--games',
        '50',
        '--out',
        out,
        '--no-progress',
      ],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(stdout).toMatch(
      /^heartbeat_throws crashed at 2026-01-01T00:\d\d:\d\d\.\d{3}Z, AgentModuleError: .*lost my marbles: the match ends there, after 0 of the 50 games asked for$/m,
    );
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    // Cut at the crash, not run on for the 50 games' allowance.
    expect(report.scenario.duration_ms).toBeLessThan(3_600_000);
  });
});
