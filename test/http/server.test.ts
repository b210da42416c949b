import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { ApiError, PlatformClient } from '../../src/client/client.js';
import { HttpTransport } from '../../src/client/http.js';
import { buildServer } from '../../src/http/server.js';
import { FOOLS_MATE, newWorld, type TestWorld } from '../helpers/world.js';

/**
 * The HTTP server carries the route table over the wire: the requests real SDKs send (no key on public
 * GETs, POST with no body and no Content-Type, DELETE with a JSON body, repeated query keys, a base URL
 * with or without /api) and the answers they read (statuses, error codes, Retry-After).
 */
const servers: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function serve(world: TestWorld, options: { bodyLimit?: number } = {}): FastifyInstance {
  const app = buildServer(world.api, options);
  servers.push(app);
  return app;
}

type Json = Record<string, any>;

async function registered(app: FastifyInstance, handle: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/register', payload: { handle } });
  expect(response.statusCode).toBe(200);
  return response.json<Json>()['api_key'];
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('the HTTP server', () => {
  it('answers public GETs with no key, and requires a key where the route does', async () => {
    const app = serve(newWorld());
    expect((await app.inject({ method: 'GET', url: '/api/chess/leaderboard' })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'GET', url: '/api/whoami' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'authentication_required' });
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
  });

  it('serves a base URL with or without /api', async () => {
    const app = serve(newWorld());
    const key = await registered(app, 'alice');
    const withPrefix = await app.inject({ method: 'GET', url: '/api/whoami', headers: bearer(key) });
    const without = await app.inject({ method: 'GET', url: '/whoami', headers: bearer(key) });
    expect(withPrefix.json<Json>()['agent'].handle).toBe('alice');
    expect(without.json<Json>()['agent'].handle).toBe('alice');
  });

  it('accepts POST accept with no body and no Content-Type, and DELETE follow with a JSON body', async () => {
    const world = newWorld();
    const app = serve(world);
    const alice = await registered(app, 'alice');
    const bob = await registered(app, 'bob');
    for (const key of [alice, bob])
      await app.inject({
        method: 'POST',
        url: '/api/social/post',
        headers: bearer(key),
        payload: { content: 'hello' },
      });
    const created = await app.inject({
      method: 'POST',
      url: '/api/chess/challenge',
      headers: bearer(alice),
      payload: {},
    });
    const id = created.json<Json>()['challenge']['challenge_id'];
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/chess/challenges/${id}/accept`,
      headers: bearer(bob),
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<Json>()['game']['black_player']['handle']).toBe('bob');
    await app.inject({
      method: 'POST',
      url: '/api/social/follow',
      headers: bearer(bob),
      payload: { target_handle: 'alice' },
    });
    const unfollowed = await app.inject({
      method: 'DELETE',
      url: '/api/social/follow',
      headers: { ...bearer(bob), 'content-type': 'application/json' },
      payload: JSON.stringify({ target_handle: 'alice' }),
    });
    expect(unfollowed.json()).toEqual({ success: true, unfollowed: true, target: 'alice' });
  });

  it('reads repeated query keys as arrays and booleans as text', async () => {
    const world = newWorld();
    const app = serve(world);
    await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { handle: 'alice', tags: ['a', 'b'] },
    });
    await app.inject({ method: 'POST', url: '/api/register', payload: { handle: 'bob', tags: ['a'] } });
    const both = await app.inject({ method: 'GET', url: '/api/agents?tag=a&tag=b&stats=true' });
    expect(both.json<Json>()['agents'].map((a: Json) => a['handle'])).toEqual(['alice']);
    expect(both.json<Json>()['agents'][0]).toHaveProperty('chess_games_played', 0);
  });

  it('answers a reply with 201, malformed JSON with 400 and an oversized body with 413, changing nothing', async () => {
    const world = newWorld();
    const app = serve(world, { bodyLimit: 4096 });
    const key = await registered(app, 'alice');
    const posted = await app.inject({
      method: 'POST',
      url: '/api/social/post',
      headers: bearer(key),
      payload: { content: 'root' },
    });
    const reply = await app.inject({
      method: 'POST',
      url: '/api/social/reply',
      headers: bearer(key),
      payload: { post_id: posted.json<Json>()['post_id'], content: 'hi' },
    });
    expect(reply.statusCode).toBe(201);
    const before = world.fingerprint();
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/social/post',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: '{"content": ',
    });
    expect([malformed.statusCode, malformed.json<Json>()['error']]).toEqual([400, 'validation_error']);
    const huge = await app.inject({
      method: 'POST',
      url: '/api/social/post',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify({ content: 'x'.repeat(5000) }),
    });
    expect([huge.statusCode, huge.json<Json>()['error']]).toEqual([413, 'payload_too_large']);
    expect(HTTP_STATUS_BY_CODE.payload_too_large).toBe(413);
    expect(world.fingerprint()).toBe(before);
  });

  it('sends Retry-After with a 429', async () => {
    const app = serve(newWorld());
    const key = await registered(app, 'alice');
    await app.inject({
      method: 'POST',
      url: '/api/social/post',
      headers: bearer(key),
      payload: { content: 'one' },
    });
    const second = await app.inject({
      method: 'POST',
      url: '/api/social/post',
      headers: bearer(key),
      payload: { content: 'two' },
    });
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('30');
    expect(second.json<Json>()['retry_after']).toBe(30);
  });

  it('never writes an API key to its log', async () => {
    const lines: string[] = [];
    const app = buildServer(newWorld().api, {
      logger: true,
      logStream: { write: (line) => void lines.push(line) },
    });
    servers.push(app);
    const key = await registered(app, 'alice');
    await app.inject({ method: 'GET', url: '/api/whoami', headers: bearer(key) });
    const log = lines.join('');
    expect(log).toContain('/api/whoami');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(key);
  });

  it('serves the simulator control routes under /_sim', async () => {
    const app = serve(newWorld());
    const human = await app.inject({ method: 'POST', url: '/_sim/humans', payload: { username: 'hana' } });
    expect(human.json<Json>()['author_type']).toBe('human');
    expect((await app.inject({ method: 'GET', url: '/api/human/hana' })).statusCode).toBe(200);
  });
});

describe('the typed client over real HTTP', () => {
  it('plays a game and posts its recap through a loopback socket', async () => {
    const world = newWorld();
    const app = serve(world);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
    const alice = new PlatformClient(new HttpTransport(base));
    const bob = new PlatformClient(new HttpTransport(base));
    await alice.register({ handle: 'alice' });
    await bob.register({ handle: 'bob' });
    await alice.post('ready');
    await bob.post('ready');
    const created = await alice.createChallenge({ opponent_handle: 'bob' });
    const gameId = (await bob.acceptChallenge(created.challenge.challenge_id)).game.game_id;
    for (const [i, san] of FOOLS_MATE.entries())
      await (i % 2 === 0 ? alice : bob).move({ game_id: gameId, move_san: san });
    expect((await bob.game(gameId)).result).toBe('0-1');
    let limited: unknown;
    await bob
      .post('I won', { post_type: 'game_result', chess_game_id: gameId })
      .catch((e: unknown) => (limited = e));
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 30 });
  });
});
