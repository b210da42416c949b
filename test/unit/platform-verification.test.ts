import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PlatformEvent } from '../../src/platform/events.js';
import { researchComplete } from '../../src/rules/identity/research.js';
import { DEFAULT_RULESET, ONBOARDING_PRESETS, type Ruleset } from '../../src/rules/ruleset.js';
import { stripAt, verificationPosted } from '../../src/rules/identity/verification.js';
import {
  expectApiError,
  expectErrorResponse,
  expectRejectedUnchanged,
  newWorld,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

interface VerifyInfo {
  success: boolean;
  verified: boolean;
  verification_code: string;
  verification_tweet_format: string;
  verification_instruction: string;
  message: string;
}

interface VerifyResult {
  success: boolean;
  verified: boolean;
  already_verified?: boolean;
  verified_at: string;
  twitter_handle: string;
  message: string;
  funding_transfer_id: string | null;
}

interface RefreshResult {
  success: boolean;
  message: string;
  twitter_handle: string;
  avatar_url: string;
  display_name: string;
  followers_count: number;
}

const verifyInfo = (a: TestAgent) => a.client.call<VerifyInfo>('GET', '/api/verify');
const verify = (a: TestAgent, handle: string) =>
  a.client.call<VerifyResult>('POST', '/api/verify', { body: { twitter_handle: handle } });
const refresh = (a: TestAgent, handle = a.handle, name = 'refresh-social') =>
  a.client.call<RefreshResult>('POST', `/api/agents/${handle}/${name}`);

/** Publishes on the mock external network through the control route, as a scenario does. */
function publish(world: TestWorld, handle: string, text: string) {
  return world
    .client()
    .call<{ success: boolean; post_id: string; handle: string }>('POST', '/_sim/network/posts', {
      body: { handle, text },
    });
}

function patchAccount(world: TestWorld, handle: string, patch: Record<string, unknown>) {
  return world
    .client()
    .call<{ account: Record<string, unknown> }>('PATCH', `/_sim/network/accounts/${handle}`, { body: patch });
}

async function publishOwnText(world: TestWorld, agent: TestAgent, handle: string, wrap = (t: string) => t) {
  const info = await verifyInfo(agent);
  await publish(world, handle, wrap(info.verification_tweet_format));
  return info;
}

function agentState(world: TestWorld, agent: TestAgent) {
  return world.platform.state.agents.get(agent.id)!;
}

function recordEvents(world: TestWorld): PlatformEvent[] {
  const events: PlatformEvent[] = [];
  world.platform.onEvent((e) => events.push(e));
  return events;
}

describe('GET /api/verify', () => {
  it('returns the code and the exact text to publish, matching registration', async () => {
    const world = newWorld();
    const registered = await world.client().register({ handle: 'alice' });
    const alice = {
      handle: 'alice',
      id: registered.agent_id,
      apiKey: registered.api_key,
      client: world.client(registered.api_key),
    };
    const info = await verifyInfo(alice);
    expect(info).toMatchObject({
      success: true,
      verified: false,
      verification_code: registered.verification_code,
    });
    expect(info.verification_tweet_format).toBe(
      `MoltChess agent verification: username=alice code=${registered.verification_code}`,
    );
    expect(info.verification_tweet_format).toBe(registered.verification_tweet_format);
    expect(info.verification_instruction).toContain(info.verification_tweet_format);
    expect(info.verification_instruction).toContain('twitter_handle');
  });

  it('needs a key, and refuses a human key (agents_only)', async () => {
    const world = newWorld();
    await expectApiError(world.client().call('GET', '/api/verify'), 'authentication_required');
    const human = await world
      .client()
      .call<{ api_key: string }>('POST', '/_sim/humans', { body: { username: 'hugo' } });
    await expectApiError(world.client(human.api_key).call('GET', '/api/verify'), 'agents_only');
  });
});

describe('POST /api/verify', () => {
  it('verifies from a post that contains the text, pulls the profile and funds the wallet once', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const events = recordEvents(world);
    await publishOwnText(world, alice, 'Alice_X', (t) => `Hello world! ${t} #chess`);
    await patchAccount(world, 'alice_x', { display_name: 'Alice on X', followers: 321 });
    world.advanceBy(1234);
    const r = await verify(alice, '@Alice_X');
    expect(r).toMatchObject({
      success: true,
      verified: true,
      twitter_handle: 'Alice_X',
      verified_at: new Date(world.nowMs).toISOString(),
    });
    expect(r.message).toMatch(/funded/);
    const a = agentState(world, alice);
    expect(a).toMatchObject({
      verified: true,
      verifiedAtMs: world.nowMs,
      twitterHandle: 'Alice_X',
      twitterDisplayName: 'Alice on X',
      twitterFollowers: 321,
    });
    expect(a.avatarUrl).toBe('https://x.sim/avatars/alice_x.png');
    expect(events.filter((e) => e.type === 'agent_verified')).toEqual([
      { type: 'agent_verified', t: world.nowMs, agentId: alice.id, twitterHandle: 'Alice_X' },
    ]);

    const transfer = world.platform.state.transfers.get(r.funding_transfer_id!)!;
    expect(transfer).toMatchObject({
      type: 'devnet_funding',
      status: 'queued',
      agentId: alice.id,
      lamports: DEFAULT_RULESET.escrow.verifiedFundingLamports,
    });
    expect(world.balance(alice)).toBe(0);
    world.advanceBy(10_000);
    expect(transfer.status).toBe('settled');
    expect(world.balance(alice)).toBe(DEFAULT_RULESET.escrow.verifiedFundingLamports);
    expect((await alice.client.agentWhoami()).agent.verified).toBe(true);
    expect((await verifyInfo(alice)).verified).toBe(true);
  });

  it('is idempotent once verified: 200 already_verified, no second funding, nothing changes', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    await publishOwnText(world, alice, 'alice_x');
    const first = await verify(alice, 'alice_x');
    world.advanceBy(10_000);
    const transfers = world.platform.state.transfers.size;
    const before = world.fingerprint();
    for (const handle of ['alice_x', 'someone_else']) {
      const again = await verify(alice, handle);
      expect(again).toMatchObject({
        success: true,
        verified: true,
        already_verified: true,
        twitter_handle: 'alice_x',
        funding_transfer_id: null,
      });
      expect(again.verified_at).toBe(first.verified_at);
    }
    expect(world.fingerprint()).toBe(before);
    expect(world.platform.state.transfers.size).toBe(transfers);
    expect(world.balance(alice)).toBe(DEFAULT_RULESET.escrow.verifiedFundingLamports);
  });

  it('accepts the text published exactly, and lets one external handle verify several agents', async () => {
    const world = newWorld();
    const [a, b] = [await world.agent('first'), await world.agent('second')];
    await publishOwnText(world, a, 'owner');
    await publishOwnText(world, b, 'owner');
    expect((await verify(a, 'owner')).verified).toBe(true);
    expect((await verify(b, 'OWNER')).verified).toBe(true);
    expect([agentState(world, a).twitterHandle, agentState(world, b).twitterHandle]).toEqual([
      'owner',
      'owner',
    ]);
    expect(
      new Set(
        [...world.platform.state.transfers.values()]
          .filter((t) => t.type === 'devnet_funding')
          .map((t) => t.agentId),
      ),
    ).toEqual(new Set([a.id, b.id]));
  });

  it('refuses, changing nothing: no account, text missing, text by another handle, altered text, banned account', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const bob = await world.agent('bob');
    const info = await verifyInfo(alice);
    await expectRejectedUnchanged(world, () => verify(alice, 'nobody'), 'verification_failed');
    await publish(world, 'alice_x', `my code is ${info.verification_code}`); // the code alone is not the text
    await expectRejectedUnchanged(world, () => verify(alice, 'alice_x'), 'verification_failed');
    await publishOwnText(world, bob, 'alice_x'); // bob's text does not verify alice
    await expectRejectedUnchanged(world, () => verify(alice, 'alice_x'), 'verification_failed');
    await publish(world, 'alice_x', info.verification_tweet_format.toLowerCase()); // exact text: case matters
    await expectRejectedUnchanged(world, () => verify(alice, 'alice_x'), 'verification_failed');
    await publish(world, 'impostor', info.verification_tweet_format); // right text, but another handle named
    await expectRejectedUnchanged(world, () => verify(alice, 'alice_x'), 'verification_failed');

    await publish(world, 'banned_one', info.verification_tweet_format);
    await patchAccount(world, 'banned_one', { banned: true });
    const banned = await expectRejectedUnchanged(world, () => verify(alice, 'banned_one'), 'account_banned');
    expect(banned.status).toBe(403);
    expect(agentState(world, alice).verified).toBe(false);
    expect([...world.platform.state.transfers.values()].some((t) => t.type === 'devnet_funding')).toBe(false);
  });

  it.each([['bad handle'], ['@@alice'], [''], ['@'], ['a'.repeat(33)], ['dash-ed']])(
    'refuses twitter_handle %j (validation_error)',
    async (handle) => {
      const world = newWorld();
      const alice = await world.agent('alice');
      await expectRejectedUnchanged(world, () => verify(alice, handle), 'validation_error');
    },
  );

  it('needs twitter_handle as a string', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    await expectRejectedUnchanged(
      world,
      () => alice.client.call('POST', '/api/verify', { body: {} }),
      'validation_error',
    );
    await expectRejectedUnchanged(world, () => alice.client.call('POST', '/api/verify'), 'validation_error');
    await expectRejectedUnchanged(
      world,
      () => alice.client.call('POST', '/api/verify', { body: { twitter_handle: 7 } }),
      'validation_error',
    );
  });
});

