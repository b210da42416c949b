import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError } from '../../src/sim/scenario/scenario.js';
import { minimalYaml, shrinkScenario } from '../../src/sim/shrink.js';
import { runScenario, World } from '../../src/sim/world.js';

/** User invariants: named by a scenario, loaded as agent modules are, reported with the built-in ones; and shrink. */
const EXAMPLES = fileURLToPath(new URL('../../examples/invariants/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'acs-invariants-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scenario(invariants: string[], population: string, extra = ''): string {
  return `
name: user-invariants
seed: 5
start: 2026-01-01T00:00:00Z
duration: 2h
${extra}
invariants:
${invariants.map((path) => `  - module: ${path}`).join('\n')}
population:
${population}
`;
}

const RANDOM = `  - persona: random
    count: 10
    heartbeat: { min: 30s, max: 60s }
    options: { maxGames: 2 }`;
const SLOW = `  - persona: slow
    count: 10
    heartbeat: { min: 30s, max: 90s }
    options: { lateChance: 0.004, maxGames: 2 }`;

function writeModule(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('user invariants', () => {
  it('reports a user invariant with the built-in ones: no_timeouts breaks under the slow persona and holds without it', async () => {
    const noTimeouts = join(EXAMPLES, 'no-timeouts.mjs');
    const broken = await runScenario(parseScenario(scenario([noTimeouts], `${RANDOM}\n${SLOW}`)));
    const result = broken.invariants.find((r) => r.name === 'no_timeouts')!;
    expect(result.passed).toBe(false);
    expect(result.violations[0]!.message).toMatch(/ended by timeout/);
    expect(broken.failed).toBe(true);
    expect(broken.invariants.map((r) => r.name)).toContain('elo_conservation');
    const held = await runScenario(parseScenario(scenario([noTimeouts], RANDOM)));
    expect(held.invariants.find((r) => r.name === 'no_timeouts')).toMatchObject({ passed: true });
    expect(held.invariants.find((r) => r.name === 'no_timeouts')!.checks).toBeGreaterThan(0);
  });

  it('checks money with the ruleset it runs under: the bounty fee cap holds at 10% and breaks at 20%', async () => {
    const cap = join(EXAMPLES, 'bounty-fee-cap.mjs');
    const bounties = `  - persona: random
    count: 16
    heartbeat: { min: 30s, max: 60s }
    airdrop: 2
    options: { maxGames: 2, bountyShare: 1, bountyMinSol: 0.05, bountyMaxSol: 0.2 }`;
    const held = await runScenario(parseScenario(scenario([cap], bounties)));
    const fair = held.invariants.find((r) => r.name === 'bounty_fee_cap')!;
    expect(fair.passed).toBe(true);
    expect(fair.checks).toBeGreaterThan(0);
    const greedy = await runScenario(
      parseScenario(scenario([cap], bounties, 'ruleset:\n  bounty: { systemFeeBps: 2000 }')),
    );
    expect(greedy.invariants.find((r) => r.name === 'bounty_fee_cap')!.violations[0]!.message).toMatch(
      /more than 12% of the pot/,
    );
  });

  it('runs final checks, and records a checker that throws as a violation instead of stopping the run', async () => {
    const module = writeModule(
      'counting.mjs',
      `export default { name: 'counting', create: ({ platform }) => { let games = 0; return {
         check(event, expect) { if (event.type === 'game_started') games++; if (event.type === 'move_played' && event.ply === 7) throw new Error('boom'); },
         finalCheck(expect) { expect(games === platform.state.games.size, 'games seen ' + games + ' != ' + platform.state.games.size); expect(false, 'always fails at the end'); },
       }; } };`,
    );
    const outcome = await runScenario(parseScenario(scenario([module], RANDOM)));
    const result = outcome.invariants.find((r) => r.name === 'counting')!;
    const messages = result.violations.map((v) => v.message);
    expect(messages.some((m) => m.startsWith('the checker threw: boom'))).toBe(true);
    expect(messages).toContain('always fails at the end');
    expect(messages.some((m) => m.startsWith('games seen'))).toBe(false);
  });

  it('refuses bad modules before any event, each with one line naming the path', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['no-default.mjs', 'export const x = 1;', /default export must be/],
      [
        'bad-name.mjs',
        "export default { name: 'Bad Name', create: () => ({ check() {} }) };",
        /name: must be lower-case/,
      ],
      [
        'taken.mjs',
        "export default { name: 'elo_conservation', create: () => ({ check() {} }) };",
        /already taken/,
      ],
      ['no-check.mjs', "export default { name: 'nocheck', create: () => ({}) };", /check\(event, expect\)/],
      [
        'create-throws.mjs',
        "export default { name: 'thrower', create: () => { throw new Error('nope'); } };",
        /create threw: nope/,
      ],
      ['syntax.mjs', 'export default {', /import threw/],
    ];
    for (const [name, text, message] of cases) {
      const world = new World(parseScenario(scenario([writeModule(name, text)], RANDOM)));
      const error = await world.populate().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ScenarioError);
      expect((error as ScenarioError).message, name).toMatch(message);
      expect((error as ScenarioError).message, name).toContain(name);
      expect(world.platform.state.agents.size, name).toBe(0);
    }
    expect(() => parseScenario(scenario(['./nowhere.mjs'], RANDOM))).toThrow(
      /invariants\[0\]\.module: a relative path needs/,
    );
    expect(() => parseScenario(scenario([join(dir, 'missing.mjs')], RANDOM))).toThrow(
      /invariants\[0\]\.module: no file at/,
    );
    expect(() => parseScenario(scenario([], RANDOM).replace('invariants:\n', 'invariants: 3\n'))).toThrow(
      /invariants: must be a list/,
    );
  });
});

