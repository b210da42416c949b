import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prettyCanonicalJson } from '../../src/kernel/canonical.js';
import { buildReport } from '../../src/report/report.js';
import { renderRunReport } from '../../src/report/write.js';
import { summaryMarkdown } from '../../src/report/summary-md.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { runScenario } from '../../src/sim/world.js';

const EXAMPLES = fileURLToPath(new URL('../../agents/examples/', import.meta.url));

function scenario(faults: string, extra = ''): string {
  return `
name: faults-run
seed: 11
start: 2026-01-01T00:00:00Z
duration: 2h
ruleset: { api: { requestsPerDay: 100000 } }
population:
  - { persona: random, count: 6, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 2 } }
${extra}
${faults}
`;
}

const HOSTILE_FOR_RANDOMS = `
faults:
  name: test-mix
  rules:
    - { kind: latency, median: 300ms, p99: 4s }
    - { kind: error, rate: 0.02, statuses: [500, 502, 503, 504], scope: { from: 65m } }
    - { kind: lost, rate: 0.01, scope: { routes: [move] } }
    - { kind: stale, rate: 0.5, lag: 3s, scope: { routes: [my-turn, games] } }
    - { kind: burst429, rate: 0.002, length: 20s }
    - { kind: outage, scope: { from: 50m, until: 60m } }
`;

async function reportText(text: string): Promise<{ json: string; md: string; files: string[] }> {
  const s = parseScenario(text, 'faults-run', undefined, EXAMPLES);
  const outcome = await runScenario(s);
  const report = buildReport(s, outcome);
  // Every file run writes (report.json, games.pgn, junit.xml, summary.md, report.html), as bytes.
  const files = [...renderRunReport(s, outcome, { replay: 'run' }).files].map(
    ([name, text]) => `${name}\n${typeof text === 'string' ? text : [...text].join('')}`,
  );
  return { json: prettyCanonicalJson(report), md: summaryMarkdown(report, { replay: 'run' }), files };
}

describe('a run under a fault profile (src/sim/world.ts with src/faults/)', () => {
  it('the same seed and profile give byte-identical report files (report.json, summary.md, report.html, games.pgn, junit.xml) twice, and the profile changes the run', async () => {
    const first = await reportText(scenario(HOSTILE_FOR_RANDOMS));
    const second = await reportText(scenario(HOSTILE_FOR_RANDOMS));
    expect(second.json).toBe(first.json);
    expect(second.md).toBe(first.md);
    expect(first.files).toHaveLength(5);
    expect(second.files).toEqual(first.files);
    const report = JSON.parse(first.json);
    expect(report.faults.profile).toBe('test-mix');
    for (const kind of ['latency', 'lost', 'outage'])
      expect(report.faults.met_by_kind[kind]).toBeGreaterThan(0);
    // Built-in personas do not handle a 502 either: they are recorded as crashed, and the run still ends.
    expect(report.faults.agents.some((a: { crashed: string | null }) => a.crashed !== null)).toBe(true);
    const plain = await reportText(scenario(''));
    expect(JSON.parse(plain.json).fingerprint).not.toBe(report.fingerprint);
    expect(JSON.parse(plain.json).faults).toBeUndefined();
  });

  it('an empty profile changes nothing: the same fingerprint and report bytes as no profile', async () => {
    const none = await reportText(scenario(''));
    const empty = await reportText(scenario('faults: { name: empty, rules: [] }'));
    expect(empty.json).toBe(none.json);
  });

  it('the naive example crashes on its first 502 and its verdict says when and why; the others play on', async () => {
    const text = scenario(
      `faults:
  name: only-the-naive
  rules:
    - { kind: error, rate: 0.3, statuses: [502], scope: { agents: [naive_agent_0001], from: 10m } }`,
      '  - { module: naive-agent.mjs, count: 1, heartbeat: { min: 30s, max: 60s } }',
    );
    const report = JSON.parse((await reportText(text)).json);
    const naive = report.verdicts.agents.find((a: { handle: string }) => a.handle === 'naive_agent_0001');
    expect(naive.crashed).toMatch(
      /^crashed at 2026-01-01T00:(1\d|[2-5]\d):\d\d\.\d{3}Z, AgentModuleError: .*threw: 502 request_failed/,
    );
    expect(report.verdicts.agents.filter((a: { crashed?: string }) => a.crashed)).toHaveLength(1);
    expect(report.counts.moves).toBeGreaterThan(50);
  });

  it('latency on moves (charged in virtual time, src/faults/parking.ts) changes the history and crashes no agent', async () => {
    const slow = `faults:
  name: slow
  rules:
    - { kind: latency, median: 20s, p99: 40s, scope: { routes: [move] } }`;
    const report = JSON.parse((await reportText(scenario(slow))).json);
    expect(report.faults.met_by_kind.latency).toBeGreaterThan(10);
    expect(report.faults.agents.every((a: { crashed: string | null }) => a.crashed === null)).toBe(true);
    const plain = JSON.parse((await reportText(scenario(''))).json);
    expect(report.counts.moves).toBeGreaterThan(0);
    expect(report.fingerprint).not.toBe(plain.fingerprint);
  });
});
