import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import type { ApiRequest } from '../../src/api/types.js';
import { ApiError, PlatformClient } from '../../src/client/client.js';
import { HttpTransport } from '../../src/client/http.js';
import { buildServer } from '../../src/http/server.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import { InvariantSuite } from '../../src/sim/invariants/invariants.js';
import { newWorld, TURN_MS, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * Requests that race over HTTP for one thing: an open challenge, a turn, the last place of a bracket, a turn
 * against its own deadline, one like. The route table handles one request at a time, so the request that
 * reaches it first wins and every other one is refused with its code, and nothing is lost or doubled.
 * fast-check's scheduler decides which request starts first, so both orders are exercised (each test checks
 * that every racer won at least once); the server logs the order requests reach the route table, and the
 * winner must be the first to arrive. Replay a failure with FC_SEED=<seed>.
 */
const FC_PARAMS = { numRuns: Number(process.env['FC_RUNS'] ?? 30) };

// One server for the file; each run puts a fresh world behind it and clears the arrival log. A request
// tagged x-race is logged by its tag, an untagged one by its key. POST /_sim/race-clock {to_ms} moves the
// virtual clock instead of reaching the route table: a clock control racing API requests through the same
// server, as the /_sim clock controls of `serve --manual` do. It carries a JSON body like the move it races,
// because fastify reads bodies asynchronously: a bodiless request overtakes one with a body.
const rig = { world: newWorld(), arrivals: [] as string[] };
const app = buildServer({
  handle(request: ApiRequest) {
    const tag = request.headers?.['x-race'] ?? request.headers?.['authorization']?.replace(/^Bearer /, '');
    if (tag !== undefined) rig.arrivals.push(tag);
    if (request.path !== '/_sim/race-clock') return rig.world.api.handle(request);
    rig.world.platform.advanceTo((request.body as { to_ms: number }).to_ms);
    return { status: 200, body: { now_ms: rig.world.nowMs } };
  },
});
afterAll(() => app.close());

function freshWorld(rules: unknown = {}): {
  world: TestWorld;
  suite: InvariantSuite;
  events: PlatformEvent[];
} {
  const world = newWorld({ seed: 'races', rules });
  const suite = new InvariantSuite(world.platform); // subscribes itself to the platform's events
  const events: PlatformEvent[] = [];
  world.platform.onEvent((e) => events.push(e));
  rig.world = world;
  rig.arrivals = [];
  return { world, suite, events };
}

interface Racer {
  tag: string;
  /** Sends this agent's key, unless absent (a clock control). */
  agent?: TestAgent;
  method: 'POST' | 'GET';
  url: string;
  body?: unknown;
}

interface Answer {
  status: number;
  body: Record<string, any>;
}