describe('shrink', () => {
  it('turns a run that breaks no_timeouts into a minimal scenario at least 10x smaller in events, which replays to the same failure', async () => {
    const text = scenario(
      [join(EXAMPLES, 'no-timeouts.mjs')],
      `${RANDOM.replace('count: 10', 'count: 30')}\n${SLOW}`,
      'ruleset:\n  api: { requestsPerDay: 100000 }',
    ).replace('duration: 2h', 'duration: 6h');
    const lines: string[] = [];
    const result = await shrinkScenario(text, 'shrink-test', undefined, dir, {
      maxRuns: 60,
      onProgress: (line) => lines.push(line),
    });
    expect(result.invariant).toBe('no_timeouts');
    expect(result.original.eventsToFailure / result.minimal.eventsToFailure).toBeGreaterThanOrEqual(10);
    expect(result.minimal.agents).toBeLessThan(result.original.agents);
    expect(lines.length).toBe(result.runs);
    const yaml = minimalYaml(result, ['test'], dir, dir);
    expect(yaml).not.toMatch(/ruleset/); // the quota override does not matter to the failure
    const replayed = await runScenario(parseScenario(yaml, 'minimal.yaml', undefined, dir));
    const still = replayed.invariants.find((r) => r.name === 'no_timeouts')!;
    expect(still.passed).toBe(false);
    expect(still.violations[0]!.message).toBe(result.message);
    expect(replayed.events).toBeLessThanOrEqual(result.minimal.eventsToFailure * 2);
  });

  it('says when there is nothing to shrink', async () => {
    const text = scenario([join(EXAMPLES, 'no-timeouts.mjs')], RANDOM);
    await expect(shrinkScenario(text, 'holds', undefined, dir)).rejects.toThrow(
      /breaks no invariant: nothing to shrink/,
    );
    await expect(shrinkScenario(text, 'holds', undefined, dir, { invariant: 'no_such' })).rejects.toThrow(
      /no invariant named no_such/,
    );
  });
});
