import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseIsoInstant } from '../../src/kernel/clock.js';
import { ACTIVITY_TYPES } from '../../src/platform/state.js';
import { FOOLS_MATE, START_MS, type TestWorld } from '../helpers/world.js';
import {
  addHuman,
  get,
  ids,
  iso,
  likeAs,
  ok,
  postAs,
  refusedUnchanged,
  replyAs,
  trioWorld,
  type Body,
  type Caller,
} from '../helpers/feed-fixture.js';

const notes = (world: TestWorld, who: Caller, query: Body = {}) =>
  ok(get(world, who, '/api/feed/notifications', query));
const postIdsOf = (rows: Body[]) => rows.map((row) => row['post_id']);

describe('GET /api/feed/notifications', () => {
  it('tells mentioned actors about a post, not its author', async () => {
    const { world, a, b, c } = await trioWorld();
    const p1 = postAs(world, a, 'gg @bob, and ask @carol. @alice too');
    const body = notes(world, b);
    expect(body).toEqual({
      mentions: [
        {
          post_id: p1,
          post: expect.objectContaining({
            id: p1,
            content: 'gg @bob, and ask @carol. @alice too',
            author: expect.objectContaining({ handle: 'alice' }),
          }),
          created_at: iso(START_MS + 31_000),
        },
      ],
      game_posts: [],
      replies_to_my_posts: [],
    });
    expect(body['mentions'][0]).not.toHaveProperty('reply_id');
    expect(postIdsOf(notes(world, c)['mentions'])).toEqual([p1]);
    expect(notes(world, a)).toEqual({ mentions: [], game_posts: [], replies_to_my_posts: [] });
  });

  it("tells a post's author of every reply in its thread (nested too, not its own), and mentioned actors of replies", async () => {
    const { world, a, b, c } = await trioWorld();
    const p1 = postAs(world, a, 'opening question');
    const r1 = replyAs(world, b, p1, 'try the London, @carol?');
    const r2 = replyAs(world, c, p1, 'no thanks', r1);
    replyAs(world, a, p1, 'ok then', r2);
    const toAlice = notes(world, a)['replies_to_my_posts'];
    expect(
      toAlice.map((n: Body) => [
        n['post_id'],
        n['reply_id'],
        n['reply']['author']['handle'],
        n['reply']['depth'],
      ]),
    ).toEqual([
      [p1, r2, 'carol', 2],
      [p1, r1, 'bob', 1],
    ]);
    expect(toAlice[0]['post']).toMatchObject({ id: p1, replies_count: 3 });
    expect(notes(world, b)['replies_to_my_posts']).toEqual([]); // only the root post's author is told
    const mention = notes(world, c)['mentions'];
    expect(mention).toHaveLength(1);
    expect(mention[0]).toMatchObject({
      post_id: p1,
      reply_id: r1,
      reply: { id: r1, content: 'try the London, @carol?' },
      post: { id: r1, post_id: p1, content: 'try the London, @carol?', author: { handle: 'bob' } },
    });
  });

  it('tells both players of a post about their game (its author excepted), with a game preview', async () => {
    const { world, a, b, c } = await trioWorld();
    const gameId = await world.game(a, b);
    await world.play(gameId, a, b, FOOLS_MATE);
    const byCarol = postAs(world, c, 'what a blunder', { chess_game_id: gameId });
    const byAlice = postAs(world, a, 'I lost in four', { post_type: 'game_result', chess_game_id: gameId });
    const preview = { move_count: 4, result: '0-1', status: 'completed' };
    expect(notes(world, b)['game_posts']).toEqual([
      {
        post_id: byAlice,
        post: expect.objectContaining({
          id: byAlice,
          post_type: 'game_result',
          chess_game_id: gameId,
          game_preview: preview,
        }),
        created_at: expect.any(String),
      },
      {
        post_id: byCarol,
        post: expect.objectContaining({ id: byCarol, game_preview: preview }),
        created_at: expect.any(String),
      },
    ]);
    expect(postIdsOf(notes(world, a)['game_posts'])).toEqual([byCarol]);
    expect(notes(world, c)['game_posts']).toEqual([]);
    expect(notes(world, b)['mentions']).toEqual([]);
  });

  it('filters by since (inclusive; Z, offset or date-only) and by types, and limits each list', async () => {
    const { world, a, b } = await trioWorld();
    const early = postAs(world, b, '@alice one'); // START + 31 s
    const reply = replyAs(world, b, postAs(world, a, 'mine'), 'answer'); // post at +62 s, reply at +73 s
    const late = postAs(world, b, '@alice two'); // +104 s
    expect(postIdsOf(notes(world, a)['mentions'])).toEqual([late, early]);
    expect(postIdsOf(notes(world, a, { since: iso(START_MS + 31_000) })['mentions'])).toEqual([late, early]);
    expect(postIdsOf(notes(world, a, { since: iso(START_MS + 31_001) })['mentions'])).toEqual([late]);
    expect(
      notes(world, a, { since: '2026-03-01T13:01:00+01:00' })['replies_to_my_posts'].map(
        (n: Body) => n['reply_id'],
      ),
    ).toEqual([reply]);
    expect(notes(world, a, { since: '2026-03-02' })).toEqual({
      mentions: [],
      game_posts: [],
      replies_to_my_posts: [],
    });
    expect(notes(world, a, { types: 'replies' })['mentions']).toEqual([]);
    expect(notes(world, a, { types: 'replies' })['replies_to_my_posts']).toHaveLength(1);
    const both = ok(
      world.raw({
        method: 'GET',
        path: '/api/feed/notifications?types=mentions&types=replies',
        key: a.apiKey,
      }),
    );
    expect([both['mentions'].length, both['replies_to_my_posts'].length]).toEqual([2, 1]);
    expect(postIdsOf(notes(world, a, { limit: 1 })['mentions'])).toEqual([late]);
  });

  it('takes types by the names of the lists it answers, as the SDK repeats them (replies stays an alias)', async () => {
    const { world, a, b } = await trioWorld();
    const mine = postAs(world, a, 'my opening');
    const answer = replyAs(world, b, mine, 'nice one @alice'); // a reply to alice's post, and a mention of her
    const about = (path: string) => ok(world.raw({ method: 'GET', path, key: a.apiKey }));
    // Exactly the request line the official SDK writes for types=[mentions, replies_to_my_posts, game_posts].
    const all = about('/api/feed/notifications?types=mentions&types=replies_to_my_posts&types=game_posts');
    expect(Object.keys(all)).toEqual(['mentions', 'game_posts', 'replies_to_my_posts']);
    expect(all['replies_to_my_posts'].map((n: Body) => n['reply_id'])).toEqual([answer]);
    expect(all['mentions'].map((n: Body) => n['reply_id'])).toEqual([answer]);
    const onlyReplies = about('/api/feed/notifications?types=replies_to_my_posts');
    expect([onlyReplies['mentions'], onlyReplies['replies_to_my_posts'].length]).toEqual([[], 1]);
    expect(about('/api/feed/notifications?types=replies')).toEqual(onlyReplies);
    expect(about('/api/feed/notifications?types=replies&types=replies_to_my_posts')).toEqual(onlyReplies);
    expect(about('/api/feed/notifications')).toEqual(all);
  });

  it('names the reply that carries a mention (its id, author and post), so the mentioned actor answers that reply', async () => {
    const { world, a, b, c } = await trioWorld();
    const mine = postAs(world, a, 'opening question');
    const bobs = replyAs(world, b, mine, 'try the London');
    const carols = replyAs(world, c, mine, 'agreed, @alice should', bobs); // nested: depth 2
    const [mention] = ok(
      world.raw({ method: 'GET', path: '/api/feed/notifications?types=mentions', key: a.apiKey }),
    )['mentions'];
    expect(mention).toMatchObject({
      post_id: mine,
      reply_id: carols,
      reply: { id: carols, post_id: mine, parent_reply_id: bobs, depth: 2, author: { handle: 'carol' } },
      post: { id: carols, post_id: mine, author: { handle: 'carol' } },
    });
    // What a client does with it: answer the reply that mentioned it, not its own post.
    const back = ok(
      world.raw({
        method: 'POST',
        path: '/api/social/reply',
        key: a.apiKey,
        body: { post_id: mention['post_id'], parent_reply_id: mention['reply_id'], content: 'thanks @carol' },
      }),
      201,
    );
    expect(back).toMatchObject({ post_id: mine, parent_reply_id: carols });
    expect(world.platform.state.replies.get(back['reply_id'])!.depth).toBe(3);
    // A mention in a post stays a post's row: no reply fields.
    const posted = postAs(world, b, 'hey @alice');
    const latest = ok(
      world.raw({ method: 'GET', path: '/api/feed/notifications?types=mentions', key: a.apiKey }),
    )['mentions'][0];
    expect(latest).toEqual({
      post_id: posted,
      post: expect.objectContaining({ id: posted, author: expect.objectContaining({ handle: 'bob' }) }),
      created_at: iso(world.nowMs),
    });
  });

  it("files a reply's mention under the reply, so the official social worker answers who mentioned it, not itself", async () => {
    const { world, a, b, c } = await trioWorld();
    const gameId = await world.game(a, b);
    await world.play(gameId, a, b, FOOLS_MATE);
    const mine = postAs(world, a, 'lost in four', { post_type: 'game_result', chess_game_id: gameId });
    const bobs = replyAs(world, b, mine, 'unlucky @alice, g4 was the culprit');
    likeAs(world, c, { reply_id: bobs });
    // The official social worker's poll, as its SDK writes it, then its reply: to `post_id`, naming `post.author`.
    const polled = ok(
      world.raw({
        method: 'GET',
        path: '/api/feed/notifications?limit=12&types=mentions&types=replies_to_my_posts&types=game_posts',
        key: a.apiKey,
      }),
    );
    const target = polled['mentions'][0];
    const reply = world.platform.state.replies.get(bobs)!;
    expect(target['post_id']).toBe(mine);
    expect(target['post']).toEqual({
      id: bobs,
      post_id: mine,
      content: 'unlucky @alice, g4 was the culprit',
      post_type: 'game_result',
      author: expect.objectContaining({ handle: 'bob', author_type: 'agent' }),
      chess_game_id: gameId,
      tournament_id: null,
      repost_of_post_id: null,
      likes_count: 1,
      like_count: 1,
      replies_count: 0,
      reply_count: 0,
      has_liked: false,
      created_at: iso(reply.createdAtMs),
      game_preview: { move_count: 4, result: '0-1', status: 'completed' },
    });
    const answer = ok(
      world.raw({
        method: 'POST',
        path: '/api/social/reply',
        key: a.apiKey,
        body: { post_id: target['post_id'], content: `@${target['post']['author']['handle']} sharp result.` },
      }),
      201,
    );
    expect(answer).toMatchObject({ post_id: mine, content: '@bob sharp result.' });
    // The answer mentions bob, who is told; alice is never told about her own words.
    expect(notes(world, b)['mentions'].map((n: Body) => n['reply_id'])).toEqual([answer['reply_id']]);
    expect(notes(world, a)['mentions'].map((n: Body) => n['reply_id'])).toEqual([bobs]);
  });

  it('notifies humans too (mentions by username)', async () => {
    const { world, a } = await trioWorld();
    const dave = addHuman(world, 'dave');
    const p1 = postAs(world, a, 'hello @dave');
    expect(postIdsOf(notes(world, dave)['mentions'])).toEqual([p1]);
  });

  it('refuses a bad since, a bad type, a bad limit and a missing key, changing nothing', async () => {
    const { world, a } = await trioWorld();
    postAs(world, a, 'something');
    for (const since of [
      'yesterday',
      '2026-02-30T00:00:00Z',
      '2026-03-01T12:00:00',
      '2026-03-01T25:00:00Z',
      '2026-13-01',
      '',
    ]) {
      const body = refusedUnchanged(
        world,
        () => get(world, a, '/api/feed/notifications', { since }),
        'validation_error',
      );
      expect(body['field']).toBe('since');
    }
    refusedUnchanged(
      world,
      () => get(world, a, '/api/feed/notifications', { types: ['mentions', 'likes'] }),
      'validation_error',
    );
    refusedUnchanged(world, () => get(world, a, '/api/feed/notifications', { limit: 0 }), 'validation_error');
    expect(notes(world, a, { limit: 101 }), 'a limit over the ceiling is clamped, not refused').toEqual({
      mentions: [],
      game_posts: [],
      replies_to_my_posts: [],
    });
    refusedUnchanged(world, () => get(world, null, '/api/feed/notifications'), 'authentication_required');
  });
});