/** Starts every racer in the order the scheduler picks; all run concurrently once started. */
async function race(s: fc.Scheduler, racers: readonly Racer[]): Promise<Map<string, Answer>> {
  const answers = racers.map((r) =>
    s.schedule(Promise.resolve(r.tag), `start ${r.tag}`).then(() =>
      app.inject({
        method: r.method,
        url: r.url,
        headers: {
          ...(r.agent ? { authorization: `Bearer ${r.agent.apiKey}` } : {}),
          'x-race': r.tag,
          ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(r.body !== undefined ? { payload: JSON.stringify(r.body) } : {}),
      }),
    ),
  );
  await s.waitAll();
  const responses = await Promise.all(answers);
  const tags = new Set(racers.map((r) => r.tag));
  expect(rig.arrivals.filter((tag) => tags.has(tag))).toHaveLength(racers.length); // each reached the route table once
  return new Map(
    racers.map((r, i) => [r.tag, { status: responses[i]!.statusCode, body: responses[i]!.json() }]),
  );
}

function expectRefused(
  answer: Answer | undefined,
  code: keyof typeof HTTP_STATUS_BY_CODE,
  reason?: string,
): void {
  expect(answer?.body['error']).toBe(code);
  expect(answer?.status).toBe(HTTP_STATUS_BY_CODE[code]);
  if (reason !== undefined) expect(answer?.body['reason']).toBe(reason);
}

function expectInvariantsHold(world: TestWorld, suite: InvariantSuite): void {
  const failed = suite.finish(world.nowMs).filter((r) => !r.passed);
  expect(failed.map((r) => `${r.name}: ${r.violations[0]?.message}`)).toEqual([]);
}

const count = (events: readonly PlatformEvent[], type: PlatformEvent['type']) =>
  events.filter((e) => e.type === type).length;

/** Every racer must have won some run: the scheduler reached both (all) orders. */
function expectEveryOrder(wins: Map<string, number>, tags: readonly string[]): void {
  for (const tag of tags)
    expect(wins.get(tag) ?? 0, `${tag} never arrived first: ${JSON.stringify([...wins])}`).toBeGreaterThan(0);
}
const win = (wins: Map<string, number>, tag: string) => wins.set(tag, (wins.get(tag) ?? 0) + 1);

async function openChallengeWorld() {
  const fresh = freshWorld();
  const alice = await fresh.world.agent('alice');
  const bob = await fresh.world.agent('bob');
  const carol = await fresh.world.agent('carol');
  const challengeId = (await alice.client.createChallenge()).challenge.challenge_id;
  return { ...fresh, alice, bob, carol, challengeId };
}

interface AcceptRace {
  world: TestWorld;
  events: readonly PlatformEvent[];
  challengeId: string;
  alice: TestAgent;
}

/** One accept won, the other refused; exactly one game, Alice's against the winner, and the loser has none. */
function expectOneAccept(
  { world, events, challengeId, alice }: AcceptRace,
  winner: TestAgent,
  loser: TestAgent,
): void {
  const games = [...world.platform.state.games.values()];
  expect(games.map((g) => [g.id, g.whiteId, g.blackId])).toEqual([[challengeId, alice.id, winner.id]]);
  expect(world.platform.state.challenges.get(challengeId)).toMatchObject({
    status: 'accepted',
    acceptedById: winner.id,
  });
  expect([count(events, 'challenge_accepted'), count(events, 'game_started')]).toEqual([1, 1]);
  expect(games.some((g) => g.whiteId === loser.id || g.blackId === loser.id)).toBe(false);
}

describe('two agents accept the same open challenge', () => {
  it('one gets the game, the other challenge_not_open (409); exactly one game exists', async () => {
    const wins = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const setup = await openChallengeWorld();
        const { world, suite, bob, carol, challengeId } = setup;
        const url = `/api/chess/challenges/${challengeId}/accept`;
        const answers = await race(s, [
          { tag: 'bob', agent: bob, method: 'POST', url },
          { tag: 'carol', agent: carol, method: 'POST', url },
        ]);
        const [first, second] = rig.arrivals as [string, string];
        expect(answers.get(first)).toMatchObject({ status: 200, body: { game: { game_id: challengeId } } });
        expectRefused(answers.get(second), 'challenge_not_open');
        const [winner, loser] = first === 'bob' ? [bob, carol] : [carol, bob];
        expectOneAccept(setup, winner, loser);
        expectInvariantsHold(world, suite);
        win(wins, first);
      }),
      FC_PARAMS,
    );
    expectEveryOrder(wins, ['bob', 'carol']);
  });

  it('resolves the same way over a loopback socket, with typed clients, in both orders', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
    for (const order of [
      ['bob', 'carol'],
      ['carol', 'bob'],
    ] as const) {
      const setup = await openChallengeWorld();
      const { world, suite, bob, carol, challengeId } = setup;
      const agents = { bob, carol };
      const calls = order.map((name) =>
        new PlatformClient(new HttpTransport(base), agents[name].apiKey).acceptChallenge(challengeId),
      );
      const settled = await Promise.allSettled(calls);
      expect(rig.arrivals).toHaveLength(2);
      const firstKey = rig.arrivals[0];
      const [winner, loser] = firstKey === bob.apiKey ? [bob, carol] : [carol, bob];
      const byName = (agent: TestAgent) => settled[order.indexOf(agent.handle as 'bob' | 'carol')]!;
      expect(byName(winner)).toMatchObject({
        status: 'fulfilled',
        value: { game: { game_id: challengeId } },
      });
      const refused = byName(loser);
      expect(refused.status).toBe('rejected');
      expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
      expect((refused as PromiseRejectedResult).reason).toMatchObject({
        status: 409,
        code: 'challenge_not_open',
      });
      expectOneAccept(setup, winner, loser);
      expectInvariantsHold(world, suite);
    }
  });
});

async function gameWorld(opening: readonly string[] = []) {
  const fresh = freshWorld();
  const white = await fresh.world.agent('white');
  const black = await fresh.world.agent('black');
  const gameId = await fresh.world.game(white, black);
  await fresh.world.play(gameId, white, black, opening);
  return { ...fresh, white, black, gameId };
}

