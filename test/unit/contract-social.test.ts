import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Feed from '../../src/api/contract/feed.js';
import { codesOf, type RouteContract } from '../../src/api/contract/define.js';
import { CONTRACTS as ALL_CONTRACTS } from '../../src/api/contract/index.js';
import { addWireFormats } from '../../src/api/contract/formats.js';
import * as Search from '../../src/api/contract/search.js';
import * as Social from '../../src/api/contract/social.js';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { ROUTES } from '../../src/api/routes/index.js';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import { addHuman, type Caller } from '../helpers/feed-fixture.js';
import { FOOLS_MATE, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * The Social, Feed and Search contracts against what their routes answer: every route is called through
 * the in-process transport with data present and its body checked by ajv against the contract's response
 * schema (strict: no field the contract lacks), and every refusal's code must be one the contract names.
 */
const ajv = new Ajv({ strict: false });
addWireFormats(ajv);

type Body = Record<string, any>;
interface Call {
  who?: Caller | null;
  params?: Record<string, string>;
  query?: TransportRequest['query'];
  body?: unknown;
}

const exercised = new Set<RouteContract>();

function send(world: TestWorld, contract: RouteContract, call: Call): Promise<TransportResponse> {
  const path = contract.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(call.params?.[name] ?? ''),
  );
  const request: TransportRequest = { method: contract.method, path, query: call.query, body: call.body };
  if (call.who) request.apiKey = call.who.apiKey;
  return world.transport.send(request);
}

/** A success: the contract's status, and a body its response schema accepts. */
async function answers(world: TestWorld, contract: RouteContract, call: Call): Promise<Body> {
  const response = await send(world, contract, call);
  expect(response.status, JSON.stringify(response.body)).toBe(contract.status ?? 200);
  const validate = ajv.compile(contract.response);
  expect(
    validate(response.body),
    `${contract.method} ${contract.path}: ${ajv.errorsText(validate.errors)}`,
  ).toBe(true);
  exercised.add(contract);
  return response.body as Body;
}

/** A refusal with `code`, which the contract (its own errors or the dispatcher's) must name. */
async function refuses(
  world: TestWorld,
  contract: RouteContract,
  call: Call,
  code: ErrorCode,
): Promise<void> {
  const response = await send(world, contract, call);
  expect((response.body as Body)['error'], JSON.stringify(response.body)).toBe(code);
  expect(response.status).toBe(HTTP_STATUS_BY_CODE[code]);
  expect(codesOf(contract), `${contract.method} ${contract.path} does not name ${code}`).toContain(code);
}

/** Social writes are spaced past every cooldown (posts 30 s, replies 10 s). */
const later = (world: TestWorld) => world.advanceBy(31_000);

interface Scene {
  world: TestWorld;
  a: TestAgent;
  b: TestAgent;
  dave: Caller;
  gameId: string;
}

/** alice and bob have played a game; carol comes in later; dave is a human. */
async function scene(): Promise<Scene> {
  const world = newWorld({ seed: 'contract-social' });
  const a = await world.agent('alice');
  const b = await world.agent('bob');
  await world.agent('carol');
  const gameId = await world.game(a, b);
  await world.play(gameId, a, b, FOOLS_MATE);
  return { world, a, b, dave: addHuman(world, 'dave'), gameId };
}

/** The contract groups this file answers; test/unit/contract-groups.test.ts checks every group is some file's. */
const ANSWERED_GROUPS: readonly string[] = ['Social', 'Feed', 'Search'];

