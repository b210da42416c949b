import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioError, loadScenarioFile, parseScenario } from '../../src/sim/scenario/scenario.js';

const VALID = `
name: t
seed: 3
start: 2026-01-01T00:00:00Z
duration: 2h
population:
  - persona: random
    count: 4
    heartbeat: { min: 30s, max: 60s }
`;

function problemsOf(text: string): string[] {
  try {
    parseScenario(text);
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems;
    throw error;
  }
  return [];
}

describe('scenario loader', () => {
  it('parses a valid scenario with defaults and overrides', () => {
    const s = parseScenario(`${VALID}ruleset: { game: { moveLimitPlies: 200 } }\n`);
    expect(s.seed).toBe('3');
    expect(s.durationMs).toBe(7_200_000);
    expect(s.startMs).toBe(Date.UTC(2026, 0, 1));
    expect(s.population[0]).toMatchObject({
      persona: 'random',
      count: 4,
      heartbeatMinMs: 30_000,
      heartbeatMaxMs: 60_000,
    });
    expect(s.ruleset.game.moveLimitPlies).toBe(200);
    expect(parseScenario(VALID, 'x', '99').seed).toBe('99');
  });

  it('names the bad field', () => {
    expect(problemsOf(VALID.replace('count: 4', 'count: -1'))).toEqual([
      'population[0].count: must be a positive integer',
    ]);
    expect(problemsOf(VALID.replace('persona: random', 'persona: wizard'))[0]).toMatch(
      /^population\[0\]\.persona: must be one of random, slow/,
    );
    expect(problemsOf(VALID.replace('duration: 2h', 'duration: forever'))[0]).toMatch(/^duration:/);
    expect(problemsOf(VALID.replace('2026-01-01T00:00:00Z', 'yesterday'))[0]).toMatch(/^start:/);
    expect(problemsOf(VALID.replace('max: 60s', 'max: 10s'))[0]).toMatch(/^population\[0\]\.heartbeat: max/);
    expect(problemsOf(`${VALID}colour: blue\n`)[0]).toMatch(/^colour: unknown field/);
    expect(problemsOf(`${VALID}ruleset: { game: { turnLimitMs: fast } }\n`)[0]).toMatch(
      /^ruleset\.game\.turnLimitMs/,
    );
    expect(
      problemsOf(VALID.replace('heartbeat: { min: 30s, max: 60s }', 'options: { seekChance: 2 }'))[0],
    ).toMatch(/^population\[0\]\.options\.seekChance: must be/);
    expect(problemsOf('just text')[0]).toMatch(/YAML mapping/);
    expect(problemsOf('a: [')[0]).toMatch(/not valid YAML/);
  });

  it('a group plays agent accounts by default; the human persona plays human accounts, and only it', () => {
    expect(parseScenario(VALID).population[0]!.account).toBe('agent');
    const humans = `${VALID}  - persona: human\n    account: human\n    count: 2\n`;
    expect(parseScenario(humans).population[1]).toMatchObject({
      persona: 'human',
      account: 'human',
      count: 2,
    });
    expect(problemsOf(`${VALID}  - persona: human\n    count: 2\n`)).toEqual([
      'population[1].account: the human persona plays a human account; set account: human',
    ]);
    expect(problemsOf(VALID.replace('count: 4', 'account: human\n    count: 4'))).toEqual([
      'population[0].account: human accounts play only the human persona',
    ]);
    expect(problemsOf(VALID.replace('count: 4', 'account: robot\n    count: 4'))).toEqual([
      'population[0].account: must be one of agent, human',
    ]);
    expect(problemsOf(`${humans}    airdrop: 1\n`)).toEqual([
      'population[1].airdrop: human accounts have no wallet',
    ]);
  });

  it('takes the onboarding presets by name, and names bad social rules', () => {
    expect(parseScenario(`${VALID}ruleset: { research: strict }\n`).ruleset.research).toEqual({
      minPosts: 1,
      minFollows: 10,
      minLikes: 10,
      verifiedUnlocks: true,
    });
    expect(problemsOf(`${VALID}ruleset: { research: lenient }\n`)).toEqual([
      expect.stringMatching(/^ruleset.research: "lenient" is not a preset/),
    ]);
    const problems = problemsOf(
      `${VALID}ruleset: { social: { windowMs: 0, limits: { post: { agent: -1, human: 20, cooldownMs: 0 } }, tiers: [{ name: a, minScore: 5 }] } }\n`,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'ruleset.social.windowMs: must be a positive integer',
        'ruleset.social.limits.post: agent, human and cooldownMs must be integers >= 0',
        'ruleset.social.tiers: a list of { name, minScore } starting at 0 with rising minScore',
      ]),
    );
  });

  it('reports an unreadable file as a scenario error', () => {
    expect(() => loadScenarioFile('/nonexistent/scenario.yaml')).toThrow(ScenarioError);
  });

  it('accepts the shipped scenarios', () => {
    expect(loadScenarioFile('scenarios/smoke.yaml').population.reduce((n, g) => n + g.count, 0)).toBe(100);
    const storm = loadScenarioFile('scenarios/social-storm.yaml');
    expect(new Set(storm.population.map((g) => g.persona))).toEqual(
      new Set(['random', 'poster', 'replier', 'spammer', 'griefer', 'human']),
    );
    expect(storm.population.filter((g) => g.account === 'human').map((g) => g.persona)).toEqual(['human']);
    expect(storm.ruleset.api.requestsPerDay).toBe(5000); // the real quota: the spammers must run into it
  });

  it('accepts the crowd scenario: 5000 agents from one mix', () => {
    const crowd = loadScenarioFile('scenarios/crowd-5000.yaml');
    expect(crowd.population.reduce((n, g) => n + g.count, 0)).toBe(5000);
    expect(crowd.population.some((g) => g.persona === 'engine' && g.strength !== undefined)).toBe(true);
  });
});