const sans = (world: TestWorld, gameId: string) =>
  world.platform.state.games.get(gameId)!.moves.map((m) => m.san);

describe('two moves at once in one game', () => {
  it('the same player twice: the first to arrive is played, the other is bad_request (not_your_turn)', async () => {
    const wins = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, suite, events, white, gameId } = await gameWorld();
        const move = (san: string): Racer => ({
          tag: san,
          agent: white,
          method: 'POST',
          url: '/api/chess/move',
          body: { game_id: gameId, move_san: san },
        });
        const answers = await race(s, [move('e4'), move('d4')]);
        const [first, second] = rig.arrivals as [string, string];
        expect(answers.get(first)).toMatchObject({ status: 200, body: { move: { move_san: first } } });
        expectRefused(answers.get(second), 'bad_request', 'not_your_turn');
        expect(sans(world, gameId)).toEqual([first]);
        expect(count(events, 'move_played')).toBe(1);
        expectInvariantsHold(world, suite);
        win(wins, first);
      }),
      FC_PARAMS,
    );
    expectEveryOrder(wins, ['e4', 'd4']);
  });

  it('both players at once: only the side to move plays; the other is refused before (not your turn) or after (now illegal)', async () => {
    // After 1. e4 e5 2. Bc4 Nc6, White's Bxf7+ gives check, so Black's Nf6 is illegal once it lands.
    const opening = ['e4', 'e5', 'Bc4', 'Nc6'];
    const reasons = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, suite, events, white, black, gameId } = await gameWorld(opening);
        const answers = await race(s, [
          {
            tag: 'white',
            agent: white,
            method: 'POST',
            url: '/api/chess/move',
            body: { game_id: gameId, move_san: 'Bxf7+' },
          },
          {
            tag: 'black',
            agent: black,
            method: 'POST',
            url: '/api/chess/move',
            body: { game_id: gameId, move_uci: 'g8f6' },
          },
        ]);
        expect(answers.get('white')).toMatchObject({ status: 200, body: { move: { move_san: 'Bxf7+' } } });
        const reason = rig.arrivals[0] === 'black' ? 'not_your_turn' : 'illegal_move';
        expectRefused(answers.get('black'), 'bad_request', reason);
        expect(sans(world, gameId)).toEqual([...opening, 'Bxf7+']);
        expect(count(events, 'move_played')).toBe(opening.length + 1);
        expectInvariantsHold(world, suite);
        win(reasons, reason);
      }),
      FC_PARAMS,
    );
    expectEveryOrder(reasons, ['not_your_turn', 'illegal_move']);
  });
});

describe('two joins for the last place of a tournament', () => {
  it('one joins, the other tournament_full (409); the bracket holds exactly max_participants', async () => {
    const wins = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, suite, events } = freshWorld({ tournaments: { creatorMinGames: 0 } });
        const creator = await world.agent('creator');
        const entrants = await world.agents(9);
        const id = (await creator.client.createTournament({ name: 'Last Seat', max_participants: 8 }))
          .tournament.id;
        for (const agent of entrants.slice(0, 7)) await agent.client.joinTournament(id);
        const url = `/api/chess/tournaments/${id}/join`;
        const [x, y] = [entrants[7]!, entrants[8]!];
        const answers = await race(s, [
          { tag: x.handle, agent: x, method: 'POST', url },
          { tag: y.handle, agent: y, method: 'POST', url },
        ]);
        const [first, second] = rig.arrivals as [string, string];
        expect(answers.get(first)).toMatchObject({
          status: 200,
          body: { success: true, already_joined: false },
        });
        expectRefused(answers.get(second), 'tournament_full');
        expect((await world.client().tournament(id)).tournament.participants).toHaveLength(8);
        const entered = world.platform.state.tournaments.get(id)!.participants.map((p) => p.agentId);
        const [winner, loser] = first === x.handle ? [x, y] : [y, x];
        expect(new Set(entered)).toEqual(new Set([...entrants.slice(0, 7), winner].map((a) => a.id)));
        expect(entered).not.toContain(loser.id);
        expect(count(events, 'tournament_joined')).toBe(8);
        expectInvariantsHold(world, suite);
        win(wins, first === x.handle ? 'x' : 'y');
      }),
      FC_PARAMS,
    );
    expectEveryOrder(wins, ['x', 'y']);
  });
});

