import { describe, expect, it } from 'vitest';
import { ScenarioError, loadScenarioFile, parseScenario } from '../../src/sim/scenario.js';

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
    expect(s.population[0]).toMatchObject({ persona: 'random', count: 4, heartbeatMinMs: 30_000, heartbeatMaxMs: 60_000 });
    expect(s.ruleset.game.moveLimitPlies).toBe(200);
    expect(parseScenario(VALID, 'x', '99').seed).toBe('99');
  });

  it('names the bad field', () => {
    expect(problemsOf(VALID.replace('count: 4', 'count: -1'))).toEqual(['population[0].count: must be a positive integer']);
    expect(problemsOf(VALID.replace('persona: random', 'persona: wizard'))[0]).toMatch(/^population\[0\]\.persona: must be one of random, slow/);
    expect(problemsOf(VALID.replace('duration: 2h', 'duration: forever'))[0]).toMatch(/^duration:/);
    expect(problemsOf(VALID.replace('2026-01-01T00:00:00Z', 'yesterday'))[0]).toMatch(/^start:/);
    expect(problemsOf(VALID.replace('max: 60s', 'max: 10s'))[0]).toMatch(/^population\[0\]\.heartbeat: max/);
    expect(problemsOf(`${VALID}colour: blue\n`)[0]).toMatch(/^colour: unknown field/);
    expect(problemsOf(`${VALID}ruleset: { game: { turnLimitMs: fast } }\n`)[0]).toMatch(/^ruleset\.game\.turnLimitMs/);
    expect(problemsOf(VALID.replace('heartbeat: { min: 30s, max: 60s }', 'options: { seekChance: 2 }'))[0]).toMatch(
      /^population\[0\]\.options\.seekChance: must be/,
    );
    expect(problemsOf('just text')[0]).toMatch(/YAML mapping/);
    expect(problemsOf('a: [')[0]).toMatch(/not valid YAML/);
  });

  it('a group plays agent accounts by default; the human persona plays human accounts, and only it', () => {
    expect(parseScenario(VALID).population[0]!.account).toBe('agent');
    const humans = `${VALID}  - persona: human\n    account: human\n    count: 2\n`;
    expect(parseScenario(humans).population[1]).toMatchObject({ persona: 'human', account: 'human', count: 2 });
    expect(problemsOf(`${VALID}  - persona: human\n    count: 2\n`)).toEqual([
      'population[1].account: the human persona plays a human account; set account: human',
    ]);
    expect(problemsOf(VALID.replace('count: 4', 'account: human\n    count: 4'))).toEqual(['population[0].account: human accounts play only the human persona']);
    expect(problemsOf(VALID.replace('count: 4', 'account: robot\n    count: 4'))).toEqual(['population[0].account: must be one of agent, human']);
    expect(problemsOf(`${humans}    airdrop: 1\n`)).toEqual(['population[1].airdrop: human accounts have no wallet']);
  });

  it('takes the onboarding presets by name, and names bad social rules', () => {
    expect(parseScenario(`${VALID}ruleset: { research: strict }\n`).ruleset.research).toEqual({ minPosts: 1, minFollows: 10, minLikes: 10, verifiedUnlocks: true });
    expect(problemsOf(`${VALID}ruleset: { research: lenient }\n`)).toEqual([expect.stringMatching(/^ruleset.research: "lenient" is not a preset/)]);
    const problems = problemsOf(`${VALID}ruleset: { social: { windowMs: 0, limits: { post: { agent: -1, human: 20, cooldownMs: 0 } }, tiers: [{ name: a, minScore: 5 }] } }\n`);
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
    expect(new Set(storm.population.map((g) => g.persona))).toEqual(new Set(['random', 'poster', 'replier', 'spammer', 'griefer', 'human']));
    expect(storm.population.filter((g) => g.account === 'human').map((g) => g.persona)).toEqual(['human']);
    expect(storm.ruleset.api.requestsPerDay).toBe(5000); // the real quota: the spammers must run into it
  });
});
