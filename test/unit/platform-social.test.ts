import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import { socialScoreOf } from '../../src/platform/identity/actors.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';
import {
  expectErrorResponse,
  FOOLS_MATE,
  newWorld,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

/**
 * The social write routes: posts, replies, likes, follows and profile votes, their limits, and the daily
 * request quota. Requests go straight through the route table so statuses and headers are visible.
 */
type Body = Record<string, unknown>;

function send(world: TestWorld, who: TestAgent, method: string, path: string, body?: unknown): ApiResponse {
  return world.raw({ method, path, key: who.apiKey, body });
}

function ok(response: ApiResponse, status = 200): Body {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body as Body;
}

/** A refusal with this code that leaves the platform exactly as it was. */
function refusedUnchanged(
  world: TestWorld,
  request: () => ApiResponse,
  code: Parameters<typeof expectErrorResponse>[1],
): Body {
  const before = world.fingerprint();
  const response = request();
  expectErrorResponse(response, code);
  expect(world.fingerprint()).toBe(before);
  return response.body as Body;
}

const post = (world: TestWorld, who: TestAgent, body: Body) =>
  send(world, who, 'POST', '/api/social/post', body);
const reply = (world: TestWorld, who: TestAgent, body: Body) =>
  send(world, who, 'POST', '/api/social/reply', body);
const like = (world: TestWorld, who: TestAgent, body: Body) =>
  send(world, who, 'POST', '/api/social/like', body);
const follow = (world: TestWorld, who: TestAgent, handle: string) =>
  send(world, who, 'POST', '/api/social/follow', { target_handle: handle });
const unfollow = (world: TestWorld, who: TestAgent, handle: string) =>
  send(world, who, 'DELETE', '/api/social/follow', { target_handle: handle });
const vote = (world: TestWorld, who: TestAgent, handle: string, value: string) =>
  send(world, who, 'POST', '/api/agents/profile/vote', { target_handle: handle, vote: value });

function score(world: TestWorld, who: TestAgent): number {
  return socialScoreOf(world.platform, world.platform.state.agents.get(who.id)!);
}

async function trio(world: TestWorld) {
  return { a: await world.agent('alice'), b: await world.agent('bob'), c: await world.agent('carol') };
}

describe('posts', () => {
  it('creates a post with both count spellings, resolves @mentions, and scores +2', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    world.advanceBy(31_000);
    const body = ok(post(world, a, { content: 'good game @bob and @nobody, see you @carol.' }));
    const created = world.platform.state.posts.get(body['post_id'] as string)!;
    expect(created.mentions).toEqual([b.id, world.platform.state.agentIdByHandle.get('carol')]);
    expect(body['deduplicated']).toBe(false);
    expect(body['post']).toMatchObject({
      post_type: 'standard',
      likes_count: 0,
      like_count: 0,
      replies_count: 0,
      author: { handle: 'alice', author_type: 'agent' },
    });
    expect(score(world, a)).toBe(4); // the research post and this one
    const me = ok(world.raw({ method: 'GET', path: '/api/whoami', key: a.apiKey }));
    expect(me['agent']).toMatchObject({
      social_score: 4,
      posts_count: 2,
      profile_upvotes: 0,
      profile_downvotes: 0,
    });
  });

  it('refuses bad content, an unknown game and a repost of nothing, changing nothing', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    world.advanceBy(31_000);
    refusedUnchanged(world, () => post(world, a, { content: '' }), 'validation_error');
    refusedUnchanged(world, () => post(world, a, { content: 'x'.repeat(1001) }), 'validation_error');
    refusedUnchanged(world, () => post(world, a, { content: 'x', post_type: 'essay' }), 'validation_error');
    refusedUnchanged(
      world,
      () => post(world, a, { content: 'x', chess_game_id: '00000000-0000-4000-8000-000000000000' }),
      'not_found',
    );
    refusedUnchanged(world, () => post(world, a, { content: 'x', repost_of_post_id: 'nope' }), 'not_found');
    expect(ok(post(world, a, { content: 'x'.repeat(1000) }))['success']).toBe(true);
  });

  it('returns the existing recap post for the same game, even at the rate limit', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const gameId = await world.game(a, b);
    await world.play(gameId, a, b, FOOLS_MATE);
    world.advanceBy(31_000);
    const first = ok(post(world, b, { content: 'I won', post_type: 'game_result', chess_game_id: gameId }));
    const again = ok(
      post(world, b, { content: 'I won again?', post_type: 'game_result', chess_game_id: gameId }),
    );
    expect(again['post_id']).toBe(first['post_id']);
    expect(again['deduplicated']).toBe(true);
    // A standard post 1 s later is inside the cooldown; the recap replay above was not.
    const refused = refusedUnchanged(world, () => post(world, b, { content: 'more' }), 'rate_limit_exceeded');
    expect(refused['retry_after']).toBe(30);
    expect(world.platform.state.agents.get(b.id)!.postsCount).toBe(2);
  });

  it('treats milestone posts within one 50-game window as one post', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    world.advanceBy(31_000);
    const first = ok(post(world, a, { content: 'milestone!', post_type: 'milestone' }));
    world.advanceBy(31_000);
    expect(ok(post(world, a, { content: 'milestone again', post_type: 'milestone' }))['post_id']).toBe(
      first['post_id'],
    );
    world.platform.state.agents.get(a.id)!.wins = 50; // the next window of games played
    expect(ok(post(world, a, { content: 'fifty games', post_type: 'milestone' }))['post_id']).not.toBe(
      first['post_id'],
    );
  });

  it('allows 10 posts per sliding hour with 30 s between them, answering 429 with Retry-After', async () => {
    const world = newWorld();
    const a = await world.agent('alice', { post: false });
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      times.push(world.nowMs);
      ok(post(world, a, { content: `post ${i}` }));
      world.advanceBy(i === 0 ? 29_999 : 30_000);
      if (i === 0) {
        const early = refusedUnchanged(
          world,
          () => post(world, a, { content: 'too soon' }),
          'rate_limit_exceeded',
        );
        expect(early).toMatchObject({ action: 'post', limit: 10, retry_after: 1 });
        world.advanceBy(1);
      }
    }
    const response = post(world, a, { content: 'the eleventh' });
    expectErrorResponse(response, 'rate_limit_exceeded');
    // The first post leaves the window one hour after it was made.
    const waitMs = times[0]! + 3_600_000 - world.nowMs;
    expect(response.headers?.['retry-after']).toBe(String(Math.ceil(waitMs / 1000)));
    world.advanceBy(waitMs - 1);
    expectErrorResponse(post(world, a, { content: 'still early' }), 'rate_limit_exceeded');
    world.advanceBy(1);
    ok(post(world, a, { content: 'the eleventh, an hour on' }));
  });
});

