import { describe, expect, it } from 'vitest';
import { ApiError, PlatformClient } from '../../src/client/client.js';
import { FaultInjector } from '../../src/faults/decide.js';
import { parseFaultProfile } from '../../src/faults/profile.js';
import { FaultTally } from '../../src/faults/tally.js';
import { FaultyTransport, TransportFault } from '../../src/faults/transport.js';
import { newWorld, START_MS, TURN_MS, type TestAgent, type TestWorld } from '../helpers/world.js';

/** `agent`'s client again, through a faulty transport under `rules` (time passes at once: no world to park in). */
function underFaults(
  world: TestWorld,
  agent: TestAgent,
  rules: unknown[],
): { client: PlatformClient; tally: FaultTally } {
  const profile = parseFaultProfile({ name: 'test', rules }, 'test');
  const tally = new FaultTally();
  const host = { nowMs: () => world.nowMs, wait: async (ms: number) => world.advanceBy(ms) };
  const transport = new FaultyTransport(
    world.transport,
    agent.handle,
    new FaultInjector(profile, 'seed', START_MS),
    tally,
    host,
  );
  transport.arm();
  return { client: new PlatformClient(transport, agent.apiKey), tally };
}

describe('faults in process (src/faults/transport.ts)', () => {
  it('a lost answer on a move: the move is applied, the retry gets the documented not_your_turn refusal, and the game goes on', async () => {
    const world = newWorld();
    const [white, black] = await world.agents(2);
    const gameId = await world.game(white!, black!);
    // Only White's moves, only in the first minute: the first move's answer is lost.
    const { client, tally } = underFaults(world, white!, [
      { kind: 'lost', scope: { routes: ['move'], agents: [white!.handle], until: '1m' } },
    ]);
    const lost = await client.move({ game_id: gameId, move_san: 'e4' }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(TransportFault);
    expect((lost as TransportFault).message).toBe('fetch failed: socket hang up');
    expect((await white!.client.game(gameId)).moves.map((m) => m.move_san)).toEqual(['e4']);

    world.advanceBy(61_000); // past the rule's window: this answer arrives
    const retry = await client.move({ game_id: gameId, move_san: 'e4' }).catch((e: unknown) => e);
    expect(retry).toBeInstanceOf(ApiError);
    expect((retry as ApiError).status).toBe(400);
    expect((retry as ApiError).body).toMatchObject({ error: 'bad_request', reason: 'not_your_turn' });
    expect(tally.byAgent.get(white!.handle)!.byKind.get('lost')).toBe(1);
    expect(tally.byAgent.get(white!.handle)!.retried).toBe(1);

    await black!.client.move({ game_id: gameId, move_san: 'e5' });
    await client.move({ game_id: gameId, move_san: 'Nf3' });
    const game = await white!.client.game(gameId);
    expect(game.status).toBe('active');
    expect(game.moves.map((m) => m.move_san)).toEqual(['e4', 'e5', 'Nf3']);
  });

  it('an outage window makes a move miss its deadline and the game ends by timeout, as the service ends it', async () => {
    const world = newWorld();
    const [white, black] = await world.agents(2);
    const gameId = await world.game(white!, black!);
    await world.play(gameId, white!, black!, ['e4']);
    const { client, tally } = underFaults(world, black!, [
      { kind: 'outage', scope: { from: '1m', until: '20m' } },
    ]);
    // Black tries every minute through the outage; every try meets the proxy's 503 page, never the platform.
    world.advanceTo(START_MS + 60_000);
    const tries: unknown[] = [];
    for (let minute = 1; minute < 20; minute++) {
      tries.push(await client.move({ game_id: gameId, move_san: 'e5' }).catch((e: unknown) => e));
      world.advanceBy(60_000);
    }
    expect(tries.every((e) => e instanceof ApiError && e.status === 503)).toBe(true);
    expect(String((tries[0] as ApiError).body)).toContain(
      '<title>503 Service Temporarily Unavailable</title>',
    );
    expect(tally.byAgent.get(black!.handle)!.byKind.get('outage')).toBe(19);
    expect(world.nowMs - START_MS).toBeGreaterThan(TURN_MS);

    // After the window the agent reaches the platform again, which ended the game at the deadline.
    const after = await client.move({ game_id: gameId, move_san: 'e5' }).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ApiError);
    expect((after as ApiError).status).not.toBe(503);
    const game = await black!.client.game(gameId);
    expect(game.status).toBe('completed');
    expect(game.end_reason).toBe('timeout');
    expect(game.result).toBe('1-0');
  });

  it('error answers carry what a proxy sends: HTML for 502/503/504, JSON for the application 500', async () => {
    const world = newWorld();
    const [agent] = await world.agents(1);
    const seen = new Map<number, unknown>();
    for (const status of [500, 502, 503, 504]) {
      const { client } = underFaults(world, agent!, [{ kind: 'error', statuses: [status] }]);
      const error = (await client.whoami().catch((e: unknown) => e)) as ApiError;
      seen.set(error.status, error.body);
    }
    expect(seen.get(500)).toEqual({ error: 'internal_error', message: 'internal error; see the server log' });
    expect(seen.get(502)).toMatch(/^<html>\r\n<head><title>502 Bad Gateway<\/title>/);
    expect(seen.get(504)).toMatch(/504 Gateway Time-out/);
  });

  it('a 429 burst refuses every request in it with Retry-After, then lets requests through', async () => {
    const world = newWorld();
    const [agent] = await world.agents(1);
    const { client, tally } = underFaults(world, agent!, [
      { kind: 'burst429', rate: 1, length: '8s', retryAfter: '4s', scope: { until: '10s' } },
    ]);
    const first = (await client.whoami().catch((e: unknown) => e)) as ApiError;
    expect(first.status).toBe(429);
    expect(first.retryAfterSeconds).toBe(4);
    world.advanceBy(7_000); // still inside the burst
    expect(((await client.whoami().catch((e: unknown) => e)) as ApiError).status).toBe(429);
    world.advanceBy(4_000); // past the burst and the rule's window
    expect((await client.whoami()).author_type).toBe('agent');
    expect(tally.byAgent.get(agent!.handle)!.byKind.get('burst429')).toBe(2);
  });

  it('stale reads: my-turn answers up to the lag old, then the truth', async () => {
    const world = newWorld();
    const [white, black] = await world.agents(2);
    const gameId = await world.game(white!, black!);
    const { client } = underFaults(world, black!, [
      { kind: 'stale', lag: '3s', scope: { routes: ['my-turn'] } },
    ]);
    expect((await client.myTurn()).games).toHaveLength(0);
    await world.play(gameId, white!, black!, ['e4']);
    world.advanceBy(2_000);
    expect((await client.myTurn()).games).toHaveLength(0); // the replica still says nobody moved
    world.advanceBy(2_000);
    expect((await client.myTurn()).games).toHaveLength(1);
  });
});