describe('POST /api/agents/{handle}/refresh-social and refresh-twitter', () => {
  async function verifiedAgent(world: TestWorld, handle: string, external: string) {
    const agent = await world.agent(handle);
    await publishOwnText(world, agent, external);
    await verify(agent, external);
    return agent;
  }

  it('pulls the changed display name, avatar and followers, with no body, under both names', async () => {
    const world = newWorld();
    const alice = await verifiedAgent(world, 'alice', 'alice_x');
    const events = recordEvents(world);
    await patchAccount(world, 'alice_x', {
      display_name: 'New Name',
      avatar_url: 'https://x.sim/a/new.png',
      followers: 99,
    });
    world.advanceBy(5000);
    const raw = world.raw({ method: 'POST', path: '/api/agents/alice/refresh-social', key: alice.apiKey });
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({
      success: true,
      message: 'Twitter data refreshed.',
      twitter_handle: 'alice_x',
    });
    expect(raw.body).toMatchObject({
      avatar_url: 'https://x.sim/a/new.png',
      display_name: 'New Name',
      followers_count: 99,
    });
    expect(agentState(world, alice)).toMatchObject({
      avatarUrl: 'https://x.sim/a/new.png',
      twitterDisplayName: 'New Name',
      twitterFollowers: 99,
      socialRefreshedAtMs: world.nowMs,
    });
    expect(events.map((e) => e.type)).toContain('social_refreshed');

    await patchAccount(world, 'alice_x', { followers: 100 });
    world.advanceBy(DEFAULT_RULESET.social.limits.refresh.cooldownMs);
    const byId = await refresh(alice, alice.id, 'refresh-twitter');
    expect(byId.followers_count).toBe(100);
  });

  it('is rate-limited: 429 with retry_after and a retry-after header, nothing changes', async () => {
    const world = newWorld();
    const alice = await verifiedAgent(world, 'alice', 'alice_x');
    const { agent: perHour, cooldownMs } = DEFAULT_RULESET.social.limits.refresh;
    await refresh(alice);
    const before = world.fingerprint();
    const raw = world.raw({ method: 'POST', path: '/api/agents/alice/refresh-twitter', key: alice.apiKey });
    expectErrorResponse(raw, 'rate_limit_exceeded');
    expect((raw.body as { retry_after: number }).retry_after).toBe(cooldownMs / 1000);
    expect(raw.headers?.['retry-after']).toBe(String(cooldownMs / 1000));
    expect(world.fingerprint()).toBe(before);

    for (let i = 1; i < perHour; i++) {
      world.advanceBy(cooldownMs);
      await refresh(alice);
    }
    world.advanceBy(cooldownMs);
    const limited = await expectRejectedUnchanged(world, () => refresh(alice), 'rate_limit_exceeded');
    expect((limited.body as { retry_after: number }).retry_after).toBe(3600 - (perHour * cooldownMs) / 1000);
    world.advanceBy((limited.body as { retry_after: number }).retry_after * 1000);
    expect((await refresh(alice)).success).toBe(true);
  });

  it('refuses another agent, an unknown handle, an unverified agent, a banned account and a human, changing nothing', async () => {
    const world = newWorld();
    const alice = await verifiedAgent(world, 'alice', 'alice_x');
    const bob = await world.agent('bob');
    const other = await expectRejectedUnchanged(world, () => refresh(bob, 'alice'), 'bad_request');
    expect((other.body as { reason: string }).reason).toBe('not_your_handle');
    await expectRejectedUnchanged(world, () => refresh(bob, 'ghost'), 'not_found');
    const unverified = await expectRejectedUnchanged(world, () => refresh(bob), 'bad_request');
    expect((unverified.body as { reason: string }).reason).toBe('not_verified');
    await expectRejectedUnchanged(
      world,
      () => world.client().call('POST', '/api/agents/alice/refresh-social'),
      'authentication_required',
    );
    const human = await world
      .client()
      .call<{ api_key: string }>('POST', '/_sim/humans', { body: { username: 'hugo' } });
    await expectRejectedUnchanged(
      world,
      () => world.client(human.api_key).call('POST', '/api/agents/hugo/refresh-social'),
      'agents_only',
    );
    await patchAccount(world, 'alice_x', { banned: true });
    await expectRejectedUnchanged(world, () => refresh(alice), 'account_banned');
  });
});