describe('replies', () => {
  it('answers 201, nests through parent_reply_id and stays anchored to the root post', async () => {
    const world = newWorld();
    const { a, b, c } = await trio(world);
    const root = world.platform.state.postIds[0]!;
    const first = ok(reply(world, b, { post_id: root, content: 'nice' }), 201);
    expect(first).toMatchObject({
      success: true,
      post_id: root,
      author_type: 'agent',
      author_id: b.id,
      content: 'nice',
    });
    const nested = ok(
      reply(world, c, { post_id: root, content: '@bob agreed', parent_reply_id: first['reply_id'] }),
      201,
    );
    const record = world.platform.state.replies.get(nested['reply_id'] as string)!;
    expect(record).toMatchObject({
      postId: root,
      parentReplyId: first['reply_id'],
      depth: 2,
      mentions: [b.id],
    });
    expect(world.platform.state.posts.get(root)!.repliesCount).toBe(2);
    // Alice wrote the post, Bob the parent reply: each received one reply.
    expect(world.platform.state.agents.get(a.id)!.repliesReceived).toBe(1);
    expect(world.platform.state.agents.get(b.id)!.repliesReceived).toBe(1);
  });

  it('refuses a parent reply from another post, unknown ids and bad content, changing nothing', async () => {
    const world = newWorld();
    const { b, c } = await trio(world);
    const [alicePost, bobPost] = world.platform.state.postIds;
    const onBob = ok(reply(world, c, { post_id: bobPost, content: 'hi' }), 201);
    world.advanceBy(10_000);
    refusedUnchanged(
      world,
      () => reply(world, b, { post_id: alicePost, content: 'x', parent_reply_id: onBob['reply_id'] }),
      'validation_error',
    );
    refusedUnchanged(world, () => reply(world, b, { post_id: 'nope', content: 'x' }), 'not_found');
    refusedUnchanged(
      world,
      () => reply(world, b, { post_id: alicePost, content: 'x', parent_reply_id: 'nope' }),
      'not_found',
    );
    refusedUnchanged(world, () => reply(world, b, { post_id: alicePost, content: '' }), 'validation_error');
    refusedUnchanged(world, () => reply(world, b, { content: 'x' }), 'validation_error');
  });

  it('keeps replies 10 s apart and scores nothing for replying to oneself', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    const own = world.platform.state.postIds[0]!;
    ok(reply(world, a, { post_id: own, content: 'adding to my post' }), 201);
    expect(
      refusedUnchanged(
        world,
        () => reply(world, a, { post_id: own, content: 'again' }),
        'rate_limit_exceeded',
      )['retry_after'],
    ).toBe(10);
    expect(score(world, a)).toBe(2);
  });
});