describe('a move racing its own deadline', () => {
  async function turnWorld() {
    const fresh = await gameWorld();
    const deadline = fresh.world.platform.state.games.get(fresh.gameId)!.deadlineMs!;
    expect(deadline).toBe(fresh.world.nowMs + TURN_MS);
    const move = () =>
      app.inject({
        method: 'POST',
        url: '/api/chess/move',
        headers: { authorization: `Bearer ${fresh.white.apiKey}` },
        payload: { game_id: fresh.gameId, move_san: 'e4' },
      });
    return { ...fresh, deadline, move };
  }

  function expectTimedOut(world: TestWorld, gameId: string, deadline: number): void {
    const game = world.platform.state.games.get(gameId)!;
    expect([game.status, game.end?.reason, game.end?.result, game.moves.length]).toEqual([
      'completed',
      'timeout',
      '0-1',
      0,
    ]);
    expect(game.end?.endedAtMs).toBe(deadline);
  }

  it('at exactly the deadline the timeout wins: the move is refused (deadline_passed) and White has lost', async () => {
    const { world, suite, gameId, deadline, move } = await turnWorld();
    world.platform.advanceTo(deadline);
    const response = await move();
    expectRefused({ status: response.statusCode, body: response.json() }, 'bad_request', 'deadline_passed');
    expectTimedOut(world, gameId, deadline);
    expectInvariantsHold(world, suite);
  });

  it('one millisecond before the deadline the move wins, and the next turn has a fresh deadline', async () => {
    const { world, suite, gameId, deadline, move } = await turnWorld();
    world.platform.advanceTo(deadline - 1);
    expect((await move()).statusCode).toBe(200);
    world.platform.advanceTo(deadline); // the old deadline's timer is stale now and must do nothing
    const game = world.platform.state.games.get(gameId)!;
    expect([game.status, game.moves.length, game.deadlineMs]).toEqual(['active', 1, deadline - 1 + TURN_MS]);
    expectInvariantsHold(world, suite);
  });

  it('when the clock reaching the deadline races the move, whichever lands first decides, and nothing breaks', async () => {
    const wins = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, suite, gameId, deadline, white } = await turnWorld();
        world.platform.advanceTo(deadline - 1);
        const answers = await race(s, [
          {
            tag: 'move',
            agent: white,
            method: 'POST',
            url: '/api/chess/move',
            body: { game_id: gameId, move_san: 'e4' },
          },
          { tag: 'clock', method: 'POST', url: '/_sim/race-clock', body: { to_ms: deadline } },
        ]);
        const answer = answers.get('move');
        const first = rig.arrivals[0]!;
        if (first === 'move') {
          expect(answer!.status).toBe(200);
          expect(world.platform.state.games.get(gameId)).toMatchObject({
            status: 'active',
            deadlineMs: deadline - 1 + TURN_MS,
          });
        } else {
          expectRefused(answer, 'bad_request', 'deadline_passed');
          expectTimedOut(world, gameId, deadline);
        }
        expectInvariantsHold(world, suite);
        win(wins, first);
      }),
      FC_PARAMS,
    );
    expectEveryOrder(wins, ['move', 'clock']);
  });
});

describe('a burst of likes on one post from one agent', () => {
  it('gives exactly one like; every other answer is 200 with already_liked', async () => {
    const BURST = 6;
    const wins = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, suite, events } = freshWorld();
        const author = await world.agent('author');
        const fan = await world.agent('fan');
        const postId = [...world.platform.state.posts.values()].find((p) => p.authorId === author.id)!.id;
        const racers = Array.from({ length: BURST }, (_, i): Racer => ({
          tag: `like${i}`,
          agent: fan,
          method: 'POST',
          url: '/api/social/like',
          body: { post_id: postId },
        }));
        const answers = await race(s, racers);
        const [first, ...rest] = rig.arrivals;
        expect(answers.get(first!)).toEqual({
          status: 200,
          body: { success: true, post_id: postId, likes_count: 1 },
        });
        for (const tag of rest)
          expect(answers.get(tag)).toEqual({
            status: 200,
            body: { success: true, post_id: postId, already_liked: true, likes_count: 1 },
          });
        expect(world.platform.state.posts.get(postId)!.likesCount).toBe(1);
        expect(count(events, 'liked')).toBe(1);
        expectInvariantsHold(world, suite);
        win(wins, first!);
      }),
      { ...FC_PARAMS, numRuns: Math.max(FC_PARAMS.numRuns, 2 * BURST) },
    );
    expect(wins.size, `first likes: ${JSON.stringify([...wins])}`).toBeGreaterThan(1);
  });
});
