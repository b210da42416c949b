import { describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectErrorResponse,
  expectRejectedUnchanged,
  newWorld,
  START_MS,
} from '../helpers/world.js';
import { isControlRoute } from '../../src/api/contract/define.js';
import { checkHandle } from '../../src/api/contract/identity.js';
import { CONTRACTS } from '../../src/api/contract/index.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DAY_MS = 86_400_000;

describe('POST /api/register', () => {
  it('returns the key once, a wallet, a 12-character verification code and the tweet format', async () => {
    const world = newWorld();
    const client = world.client();
    const r = await client.register({ handle: 'alice_01', bio: 'plays e4', tags: ['tactical'] });
    expect(r.success).toBe(true);
    expect(r.handle).toBe('alice_01');
    expect(r.agent_id).toMatch(UUID);
    expect(r.api_key).toMatch(/^moltchess_[a-z0-9]+$/);
    expect(r.api_key.length).toBeGreaterThan('moltchess_'.length + 16);
    expect(r.wallet_address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(r.verification_required).toBe(true);
    expect(r.verification_code).toMatch(/^[A-Z0-9]{12}$/);
    expect(r.verification_tweet_format).toBe(
      `MoltChess agent verification: username=alice_01 code=${r.verification_code}`,
    );
    // The client now holds the key: whoami answers for this agent.
    const me = await client.agentWhoami();
    expect(me.agent.id).toBe(r.agent_id);
    expect(me.agent.handle).toBe('alice_01');
    expect(me.agent.tags).toEqual(['tactical']);
  });

  it('gives every agent its own id, key, wallet and code', async () => {
    const world = newWorld();
    const a = await world.client().register({ handle: 'one' });
    const b = await world.client().register({ handle: 'two' });
    expect(a.agent_id).not.toBe(b.agent_id);
    expect(a.api_key).not.toBe(b.api_key);
    expect(a.wallet_address).not.toBe(b.wallet_address);
    expect(a.verification_code).not.toBe(b.verification_code);
  });

  it.each(['abc', 'a'.repeat(32), 'A.b_9', '...', '___', 'Z9Z'])('accepts the handle %j', async (handle) => {
    const world = newWorld();
    const r = await world.client().register({ handle });
    expect(r.handle).toBe(handle);
  });

  it.each([
    'ab',
    'a'.repeat(33),
    '',
    'has space',
    'dash-ed',
    'émile',
    'a/b',
    'a@b',
    'tab\tx',
    'ünï',
    '名前です',
  ])('refuses the handle %j with validation_error and no state change', async (handle) => {
    const world = newWorld();
    await expectRejectedUnchanged(world, () => world.client().register({ handle }), 'validation_error');
    expect(world.platform.state.agents.size).toBe(0);
  });

  it('keeps handles unique without regard to case (handle_taken)', async () => {
    const world = newWorld();
    await world.client().register({ handle: 'Alice' });
    for (const handle of ['Alice', 'alice', 'ALICE', 'aLiCe']) {
      await expectRejectedUnchanged(world, () => world.client().register({ handle }), 'handle_taken');
    }
    expect(world.platform.state.agents.size).toBe(1);
  });

  it('limits bio to 500, tags to 10 and github_url to 512 characters', async () => {
    const world = newWorld();
    const ok = await world.client().register({
      handle: 'maxed',
      bio: 'b'.repeat(500),
      tags: Array.from({ length: 10 }, (_, i) => `t${i}`),
      github_url: 'g'.repeat(512),
    });
    expect(ok.success).toBe(true);
    const cases: Array<Record<string, unknown>> = [
      { bio: 'b'.repeat(501) },
      { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
      { github_url: 'g'.repeat(513) },
      { tags: [''] },
      { tags: 'tactical' },
      { bio: 5 },
    ];
    for (const extra of cases) {
      const before = world.fingerprint();
      const response = world.raw({
        method: 'POST',
        path: '/api/register',
        body: { handle: 'over', ...extra },
      });
      expectErrorResponse(response, 'validation_error');
      expect(world.fingerprint()).toBe(before);
    }
  });

  it('refuses a body without a handle, or not an object', () => {
    const world = newWorld();
    for (const body of [{}, { bio: 'x' }, [], 'alice', 42, { handle: 42 }, { handle: null }]) {
      expectErrorResponse(world.raw({ method: 'POST', path: '/api/register', body }), 'validation_error');
    }
    expect(world.platform.state.agents.size).toBe(0);
  });
});

describe('GET /api/register/check/{handle}', () => {
  it('answers 200 for a free handle and 400 for a taken or invalid one', async () => {
    const world = newWorld();
    const client = world.client();
    expect(await client.checkHandle('free_one')).toMatchObject({ available: true });
    await world.client().register({ handle: 'Taken' });
    const taken = await expectApiError(client.checkHandle('taken'), 'handle_taken');
    expect(taken.status).toBe(400);
    const invalid = await expectApiError(client.checkHandle('x'), 'validation_error');
    expect(invalid.status).toBe(400);
    await expectApiError(client.checkHandle('bad handle!'), 'validation_error');
    await expectApiError(client.checkHandle('a'.repeat(33)), 'validation_error');
    expect(await client.checkHandle('a'.repeat(32))).toMatchObject({ available: true });
  });
});

describe('public routes', () => {
  // A client that always sends its key, or one gone stale, must still register and read the public lists.
  it('public routes ignore a stale or broken key: the answer is the one sent without a key', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const broken = [`moltchess_${'0'.repeat(40)}`, 'not a key at all'];
    const publicReads = CONTRACTS.filter(
      (contract) =>
        contract.auth === 'none' &&
        contract.method === 'GET' &&
        !isControlRoute(contract) &&
        !contract.path.includes('{'),
    );
    expect(publicReads.length).toBeGreaterThan(3);
    for (const contract of [...publicReads, checkHandle]) {
      const path = contract.path.replace('{handle}', 'bob');
      const plain = world.raw({ method: contract.method, path });
      expect(plain.status, path).toBe(200);
      for (const key of broken)
        expect(world.raw({ method: contract.method, path, key }), path).toEqual(plain);
    }
    for (const [i, key] of broken.entries()) {
      const r = world.raw({ method: 'POST', path: '/api/register', body: { handle: `late_${i}` }, key });
      expect([r.status, (r.body as { handle?: string }).handle], key).toEqual([200, `late_${i}`]);
    }
    // A route where a key is optional still judges the key that is sent.
    const judged = world.raw({ method: 'GET', path: '/api/agents/alice', key: broken[0] });
    expect((judged.body as { error?: string }).error).toBe('invalid_api_key');
    expect(world.raw({ method: 'GET', path: '/api/agents/alice', key: alice.apiKey }).status).toBe(200);
  });
});

describe('GET /api/whoami', () => {
  it('needs a key (401 authentication_required) and refuses a wrong one (401 invalid_api_key)', async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    await expectApiError(world.client().whoami(), 'authentication_required');
    await expectApiError(world.client('moltchess_' + 'x'.repeat(40)).whoami(), 'invalid_api_key');
    await expectApiError(world.client(a.apiKey.toUpperCase()).whoami(), 'invalid_api_key');
    await expectApiError(world.client(a.apiKey + 'x').whoami(), 'invalid_api_key');
    for (const header of ['Basic ' + a.apiKey, a.apiKey, 'Bearer', 'Bearer  ']) {
      expectErrorResponse(
        world.raw({ method: 'GET', path: '/api/whoami', headers: { authorization: header } }),
        'invalid_api_key',
      );
    }
    expectErrorResponse(
      world.raw({ method: 'GET', path: '/api/whoami', headers: { authorization: '' } }),
      'authentication_required',
    );
    // Bearer is case-insensitive and surrounding whitespace after the key is tolerated.
    expect(
      world.raw({ method: 'GET', path: '/api/whoami', headers: { authorization: `bearer ${a.apiKey}` } })
        .status,
    ).toBe(200);
  });

  it('counts requests on the key: today, in total, and the last use', async () => {
    const world = newWorld();
    const a = await world.agent('alice'); // register (no key) + one post (counted)
    const first = await a.client.whoami();
    expect(first.api_key.prefix).toBe(a.apiKey.slice(0, 'moltchess_'.length + 4));
    expect(first.api_key.requests_limit).toBe(5000);
    expect(first.api_key.total_requests).toBe(2); // the post and this whoami
    expect(first.api_key.requests_today).toBe(2);
    expect(first.api_key.last_used).toBe(new Date(START_MS).toISOString());
    // Refused requests on the key count too; requests with no key or another key do not.
    await expectApiError(a.client.createChallenge({ opponent_handle: 'nobody_here' }), 'not_found');
    await world.client().openChallenges();
    await expectApiError(world.client('moltchess_wrong').whoami(), 'invalid_api_key');
    world.advanceBy(1234);
    const second = await a.client.whoami();
    expect(second.api_key.total_requests).toBe(4);
    expect(second.api_key.requests_today).toBe(4);
    expect(second.api_key.last_used).toBe(new Date(START_MS + 1234).toISOString());
    // A new UTC day restarts the daily count, not the total.
    world.advanceTo(Math.floor(START_MS / DAY_MS) * DAY_MS + DAY_MS);
    const nextDay = await a.client.whoami();
    expect(nextDay.api_key.requests_today).toBe(1);
    expect(nextDay.api_key.total_requests).toBe(5);
  });

  it('reports the profile fields', async () => {
    const world = newWorld();
    const a = await world.agent('alice', { bio: 'hi', tags: ['positional', 'endgame'] });
    const me = (await a.client.whoami()) as unknown as {
      authenticated: boolean;
      agent: Record<string, unknown>;
    };
    expect(me.authenticated).toBe(true);
    expect(me.agent).toMatchObject({
      handle: 'alice',
      bio: 'hi',
      tags: ['positional', 'endgame'],
      verified: false,
      posts_count: 1,
      chess_elo: 1200,
    });
  });
});

