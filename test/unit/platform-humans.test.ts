import { describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../src/platform/events.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';
import {
  expectApiError,
  expectErrorResponse,
  expectRejectedUnchanged,
  newWorld,
  START_MS,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface HumanCreated {
  success: boolean;
  human_id: string;
  username: string;
  display_name: string;
  api_key: string;
  author_type: string;
}

interface PostAnswer {
  success: boolean;
  post_id: string;
  post: { author: { id: string; handle: string; author_type: string } };
}

function createHuman(world: TestWorld, body: Record<string, unknown>) {
  return world.client().call<HumanCreated>('POST', '/_sim/humans', { body });
}

async function human(world: TestWorld, username: string) {
  const created = await createHuman(world, { username });
  return { ...created, client: world.client(created.api_key) };
}

function humanProfile(world: TestWorld, name: string, query: Record<string, number> = {}) {
  return world.client().call<{
    human: Record<string, unknown> & {
      agents: unknown[];
      recent_posts: Array<{ id: string; content: string }>;
    };
  }>('GET', `/api/human/${name}`, { query });
}

const postAs = (client: TestAgent['client'], content: string) =>
  client.call<PostAnswer>('POST', '/api/social/post', { body: { content } });

describe('human accounts (POST /_sim/humans)', () => {
  it('creates a human with a key, indexes it and emits human_registered', async () => {
    const world = newWorld();
    const events: PlatformEvent[] = [];
    world.platform.onEvent((e) => events.push(e));
    const r = await createHuman(world, {
      username: 'Hugo',
      display_name: 'Hugo H.',
      bio: 'I watch agents play',
    });
    expect(r).toMatchObject({
      success: true,
      username: 'Hugo',
      display_name: 'Hugo H.',
      author_type: 'human',
    });
    expect(r.human_id).toMatch(UUID);
    expect(r.api_key).toMatch(/^moltchess_[a-z0-9]{40}$/);
    const h = world.platform.state.humans.get(r.human_id)!;
    expect(h).toMatchObject({
      kind: 'human',
      handle: 'Hugo',
      displayName: 'Hugo H.',
      bio: 'I watch agents play',
      createdAtMs: START_MS,
    });
    expect(world.platform.state.humanIdByUsername.get('hugo')).toBe(r.human_id);
    expect(world.platform.state.humanIdByKeyHash.get(h.apiKeyHash)).toBe(r.human_id);
    expect(events).toEqual([
      { type: 'human_registered', t: START_MS, humanId: r.human_id, username: 'Hugo' },
    ]);
  });

  it('takes the display name and avatar from an existing external account of the same handle', async () => {
    const world = newWorld();
    await world.client().call('PATCH', '/_sim/network/accounts/hugo', {
      body: { display_name: 'Hugo on X', avatar_url: 'https://x.sim/h.png' },
    });
    const r = await createHuman(world, { username: 'hugo' });
    expect(r.display_name).toBe('Hugo on X');
    expect(world.platform.state.humans.get(r.human_id)!.avatarUrl).toBe('https://x.sim/h.png');
    expect((await createHuman(world, { username: 'plain' })).display_name).toBe('plain');
  });

  it('refuses a username equal to an agent handle or a human username, in any case (handle_taken)', async () => {
    const world = newWorld();
    await world.agent('Alice');
    await createHuman(world, { username: 'hugo' });
    for (const username of ['alice', 'ALICE', 'Hugo', 'hugo']) {
      await expectRejectedUnchanged(world, () => createHuman(world, { username }), 'handle_taken');
    }
    expect(world.platform.state.humans.size).toBe(1);
  });

  it.each([
    [{ username: 'ab' }],
    [{ username: 'has space' }],
    [{ username: 'a'.repeat(33) }],
    [{ username: 'dash-ed' }],
    [{}],
    [{ username: 'valid', display_name: 'n'.repeat(51) }],
    [{ username: 'valid', display_name: '' }],
    [{ username: 'valid', bio: 'b'.repeat(501) }],
    [{ username: 42 }],
  ])('refuses %j with validation_error and no change', async (body) => {
    const world = newWorld();
    await expectRejectedUnchanged(world, () => createHuman(world, body), 'validation_error');
    expect(world.platform.state.humans.size).toBe(0);
  });

  it('is served without the /api prefix only', () => {
    const world = newWorld();
    expectErrorResponse(
      world.raw({ method: 'POST', path: '/api/_sim/humans', body: { username: 'hugo' } }),
      'route_not_found',
    );
    expect(world.raw({ method: 'POST', path: '/_sim/humans', body: { username: 'hugo' } }).status).toBe(200);
  });
});

describe('human keys', () => {
  it('reach the social routes, and only those (agents_only elsewhere)', async () => {
    const world = newWorld();
    await world.agent('alice');
    const h = await human(world, 'hugo');
    await expectRejectedUnchanged(
      world,
      () => h.client.call('GET', '/api/chess/games/my-turn'),
      'agents_only',
    );
    await expectRejectedUnchanged(world, () => h.client.createChallenge(), 'agents_only');
    await expectRejectedUnchanged(
      world,
      () => h.client.createChallenge({ opponent_handle: 'alice' }),
      'agents_only',
    );
    await expectRejectedUnchanged(
      world,
      () => h.client.call('POST', '/api/verify', { body: { twitter_handle: 'hugo' } }),
      'agents_only',
    );
    await expectApiError(
      world
        .client('moltchess_' + 'x'.repeat(40))
        .call('POST', '/api/social/post', { body: { content: 'hi' } }),
      'invalid_api_key',
    );
    expect((await postAs(h.client, 'a human was here')).success).toBe(true);
  });

  it('read whoami: the human, its score and its key usage', async () => {
    const world = newWorld();
    const h = await human(world, 'hugo');
    await postAs(h.client, 'hello');
    const me = await h.client.call<Record<string, any>>('GET', '/api/whoami');
    expect(me).toMatchObject({
      authenticated: true,
      author_type: 'human',
      human: { username: 'hugo', posts_count: 1, social_score: 2 },
    });
    expect(me['agent']).toBeUndefined();
    expect(me['api_key']).toMatchObject({ requests_today: 2, requests_limit: 5000 });
  });

  it('post, reply, like and follow as author_type human', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const h = await human(world, 'hugo');
    const events: PlatformEvent[] = [];
    world.platform.onEvent((e) => events.push(e));

    const posted = await postAs(h.client, 'hello @alice');
    expect(posted.post.author).toEqual({ id: h.human_id, handle: 'hugo', author_type: 'human' });
    expect(events[0]).toMatchObject({ type: 'post_created', agentId: h.human_id, authorKind: 'human' });
    const reply = await h.client.call<{ author_type: string; author_id: string }>(
      'POST',
      '/api/social/reply',
      { body: { post_id: posted.post_id, content: 'me again' } },
    );
    expect(reply).toMatchObject({ author_type: 'human', author_id: h.human_id });

    const alicePost = [...world.platform.state.posts.values()].find((p) => p.authorId === alice.id)!;
    expect(
      await h.client.call('POST', '/api/social/like', { body: { post_id: alicePost.id } }),
    ).toMatchObject({ success: true, post_id: alicePost.id });
    expect(
      await h.client.call('POST', '/api/social/follow', { body: { target_handle: 'alice' } }),
    ).toMatchObject({ success: true, following: 'alice' });
    expect(
      await alice.client.call('POST', '/api/social/follow', { body: { target_username: 'HUGO' } }),
    ).toMatchObject({ success: true, following: 'hugo' });
    const hugo = world.platform.state.humans.get(h.human_id)!;
    expect(hugo).toMatchObject({ postsCount: 1, likesGivenCount: 1, followingCount: 1, followersCount: 1 });
  });

  it('have the human post limit: 20 an hour, 30 s apart, where an agent has 10', async () => {
    const world = newWorld();
    const h = await human(world, 'hugo');
    const agent = await world.agent('alice', { post: false });
    const { post } = DEFAULT_RULESET.social.limits;
    expect([post.human, post.agent, post.cooldownMs]).toEqual([20, 10, 30_000]);
    await postAs(h.client, 'post 1');
    await agent.client.post('agent post 1');
    const cooldown = await expectRejectedUnchanged(
      world,
      () => postAs(h.client, 'too soon'),
      'rate_limit_exceeded',
    );
    expect((cooldown.body as { retry_after: number }).retry_after).toBe(30);
    let agentPosts = 1;
    for (let i = 2; i <= post.human; i++) {
      world.advanceBy(post.cooldownMs);
      await postAs(h.client, `post ${i}`);
      if (agentPosts < post.agent) await agent.client.post(`agent post ${++agentPosts}`);
      else
        await expectRejectedUnchanged(world, () => agent.client.post('one too many'), 'rate_limit_exceeded');
    }
    world.advanceBy(post.cooldownMs);
    const limited = await expectRejectedUnchanged(
      world,
      () => postAs(h.client, 'post 21'),
      'rate_limit_exceeded',
    );
    expect((limited.body as { retry_after: number }).retry_after).toBe(3600 - 20 * 30);
    expect(world.platform.state.humans.get(h.human_id)!.postsCount).toBe(20);
  });
});

describe('GET /api/human/{username}', () => {
  it('shows the public profile, the agents verified with its handle and its recent posts, newest first', async () => {
    const world = newWorld();
    const h = await human(world, 'Hugo');
    const [alice, bob] = [await world.agent('alice'), await world.agent('bob')];
    await world.agent('carol');
    for (const agent of [alice, bob]) {
      const info = await agent.client.call<{ verification_tweet_format: string }>('GET', '/api/verify');
      await world.client().call('POST', '/_sim/network/posts', {
        body: { handle: 'hugo', text: info.verification_tweet_format },
      });
      await agent.client.call('POST', '/api/verify', { body: { twitter_handle: 'Hugo' } });
    }
    const first = await postAs(h.client, 'first');
    world.advanceBy(30_000);
    const second = await postAs(h.client, 'second');
    await alice.client.call('POST', '/api/social/follow', { body: { target_username: 'hugo' } });
    await bob.client.call('POST', '/api/social/like', { body: { post_id: first.post_id } });

    const { human: profile } = await humanProfile(world, 'hugo');
    expect(profile).toMatchObject({
      id: h.human_id,
      username: 'Hugo',
      display_name: 'Hugo',
      bio: null,
      avatar_url: null,
      followers_count: 1,
      following_count: 0,
      posts_count: 2,
      created_at: new Date(START_MS).toISOString(),
      social_score: 2 * 2 + 1 + 1, // two posts, one follower, one like received
    });
    expect(profile.agents).toEqual([
      { handle: 'alice', elo: 1200 },
      { handle: 'bob', elo: 1200 },
    ]);
    expect(profile.recent_posts.map((p) => p.id)).toEqual([second.post_id, first.post_id]);
    expect((await humanProfile(world, h.human_id)).human.id).toBe(h.human_id);
    expect(
      (await humanProfile(world, 'HUGO', { limit: 1, offset: 1 })).human.recent_posts.map((p) => p.content),
    ).toEqual(['first']);
  });

  it('answers not_found for an unknown human, and for an agent handle', async () => {
    const world = newWorld();
    await world.agent('alice');
    await expectApiError(humanProfile(world, 'nobody'), 'not_found');
    await expectApiError(humanProfile(world, 'alice'), 'not_found');
    await expectApiError(humanProfile(world, '00000000-0000-4000-8000-000000000000'), 'not_found');
  });
});
