import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerHuman } from '../../src/platform/identity/humans.js';
import { nearestRank, scorePopulation, tierRanges } from '../../src/rules/social/activity-rank.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';
import {
  expectApiError,
  expectRejectedUnchanged,
  FOOLS_MATE,
  newWorld,
  START_MS,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

const HOUR_MS = 60 * 60_000;
const POST_GAP_MS = 31_000; // just over the 30 s post cooldown
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

type Json = Record<string, any>;

async function get(world: TestWorld, path: string, query: Json = {}, key?: string): Promise<Json> {
  return world.client(key).call<Json>('GET', path, { query });
}

async function postAgain(world: TestWorld, who: TestAgent, content: string): Promise<string> {
  world.advanceBy(POST_GAP_MS);
  return (await who.client.post(content)).post_id;
}

async function firstPostId(world: TestWorld, who: TestAgent): Promise<string> {
  const profile = await get(world, `/api/agents/${who.handle}`);
  return profile['recent_posts'].at(-1).id;
}

const handles = (rows: Json[]) => rows.map((r) => r['handle']);

/**
 * alice: 1 post, 2 points; bob: 2 posts + a like = 5; carol: 1 post = 2; dave: no post = 0.
 * Tags and bios give search and tag filters something to tell apart.
 */
async function directoryWorld() {
  const world = newWorld();
  const alice = await world.agent('alice', { bio: 'Plays the Sicilian', tags: ['tactical', 'Endgame'] });
  const bob = await world.agent('bob', { tags: ['tactical'] });
  const carol = await world.agent('carol', { bio: 'likes endgames' });
  const dave = await world.agent('dave', { post: false });
  const bobPost = await postAgain(world, bob, 'second post');
  await carol.client.like({ post_id: bobPost });
  return { world, alice, bob, carol, dave };
}

describe('GET /api/agents', () => {
  it('lists every agent by social score, then handle, with the row fields', async () => {
    const { world, alice } = await directoryWorld();
    const list = await get(world, '/api/agents');
    expect(handles(list['agents'])).toEqual(['bob', 'alice', 'carol', 'dave']);
    expect(list['agents'].map((r: Json) => r['social_score'])).toEqual([5, 2, 2, 0]);
    expect(list).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(list['agents'][1]).toEqual({
      id: alice.id,
      handle: 'alice',
      bio: 'Plays the Sicilian',
      tags: ['tactical', 'Endgame'],
      social_score: 2,
      followers_count: 0,
      following_count: 0,
      posts_count: 1,
      verified: false,
      chess_elo: 1200,
      created_at: new Date(START_MS).toISOString(),
    });
  });

  it('searches handle and bio without regard to case, and never tags', async () => {
    const { world } = await directoryWorld();
    expect(handles((await get(world, '/api/agents', { search: 'SICIL' }))['agents'])).toEqual(['alice']);
    expect(handles((await get(world, '/api/agents', { search: 'endgame' }))['agents'])).toEqual(['carol']);
    expect(handles((await get(world, '/api/agents', { search: 'O' }))['agents'])).toEqual(['bob', 'carol']);
    const none = await get(world, '/api/agents', { search: 'zugzwang' });
    expect(none).toMatchObject({ agents: [], total: 0 });
  });

  it('requires every repeated tag (AND), case-insensitively', async () => {
    const { world } = await directoryWorld();
    expect(handles((await get(world, '/api/agents', { tag: 'TACTICAL' }))['agents'])).toEqual([
      'bob',
      'alice',
    ]);
    expect(handles((await get(world, '/api/agents', { tag: ['tactical', 'endgame'] }))['agents'])).toEqual([
      'alice',
    ]);
    expect(
      handles((await world.client().call<Json>('GET', '/api/agents?tag=tactical&tag=endgame'))['agents']),
    ).toEqual(['alice']);
    expect((await get(world, '/api/agents', { tag: ['tactical', 'blitz'] }))['total']).toBe(0);
    expect(handles((await get(world, '/api/agents', { tag: 'tactical', search: 'bo' }))['agents'])).toEqual([
      'bob',
    ]);
  });

  it('pages with limit and offset; total counts the whole filtered list', async () => {
    const { world } = await directoryWorld();
    const page = await get(world, '/api/agents', { limit: '2', offset: '1' });
    expect(handles(page['agents'])).toEqual(['alice', 'carol']);
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect((await get(world, '/api/agents', { offset: 4 }))['agents']).toEqual([]);
  });

  it('adds chess stats only with stats=true', async () => {
    const { world, alice, bob } = await directoryWorld();
    await world.play(await world.game(alice, bob), alice, bob, FOOLS_MATE);
    const plain = (await get(world, '/api/agents'))['agents'].find((r: Json) => r['handle'] === 'bob');
    expect(plain).not.toHaveProperty('chess_wins');
    const rows = (await get(world, '/api/agents', { stats: 'true' }))['agents'];
    const bobRow = rows.find((r: Json) => r['handle'] === 'bob');
    const aliceRow = rows.find((r: Json) => r['handle'] === 'alice');
    expect(bobRow).toMatchObject({
      chess_games_played: 1,
      chess_wins: 1,
      chess_losses: 0,
      chess_draws: 0,
      social_score: 8,
    });
    expect(bobRow['chess_peak_elo']).toBe(bobRow['chess_elo']);
    expect(bobRow['chess_elo']).toBeGreaterThan(1200);
    expect(aliceRow).toMatchObject({
      chess_games_played: 1,
      chess_wins: 0,
      chess_losses: 1,
      chess_peak_elo: 1200,
    });
    expect(aliceRow['chess_elo']).toBeLessThan(1200);
  });

  it('active_only keeps agents seen (a keyed request, else registration) within the last 24 virtual hours', async () => {
    const { world, alice, dave } = await directoryWorld();
    expect((await get(world, '/api/agents', { active_only: true }))['total']).toBe(4); // dave: registered just now
    world.advanceBy(24 * HOUR_MS - 2 * POST_GAP_MS);
    await alice.client.whoami();
    world.advanceBy(2 * POST_GAP_MS); // bob's second post and carol's like on it are now exactly 24 h old
    expect(handles((await get(world, '/api/agents', { active_only: 'true' }))['agents'])).toEqual([
      'bob',
      'alice',
      'carol',
    ]);
    world.advanceBy(1);
    expect(handles((await get(world, '/api/agents', { active_only: true }))['agents'])).toEqual(['alice']);
    await dave.client.whoami();
    const fresh = await world.agent('erin', { post: false });
    expect(handles((await get(world, '/api/agents', { active_only: true }))['agents'])).toEqual([
      'alice',
      'dave',
      'erin',
    ]);
    expect(fresh.handle).toBe('erin');
    expect((await get(world, '/api/agents', { active_only: false }))['total']).toBe(5);
  });

  it('refuses bad query values with validation_error and no state change; clamps a limit over the ceiling', async () => {
    const { world } = await directoryWorld();
    for (const query of [
      { limit: '0' },
      { offset: '-1' },
      { active_only: 'maybe' },
      { stats: 'yes' },
      { limit: 'ten' },
    ]) {
      await expectRejectedUnchanged(world, () => get(world, '/api/agents', query), 'validation_error');
    }
    expect(
      (await get(world, '/api/agents', { limit: '101' }))['limit'],
      'a limit over the ceiling is clamped (docs/rules.md, Paging)',
    ).toBe(100);
  });
});

/** alice posts twice; bob follows her and likes her second post; carol downvotes her. */
async function profileWorld() {
  const world = newWorld();
  const alice = await world.agent('alice', { bio: 'hello', tags: ['positional'] });
  const bob = await world.agent('bob');
  const carol = await world.agent('carol');
  const second = await postAgain(world, alice, 'my second post');
  await bob.client.follow({ target_handle: 'alice' });
  await bob.client.like({ post_id: second });
  await carol.client.vote({ target_handle: 'alice', vote: 'down' });
  return { world, alice, bob, carol, second };
}

describe('GET /api/agents/{handle}', () => {
  it('shows the WIRE §3 profile with exact values after follows, likes and a downvote', async () => {
    const { world, alice } = await profileWorld();
    const r = await get(world, '/api/agents/alice');
    const agent = world.platform.state.agents.get(alice.id)!;
    expect(r['profile']).toEqual({
      id: alice.id,
      handle: 'alice',
      bio: 'hello',
      avatar_url: null,
      banner_url: null,
      wallet_address: agent.walletAddress,
      social_score: 2 * 2 + 1 + 1 - 2, // two posts, a like and a follow received, one downvote
      followers_count: 1,
      following_count: 0,
      posts_count: 2,
      profile_upvotes: 1,
      profile_downvotes: 1,
      verified: false,
      verified_at: null,
      twitter_handle: null,
      github_repo_url: null,
      tags: ['positional'],
      chess_elo: 1200,
      chess_peak_elo: 1200,
      chess_games_played: 0,
      chess_wins: 0,
      chess_losses: 0,
      chess_draws: 0,
      social_tier: 'newcomer',
    });
  });

  it('lists the newest posts first, with has_liked for the caller', async () => {
    const { world, bob, carol, second } = await profileWorld();
    const asBob = await get(world, '/api/agents/alice', {}, bob.apiKey);
    expect(asBob['recent_posts']).toHaveLength(2);
    expect(asBob['recent_posts'][0]).toEqual({
      id: second,
      content: 'my second post',
      post_type: 'standard',
      created_at: new Date(START_MS + POST_GAP_MS).toISOString(),
      has_liked: true,
      likes_count: 1,
      replies_count: 0,
    });
    expect(asBob['recent_posts'][1]).toMatchObject({
      content: 'hello from alice',
      has_liked: false,
      likes_count: 0,
    });
    expect((await get(world, '/api/agents/alice', {}, carol.apiKey))['recent_posts'][0]['has_liked']).toBe(
      false,
    );
    expect((await get(world, '/api/agents/alice'))['recent_posts'][0]['has_liked']).toBe(false);
  });

  it('keeps only the newest 10 posts', async () => {
    const world = newWorld();
    const zed = await world.agent('zed');
    for (let i = 2; i <= 12; i++) {
      world.advanceBy(7 * 60_000); // 12 posts spread past the 10-per-hour limit
      await zed.client.post(`post ${i}`);
    }
    const posts = (await get(world, '/api/agents/zed'))['recent_posts'];
    expect(posts.map((p: Json) => p['content'])).toEqual(
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((i) => `post ${i}`),
    );
    expect((await get(world, '/api/agents/zed'))['profile']['posts_count']).toBe(12);
  });

  it("answers your_vote only when a key is sent: the caller's standing vote, or null", async () => {
    const { world, alice, bob, carol } = await profileWorld();
    expect(await get(world, '/api/agents/alice')).not.toHaveProperty('your_vote');
    expect((await get(world, '/api/agents/alice', {}, carol.apiKey))['your_vote']).toBe('down');
    expect((await get(world, '/api/agents/alice', {}, bob.apiKey))['your_vote']).toBe('up'); // the follow's upvote
    expect((await get(world, '/api/agents/alice', {}, alice.apiKey))['your_vote']).toBeNull();
    await carol.client.vote({ target_handle: 'alice', vote: 'clear' });
    const cleared = await get(world, '/api/agents/alice', {}, carol.apiKey);
    expect(cleared['your_vote']).toBeNull();
    expect(cleared['profile']).toMatchObject({ profile_downvotes: 0, social_score: 6 });
    await expectApiError(
      world.client('moltchess_not_a_key').call('GET', '/api/agents/alice'),
      'invalid_api_key',
    );
  });

  it('lets a human read a profile and see its own vote', async () => {
    const { world } = await profileWorld();
    const { apiKey } = registerHuman(world.platform, { username: 'hannah' });
    await world.client(apiKey).vote({ target_handle: 'alice', vote: 'up' });
    const r = await get(world, '/api/agents/alice', {}, apiKey);
    expect(r['your_vote']).toBe('up');
    expect(r['profile']['profile_upvotes']).toBe(2);
  });

  it('finds the agent by UUID too, and answers not_found otherwise', async () => {
    const { world, alice } = await profileWorld();
    const byId = await get(world, `/api/agents/${alice.id}`);
    expect(byId).toEqual(await get(world, '/api/agents/ALICE'));
    expect(byId['profile']['handle']).toBe('alice');
    await expectRejectedUnchanged(world, () => get(world, '/api/agents/nobody'), 'not_found');
    await expectRejectedUnchanged(world, () => get(world, `/api/agents/${UNKNOWN_UUID}`), 'not_found');
  });

  it('floors the score at 0 and makes later gains pay off the downvotes first', async () => {
    const world = newWorld();
    const dan = await world.agent('dan');
    const voters = [await world.agent('vic'), await world.agent('val')];
    for (const v of voters) await v.client.vote({ target_handle: 'dan', vote: 'down' });
    const floored = (await get(world, '/api/agents/dan'))['profile'];
    expect(floored).toMatchObject({
      posts_count: 1,
      profile_downvotes: 2,
      social_score: 0,
      social_tier: 'newcomer',
    }); // 2 - 4
    const postId = await firstPostId(world, dan);
    const fans = [await world.agent('fan1'), await world.agent('fan2'), await world.agent('fan3')];
    await fans[0]!.client.like({ post_id: postId });
    await fans[1]!.client.like({ post_id: postId });
    expect((await get(world, '/api/agents/dan'))['profile']['social_score']).toBe(0); // 2 + 2 - 4
    await fans[2]!.client.like({ post_id: postId });
    expect((await get(world, '/api/agents/dan'))['profile']['social_score']).toBe(1); // 2 + 3 - 4
  });

  it('counts a win (+3) in the score and shows the chess stats', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const bob = await world.agent('bob');
    await world.play(await world.game(alice, bob), alice, bob, FOOLS_MATE);
    const b = (await get(world, '/api/agents/bob'))['profile'];
    expect(b).toMatchObject({ social_score: 2 + 3, chess_games_played: 1, chess_wins: 1, chess_losses: 0 });
    expect(b['chess_peak_elo']).toBe(b['chess_elo']);
    const a = (await get(world, '/api/agents/alice'))['profile'];
    expect(a).toMatchObject({
      social_score: 2,
      chess_games_played: 1,
      chess_losses: 1,
      chess_peak_elo: 1200,
    });
  });
});

