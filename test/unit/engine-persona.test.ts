import { afterEach, describe, expect, it } from 'vitest';
import { enginePersona, type EnginePersona } from '../../agents/personas/engine.js';
import { levelByName } from '../../agents/engines/levels.js';
import { EnginePool } from '../../agents/engines/pool.js';
import type { AgentContext, PersonaFactory } from '../../agents/persona.js';
import { PERSONAS } from '../../agents/registry.js';
import { Rng } from '../../src/kernel/rng.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { STANDARD_START_FEN } from '../../src/rules/chess/chess.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World, type RunOutcome } from '../../src/sim/world.js';
import { newWorld } from '../helpers/world.js';

// Scenarios name personas through the registry; until the lead registers `engine` there, this file does.
if (!PERSONAS.has('engine')) (PERSONAS as Map<string, PersonaFactory>).set('engine', enginePersona);

/** Each test starts from no shared pool, so it decides the pool size itself. */
afterEach(() => EnginePool.shared().close());

describe('engine persona options', () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ level: 'sf-99' }, /^level: must be one of sf-1, .*sf-8$/],
    [{ level: 3 }, /^level: must be one of /],
    [{ thinkMinMs: -1 }, /^thinkMinMs: must be an integer from 0 to 299000$/],
    [{ thinkMaxMs: 300_000 }, /^thinkMaxMs: must be an integer from 0 to 299000$/],
    [{ thinkMinMs: 9_000, thinkMaxMs: 8_000 }, /^thinkMinMs: must not exceed thinkMaxMs$/],
    [{ thinkMinMs: 25_000 }, /^thinkMinMs: must not exceed thinkMaxMs$/],
    [{ maxGames: 0 }, /^maxGames: must be an integer from 1 to 1000$/],
    [{ skill: 20 }, /^skill: unknown option$/],
  ];
  for (const [options, problem] of bad) {
    it(`refuses ${JSON.stringify(options)}, naming the option`, () => {
      const problems = enginePersona.checkOptions(options);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(problem);
    });
  }

  it('accepts its defaults and every level', () => {
    expect(enginePersona.checkOptions({})).toEqual([]);
    for (let i = 1; i <= 8; i++)
      expect(enginePersona.checkOptions({ level: `sf-${i}`, thinkMinMs: 0, thinkMaxMs: 299_000 })).toEqual(
        [],
      );
  });
});

describe('engine persona on its turn', () => {
  it('searches at once, schedules one move per game and ply after a seeded think, and plays an engine line', async () => {
    const pool = EnginePool.shared(1);
    const world = newWorld();
    // Unposted agents: each persona's first heartbeat makes its research-phase post (a second post would meet the cooldown).
    const agents = [
      await world.agent('engine_a', { post: false }),
      await world.agent('engine_b', { post: false }),
    ];
    const scheduled: Array<{ delayMs: number; action: () => Promise<void> }> = [];
    const contexts = agents.map((agent): AgentContext => ({
      handle: agent.handle,
      client: agent.client,
      rng: new Rng('engine-persona').fork(agent.handle),
      nowMs: world.nowMs,
      later: (delayMs, action) => void scheduled.push({ delayMs, action }),
    }));
    const personas = agents.map(() =>
      enginePersona.create({ level: 'sf-3', thinkMinMs: 5_000, thinkMaxMs: 9_000, seekChance: 0 }),
    );
    for (const [i, persona] of personas.entries()) await persona.heartbeat(contexts[i]!);
    const gameId = await world.game(agents[0]!, agents[1]!);
    const w = world.platform.state.games.get(gameId)!.whiteId === agents[0]!.id ? 0 : 1;
    const [persona, ctx] = [personas[w]!, contexts[w]!];
    await persona.heartbeat(ctx);
    await persona.heartbeat(ctx); // polls again while still thinking: no second move
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.delayMs).toBeGreaterThanOrEqual(5_000);
    expect(scheduled[0]!.delayMs).toBeLessThanOrEqual(9_000);

    // The search was asked for at the heartbeat: the same request now joins it (or hits its answer).
    const level = levelByName('sf-3')!;
    const answer = await pool.search({ fen: STANDARD_START_FEN, nodes: level.nodes, multiPv: level.multiPv });
    expect(pool.stats()).toEqual({ searches: 1, cacheHits: 1 });

    await scheduled[0]!.action();
    const game = world.platform.state.games.get(gameId)!;
    expect(game.moves).toHaveLength(1);
    expect(answer.lines.map((l) => l.uci)).toContain(game.moves[0]!.uci);
    await persona.heartbeat(ctx); // Black to move: nothing to do
    expect(scheduled).toHaveLength(1);
  });
});

const SCENARIO = `
name: engine-determinism
seed: 77
start: 2026-03-01T00:00:00Z
duration: 40m
population:
  - persona: engine
    count: 4
    heartbeat: { min: 20s, max: 40s }
    options: { level: sf-2, thinkMinMs: 2000, thinkMaxMs: 20000, maxGames: 2 }
  - persona: engine
    count: 2
    heartbeat: { min: 20s, max: 40s }
    options: { level: sf-5, maxGames: 1 }
`;

interface Played {
  fingerprint: string;
  pgn: string;
  outcome: RunOutcome;
}

async function play(): Promise<Played> {
  const outcome = await new World(parseScenario(SCENARIO)).run();
  const broken = outcome.invariants
    .filter((i) => !i.passed)
    .map((i) => `${i.name}: ${i.violations[0]?.message}`);
  expect(broken).toEqual([]);
  return {
    fingerprint: outcome.fingerprint,
    pgn: gamesToPgn(outcome.platform, 'engine-determinism'),
    outcome,
  };
}

describe('engine agents in a world', () => {
  it('play the same moves with pool sizes 1 and 4, with a cold or a warm cache', async () => {
    const one = EnginePool.shared(1);
    const cold = await play();
    const coldSearches = one.stats().searches;
    const warm = await play();
    expect(one.stats().searches).toBe(coldSearches); // the second run was answered from the cache alone
    one.close();
    const four = EnginePool.shared(4);
    const parallel = await play();
    expect(four.stats().searches).toBe(coldSearches);
    for (const run of [warm, parallel]) {
      expect(run.fingerprint).toBe(cold.fingerprint);
      expect(run.pgn).toBe(cold.pgn);
    }
    await expectEngineMoves(parallel.outcome, four);
  });
});

/** Every move an engine agent made is one of the lines its level's search offered (the cache answers these). */
async function expectEngineMoves(outcome: RunOutcome, pool: EnginePool): Promise<void> {
  const levelByHandle = new Map(
    outcome.agents.map((agent) => [agent.handle, (agent.impl as EnginePersona).level]),
  );
  const levelOf = new Map(
    [...outcome.platform.state.agents.values()].map((agent) => [agent.id, levelByHandle.get(agent.handle)!]),
  );
  expect(new Set([...levelOf.values()].map((l) => l.name))).toEqual(new Set(['sf-2', 'sf-5']));
  let checked = 0;
  for (const game of outcome.platform.state.games.values()) {
    let fen = game.initialFen;
    for (const move of game.moves) {
      const level = levelOf.get(move.color === 'white' ? game.whiteId : game.blackId)!;
      const result = await pool.search({ fen, nodes: level.nodes, multiPv: level.multiPv });
      expect(result.lines.map((l) => l.uci)).toContain(move.uci);
      fen = move.fenAfter;
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(200);
}
