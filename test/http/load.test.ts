import { afterEach, describe, expect, it } from 'vitest';
import {
  LoopbackClient,
  enrolAgents,
  percentile,
  runBareRound,
  runTwinRound,
  startBare,
  startTwin,
  type Served,
} from '../../bench/http-load.js';

/**
 * A smoke of the load bench's machinery (bench/http-load.ts), not of its speed: a few agents over real
 * loopback sockets register, pair, poll and move, and what the generator counted must be what the
 * platform recorded. Games are capped at 6 plies so re-challenging after a game ends happens too.
 */
const closers: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function track<T extends Served>(
  served: T,
  sockets: number,
): { served: T; client: LoopbackClient; connections: () => number } {
  let connections = 0;
  served.app.server.on('connection', () => connections++);
  const client = new LoopbackClient(served.port, sockets);
  closers.push(
    () => served.app.close(),
    () => client.close(),
  );
  return { served, client, connections: () => connections };
}

describe('the HTTP load generator', () => {
  it('plays paired games over loopback, re-challenges when they end, and counts exactly what the platform recorded', async () => {
    const {
      served: twin,
      client,
      connections,
    } = track(await startTwin('load-smoke', { game: { moveLimitPlies: 6 } }), 4);
    const world = await enrolAgents(client, 4, 'load-smoke');
    const round = await runTwinRound(client, world, { moves: 30, seconds: 10 }); // seconds: a stall fails, not hangs
    const r = round.recorder;

    expect([...r.unexpected]).toEqual([]);
    // Each agent has at most one move in flight when the count is reached.
    expect(r.count('move')).toBeGreaterThanOrEqual(30);
    expect(r.count('move')).toBeLessThanOrEqual(34);
    expect(r.count('poll')).toBeGreaterThanOrEqual(r.count('move'));

    const games = [...twin.platform.state.games.values()];
    expect(games.reduce((sum, g) => sum + g.moves.length, 0)).toBe(r.count('move'));
    expect(games.filter((g) => g.status === 'completed')).toHaveLength(r.gamesCompleted);
    expect(games).toHaveLength(r.count('accept'));
    expect(r.count('challenge')).toBe(
      r.count('accept') + world.pairs.filter((p) => p.phase === 'challenged').length,
    );
    // 30 moves at 6 plies a game over 2 pairs: at least 4 games ended, so both pairs re-challenged.
    expect(r.gamesCompleted).toBeGreaterThanOrEqual(4);
    expect(r.count('challenge')).toBeGreaterThan(world.pairs.length);
    // Keep-alive: one connection per concurrent agent, however many requests they sent.
    expect(connections()).toBeLessThanOrEqual(4);
  });

  it('drives the bare route with the same closed loop and a request budget', async () => {
    const { client, connections } = track(await startBare(), 3);
    const round = await runBareRound(client, 3, { requests: 60 });
    expect([...round.recorder.unexpected]).toEqual([]);
    expect(round.recorder.count('bare')).toBeGreaterThanOrEqual(60);
    expect(round.recorder.count('bare')).toBeLessThanOrEqual(62);
    expect(round.recorder.count('poll')).toBe(0);
    expect(connections()).toBeLessThanOrEqual(3);
  });

  it('refuses an unbounded round (no seconds or requests) and an odd number of agents', async () => {
    const { client } = track(await startBare(), 1);
    await expect(runBareRound(client, 1, {})).rejects.toThrow(/unbounded/);
    await expect(runBareRound(client, 1, { moves: 5 })).rejects.toThrow(/unbounded/);
    await expect(enrolAgents(client, 3, 'odd')).rejects.toThrow(/even/);
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
