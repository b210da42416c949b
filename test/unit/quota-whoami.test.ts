import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import { expectErrorResponse, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * whoami is exempt from the daily request quota (a client must always be able to read its usage), and is
 * counted in requests_today only while the count is under requests_limit: requests_today never passes the
 * limit (docs/rules.md, Social layer: daily request quota). total_requests and last_used still record it.
 */
const DAY_MS = 86_400_000;

interface Usage {
  requests_today: number;
  requests_limit: number;
  total_requests: number;
  last_used: string | null;
}

function whoami(world: TestWorld, key: string): Usage {
  const response = world.raw({ method: 'GET', path: '/api/whoami', key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { api_key: Usage }).api_key;
}

function myTurn(world: TestWorld, who: TestAgent): ApiResponse {
  return world.raw({ method: 'GET', path: '/api/chess/games/my-turn', key: who.apiKey });
}

describe('whoami and the daily quota', () => {
  it('shows 5000 of 5000 after 5000 requests, however often it is asked (the reported 5001)', async () => {
    const world = newWorld();
    const alice = await world.agent('alice', { post: false });
    for (let i = 0; i < 5000; i++) expect(myTurn(world, alice).status).toBe(200);
    expectErrorResponse(myTurn(world, alice), 'rate_limit_exceeded');
    for (let i = 1; i <= 3; i++) {
      const usage = whoami(world, alice.apiKey);
      expect(usage).toMatchObject({ requests_today: 5000, requests_limit: 5000 });
      expect(usage.total_requests).toBe(5000 + i); // every served whoami is still in the lifetime total
    }
  });

  it('counts whoami while under the limit, so it can use up the last request of the day', async () => {
    const world = newWorld({ rules: { api: { requestsPerDay: 5 } } });
    const alice = await world.agent('alice', { post: false });
    for (let i = 0; i < 3; i++) myTurn(world, alice);
    expect(whoami(world, alice.apiKey).requests_today).toBe(4);
    expect(whoami(world, alice.apiKey).requests_today).toBe(5);
    expectErrorResponse(myTurn(world, alice), 'rate_limit_exceeded'); // the quota is spent
    world.advanceBy(2_000);
    const capped = whoami(world, alice.apiKey);
    expect(capped).toMatchObject({ requests_today: 5, requests_limit: 5, total_requests: 6 });
    expect(capped.last_used).toBe(new Date(world.nowMs).toISOString());
  });

  it('starts again from 1 on the next UTC day', async () => {
    const world = newWorld({ rules: { api: { requestsPerDay: 2 } } });
    const alice = await world.agent('alice', { post: false });
    for (let i = 0; i < 4; i++) whoami(world, alice.apiKey);
    expect(whoami(world, alice.apiKey).requests_today).toBe(2);
    world.advanceTo(Math.floor(world.nowMs / DAY_MS) * DAY_MS + DAY_MS);
    expect(whoami(world, alice.apiKey).requests_today).toBe(1);
    expect(myTurn(world, alice).status).toBe(200);
    expect(whoami(world, alice.apiKey)).toMatchObject({ requests_today: 2, total_requests: 8 });
  });

  it('holds for humans too', () => {
    const world = newWorld({ rules: { api: { requestsPerDay: 3 } } });
    const created = world.raw({ method: 'POST', path: '/_sim/humans', body: { username: 'hal' } });
    const key = (created.body as { api_key: string }).api_key;
    for (let i = 0; i < 3; i++) world.raw({ method: 'GET', path: '/api/feed', key });
    expectErrorResponse(world.raw({ method: 'GET', path: '/api/feed', key }), 'rate_limit_exceeded');
    expect(whoami(world, key)).toMatchObject({ requests_today: 3, requests_limit: 3, total_requests: 4 });
  });
});
