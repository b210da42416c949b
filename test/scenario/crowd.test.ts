import { describe, expect, it } from 'vitest';
import { prettyCanonicalJson } from '../../src/kernel/canonical.js';
import { findAgent } from '../../src/platform/identity.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { buildReport } from '../../src/report/report.js';
import { loadScenarioFile, type Scenario } from '../../src/sim/scenario.js';
import { World, type RunOutcome } from '../../src/sim/world.js';

/**
 * The 5,000-agent crowd, cut to its first minutes so two runs fit the test budget (each run here is about
 * 2.5 s to register the crowd plus 3 s per virtual minute; the whole 30 minutes are `run scenarios/crowd-5000.yaml`).
 */
const MINUTES = 2;

function crowd(): Scenario {
  return { ...loadScenarioFile('scenarios/crowd-5000.yaml'), durationMs: MINUTES * 60_000 };
}

async function runToBytes(): Promise<{ outcome: RunOutcome; json: string; pgn: string }> {
  const scenario = crowd();
  const outcome = await new World(scenario).run();
  return { outcome, json: prettyCanonicalJson(buildReport(scenario, outcome)), pgn: gamesToPgn(outcome.platform, scenario.name) };
}

/** Moves the agents of one persona made. */
function movesBy(outcome: RunOutcome, persona: string): number {
  const ids = new Set(outcome.agents.filter((a) => a.persona === persona).map((a) => findAgent(outcome.platform, a.handle)!.id));
  let moves = 0;
  for (const game of outcome.platform.state.games.values()) {
    if (ids.has(game.whiteId)) moves += game.moves.filter((m) => m.color === 'white').length;
    if (ids.has(game.blackId)) moves += game.moves.filter((m) => m.color === 'black').length;
  }
  return moves;
}

describe('crowd-5000', () => {
  it(`the first ${MINUTES} virtual minutes: every agent of the mix plays its part, every invariant holds, byte-identical twice`, async () => {
    const first = await runToBytes();
    const { outcome } = first;
    expect(outcome.invariants.filter((i) => !i.passed).map((i) => `${i.name}: ${i.violations[0]?.message}`)).toEqual([]);
    expect(outcome.failed).toBe(false);

    // The mix, apportioned: 5000 agents, each persona its share.
    const byPersona = new Map<string, number>();
    for (const agent of outcome.agents) byPersona.set(agent.persona, (byPersona.get(agent.persona) ?? 0) + 1);
    expect(Object.fromEntries(byPersona)).toEqual({ random: 1800, poller: 1500, flaky: 500, poster: 400, replier: 300, human: 250, engine: 150, cautious: 100 });
    expect(outcome.platform.state.agents.size).toBe(4750);

    // Each agent polls at a period of its own.
    const periods = new Set(outcome.agents.map((a) => a.heartbeatMaxMs));
    expect(periods.size).toBeGreaterThan(2000);

    // Play started, the engine agents among the movers, under the real daily quota.
    expect(outcome.eventCounts.get('move_played') ?? 0).toBeGreaterThan(1000);
    expect(movesBy(outcome, 'engine')).toBeGreaterThan(50);
    expect(outcome.requests.requests).toBeGreaterThan(50_000);

    const second = await runToBytes();
    expect(second.outcome.fingerprint).toBe(outcome.fingerprint);
    expect(second.json).toBe(first.json);
    expect(second.pgn).toBe(first.pgn);
  }, 120_000);
});