/**
 * alice: 1 post, 2 tournaments created -> social 2, content 0.
 * bob: 1 post, 3 likes on it and 1 on a reply -> social 6, content 4.
 * carol: 3 posts, 1 reply received -> social 7, content 1.
 * dave: 1 post -> social 2, content 0.
 */
async function leaderboardWorld() {
  const world = newWorld({ rules: { tournaments: { creatorMinGames: 0 } } });
  const [alice, bob, carol, dave] = [
    await world.agent('alice'),
    await world.agent('bob'),
    await world.agent('carol'),
    await world.agent('dave'),
  ];
  await alice.client.createTournament({ name: 'Alice Open', max_participants: 8 });
  await alice.client.createTournament({ name: 'Alice Cup', max_participants: 8 });
  const bobPost = await firstPostId(world, bob);
  for (const fan of [alice, carol, dave]) await fan.client.like({ post_id: bobPost });
  const carolPost = await firstPostId(world, carol);
  await postAgain(world, carol, 'carol two');
  await postAgain(world, carol, 'carol three');
  const reply = await bob.client.reply({ post_id: carolPost, content: 'nice one' });
  await dave.client.like({ reply_id: reply.reply_id });
  return { world, alice, bob, carol, dave };
}

describe('GET /api/agents/leaderboard', () => {
  it('ranks by social score by default, with the activity row fields', async () => {
    const { world, bob } = await leaderboardWorld();
    const r = await get(world, '/api/agents/leaderboard');
    expect(handles(r['leaderboard'])).toEqual(['carol', 'bob', 'alice', 'dave']);
    expect(r['leaderboard'].map((row: Json) => row['rank'])).toEqual([1, 2, 3, 4]);
    expect(r).toMatchObject({ total: 4, limit: 50, offset: 0, sort: 'social_score' });
    expect(r['leaderboard'][1]).toEqual({
      rank: 2,
      agent: { id: bob.id, handle: 'bob' },
      handle: 'bob',
      social_score: 6,
      content_score: 4,
      likes_received: 4,
      replies_received: 0,
      posts_count: 1,
      followers_count: 0,
      tournaments_created: 0,
    });
  });

  it('ranks by content performance, then social score, then handle', async () => {
    const { world } = await leaderboardWorld();
    const r = await get(world, '/api/agents/leaderboard', { sort: 'content' });
    expect(handles(r['leaderboard'])).toEqual(['bob', 'carol', 'alice', 'dave']);
    expect(r['leaderboard'].map((row: Json) => row['content_score'])).toEqual([4, 1, 0, 0]);
    expect(r['leaderboard'][1]).toMatchObject({ replies_received: 1, likes_received: 0 });
  });

  it('ranks by tournaments created, counted from the tournaments table', async () => {
    const { world } = await leaderboardWorld();
    const r = await get(world, '/api/agents/leaderboard', { sort: 'tournaments_created' });
    expect(handles(r['leaderboard'])).toEqual(['alice', 'carol', 'bob', 'dave']);
    expect(r['leaderboard'].map((row: Json) => row['tournaments_created'])).toEqual([2, 0, 0, 0]);
  });

  it('pages with ranks that stay positions in the whole order', async () => {
    const { world } = await leaderboardWorld();
    const r = await get(world, '/api/agents/leaderboard', { limit: 2, offset: 1 });
    expect(r['leaderboard'].map((row: Json) => [row['rank'], row['handle']])).toEqual([
      [2, 'bob'],
      [3, 'alice'],
    ]);
    expect(r).toMatchObject({ total: 4, limit: 2, offset: 1 });
  });

  it('is not shadowed by an agent named "leaderboard"', async () => {
    const { world } = await leaderboardWorld();
    const named = await world.agent('leaderboard');
    const r = await get(world, '/api/agents/leaderboard');
    expect(r).not.toHaveProperty('profile');
    expect(r['total']).toBe(5);
    expect((await get(world, `/api/agents/${named.id}`))['profile']['handle']).toBe('leaderboard');
  });

  it('refuses a bad sort or page with validation_error and no state change; clamps a limit over the ceiling', async () => {
    const { world } = await leaderboardWorld();
    for (const query of [{ sort: 'bogus' }, { sort: 'elo' }, { limit: 0 }, { offset: -1 }]) {
      await expectRejectedUnchanged(
        world,
        () => get(world, '/api/agents/leaderboard', query),
        'validation_error',
      );
    }
    expect(
      (await get(world, '/api/agents/leaderboard', { limit: 101 }))['limit'],
      'a limit over the ceiling is clamped (docs/rules.md, Paging)',
    ).toBe(100);
  });
});

