import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { argumentProblem, type RunOptions } from '../../src/sim/run-plan.js';

/** The CLI as a user runs it (built by `npm test`'s pretest step into dist/). */
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ['bin/agent-chess-sim.js', ...args], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function readReport(dir: string) {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
}

describe('run --agent: your module against chosen opponents', () => {
  it('plays the shipped example against random and sf-3, prints score lines as games end, and a verdict with an Elo interval', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'acs-agent-')), 'out');
    const { code, stdout, stderr } = cli(
      'run',
      '--agent',
      'agents/examples/material-agent.mjs',
      '--vs',
      'random,sf-3',
      '--games',
      '6',
      '--seed',
      '3',
      '--out',
      out,
      '--no-progress',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const scoreLines = stdout
      .split('\n')
      .filter((l) => /^Score of material_agent vs (random|sf-3): \d+ - \d+ - \d+ \[\d\.\d{3}\] \d+$/.test(l));
    expect(scoreLines.length).toBeGreaterThanOrEqual(6 + 2); // one per game as it ends, then each opponent's final line
    expect(stdout).toMatch(
      /^Score of material_agent vs all: \d+ - \d+ - \d+ \[\d\.\d{3}\] \d+\nElo difference: [-+]?\d+\.\d \[[-+]?\d+\.\d, [-+]?\d+\.\d\] \(95%\), LOS \(per game, as cutechess\): .+, DrawRatio: \d+\.\d %$/m,
    );

    const report = readReport(out);
    const agent = report.verdicts.agents.find((a: { group: string }) => a.group === '--agent');
    expect(agent).toMatchObject({ persona: 'material_agent', handle: 'material_agent_0001' });
    // The run ends at the instant the agent finished its 6th game (two may finish at once).
    expect(agent.games).toBeGreaterThanOrEqual(6);
    expect(agent.games).toBeLessThanOrEqual(7);
    expect(agent.vs.map((v: { opponent: string }) => v.opponent).sort()).toEqual(['random', 'sf-3']);
    expect(agent.performance.low).not.toBeNull();
    expect(report.verdicts.groups.map((g: { group: string }) => g.group)).toEqual([
      '--agent',
      '--vs random',
      '--vs sf-3',
    ]);
    expect(report.scenario.duration_ms).toBeLessThan(6 * 60 * 60_000);
    expect(stdout).toMatch(/^agents \(3; ranked by pool Elo, at least 10 games to be ranked\):$/m);

    // The match is kept: report.json's `match`, with the figures of the console's final lines
    const m = report.match;
    expect(m).toMatchObject({ player: 'material_agent', games_asked: 6, games_played: agent.games });
    expect(m.opponents.map((o: { opponent: string }) => o.opponent)).toEqual(['random', 'sf-3']);
    expect(m.overall).toMatchObject({ wins: agent.wins, draws: agent.draws, losses: agent.losses });
    const o = m.overall;
    const eloText = (x: number) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));
    expect(stdout).toContain(
      `Score of material_agent vs all: ${o.wins} - ${o.losses} - ${o.draws} [${o.score.toFixed(3)}] ${o.games}\nElo difference: ${eloText(o.elo.estimate)} [${eloText(o.elo.low)}, ${eloText(o.elo.high)}] (95%)`,
    );
    expect(o.elo.low).toBeLessThan(o.elo.high);
    // summary.md opens with it; report.html shows it as its first section
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary.split('\n')[2]).toBe('### Match: material_agent');
    expect(summary).toMatch(/^\| all \| \d+ \| \d+ \/ \d+ \/ \d+ \| [\d.]+ % \| [-+]?[\d.]+ \\\[/m);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html.indexOf('<section id="match">')).toBeGreaterThan(0);
    expect(html.indexOf('<section id="match">')).toBeLessThan(html.indexOf('<section id="summary">'));

    // One name per agent: the engine is sf-3 in the verdicts, the Elo table and the PGN, never engine_0001
    const names = report.verdicts.agents.map((a: { name: string }) => a.name).sort();
    expect(names).toEqual(['material_agent', 'random', 'sf-3']);
    expect(report.elo.map((r: { name: string }) => r.name).sort()).toEqual(names);
    const pgn = readFileSync(join(out, 'games.pgn'), 'utf8');
    expect(pgn).toMatch(/^\[(White|Black) "sf-3"\]$/m);
    expect(pgn).not.toMatch(/^\[(White|Black) "[a-z_]+_000\d"\]$/m);
    expect(stdout).not.toContain('engine_0001');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
      'value="npx agent-chess-sim run --agent agents/examples/material-agent.mjs --vs random,sf-3 --games 6 --seed 3"',
    );
  });

  it('names the option, not population[i], when the agent or its engine cannot load (exit 2, no stack)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-agent-bad-'));
    writeFileSync(join(dir, 'empty.mjs'), 'export default {};\n');
    const cases: Array<[string[], RegExp]> = [
      [
        ['--agent', join(dir, 'empty.mjs')],
        /^empty vs random,sf-3: invalid scenario\n {2}- --agent\.module: agent module .*empty\.mjs: the default export is an object without create\(options\)/,
      ],
      [
        ['--agent-uci', '/no/such/engine', '--vs', 'sf-1'],
        /^engine vs sf-1: invalid scenario\n {2}- --agent-uci\.options\.path: no executable "\/no\/such\/engine"/,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = cli('run', ...args, '--out', join(dir, 'out'), '--no-progress');
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/^\s+at .*:\d+/m);
    }
  });

  it('checks the shortcut arguments before anything runs, one line naming the option', () => {
    const base: RunOptions = { out: 'reports/latest' };
    const agent = 'agents/examples/material-agent.mjs';
    const cases: Array<[Partial<RunOptions>, RegExp]> = [
      [
        { agent, vs: 'random,sf-9,bob' },
        /^--vs: unknown opponent sf-9, bob \(personas: random, .*; engine levels: sf-1 to sf-8\)$/,
      ],
      [{ agent, vs: 'random,,sf-3' }, /^--vs random,,sf-3: an empty name/],
      [{ agent, games: 0 }, /^--games: must be a whole number from 1 to 10000$/],
      [{ agent, games: Number.NaN }, /^--games: must be a whole number/],
      [{ agent: 'no-such-agent.mjs' }, /^--agent no-such-agent\.mjs: no such file$/],
      [{ agent: 'agents/examples' }, /^--agent agents\/examples: not a file$/],
      [{ agent, agentUci: 'stockfish' }, /^give --agent or --agent-uci, not both$/],
      [{ agent, scenario: 'scenarios/smoke.yaml' }, /^give a scenario file or --agent, not both/],
      [{ scenario: 'scenarios/smoke.yaml', games: 5 }, /^--vs and --games go with --agent/],
      [{}, /^name a scenario file/],
      [{ scenario: 'scenarios/smoke.yaml', seed: ' ' }, /^--seed: give a value/],
      [{ scenario: 'scenarios/smoke.yaml', out: '' }, /^--out: give a folder/],
    ];
    for (const [args, message] of cases) expect(argumentProblem({ ...base, ...args })).toMatch(message);
    expect(
      argumentProblem({ ...base, agent, vs: 'random,sf-3,greedy', games: 30, seed: '7' }),
    ).toBeUndefined();
    expect(argumentProblem({ ...base, scenario: 'scenarios/smoke.yaml' })).toBeUndefined();
  });
});
