import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';

/**
 * Every shipped scenario, cut short, with every answer checked against the route contracts: a view that
 * sends a field its contract lacks, drops one, or a route that answers a code it does not declare fails
 * here (the whole scenarios run with `--check-wire` in .ci/run).
 */
const SHIPPED = readdirSync('scenarios')
  .filter((name) => name.endsWith('.yaml'))
  .sort();
const HOURS = 2;
/** crowd-5000 is cut in agents as well as time, as in test/scenario/crowd.test.ts. */
const CROWD_TOTAL = 400;
const CROWD_MINUTES = 5;

function shortened(name: string): Scenario {
  const file = `scenarios/${name}`;
  const raw = parse(readFileSync(file, 'utf8')) as {
    start?: string;
    duration: unknown;
    population: Array<{ mix?: { total: number } }>;
  };
  raw.start ??= '2026-03-01T00:00:00Z'; // serve.yaml leaves its start to the wall clock
  const mix = raw.population[0]?.mix;
  if (mix) {
    mix.total = Math.min(mix.total, CROWD_TOTAL);
    raw.duration = `${CROWD_MINUTES}m`;
  } else {
    raw.duration = `${HOURS}h`;
  }
  return parseScenario(stringify(raw), file, undefined, 'scenarios');
}

describe('the shipped scenarios keep to the wire contract', () => {
  it('ships the scenarios this test expects to see', () => {
    expect(SHIPPED).toEqual(
      expect.arrayContaining([
        'smoke.yaml',
        'social-storm.yaml',
        'tournament-64.yaml',
        'bounty-economy.yaml',
        'crowd-5000.yaml',
      ]),
    );
  });

  it.each(SHIPPED)('%s: every answer matches its route contract', async (name) => {
    const world = new World(shortened(name), { checkWire: true });
    const outcome = await world.run();
    expect(outcome.requests.requests, 'the scenario made requests').toBeGreaterThan(100);
    expect(outcome.requests.byCode.size, 'refusals were checked too').toBeGreaterThan(0);
  });

  it('fails a run whose answers leave the contract, naming the route', async () => {
    const world = new World(shortened('smoke.yaml'), { checkWire: true });
    const handle = world.api.handle.bind(world.api);
    world.api.handle = (request, as) => {
      const response = handle(request, as);
      const body = response.body as Record<string, unknown>;
      if (response.status === 200 && request.path.includes('my-turn'))
        return { ...response, body: { ...body, surprise: 1 } };
      return response;
    };
    await expect(world.run()).rejects.toThrow(
      /answers left the route contracts; first: GET \/api\/chess\/games\/my-turn.*surprise/,
    );
  });
});