describe('Social contracts', () => {
  let s: Scene;
  let alicePost: string;
  let bobReply: string;
  beforeAll(async () => {
    s = await scene();
  });

  it('POST /api/social/post', async () => {
    later(s.world);
    const body = await answers(s.world, Social.createPost, {
      who: s.a,
      body: { content: 'lost in four, @bob and @dave', post_type: 'game_result', chess_game_id: s.gameId },
    });
    alicePost = body['post_id'];
    await refuses(
      s.world,
      Social.createPost,
      { who: s.a, body: { content: 'too soon' } },
      'rate_limit_exceeded',
    );
    await refuses(
      s.world,
      Social.createPost,
      { who: s.a, body: { content: 'x'.repeat(1001) } },
      'validation_error',
    );
    await refuses(
      s.world,
      Social.createPost,
      { who: s.a, body: { content: 'about nothing', chess_game_id: 'no-such-game' } },
      'not_found',
    );
  });

  it('POST /api/social/reply (201)', async () => {
    later(s.world);
    const body = await answers(s.world, Social.createReply, {
      who: s.b,
      body: { post_id: alicePost, content: 'well played, @alice' },
    });
    bobReply = body['reply_id'];
    expect(body).toMatchObject({ post_id: alicePost, parent_reply_id: null, author_type: 'agent' });
    later(s.world);
    await answers(s.world, Social.createReply, {
      who: s.dave,
      body: { post_id: alicePost, parent_reply_id: bobReply, content: 'a human agrees' },
    });
    await refuses(
      s.world,
      Social.createReply,
      { who: s.b, body: { post_id: 'no-such-post', content: 'hello?' } },
      'not_found',
    );
  });

  it('POST /api/social/like (first and repeated, post and reply)', async () => {
    await answers(s.world, Social.like, { who: s.b, body: { post_id: alicePost } });
    await answers(s.world, Social.like, { who: s.a, body: { reply_id: bobReply } });
    const repeat = await answers(s.world, Social.like, { who: s.a, body: { reply_id: bobReply } });
    expect(repeat).toMatchObject({ reply_id: bobReply, already_liked: true, likes_count: 1 });
    await refuses(s.world, Social.like, { who: s.a, body: { post_id: alicePost } }, 'bad_request');
    await refuses(s.world, Social.like, { who: s.a, body: {} }, 'validation_error');
  });

  it('POST /api/social/follow (an agent and a human)', async () => {
    await answers(s.world, Social.follow, { who: s.a, body: { target_handle: 'bob' } });
    expect(
      await answers(s.world, Social.follow, { who: s.a, body: { target_username: 'dave' } }),
    ).toMatchObject({ target_type: 'human' });
    await refuses(s.world, Social.follow, { who: s.a, body: { target_handle: 'alice' } }, 'bad_request');
    await refuses(s.world, Social.follow, { who: s.a, body: { target_handle: 'nobody' } }, 'not_found');
  });

  it('DELETE /api/social/follow', async () => {
    expect(
      await answers(s.world, Social.unfollow, { who: s.a, body: { target_username: 'dave' } }),
    ).toMatchObject({ unfollowed: true });
    await refuses(s.world, Social.unfollow, { who: s.a, body: { target_handle: 'nobody' } }, 'not_found');
    await refuses(
      s.world,
      Social.unfollow,
      { who: s.a, body: { target_handle: 'bob', target_username: 'dave' } },
      'validation_error',
    );
  });

  it('GET /api/feed', async () => {
    const body = await answers(s.world, Feed.feed, { who: s.b, query: { sort: 'top', limit: 5 } });
    expect(body['posts'].length).toBeGreaterThan(0);
    await refuses(s.world, Feed.feed, { query: { sort: 'hot' } }, 'validation_error');
  });

  it('GET /api/feed/posts/{id}', async () => {
    const body = await answers(s.world, Feed.feedPost, { who: s.dave, params: { id: alicePost } });
    expect(body['post']['replies']).toHaveLength(2);
    await refuses(s.world, Feed.feedPost, { params: { id: 'no-such-post' } }, 'not_found');
  });

  it('GET /api/feed/unseen', async () => {
    const body = await answers(s.world, Feed.unseen, { who: s.dave });
    expect(body['count']).toBeGreaterThan(0);
    await refuses(s.world, Feed.unseen, {}, 'authentication_required');
  });

  it('GET /api/feed/notifications (every kind of row, game preview included)', async () => {
    later(s.world);
    await answers(s.world, Social.createPost, { who: s.b, body: { content: 'rematch, @alice?' } });
    const body = await answers(s.world, Feed.notifications, {
      who: s.a,
      query: { types: ['mentions', 'replies_to_my_posts', 'game_posts'] },
    });
    expect(body['mentions'].map((row: Body) => 'reply_id' in row)).toEqual([false, true]); // a post's mention, then a reply's
    expect(body['replies_to_my_posts']).toHaveLength(2);
    const forBob = await answers(s.world, Feed.notifications, { who: s.b });
    expect(forBob['game_posts'][0]['post']['game_preview']).toEqual({
      move_count: 4,
      result: '0-1',
      status: 'completed',
    });
    await refuses(
      s.world,
      Feed.notifications,
      { who: s.a, query: { since: 'yesterday' } },
      'validation_error',
    );
    await refuses(s.world, Feed.notifications, { who: s.a, query: { types: ['likes'] } }, 'validation_error');
  });

  it('GET /api/activity', async () => {
    const body = await answers(s.world, Feed.activity, { who: s.a });
    expect(body['activities'].length).toBeGreaterThan(5);
    const unknown = await answers(s.world, Feed.activity, { who: s.a, query: { type: 'game_won' } });
    expect(unknown['activities']).toEqual([]); // no list is published: an unknown type matches nothing
    await refuses(
      s.world,
      Feed.activity,
      { who: s.a, query: { type: ['liked', 'followed'] } },
      'validation_error',
    );
  });

  it('GET /api/search/posts', async () => {
    expect((await answers(s.world, Search.searchPosts, { query: { q: 'lost' } }))['total']).toBe(1);
    await refuses(s.world, Search.searchPosts, { query: {} }, 'validation_error');
  });

  it('GET /api/search/replies', async () => {
    expect(
      (
        await answers(s.world, Search.searchReplies, { who: s.a, query: { q: 'played', post_id: alicePost } })
      )['total'],
    ).toBe(1);
    await refuses(
      s.world,
      Search.searchReplies,
      { query: { q: 'played', post_id: 'no-such-post' } },
      'not_found',
    );
  });

  it('GET /api/search/replies/thread', async () => {
    expect(
      (await answers(s.world, Search.searchThread, { query: { q: 'human', parent_reply_id: bobReply } }))[
        'total'
      ],
    ).toBe(1);
    await refuses(
      s.world,
      Search.searchThread,
      { query: { q: 'human', parent_reply_id: 'no-such-reply' } },
      'not_found',
    );
  });

  it('every route of the three groups is served by the route table and was checked above', () => {
    const contracts = ALL_CONTRACTS.filter((contract) => ANSWERED_GROUPS.includes(contract.group));
    expect(contracts.length).toBe(
      Social.SOCIAL_ROUTES.length + Feed.FEED_ROUTES.length + Search.SEARCH_ROUTES.length,
    );
    for (const contract of contracts) {
      expect(
        ROUTES.filter((route) => route.contract === contract),
        `${contract.method} ${contract.path}`,
      ).toHaveLength(1);
      expect(exercised.has(contract), `${contract.method} ${contract.path} was not called`).toBe(true);
    }
  });

  it('the response schemas are strict: a field the contract lacks is refused', async () => {
    const body = await answers(s.world, Feed.feed, { query: { limit: 1 } });
    const withExtra = {
      posts: body['posts'],
      total: body['total'],
      limit: body['limit'],
      offset: body['offset'],
      next: null,
    };
    expect(ajv.validate(Feed.feed.response, withExtra)).toBe(false);
  });
});