describe('research phase with the strict onboarding preset', () => {
  async function followAndLike(world: TestWorld, me: TestAgent, peers: TestAgent[]) {
    for (const peer of peers)
      await me.client.call('POST', '/api/social/follow', { body: { target_handle: peer.handle } });
    const peerIds = new Set(peers.map((p) => p.id));
    const postIds = [...world.platform.state.posts.values()]
      .filter((p) => peerIds.has(p.authorId))
      .map((p) => p.id);
    for (const postId of postIds)
      await me.client.call('POST', '/api/social/like', { body: { post_id: postId } });
  }

  it('blocks play until 1 post, 10 follows and 10 likes', async () => {
    const world = newWorld({ rules: { research: 'strict' } });
    const peers = await world.agents(10, { prefix: 'peer' });
    const fresh = await world.agent('fresh');
    const blocked = await expectRejectedUnchanged(
      world,
      () => fresh.client.createChallenge(),
      'research_phase_incomplete',
    );
    expect(blocked.message).toMatch(/10 more follow\(s\), 10 more like\(s\).*verify/);
    await followAndLike(world, fresh, peers.slice(0, 9));
    const almost = await expectRejectedUnchanged(
      world,
      () => fresh.client.createChallenge(),
      'research_phase_incomplete',
    );
    expect(almost.message).toMatch(/1 more follow\(s\), 1 more like\(s\)/);
    await followAndLike(world, fresh, peers.slice(9));
    expect((await fresh.client.createChallenge()).success).toBe(true);
  });

  it('lets a verified agent play with no post at all under strict, but not under the spec preset', async () => {
    for (const [preset, unlocks] of [
      ['strict', true],
      ['spec', false],
    ] as const) {
      const world = newWorld({ rules: { research: preset } });
      const agent = await world.agent('quiet', { post: false });
      await publishOwnText(world, agent, 'quiet_x');
      await verify(agent, 'quiet_x');
      const call = agent.client.createChallenge();
      if (unlocks) expect((await call).success).toBe(true);
      else await expectApiError(call, 'research_phase_incomplete');
    }
  });

  it('property: verification unlocks exactly when the preset says so; otherwise the counts decide', () => {
    const counts = fc.record({
      posts: fc.nat(20),
      follows: fc.nat(20),
      likes: fc.nat(20),
      verified: fc.boolean(),
    });
    const research = fc.record({
      minPosts: fc.nat(12),
      minFollows: fc.nat(12),
      minLikes: fc.nat(12),
      verifiedUnlocks: fc.boolean(),
    });
    fc.assert(
      fc.property(counts, research, (c, r) => {
        const ruleset: Ruleset = { ...DEFAULT_RULESET, research: r };
        const byCounts = c.posts >= r.minPosts && c.follows >= r.minFollows && c.likes >= r.minLikes;
        expect(researchComplete(c, ruleset)).toBe(byCounts || (r.verifiedUnlocks && c.verified));
      }),
      { numRuns: 300 },
    );
    expect(ONBOARDING_PRESETS.strict).toMatchObject({
      minPosts: 1,
      minFollows: 10,
      minLikes: 10,
      verifiedUnlocks: true,
    });
  });
});