describe('API keys are not kept', () => {
  it('never stores the key text in state, nor in any event', async () => {
    const world = newWorld();
    const seen: string[] = [];
    world.platform.onEvent((e) => seen.push(JSON.stringify(e)));
    const a = await world.agent('alice');
    const b = await world.agent('bob');
    const gameId = await world.game(a, b);
    await world.play(gameId, a, b, ['e4']);
    const text = world.fingerprint(true);
    expect(text).toContain('alice'); // the search does see agent data
    for (const key of [a.apiKey, b.apiKey]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice('moltchess_'.length)); // nor the secret part alone
      for (const event of seen) expect(event).not.toContain(key.slice('moltchess_'.length));
    }
  });
});

describe('PATCH /api/agents/profile', () => {
  it('updates bio, tags and GitHub references', async () => {
    const world = newWorld();
    const a = await world.agent('alice', { bio: 'old' });
    const r = (await a.client.updateProfile({
      bio: 'new bio',
      tags: ['aggressive'],
      github_url: 'https://github.com/x/y',
      github_username: 'x',
    })) as unknown as {
      updated_fields: string[];
      agent: Record<string, unknown>;
    };
    expect(r.updated_fields.sort()).toEqual(['bio', 'github_url', 'github_username', 'tags']);
    expect(r.agent).toMatchObject({
      bio: 'new bio',
      tags: ['aggressive'],
      github_url: 'https://github.com/x/y',
      github_username: 'x',
    });
    const me = (await a.client.whoami()) as unknown as { agent: Record<string, unknown> };
    expect(me.agent).toMatchObject({ handle: 'alice', bio: 'new bio', tags: ['aggressive'] });
    await a.client.updateProfile({ bio: null });
    expect(((await a.client.whoami()) as unknown as { agent: { bio: unknown } }).agent.bio).toBeNull();
  });

  it('refuses invalid fields and changes nothing', async () => {
    const world = newWorld();
    const a = await world.agent('alice', { bio: 'old' });
    await world.agent('bob');
    const bad: Array<[Record<string, unknown>, 'validation_error' | 'handle_taken']> = [
      [{ bio: 'x'.repeat(501) }, 'validation_error'],
      [{ bio: 'fine', tags: Array.from({ length: 11 }, () => 't') }, 'validation_error'],
      [{ github_url: 'g'.repeat(513) }, 'validation_error'],
      [{ handle: 'no' }, 'validation_error'],
      [{ handle: 'BOB', bio: 'would change' }, 'handle_taken'],
      [{ handle: 42 }, 'validation_error'],
    ];
    for (const [patch, code] of bad)
      await expectRejectedUnchanged(world, () => a.client.updateProfile(patch), code);
    expect(((await a.client.whoami()) as unknown as { agent: { bio: unknown } }).agent.bio).toBe('old');
  });

  it('allows a limited number of handle changes, and frees the old handle', async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    const probe = world.client();
    const first = (await a.client.updateProfile({ handle: 'alice2' })) as unknown as {
      warning: string;
      agent: { handle: string };
    };
    expect(first.agent.handle).toBe('alice2');
    expect(first.warning).toMatch(/1 handle change remaining/);
    expect(await probe.checkHandle('alice')).toMatchObject({ available: true });
    await expectApiError(probe.checkHandle('ALICE2'), 'handle_taken');
    // Setting the same handle again is not a change.
    await a.client.updateProfile({ handle: 'alice2' });
    await a.client.updateProfile({ handle: 'alice3' });
    expect((await a.client.agentWhoami()).agent.handle).toBe('alice3');
    await expectRejectedUnchanged(world, () => a.client.updateProfile({ handle: 'alice4' }), 'bad_request');
    expect((await a.client.agentWhoami()).agent.handle).toBe('alice3');
    // Other fields can still be changed.
    await a.client.updateProfile({ bio: 'still editable', handle: 'alice3' });
  });

  it('is rate-limited per hour: the edit past the limit is a 429 with retry_after, changing nothing', async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    const perHour = DEFAULT_RULESET.social.limits.profile.agent;
    expect(perHour).toBe(10);
    world.advanceBy(60_000);
    for (let i = 0; i < perHour; i++) await a.client.updateProfile({ bio: `edit ${i}` });
    world.advanceBy(5 * 60_000);
    const refused = await expectRejectedUnchanged(
      world,
      () => a.client.updateProfile({ bio: 'one too many' }),
      'rate_limit_exceeded',
    );
    // The first edit leaves the sliding hour 55 minutes from now.
    expect(refused.body).toMatchObject({ action: 'profile', limit: perHour, retry_after: 55 * 60 });
    // An empty patch is an accepted write too, so it is refused as well, with the header.
    const raw = world.raw({ method: 'PATCH', path: '/api/agents/profile', key: a.apiKey, body: {} });
    expect(raw.status).toBe(429);
    expect(raw.headers?.['retry-after']).toBe(String(55 * 60));
    world.advanceBy(55 * 60_000);
    expect((await a.client.updateProfile({ bio: 'an hour later' })).updated_fields).toEqual(['bio']);
  });

  it('needs a key', async () => {
    const world = newWorld();
    await expectApiError(world.client().updateProfile({ bio: 'x' }), 'authentication_required');
  });
});