describe('GET /api/system/social-score-boundaries', () => {
  it('serves the default tiers, points and floor, and an empty population', async () => {
    const r = await get(newWorld(), '/api/system/social-score-boundaries');
    expect(r).toEqual({
      tiers: [
        { name: 'newcomer', min_score: 0, max_score: 9 },
        { name: 'active', min_score: 10, max_score: 49 },
        { name: 'established', min_score: 50, max_score: 199 },
        { name: 'influential', min_score: 200, max_score: 999 },
        { name: 'legendary', min_score: 1000, max_score: null },
      ],
      points: {
        post: 2,
        like_received: 1,
        reply_received: 1,
        follow_received: 1,
        win: 3,
        draw: 1,
        downvote_received: -2,
      },
      floor: 0,
      population: { agents: 0, min: null, max: null, median: null, p90: null, p99: null },
    });
  });

  it('reports the spread of current agent scores with nearest-rank percentiles', async () => {
    const world = newWorld();
    const agents = [
      await world.agent('a01', { post: false }),
      await world.agent('a02'),
      await world.agent('a03'),
      await world.agent('a04'),
    ];
    await postAgain(world, agents[3]!, 'again'); // a04: 4
    await agents[1]!.client.follow({ target_handle: 'a04' }); // a04: 5
    await world.agent('a05'); // 2
    // scores ascending: 0, 2, 2, 2, 5 -> median rank ceil(2.5) = 3, p90 and p99 rank 5
    const pop = (await get(world, '/api/system/social-score-boundaries'))['population'];
    expect(pop).toEqual({ agents: 5, min: 0, max: 5, median: 2, p90: 5, p99: 5 });
  });

  it('follows a ruleset that changes tiers and points', async () => {
    const tiers = [
      { name: 'bronze', minScore: 0 },
      { name: 'silver', minScore: 5 },
    ];
    const world = newWorld({ rules: { social: { tiers, score: { post: 5, downvoteReceived: 3 } } } });
    await world.agent('solo');
    const r = await get(world, '/api/system/social-score-boundaries');
    expect(r['tiers']).toEqual([
      { name: 'bronze', min_score: 0, max_score: 4 },
      { name: 'silver', min_score: 5, max_score: null },
    ]);
    expect(r['points']).toMatchObject({ post: 5, downvote_received: -3 });
    expect((await get(world, '/api/agents/solo'))['profile']).toMatchObject({
      social_score: 5,
      social_tier: 'silver',
    });
  });
});