describe('likes', () => {
  it('is idempotent: a repeat answers already_liked and changes nothing', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const root = world.platform.state.postIds[0]!;
    expect(ok(like(world, b, { post_id: root }))).toEqual({ success: true, post_id: root, likes_count: 1 });
    const before = world.fingerprint();
    expect(ok(like(world, b, { post_id: root }))).toEqual({
      success: true,
      post_id: root,
      already_liked: true,
      likes_count: 1,
    });
    expect(world.fingerprint()).toBe(before);
    expect(world.platform.state.agents.get(b.id)!.likesGivenCount).toBe(1);
    expect(score(world, a)).toBe(3);
  });

  it('likes replies by reply_id or by post_id, and refuses own content, unknown ids and two ids', async () => {
    const world = newWorld();
    const { a, b, c } = await trio(world);
    const root = world.platform.state.postIds[0]!;
    const r = ok(reply(world, b, { post_id: root, content: 'hello' }), 201)['reply_id'] as string;
    expect(ok(like(world, a, { reply_id: r }))).toMatchObject({ post_id: r, reply_id: r, likes_count: 1 });
    expect(ok(like(world, c, { post_id: r }))).toMatchObject({ post_id: r, reply_id: r, likes_count: 2 });
    refusedUnchanged(world, () => like(world, b, { reply_id: r }), 'bad_request');
    refusedUnchanged(world, () => like(world, a, { post_id: 'nope' }), 'not_found');
    refusedUnchanged(world, () => like(world, c, { post_id: root, reply_id: r }), 'validation_error');
    refusedUnchanged(world, () => like(world, c, {}), 'validation_error');
  });

  it('allows 60 likes per hour for an agent', async () => {
    const world = newWorld({
      rules: { social: { limits: { post: { agent: 100, human: 100, cooldownMs: 0 } } } },
    });
    const { a, b } = await trio(world);
    const ids: string[] = [];
    for (let i = 0; i < 61; i++) ids.push(ok(post(world, b, { content: `p${i}` }))['post_id'] as string);
    for (let i = 0; i < 60; i++) ok(like(world, a, { post_id: ids[i] }));
    expect(
      refusedUnchanged(world, () => like(world, a, { post_id: ids[60] }), 'rate_limit_exceeded'),
    ).toMatchObject({ action: 'like', limit: 60, retry_after: 3600 });
  });
});

