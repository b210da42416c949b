import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTwin, type Twin, type TwinAgent } from 'agent-chess-sim';
import { Agent, type AgentOptions } from '../src/agent.js';
import { movePatsy, QUIET } from './helpers.js';

const START = '2026-03-01T00:00:00Z';
const wallMs = performance.now.bind(performance); // read before fake timers replace it

afterEach(() => {
  vi.useRealTimers();
});

function agentOn(twin: Twin, me: TwinAgent, options: Partial<AgentOptions> = {}): Agent {
  return new Agent({ baseUrl: 'http://twin', apiKey: me.apiKey, fetch: twin.fetch, ...options });
}

/** Ticks the agent and moves patsy every `step` of virtual time until the game ends; returns it. */
async function playOut(twin: Twin, agent: Agent, me: TwinAgent, patsy: TwinAgent, gameId: string) {
  await twin.runUntil(
    async () => {
      await agent.tick();
      await movePatsy(twin, patsy);
      return (await twin.game(gameId, me)).status === 'completed';
    },
    { within: '1d', step: '30s' },
  );
  return twin.game(gameId, me);
}

describe('my agent against the twin (manual clock)', () => {
  it('wins a game against the weakest opponent', async () => {
    await using twin = await startTwin({ population: QUIET, start: START, listen: false });
    const me = await twin.register('my_agent');
    const patsy = await twin.register('patsy');
    const agent = agentOn(twin, me, { seek: false });
    const challenge = await twin.challenge(patsy, { opponent: 'my_agent' });
    const game = await playOut(twin, agent, me, patsy, challenge.challenge_id);
    expect(game.winner_handle).toBe('my_agent');
    expect(game.end_reason).toBe('checkmate');
    expect(await twin.violations()).toEqual([]);
  });

  it('accepts a bounty challenge, wins it and is paid the pot less the fee', async () => {
    await using twin = await startTwin({ population: QUIET, start: START, listen: false });
    const me = await twin.register('my_agent', { lamports: 1_000_000_000 });
    const patsy = await twin.register('patsy', { lamports: 1_000_000_000 });
    const balance = async () =>
      (await twin.call<{ balance_sol: number }>('GET', '/api/agents/my_agent/transfers')).balance_sol;
    await twin.advance('5m'); // the verification's funding and the faucet's lamports land
    const before = await balance();
    const agent = agentOn(twin, me, { seek: false, maxBountySol: 0.1 });
    const challenge = await twin.challenge(patsy, { opponent: 'my_agent', bountySol: 0.05 });
    const game = await playOut(twin, agent, me, patsy, challenge.challenge_id);
    expect(game.winner_handle).toBe('my_agent');
    await twin.runUntil(async () => (await twin.game(game.game_id, me)).escrow_status === 'paid_out', {
      within: '10m',
    });
    // Staked 0.05, won the 0.1 pot less the 10% fee: up 0.04 SOL.
    expect(await balance()).toBeCloseTo(before + 0.04, 6);
  });

  it('joins an open tournament and plays it to the end', async () => {
    const population = [
      {
        persona: 'organizer',
        count: 1,
        airdrop: 20,
        heartbeat: { min: '10s', max: '20s' },
        options: {
          sizes: [8],
          prizeSol: 1,
          entryFeeSol: 0,
          minGames: 0,
          maxTournaments: 1,
          maxGames: 1,
          seekChance: 0,
        },
      },
      {
        persona: 'entrant',
        count: 7,
        airdrop: 1,
        heartbeat: { min: '10s', max: '20s' },
        options: { maxGames: 1, seekChance: 0, joinChance: 1 },
      },
    ];
    await using twin = await startTwin({
      population,
      scenario: {
        name: 'cup',
        seed: 5,
        duration: '30d',
        ruleset: { research: 'spec', tournaments: { creatorMinGames: 0 } },
      },
      start: START,
      listen: false,
    });
    const me = await twin.register('my_agent');
    const agent = agentOn(twin, me, { seek: false, joinTournaments: true });
    const tournaments = async () =>
      (await twin.call<{ tournaments: { id: string; status: string }[] }>('GET', '/api/chess/tournaments'))
        .tournaments;
    await twin.runUntil(
      async () => {
        await agent.tick();
        const [cup] = await tournaments();
        return cup?.status === 'completed';
      },
      { within: '2d', step: '20s' },
    );
    const history = await twin.call<{ games: { tournament_name: string | null }[] }>(
      'GET',
      '/api/chess/games/history',
      { as: me },
    );
    expect(history.games.length).toBeGreaterThan(0);
    expect(history.games.every((game) => game.tournament_name !== null)).toBe(true);
  });
});

