import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { prettyCanonicalJson } from '../../src/kernel/canonical.js';
import { findAgent } from '../../src/platform/identity/identity.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { buildReport } from '../../src/report/report.js';
import { loadScenarioFile, parseScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { World, type RunOutcome } from '../../src/sim/world.js';

/**
 * The crowd scenario, scaled down so two runs fit the test budget on a slow machine: the same file (seed,
 * mix shares, lognormal heartbeats, engine Elo spread, per-persona options, real daily quota) with the mix's
 * total cut to TOTAL agents and the run cut to its first MINUTES virtual minutes. Each run is about 3 s here
 * (the whole crowd, 5,000 agents for 30 minutes, is `run scenarios/crowd-5000.yaml`: about 2 minutes).
 */
const FILE = 'scenarios/crowd-5000.yaml';
const TOTAL = 1000;
const MINUTES = 3;

function crowd(): Scenario {
  const raw = parse(readFileSync(FILE, 'utf8')) as {
    duration: unknown;
    population: Array<{ mix?: { total: number } }>;
  };
  const mix = raw.population[0]!.mix!;
  expect(mix.total).toBe(5000); // the shipped file, which this test scales down
  mix.total = TOTAL;
  raw.duration = `${MINUTES}m`;
  return parseScenario(stringify(raw), FILE, undefined, 'scenarios');
}

async function runToBytes(): Promise<{ outcome: RunOutcome; json: string; pgn: string }> {
  const scenario = crowd();
  const outcome = await new World(scenario).run();
  return {
    outcome,
    json: prettyCanonicalJson(buildReport(scenario, outcome)),
    pgn: gamesToPgn(outcome.platform, scenario.name),
  };
}

/** Moves the agents of one persona made. */
function movesBy(outcome: RunOutcome, persona: string): number {
  const ids = new Set(
    outcome.agents.filter((a) => a.persona === persona).map((a) => findAgent(outcome.platform, a.handle)!.id),
  );
  let moves = 0;
  for (const game of outcome.platform.state.games.values()) {
    if (ids.has(game.whiteId)) moves += game.moves.filter((m) => m.color === 'white').length;
    if (ids.has(game.blackId)) moves += game.moves.filter((m) => m.color === 'black').length;
  }
  return moves;
}

describe('crowd-5000', () => {
  it('the shipped mix apportions 5000 agents by its shares', () => {
    const byPersona = new Map<string, number>();
    for (const group of loadScenarioFile(FILE).population)
      byPersona.set(group.persona, (byPersona.get(group.persona) ?? 0) + group.count);
    expect(Object.fromEntries(byPersona)).toEqual({
      random: 1800,
      poller: 1500,
      flaky: 500,
      poster: 400,
      replier: 300,
      human: 250,
      engine: 150,
      cautious: 100,
    });
  });

  it(`the same mix at ${TOTAL} agents, first ${MINUTES} virtual minutes: every agent of the mix plays its part, every invariant holds, byte-identical twice`, async () => {
    const first = await runToBytes();
    const { outcome } = first;
    expect(
      outcome.invariants.filter((i) => !i.passed).map((i) => `${i.name}: ${i.violations[0]?.message}`),
    ).toEqual([]);
    expect(outcome.failed).toBe(false);

    // The mix, apportioned: TOTAL agents, each persona its share; humans are accounts, not agents.
    const byPersona = new Map<string, number>();
    for (const agent of outcome.agents) byPersona.set(agent.persona, (byPersona.get(agent.persona) ?? 0) + 1);
    expect(Object.fromEntries(byPersona)).toEqual({
      random: 360,
      poller: 300,
      flaky: 100,
      poster: 80,
      replier: 60,
      human: 50,
      engine: 30,
      cautious: 20,
    });
    expect(outcome.platform.state.agents.size).toBe(950);

    // Each agent polls at a period of its own.
    const periods = new Set(outcome.agents.map((a) => a.heartbeatMaxMs));
    expect(periods.size).toBeGreaterThan(900);

    // Play started, the engine agents among the movers, under the real daily quota.
    expect(outcome.eventCounts.get('move_played') ?? 0).toBeGreaterThan(1000);
    expect(movesBy(outcome, 'engine')).toBeGreaterThan(30);
    expect(outcome.requests.requests).toBeGreaterThan(15_000);

    const second = await runToBytes();
    expect(second.outcome.fingerprint).toBe(outcome.fingerprint);
    expect(second.json).toBe(first.json);
    expect(second.pgn).toBe(first.pgn);
  });
});