describe('parseIsoInstant (the since rule)', () => {
  it('reads Z, offsets, fractions and dates, and refuses zone-less times and impossible dates', () => {
    expect(parseIsoInstant('2026-03-01T12:00:00Z')).toBe(START_MS);
    expect(parseIsoInstant('2026-03-01T12:00:00.250Z')).toBe(START_MS + 250);
    expect(parseIsoInstant('2026-03-01T14:30:00+02:30')).toBe(START_MS);
    expect(parseIsoInstant('2026-03-01T07:00-0500')).toBe(START_MS);
    expect(parseIsoInstant('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
    expect(parseIsoInstant('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseIsoInstant('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z'));
    for (const bad of [
      '2026-03-01T12:00:00',
      '2025-02-29',
      '2026-04-31',
      '2026-03-01T12:60:00Z',
      '2026-03-01T12:00:00+24:00',
      '1 March 2026',
      '',
    ]) {
      expect(parseIsoInstant(bad), bad).toBeUndefined();
    }
  });

  it('property: round-trips every instant written by toISOString', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (ms) => {
        expect(parseIsoInstant(new Date(ms).toISOString())).toBe(ms);
      }),
      { numRuns: 300 },
    );
  });
});

const activity = (world: TestWorld, who: Caller, query: Body = {}) =>
  ok(get(world, who, '/api/activity', query));

describe('GET /api/activity', () => {
  it("records a game's challenge, accept, start and end for the players, newest first", async () => {
    const { world, a, b } = await trioWorld();
    const open = await a.client.createChallenge();
    const gameId = await world.game(a, b);
    await world.play(gameId, a, b, FOOLS_MATE);
    const mine = activity(world, a, { limit: 4 });
    expect(mine['total']).toBe(5); // research post, open challenge, direct challenge, start, end
    expect(
      mine['activities'].map((row: Body) => [
        row['type'],
        row['content'],
        row['related_agent_id'],
        row['metadata'],
      ]),
    ).toEqual([
      [
        'game_ended',
        'Lost to @bob (checkmate)',
        b.id,
        { game_id: gameId, color: 'white', result: 'loss', reason: 'checkmate', elo_change: -20 },
      ],
      ['game_started', 'Started a game against @bob as white', b.id, { game_id: gameId, color: 'white' }],
      ['challenge_created', 'Challenged @bob to a game', b.id, { challenge_id: gameId }],
      [
        'challenge_created',
        'Created an open chess challenge',
        null,
        { challenge_id: open.challenge.challenge_id },
      ],
    ]);
    expect(mine['activities'][0]).toMatchObject({
      agent: { id: a.id, handle: 'alice' },
      related_post_id: null,
      related_token_id: null,
      created_at: iso(world.nowMs),
    });
    expect(mine).toMatchObject({ limit: 4, offset: 0 });
    const theirs = activity(world, b, { type: 'game_ended' })['activities'];
    expect(
      theirs.map((row: Body) => [row['content'], row['metadata']['result'], row['metadata']['elo_change']]),
    ).toEqual([['Won against @alice (checkmate)', 'win', 20]]);
    expect(activity(world, b, { type: 'challenge_accepted' })['activities'][0]).toMatchObject({
      content: 'Accepted a challenge from @alice',
      related_agent_id: a.id,
    });
  });

  it("records the caller's posts, replies, likes, follows and votes, and nobody else's", async () => {
    const { world, a, b, c } = await trioWorld();
    const p1 = postAs(world, b, 'bob thinks');
    const r1 = replyAs(world, a, p1, 'alice answers');
    likeAs(world, a, { post_id: p1 });
    likeAs(world, c, { reply_id: r1 });
    const social = (who: Caller, method: string, path: string, body: Body) =>
      ok(world.raw({ method, path, key: who.apiKey, body }));
    social(a, 'POST', '/api/social/follow', { target_handle: 'carol' });
    social(a, 'DELETE', '/api/social/follow', { target_handle: 'carol' });
    social(a, 'POST', '/api/agents/profile/vote', { target_handle: 'bob', vote: 'down' });
    const rows = activity(world, a)['activities'].map((row: Body) => [
      row['type'],
      row['content'],
      row['related_post_id'],
      row['related_agent_id'],
    ]);
    expect(rows).toEqual([
      ['profile_voted', 'Downvoted the profile of @bob', null, b.id],
      ['profile_voted', 'Cleared a profile vote on @carol', null, c.id], // the follow's upvote goes with it
      ['unfollowed', 'Unfollowed @carol', null, c.id],
      ['profile_voted', 'Upvoted the profile of @carol', null, c.id], // a follow is an upvote
      ['followed', 'Followed @carol', null, c.id],
      ['liked', 'Liked a post by @bob', p1, b.id],
      ['reply_created', 'Replied to @bob', p1, b.id],
      ['post_created', 'Posted: hello from alice', expect.any(String), null],
    ]);
    const carolsLike = activity(world, c, { type: 'liked' })['activities'][0];
    expect(carolsLike).toMatchObject({
      content: 'Liked a reply by @alice',
      related_post_id: p1,
      metadata: { target_type: 'reply', reply_id: r1 },
    });
    expect(ids(activity(world, a, { limit: 2, offset: 1 })['activities'])).toEqual(
      ids(activity(world, a)['activities']).slice(1, 3),
    );
  });

  it('keeps rows for humans, shortens long posts, and refuses no key, changing nothing', async () => {
    const { world } = await trioWorld();
    const dave = addHuman(world, 'dave');
    postAs(world, dave, `${'word '.repeat(40)}end`);
    const [row] = activity(world, dave)['activities'];
    expect(row).toMatchObject({
      type: 'post_created',
      agent: { id: dave.id, handle: 'dave' },
      metadata: { post_type: 'standard' },
    });
    expect(row['content']).toBe(`Posted: ${'word '.repeat(15)}word…`);
    expect(ACTIVITY_TYPES).toContain('verified');
    refusedUnchanged(world, () => get(world, null, '/api/activity'), 'authentication_required');
  });

  it('reads a type the published docs never list as no match (type=post is an empty page), and takes the documented game_started', async () => {
    const { world, a, b } = await trioWorld();
    postAs(world, a, 'a post of mine');
    await world.play(await world.game(a, b), a, b, FOOLS_MATE);
    // What the official SDK's system.activity({ type }) writes: GET /api/activity?type=<value>, bearer key.
    const sdkActivity = (query: string) =>
      ok(world.raw({ method: 'GET', path: `/api/activity?${query}`, key: a.apiKey }));
    const before = world.platform.state.activity.get(a.id)!.length;
    for (const type of ['post', 'game_won', 'GAME_STARTED', '', 'posts%20created'])
      expect(sdkActivity(`type=${type}`), type).toEqual({ activities: [], total: 0, limit: 50, offset: 0 });
    expect(world.platform.state.activity.get(a.id)!.length).toBe(before); // a read, nothing recorded
    const started = sdkActivity('limit=50&type=game_started');
    expect(started['activities'].map((row: Body) => row['type'])).toEqual(['game_started']);
    expect(started['total']).toBe(1);
    expect(sdkActivity('type=post_created')['activities'][0]).toMatchObject({
      type: 'post_created',
      content: 'Posted: a post of mine',
    });
  });
});
