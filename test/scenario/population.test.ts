import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnginePersona } from '../../agents/personas/engine.js';
import { nearestLevel } from '../../agents/engines/strength.js';
import { loadScenarioFile, parseScenario, ScenarioError } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';

/** A scenario of `entries` (YAML list items under `population:`), run for `duration`. */
function scenario(entries: string, duration = '10m'): string {
  return `name: pop\nseed: 7\nstart: 2026-01-01T00:00:00Z\nduration: ${duration}\npopulation:\n${entries}`;
}

async function populated(text: string): Promise<World> {
  const world = new World(parseScenario(text));
  await world.populate();
  return world;
}

describe('populating a world from groups and mixes', () => {
  it('numbers handles per persona across groups, and makes persona names valid handles', async () => {
    const world = await populated(
      scenario(
        `  - persona: random\n    count: 2\n  - mix: { total: 4, personas: { random: 0.5, bounty-hunter: 0.5 } }\n  - persona: random\n    count: 1\n`,
      ),
    );
    expect(world.agents.map((a) => [a.handle, a.persona])).toEqual([
      ['random_0001', 'random'],
      ['random_0002', 'random'],
      ['random_0003', 'random'],
      ['random_0004', 'random'],
      ['bounty_hunter_0001', 'bounty-hunter'],
      ['bounty_hunter_0002', 'bounty-hunter'],
      ['random_0005', 'random'],
    ]);
    expect(world.platform.state.agents.size).toBe(7);
  });

  it('gives each agent of a distribution group its own seeded period, within the bounds, the same every time', async () => {
    const text = scenario(
      `  - persona: random\n    count: 200\n    heartbeat: { distribution: lognormal, min: 15s, max: 10m, median: 45s }\n`,
    );
    const ranges = (w: World) => w.agents.map((a): [number, number] => [a.heartbeatMinMs, a.heartbeatMaxMs]);
    const first = await populated(text);
    expect(ranges(await populated(text))).toEqual(ranges(first));
    for (const [min, max] of ranges(first)) {
      expect(min).toBeGreaterThanOrEqual(15_000);
      expect(max).toBeLessThanOrEqual(600_000);
      expect(max - min).toBeLessThanOrEqual(Math.ceil(0.2 * max)); // period +- 10%
    }
    const mids = ranges(first)
      .map(([min, max]) => (min + max) / 2)
      .sort((a, b) => a - b);
    expect(mids[100]! / 45_000).toBeGreaterThan(0.8); // the median agent polls near the median period
    expect(mids[100]! / 45_000).toBeLessThan(1.25);
    expect(mids[199]! / mids[0]!).toBeGreaterThan(5); // and the crowd is heterogeneous
    // Without a distribution every agent keeps the group's range, as before.
    const plain = await populated(
      scenario(`  - persona: random\n    count: 3\n    heartbeat: { min: 20s, max: 40s }\n`),
    );
    expect(ranges(plain)).toEqual([
      [20_000, 40_000],
      [20_000, 40_000],
      [20_000, 40_000],
    ]);
  });

  it('draws engine levels from a strength spread, seeded, from the calibrated ladder', async () => {
    const text = scenario(`  - persona: engine\n    count: 40\n    strength: { mean: 1500, sd: 300 }\n`);
    const levels = (w: World) => w.agents.map((a) => (a.impl as EnginePersona).level.name);
    const first = levels(await populated(text));
    expect(levels(await populated(text))).toEqual(first);
    expect(first).toHaveLength(40);
    const exact = await populated(
      scenario(`  - persona: engine\n    count: 5\n    strength: { mean: 1500, sd: 0 }\n`),
    );
    expect(new Set(levels(exact))).toEqual(new Set([nearestLevel(1500).name]));
    // The mix's elo reaches its engine agents only.
    const mix = await populated(
      scenario(
        `  - mix: { total: 10, personas: { engine: 0.5, random: 0.5 }, elo: { mean: 1500, sd: 0 } }\n`,
      ),
    );
    expect(
      mix.agents.filter((a) => a.persona === 'engine').map((a) => (a.impl as EnginePersona).level.name),
    ).toEqual(Array(5).fill(nearestLevel(1500).name));
  });
});

describe('bring-your-own modules in a scenario', () => {
  const dir = mkdtempSync(join(tmpdir(), 'acs-byo-scenario-'));
  // A module that needs nothing from this project: it posts once (the research phase) and polls its turn.
  writeFileSync(
    join(dir, 'poller.mjs'),
    `export default {
  name: 'my_poller',
  description: 'a test module',
  checkOptions: (o) => Object.keys(o).filter((k) => k !== 'greeting').map((k) => k + ': unknown option'),
  create: (o) => {
    let posted = false;
    return { heartbeats: 0, async heartbeat(ctx) {
      this.heartbeats++;
      if (!posted) { await ctx.client.post(o.greeting ?? 'hello'); posted = true; }
      await ctx.client.myTurn();
    } };
  },
};\n`,
  );
  writeFileSync(join(dir, 'broken.mjs'), `throw new Error('boom at import');\n`);
  const write = (name: string, entries: string) => {
    const file = join(dir, name);
    writeFileSync(file, scenario(entries));
    return loadScenarioFile(file);
  };

  it('a module group plays beside built-in personas, named after the module', async () => {
    const s = write(
      'good.yaml',
      `  - persona: random\n    count: 2\n  - module: ./poller.mjs\n    count: 3\n    options: { greeting: hi }\n`,
    );
    const outcome = await new World(s).run();
    expect(outcome.failed).toBe(false);
    const mine = outcome.agents.filter((a) => a.persona === 'my_poller');
    expect(mine.map((a) => a.handle)).toEqual(['my_poller_0001', 'my_poller_0002', 'my_poller_0003']);
    for (const agent of mine)
      expect((agent.impl as unknown as { inner: { heartbeats: number } }).inner.heartbeats).toBeGreaterThan(
        5,
      );
    expect(outcome.eventCounts.get('post_created')).toBeGreaterThanOrEqual(5);
  });

  async function failure(s: ReturnType<typeof write>): Promise<{ error: ScenarioError; world: World }> {
    const world = new World(s);
    const error = await world.run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ScenarioError);
    return { error: error as ScenarioError, world };
  }

  it('a module that throws at import stops the run before any agent registers or any event runs, naming the group and path', async () => {
    const { error, world } = await failure(
      write('broken.yaml', `  - persona: random\n    count: 2\n  - module: ./broken.mjs\n    count: 1\n`),
    );
    expect(error.problems).toEqual([
      expect.stringMatching(
        /^population\[1\]\.module: agent module \.\/broken\.mjs: import threw: boom at import$/,
      ),
    ]);
    expect(world.platform.state.agents.size).toBe(0);
    expect(world.fingerprintSoFar()).toBe(
      new World(parseScenario(scenario('  - persona: random\n    count: 1\n'))).fingerprintSoFar(),
    );
  });

  it("a module's own checkOptions refusal names the group", async () => {
    const { error } = await failure(
      write('options.yaml', `  - module: ./poller.mjs\n    count: 1\n    options: { volume: 11 }\n`),
    );
    expect(error.problems).toEqual([
      expect.stringMatching(
        /^population\[0\]\.module: agent module \.\/poller\.mjs: checkOptions refused the options: volume: unknown option$/,
      ),
    ]);
  });
});