describe('verification text rules', () => {
  it('property: any post containing the exact text verifies; a post without it does not', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string({ minLength: 1 }), (before, after, expected) => {
        expect(verificationPosted([`${before}${expected}${after}`], expected)).toBe(true);
        expect(verificationPosted([before, after], expected)).toBe(
          before.includes(expected) || after.includes(expected),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('strips exactly one leading @', () => {
    expect(stripAt('@alice')).toBe('alice');
    expect(stripAt('@@alice')).toBe('@alice');
    expect(stripAt('alice')).toBe('alice');
  });
});

describe('simulator control routes for the mock network', () => {
  it('serve /_sim paths without the /api prefix, and not under /api', async () => {
    const world = newWorld();
    const posted = world.raw({
      method: 'POST',
      path: '/_sim/network/posts',
      body: { handle: 'Xavier', text: 'first post' },
    });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ success: true, handle: 'Xavier' });
    expectErrorResponse(
      world.raw({ method: 'POST', path: '/api/_sim/network/posts', body: { handle: 'x', text: 't' } }),
      'route_not_found',
    );
    const got = world.raw({ method: 'GET', path: '/_sim/network/accounts/xavier/' });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      account: {
        handle: 'Xavier',
        display_name: 'Xavier',
        avatar_url: 'https://x.sim/avatars/xavier.png',
        followers: 0,
        banned: false,
      },
    });
    expect((got.body as { account: { posts: Array<{ id: string; text: string }> } }).account.posts).toEqual([
      {
        id: (posted.body as { post_id: string }).post_id,
        text: 'first post',
        created_at: new Date(world.nowMs).toISOString(),
      },
    ]);
    expectErrorResponse(world.raw({ method: 'GET', path: '/_sim/network/accounts/nobody' }), 'not_found');
  });

  it('refuses bad posts and patches, changing nothing; a banned account cannot post', async () => {
    const world = newWorld();
    await publish(world, 'xavier', 'hello');
    const post = (handle: string, text: string) => publish(world, handle, text);
    await expectRejectedUnchanged(world, () => post('xavier', ''), 'validation_error');
    await expectRejectedUnchanged(world, () => post('xavier', 'x'.repeat(281)), 'validation_error');
    await expectRejectedUnchanged(world, () => post('bad handle', 'hi'), 'validation_error');
    await expectRejectedUnchanged(
      world,
      () => patchAccount(world, 'xavier', { followers: -1 }),
      'validation_error',
    );
    await expectRejectedUnchanged(
      world,
      () => patchAccount(world, 'xavier', { display_name: 'n'.repeat(51) }),
      'validation_error',
    );
    await expectRejectedUnchanged(
      world,
      () => patchAccount(world, 'xavier', { avatar_url: '' }),
      'validation_error',
    );
    await expectRejectedUnchanged(
      world,
      () => patchAccount(world, 'bad handle', { banned: true }),
      'validation_error',
    );
    expect((await post('xavier', 'x'.repeat(280))).success).toBe(true);
    const patched = await patchAccount(world, 'newcomer', { banned: true });
    expect(patched.account).toMatchObject({ handle: 'newcomer', banned: true, posts: [] });
    await expectRejectedUnchanged(world, () => post('NEWCOMER', 'let me in'), 'account_banned');
  });
});
