import { describe, expect, it } from 'vitest';
import { checkDuelOptions } from '../../src/compare/duel-agent.js';
import { DUEL_HANDLES, duelGame, duelScenario, runDuel } from '../../src/compare/duel.js';
import { parsePlayer, type PlayerSpec } from '../../src/compare/players.js';
import { findAgent } from '../../src/platform/identity/identity.js';
import { runScenario, World } from '../../src/sim/world.js';

const spec = (word: string) => parsePlayer(word, '--agent', process.cwd()) as PlayerSpec;

/** One duel world run in this process, built as a thread of the pool builds it. */
async function duel(white: PlayerSpec, black: PlayerSpec, seed: number) {
  const outcome = await runScenario(duelScenario(white, black, seed));
  const idOf = (handle: string) => findAgent(outcome.platform, handle)!.id;
  return { outcome, whiteId: idOf(DUEL_HANDLES.white), blackId: idOf(DUEL_HANDLES.black) };
}

describe('the duel harness of compare --agent', () => {
  it('makes exactly one game happen, the challenger (group 0) with White, and finishes it', async () => {
    const { outcome, whiteId, blackId } = await duel(spec('greedy'), spec('random'), 7);
    const games = [...outcome.platform.state.games.values()];
    const challenges = [...outcome.platform.state.challenges.values()];
    // greedy and random seek games on every other heartbeat: their own challenges never reached the platform
    expect(challenges).toHaveLength(1);
    expect(challenges[0]).toMatchObject({ challengerId: whiteId, opponentId: blackId, status: 'accepted' });
    expect(games).toHaveLength(1);
    expect(games[0]).toMatchObject({ whiteId, blackId, status: 'completed' });
    expect(outcome.failed).toBe(false);
  });

  it("reads the game's result from the platform's game record, exactly as the pool's worker reports it", async () => {
    const pgn = { event: 'duel test', names: {}, tags: [] };
    const result = await runDuel({ seed: 3, white: spec('cautious'), black: spec('random'), pgn });
    const game = duelGame(result);
    expect(game, JSON.stringify(result)).toMatchObject({
      result: expect.stringMatching(/^(1-0|0-1|1\/2-1\/2)$/),
      ending: expect.any(String),
    });
    const { outcome } = await duel(spec('cautious'), spec('random'), 3);
    const played = [...outcome.platform.state.games.values()][0]!;
    expect(outcome.fingerprint).toBe(result.fingerprint);
    expect(game).toEqual({ result: played.end!.result, ending: played.end!.reason });
  });

  it('plays a module player as it plays in a scenario: the example material agent against random', async () => {
    const { outcome, whiteId } = await duel(spec('random'), spec('agents/examples/material-agent.mjs'), 11);
    const games = [...outcome.platform.state.games.values()];
    expect(games).toHaveLength(1);
    expect(games[0]).toMatchObject({ whiteId, status: 'completed' });
  });

  it('is an agent kind the world checks as it loads a module: bad options stop the world before any event, naming the group', async () => {
    const scenario = duelScenario(spec('greedy'), spec('random'), 1);
    const white = scenario.population[0]!;
    scenario.population[0] = { ...white, options: { ...white.options, colour: 'green' } };
    const world = new World(scenario);
    await expect(world.populate()).rejects.toThrow(
      /population\[0\]\.options\.colour: must be white or black/,
    );
    expect(world.agents).toHaveLength(0);
  });

  it('checks its options', () => {
    expect(checkDuelOptions({ persona: 'greedy', colour: 'white', opponent: 'duel_0002' })).toEqual([]);
    expect(checkDuelOptions({ persona: 'nobody', module: '/x.mjs', colour: 'green', extra: 1 })).toEqual([
      'extra: unknown option',
      'persona or module: give exactly one',
      'persona: not a registered persona: nobody',
      'colour: must be white or black',
      "opponent: must be the other duellist's handle",
    ]);
    expect(
      checkDuelOptions({
        persona: 'random',
        options: { maxGames: 0 },
        colour: 'black',
        opponent: 'duel_0001',
      }),
    ).toEqual([expect.stringMatching(/^options\.maxGames/)]);
  });
});