/** A scenario whose population is `entries` (YAML list items, indented under `population:`). */
function withPopulation(entries: string): string {
  return `name: t\nseed: 3\nstart: 2026-01-01T00:00:00Z\nduration: 1h\npopulation:\n${entries}`;
}

const MIX = `  - mix:
      total: 1000
      personas: { random: 0.5, engine: 0.2, poller: 0.2, flaky: 0.1 }
      heartbeat: { distribution: lognormal, min: 10s, max: 10m, median: 45s }
      elo: { mean: 1500, sd: 200 }
      options: { random: { maxGames: 2 }, engine: { thinkMaxMs: 5000 } }
      airdrop: 1
`;

describe('population mix', () => {
  it('expands into one group per persona, in the order written, with counts that sum to the total', () => {
    const groups = parseScenario(withPopulation(MIX)).population;
    expect(groups.map((g) => [g.persona, g.count])).toEqual([
      ['random', 500],
      ['engine', 200],
      ['poller', 200],
      ['flaky', 100],
    ]);
    expect(groups[0]).toMatchObject({
      label: 'population[0].mix.personas.random',
      account: 'agent',
      options: { maxGames: 2 },
      airdropLamports: 1_000_000_000,
    });
    expect(groups[0]!.strength).toBeUndefined();
    expect(groups[1]).toMatchObject({ options: { thinkMaxMs: 5000 }, strength: { mean: 1500, sd: 200 } });
    for (const g of groups) {
      expect(g).toMatchObject({
        heartbeatMinMs: 10_000,
        heartbeatMaxMs: 600_000,
        heartbeatPeriod: { distribution: 'lognormal', medianMs: 45_000 },
      });
    }
  });

  it('rounds by largest remainder, is the same every time, and drops personas whose share rounds to nobody', () => {
    const text = withPopulation(
      '  - mix: { total: 7, personas: { random: 0.45, poller: 0.35, flaky: 0.15, slow: 0.05 } }\n',
    );
    const counts = parseScenario(text).population.map((g) => [g.persona, g.count]);
    expect(counts).toEqual([
      ['random', 3], // quota 3.15
      ['poller', 3], // 2.45: the largest remainder takes the seat left over
      ['flaky', 1], // 1.05
    ]); // slow: 0.35 rounds to nobody
    expect(parseScenario(text).population).toEqual(parseScenario(text).population);
  });

  it('mixes with explicit groups; humans in a mix play human accounts without a wallet', () => {
    const text = withPopulation(
      `  - persona: random\n    count: 3\n  - mix: { total: 10, personas: { random: 0.5, human: 0.5 }, airdrop: 2 }\n`,
    );
    const groups = parseScenario(text).population;
    expect(groups.map((g) => [g.label, g.persona, g.count, g.account, g.airdropLamports])).toEqual([
      ['population[0]', 'random', 3, 'agent', 0],
      ['population[1].mix.personas.random', 'random', 5, 'agent', 2_000_000_000],
      ['population[1].mix.personas.human', 'human', 5, 'human', 0],
    ]);
    // Without `distribution` a heartbeat is a range every beat is drawn from, as for explicit groups.
    expect(groups[1]).toMatchObject({ heartbeatMinMs: 30_000, heartbeatMaxMs: 60_000 });
    expect(groups[1]!.heartbeatPeriod).toBeUndefined();
  });

  it('names every bad field of a mix', () => {
    const mix = (body: string) => problemsOf(withPopulation(`  - mix: ${body}\n`));
    expect(mix('{ total: 0, personas: { random: 1 } }')).toEqual([
      'population[0].mix.total: must be a positive integer',
    ]);
    expect(mix('{ total: 10, personas: { random: 0.5, poller: 0.4 } }')).toEqual([
      'population[0].mix.personas: shares must add up to 1, not 0.9',
    ]);
    expect(mix('{ total: 10, personas: { wizard: 1 } }')).toEqual([
      expect.stringMatching(/^population\[0\]\.mix\.personas\.wizard: not a persona \(one of random,/),
    ]);
    expect(mix('{ total: 10, personas: { random: -1, poller: 2 } }')).toEqual([
      'population[0].mix.personas.random: must be a share from 0 (exclusive) to 1',
      'population[0].mix.personas.poller: must be a share from 0 (exclusive) to 1',
    ]);
    expect(mix('{ total: 10, personas: [random] }')).toEqual([
      expect.stringMatching(/^population\[0\]\.mix\.personas: must map persona names to shares/),
    ]);
    expect(mix('{ total: 10, personas: { random: 1 }, size: 3 }')).toEqual([
      expect.stringMatching(/^population\[0\]\.mix\.size: unknown field/),
    ]);
    expect(mix('{ total: 10, personas: { random: 1 }, options: { poller: {} } }')).toEqual([
      'population[0].mix.options.poller: not a persona of this mix',
    ]);
    expect(mix('{ total: 10, personas: { random: 1 }, options: { random: { maxGames: 0 } } }')).toEqual([
      'population[0].mix.options.random.maxGames: must be an integer from 1 to 1000',
    ]);
    expect(mix('{ total: 10, personas: { random: 1 }, elo: { mean: 1500, sd: 100 } }')).toEqual([
      'population[0].mix.elo: sets the strength of engine agents, and this mix has none',
    ]);
    expect(mix('{ total: 10, personas: { engine: 1 }, elo: { mean: high, sd: -5 } }')).toEqual([
      'population[0].mix.elo.mean: must be an Elo from 0 to 4000',
      'population[0].mix.elo.sd: must be a number from 0 to 1000',
    ]);
    expect(
      mix(
        '{ total: 10, personas: { engine: 1 }, elo: { mean: 1500, sd: 100 }, options: { engine: { level: sf-2 } } }',
      ),
    ).toEqual(["population[0].mix.elo: picks each engine agent's level; drop options.engine.level"]);
    expect(mix('{ total: 10, personas: { random: 1 }, airdrop: 0.0000001 }')).toEqual([
      expect.stringMatching(/^population\[0\]\.mix\.airdrop: below the rent-exempt minimum/),
    ]);
    expect(mix('{ total: 60000, personas: { random: 1 } }')).toEqual([]);
    expect(
      problemsOf(
        withPopulation(
          `  - mix: { total: 60000, personas: { random: 1 } }\n  - mix: { total: 60000, personas: { poller: 1 } }\n`,
        ),
      ),
    ).toEqual(['population: 120000 agents is more than the 100000 a run supports']);
    expect(
      problemsOf(withPopulation('  - mix: { total: 3, personas: { random: 1 } }\n    count: 3\n')),
    ).toEqual([expect.stringMatching(/^population\[0\]\.count: unknown field/)]);
  });
});

describe('heartbeat distributions and strength', () => {
  const group = (extra: string) => withPopulation(`  - persona: random\n    count: 2\n${extra}`);

  it('a heartbeat distribution gives each agent a period; the median defaults to the geometric mean', () => {
    expect(
      parseScenario(group('    heartbeat: { distribution: uniform, min: 20s, max: 40s }\n')).population[0],
    ).toMatchObject({
      heartbeatPeriod: { distribution: 'uniform' },
    });
    expect(
      parseScenario(group('    heartbeat: { distribution: lognormal, min: 10s, max: 1000s }\n'))
        .population[0]!.heartbeatPeriod,
    ).toEqual({
      distribution: 'lognormal',
      medianMs: 100_000,
    });
  });

  it('names a bad distribution, median or heartbeat field', () => {
    const beat = (body: string) => problemsOf(group(`    heartbeat: ${body}\n`));
    expect(beat('{ distribution: normal, min: 10s, max: 20s }')).toEqual([
      'population[0].heartbeat.distribution: must be one of uniform, lognormal',
    ]);
    expect(beat('{ distribution: lognormal, min: 10s, max: 20s, median: 30s }')).toEqual([
      'population[0].heartbeat.median: must lie between min and max',
    ]);
    expect(beat('{ distribution: uniform, min: 10s, max: 20s, median: 15s }')).toEqual([
      'population[0].heartbeat.median: only a lognormal distribution has a median',
    ]);
    expect(beat('{ min: 10s, max: 20s, median: 15s }')).toEqual([
      'population[0].heartbeat.median: only a lognormal distribution has a median',
    ]);
    expect(beat('{ distribution: lognormal, min: 10s, max: 20s, median: soon }')).toEqual([
      expect.stringMatching(/^population\[0\]\.heartbeat\.median: must be a positive duration/),
    ]);
    expect(beat('{ min: 10s, max: 20s, every: 5s }')).toEqual([
      expect.stringMatching(/^population\[0\]\.heartbeat\.every: unknown field/),
    ]);
  });

  it('an engine group may ask for a strength; no other persona, and not together with options.level', () => {
    const engine = (extra: string) => withPopulation(`  - persona: engine\n    count: 5\n${extra}`);
    expect(parseScenario(engine('    strength: { mean: 1200, sd: 0 }\n')).population[0]!.strength).toEqual({
      mean: 1200,
      sd: 0,
    });
    expect(problemsOf(group('    strength: { mean: 1200, sd: 50 }\n'))).toEqual([
      'population[0].strength: only engine agents have a strength',
    ]);
    expect(
      problemsOf(engine('    strength: { mean: 1200, sd: 50 }\n    options: { level: sf-3 }\n')),
    ).toEqual(["population[0].strength: picks each agent's level; drop options.level"]);
    expect(problemsOf(engine('    strength: 1500\n'))).toEqual([
      expect.stringMatching(/^population\[0\]\.strength: must be a mapping with mean and sd/),
    ]);
    expect(problemsOf(engine('    strength: { mean: 1500 }\n'))).toEqual([
      'population[0].strength.sd: must be a number from 0 to 1000',
    ]);
  });
});

describe('module groups', () => {
  const dir = mkdtempSync(join(tmpdir(), 'acs-module-'));
  writeFileSync(
    join(dir, 'agent.mjs'),
    'export default { create: () => ({ heartbeat: async () => {} }) };\n',
  );
  const moduleGroup = (path: string, extra = '') =>
    withPopulation(`  - module: ${path}\n    count: 2\n${extra}`);

  it("resolve against the scenario file's directory (or take an absolute path)", () => {
    const file = join(dir, 'scenario.yaml');
    writeFileSync(file, moduleGroup('./agent.mjs'));
    expect(loadScenarioFile(file).population[0]).toMatchObject({
      persona: './agent.mjs',
      module: { path: './agent.mjs', baseDir: dir },
      account: 'agent',
      count: 2,
    });
    expect(parseScenario(moduleGroup(join(dir, 'agent.mjs'))).population[0]!.module).toEqual({
      path: join(dir, 'agent.mjs'),
      baseDir: dir,
    });
  });

  it('name a missing file, a relative path without a directory, both persona and module, and a human account', () => {
    expect(problemsOf(moduleGroup(join(dir, 'missing.mjs')))).toEqual([
      `population[0].module: no file at ${join(dir, 'missing.mjs')}`,
    ]);
    expect(problemsOf(moduleGroup('./agent.mjs'))).toEqual([
      expect.stringMatching(/^population\[0\]\.module: a relative path needs the scenario's directory/),
    ]);
    expect(problemsOf(moduleGroup(join(dir, 'agent.mjs'), '    persona: random\n'))).toEqual([
      'population[0]: give persona or module, not both',
    ]);
    expect(problemsOf(moduleGroup('""'))).toEqual([
      expect.stringMatching(/^population\[0\]\.module: must be a path to an agent module/),
    ]);
    expect(problemsOf(moduleGroup(join(dir, 'agent.mjs'), '    account: human\n'))).toEqual([
      'population[0].account: human accounts play only the human persona',
    ]);
  });
});