describe('GET /api/health', () => {
  it('answers ok with virtual time and cheap counts', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const bob = await world.agent('bob');
    registerHuman(world.platform, { username: 'hannah' });
    const gameId = await world.game(alice, bob);
    world.advanceBy(90_000);
    expect(await get(world, '/api/health')).toEqual({
      status: 'ok',
      time: new Date(START_MS + 90_000).toISOString(),
      agents: 2,
      humans: 1,
      games_active: 1,
      posts: 2,
    });
    await world.play(gameId, alice, bob, FOOLS_MATE);
    expect((await get(world, '/api/health'))['games_active']).toBe(0);
  });
});

describe('whoami shows the profile vote counters', () => {
  it('includes profile_upvotes and profile_downvotes', async () => {
    const { alice } = await profileWorld();
    expect((await alice.client.agentWhoami()).agent).toMatchObject({
      profile_upvotes: 1,
      profile_downvotes: 1,
    });
  });
});

describe('pure rules: nearest rank and tier ranges', () => {
  it('nearestRank is the smallest observed value with at least pct% of the population at or below it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 100 }),
        (scores, pct) => {
          const ascending = [...scores].sort((a, b) => a - b);
          const value = nearestRank(ascending, pct)!;
          const share = (v: number) => (ascending.filter((s) => s <= v).length / ascending.length) * 100;
          expect(ascending).toContain(value);
          expect(share(value)).toBeGreaterThanOrEqual(pct);
          const smaller = ascending.filter((s) => s < value);
          if (smaller.length > 0) expect(share(smaller.at(-1)!)).toBeLessThan(pct);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('scorePopulation does not depend on input order and brackets median and p90 by min and max', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 60 }), (scores) => {
        const pop = scorePopulation(scores);
        expect(scorePopulation([...scores].reverse())).toEqual(pop);
        expect(pop).toMatchObject({
          agents: scores.length,
          min: Math.min(...scores),
          max: Math.max(...scores),
        });
        expect(pop.min!).toBeLessThanOrEqual(pop.median!);
        expect(pop.median!).toBeLessThanOrEqual(pop.p90!);
        expect(pop.p90!).toBeLessThanOrEqual(pop.p99!);
        expect(pop.p99!).toBeLessThanOrEqual(pop.max!);
      }),
      { numRuns: 200 },
    );
  });

  it('tier ranges tile the scores with no gap or overlap', () => {
    const ranges = tierRanges(DEFAULT_RULESET.social.tiers);
    expect(ranges[0]!.minScore).toBe(0);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.minScore).toBe(ranges[i - 1]!.maxScore! + 1);
    expect(ranges.at(-1)!.maxScore).toBeNull();
  });
});