describe('my agent on fake timers (the twin follows vi.useFakeTimers)', () => {
  /** The agent as it runs in production: a setInterval loop, here every 5 s, on the twin's fetch. */
  async function underTimers(
    options: Partial<AgentOptions>,
    run: (twin: Twin, me: TwinAgent) => Promise<void>,
  ) {
    vi.useFakeTimers({ now: Date.parse(START) });
    await using twin = await startTwin({ population: QUIET, clock: 'timers', listen: false });
    const me = await twin.register('my_agent');
    const agent = agentOn(twin, me, options);
    const loop = setInterval(() => void agent.tick(), 5000);
    try {
      await run(twin, me);
    } finally {
      clearInterval(loop);
    }
  }

  async function slowGame(deadlineMarginMs: number) {
    let ended: Awaited<ReturnType<Twin['game']>> | undefined;
    await underTimers({ seek: false, thinkMs: 6 * 60_000, deadlineMarginMs }, async (twin, me) => {
      const patsy = await twin.register('patsy');
      const patsyLoop = setInterval(() => void movePatsy(twin, patsy), 5000);
      const challenge = await twin.challenge(patsy, { opponent: 'my_agent' });
      void twin
        .waitForGameEnd(me, { gameId: challenge.challenge_id, within: '1d', step: '1m' })
        .then((game) => (ended = game));
      // The test's timers move the twin's world: a virtual hour at a time until the game is over.
      while (!ended) await vi.advanceTimersByTimeAsync(3600_000);
      clearInterval(patsyLoop);
    });
    return ended!;
  }

  it('thinks six minutes a move, yet stops 30 s before each 5-minute deadline and never loses on time', async () => {
    const careful = await slowGame(30_000);
    expect(careful.end_reason).not.toBe('timeout');
    expect(careful.winner_handle).toBe('my_agent');
    const careless = await slowGame(0);
    expect(careless.end_reason).toBe('timeout');
    expect(careless.winner_handle).toBe('patsy');
  });

  it('plays a virtual day on a 5-second setInterval in under 30 s of wall time, twice with the same fingerprint', async () => {
    const day = async () => {
      const started = wallMs();
      vi.useFakeTimers({ now: Date.parse(START) });
      const population = [
        {
          persona: 'random',
          count: 2,
          heartbeat: { min: '30s', max: '60s' },
          options: { maxGames: 1, seekChance: 1 },
        },
      ];
      await using twin = await startTwin({
        population,
        research: 'spec',
        seed: 11,
        clock: 'timers',
        listen: false,
      });
      const me = await twin.register('my_agent');
      const agent = agentOn(twin, me);
      const loop = setInterval(() => void agent.tick(), 5000);
      await vi.advanceTimersByTimeAsync(24 * 3600_000);
      clearInterval(loop);
      const history = await twin.call<{ total: number }>('GET', '/api/chess/games/history', { as: me });
      const fingerprint = await twin.fingerprint();
      vi.useRealTimers();
      return { fingerprint, games: history.total, wall: wallMs() - started };
    };
    const first = await day();
    const second = await day();
    console.log(
      `a virtual day: ${Math.round(first.wall)} ms and ${Math.round(second.wall)} ms of wall time, ${first.games} games`,
    );
    expect(first.games).toBeGreaterThan(0);
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(first.wall).toBeLessThan(30_000);
    expect(second.wall).toBeLessThan(30_000);
  }, 120_000);
});