describe('determinism', () => {
  async function build(seed: string) {
    const world = newWorld({ seed });
    const rows: unknown[] = [];
    for (const handle of ['alice', 'bob', 'carol']) {
      const r = await world.client().register({ handle });
      rows.push([r.agent_id, r.api_key, r.wallet_address, r.verification_code]);
    }
    return { rows, fingerprint: world.fingerprint(true) };
  }

  it('gives the same ids, keys, wallets and codes for the same seed, and others for another', async () => {
    const one = await build('seed-a');
    const two = await build('seed-a');
    const other = await build('seed-b');
    expect(two.rows).toEqual(one.rows);
    expect(two.fingerprint).toBe(one.fingerprint);
    expect(other.rows).not.toEqual(one.rows);
    for (let i = 0; i < 3; i++) expect((other.rows[i] as string[])[1]).not.toBe((one.rows[i] as string[])[1]);
  });
});

describe('no aliasing between callers and platform state', () => {
  it('keeps its own copy of the tags a request sent', () => {
    const world = newWorld();
    const body = { handle: 'alice', tags: ['tactical'] };
    const r = world.raw({ method: 'POST', path: '/api/register', body });
    body.tags.push('injected');
    body.handle = 'mallory';
    const key = (r.body as { api_key: string }).api_key;
    const me = world.raw({ method: 'GET', path: '/api/whoami', key }).body as {
      agent: { handle: string; tags: string[] };
    };
    expect(me.agent).toMatchObject({ handle: 'alice', tags: ['tactical'] });
  });

  // BUG (src/client/in-process.ts:23 with src/api/views.ts:22): InProcessTransport's doc comment promises
  // "a JSON copy of the body, so nothing the client holds aliases platform state", but send() returns
  // Api.handle's body as is, and agentSelf() puts the agent's own `tags` array in it (historyRow does the same
  // with opponent_tags). A client that edits a response therefore edits the platform: here one push changes
  // the agent's stored tags without any request. Over HTTP this cannot happen (the body is serialized), so
  // the two transports differ. Fix: copy in the transport (`body: JSON.parse(JSON.stringify(response.body))`
  // or structuredClone), and/or copy arrays in the views (`tags: [...a.tags]`).
  it('in-process responses do not alias state: editing a whoami response changes nothing', async () => {
    const world = newWorld();
    const a = await world.agent('alice', { tags: ['tactical'] });
    const before = world.fingerprint();
    const me = await a.client.agentWhoami();
    me.agent.tags.push('injected');
    expect(world.fingerprint()).toBe(before);
    expect((await a.client.agentWhoami()).agent.tags).toEqual(['tactical']);
  });
});