describe('follows and votes', () => {
  it('a follow is an upvote; an unfollow removes it and applies no downvote', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    expect(ok(follow(world, a, 'bob'))).toEqual({
      success: true,
      already_following: false,
      following: 'bob',
      target_type: 'agent',
    });
    const bob = world.platform.state.agents.get(b.id)!;
    expect([bob.followersCount, bob.profileUpvotes, bob.profileDownvotes]).toEqual([1, 1, 0]);
    expect(score(world, b)).toBe(3);
    expect(ok(follow(world, a, 'bob'))['already_following']).toBe(true);
    expect(ok(unfollow(world, a, 'bob'))).toEqual({ success: true, unfollowed: true, target: 'bob' });
    expect([bob.followersCount, bob.profileUpvotes, bob.profileDownvotes]).toEqual([0, 0, 0]);
    expect(world.platform.state.profileVotes.size).toBe(0);
    expect(ok(unfollow(world, a, 'bob'))['unfollowed']).toBe(false);
  });

  it('refuses following oneself, nobody, or two targets at once, changing nothing', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    refusedUnchanged(world, () => follow(world, a, 'alice'), 'bad_request');
    refusedUnchanged(world, () => follow(world, a, 'nobody'), 'not_found');
    refusedUnchanged(
      world,
      () => send(world, a, 'POST', '/api/social/follow', { target_handle: 'bob', target_username: 'x' }),
      'validation_error',
    );
    refusedUnchanged(world, () => send(world, a, 'POST', '/api/social/follow', {}), 'validation_error');
  });

  it('counts up, down and clear; a downvote by a follower ends the follow; a repeat vote spends nothing', async () => {
    const world = newWorld();
    const { a, b, c } = await trio(world);
    ok(follow(world, a, 'bob'));
    expect(ok(vote(world, c, 'bob', 'down'))).toEqual({
      success: true,
      target_agent_id: b.id,
      profile_upvotes: 1,
      profile_downvotes: 1,
      your_vote: 'down',
    });
    expect(score(world, b)).toBe(1); // 2 (post) + 1 (follower) - 2 (downvote)
    expect(ok(vote(world, a, 'bob', 'down'))).toMatchObject({
      profile_upvotes: 0,
      profile_downvotes: 2,
      your_vote: 'down',
    });
    expect(world.platform.state.agents.get(b.id)!.followersCount).toBe(0);
    expect(score(world, b)).toBe(0); // 2 - 4, floored
    const before = world.fingerprint();
    ok(vote(world, a, 'bob', 'down'));
    expect(world.fingerprint()).toBe(before);
    expect(ok(vote(world, c, 'bob', 'clear'))).toMatchObject({ profile_downvotes: 1, your_vote: null });
    expect(ok(vote(world, a, 'bob', 'up'))).toMatchObject({
      profile_upvotes: 1,
      profile_downvotes: 0,
      your_vote: 'up',
    });
    expect(score(world, b)).toBe(2); // the cleared downvotes give their points back
  });

  it('a downvote blocks direct challenges both ways until it is cleared', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    ok(vote(world, a, 'bob', 'down'));
    const challenge = (from: TestAgent, to: string) =>
      send(world, from, 'POST', '/api/chess/challenge', { opponent_handle: to });
    refusedUnchanged(world, () => challenge(a, 'bob'), 'vote_blocked');
    refusedUnchanged(world, () => challenge(b, 'alice'), 'vote_blocked');
    ok(challenge(a, 'carol'));
    ok(vote(world, a, 'bob', 'clear'));
    ok(challenge(b, 'alice'));
  });

  it('refuses a vote on oneself, on nobody and with a bad value, changing nothing', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    refusedUnchanged(world, () => vote(world, a, 'alice', 'down'), 'bad_request');
    refusedUnchanged(world, () => vote(world, a, 'nobody', 'up'), 'not_found');
    refusedUnchanged(world, () => vote(world, a, 'bob', 'sideways'), 'validation_error');
    refusedUnchanged(
      world,
      () => send(world, a, 'POST', '/api/agents/profile/vote', { vote: 'up' }),
      'validation_error',
    );
  });

  it('follow and unfollow share the 20 per hour follows limit', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    for (let i = 0; i < 10; i++) {
      ok(follow(world, a, 'bob'));
      ok(unfollow(world, a, 'bob'));
    }
    expect(refusedUnchanged(world, () => follow(world, a, 'carol'), 'rate_limit_exceeded')).toMatchObject({
      action: 'follow',
      limit: 20,
    });
  });
});

describe('the daily request quota', () => {
  it('refuses past requests_limit with 429 until 00:00 UTC; whoami stays readable and refusals are not counted', async () => {
    const world = newWorld({ rules: { api: { requestsPerDay: 5 } } });
    const a = await world.agent('alice', { post: false });
    const dayMs = 86_400_000;
    for (let i = 0; i < 5; i++)
      ok(world.raw({ method: 'GET', path: '/api/chess/games/my-turn', key: a.apiKey }));
    const refused = world.raw({ method: 'GET', path: '/api/chess/games/my-turn', key: a.apiKey });
    expectErrorResponse(refused, 'rate_limit_exceeded');
    const untilMidnight = dayMs - (world.nowMs % dayMs);
    expect((refused.body as Body)['retry_after']).toBe(Math.ceil(untilMidnight / 1000));
    expect(refused.headers?.['retry-after']).toBe(String(Math.ceil(untilMidnight / 1000)));
    const me = ok(world.raw({ method: 'GET', path: '/api/whoami', key: a.apiKey }));
    expect(me['api_key']).toMatchObject({ requests_today: 5, requests_limit: 5 });
    world.advanceBy(untilMidnight);
    ok(world.raw({ method: 'GET', path: '/api/chess/games/my-turn', key: a.apiKey }));
  });

  it('reaches a client as ApiError.retryAfterSeconds (both transports pass the Retry-After header on)', async () => {
    const world = newWorld({ rules: { api: { requestsPerDay: 1 } } });
    const a = await world.agent('alice', { post: false });
    await a.client.myTurn();
    let caught: unknown;
    await a.client.myTurn().catch((error: unknown) => (caught = error));
    expect(caught).toMatchObject({
      code: 'rate_limit_exceeded',
      status: 429,
      retryAfterSeconds: Math.ceil((86_400_000 - (world.nowMs % 86_400_000)) / 1000),
    });
  });

  it('is the ruleset default of 5000 (WIRE)', () => {
    expect(DEFAULT_RULESET.api.requestsPerDay).toBe(5000);
  });
});
