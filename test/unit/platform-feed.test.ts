import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FEED_SORTS, unseenStep } from '../../src/rules/social/feed.js';
import { newWorld, START_MS, type TestWorld } from '../helpers/world.js';
import {
  addHuman,
  captureEvents,
  get,
  ids,
  iso,
  likeAs,
  ok,
  postAs,
  refusedUnchanged,
  replyAs,
  trio,
  trioWorld,
  type Body,
  type Caller,
} from '../helpers/feed-fixture.js';

/** Research posts h0-h2 at START_MS, then pA, pB (a `challenge` post), pC 31 s apart, with likes and replies. */
async function busyWorld() {
  const { world, a, b, c } = await trioWorld();
  const [h0, h1, h2] = world.platform.state.postIds as [string, string, string];
  const pA = postAs(world, a, 'The Sicilian is sharp');
  const pB = postAs(world, b, 'Endgames win games', { post_type: 'challenge' });
  const pC = postAs(world, c, 'sicilian or french?');
  likeAs(world, b, { post_id: pA });
  likeAs(world, c, { post_id: pA });
  likeAs(world, a, { post_id: pB });
  likeAs(world, a, { post_id: pC });
  likeAs(world, c, { post_id: h1 });
  const r1 = replyAs(world, b, pA, 'agreed');
  const r2 = replyAs(world, c, pA, 'not really', r1);
  const r3 = replyAs(world, a, pA, 'yes really', r2);
  const r4 = replyAs(world, a, pB, 'rook endgames?');
  const r5 = replyAs(world, b, pC, 'french');
  // likes (top): pA 2, pB 1, pC 1, h1 1; likes + replies (trending): pA 5, pB 2, pC 2, h1 1.
  return { world, a, b, c, posts: { h0, h1, h2, pA, pB, pC }, replies: { r1, r2, r3, r4, r5 } };
}

const feed = (world: TestWorld, query: Body = {}, who: Caller | null = null) =>
  ok(get(world, who, '/api/feed', query));

describe('GET /api/feed', () => {
  it('lists newest first by default, with both count spellings and the total', async () => {
    const { world, posts: p } = await busyWorld();
    const body = feed(world);
    expect(ids(body['posts'])).toEqual([p.pC, p.pB, p.pA, p.h2, p.h1, p.h0]);
    expect(body).toMatchObject({ total: 6, limit: 50, offset: 0 });
    expect(body['posts'][2]).toEqual({
      id: p.pA,
      post_id: p.pA,
      content: 'The Sicilian is sharp',
      post_type: 'standard',
      author: {
        id: world.platform.state.agentIdByHandle.get('alice'),
        handle: 'alice',
        author_type: 'agent',
      },
      chess_game_id: null,
      tournament_id: null,
      repost_of_post_id: null,
      likes_count: 2,
      like_count: 2,
      replies_count: 3,
      reply_count: 3,
      has_liked: false,
      created_at: iso(START_MS + 31_000),
    });
  });

  it('ranks trending by likes + replies and top by likes, ties newest first', async () => {
    const { world, posts: p } = await busyWorld();
    expect(ids(feed(world, { sort: 'trending' })['posts'])).toEqual([p.pA, p.pC, p.pB, p.h1, p.h2, p.h0]);
    expect(ids(feed(world, { sort: 'top' })['posts'])).toEqual([p.pA, p.pC, p.pB, p.h1, p.h2, p.h0]);
    // One more reply lifts pB above pC in trending but not in top.
    replyAs(world, await world.agent('dave'), p.pB, 'bishops of opposite colour');
    expect(ids(feed(world, { sort: 'trending', limit: 3 })['posts'])).toEqual([p.pA, p.pB, p.pC]);
    expect(ids(feed(world, { sort: 'top', limit: 3 })['posts'])).toEqual([p.pA, p.pC, p.pB]);
  });

  it('filters by post_type, and the total counts the filtered list', async () => {
    const { world, posts: p } = await busyWorld();
    expect(feed(world, { post_type: 'challenge' })).toMatchObject({
      posts: [{ id: p.pB, post_type: 'challenge' }],
      total: 1,
    });
    expect(feed(world, { post_type: 'milestone' })).toMatchObject({ posts: [], total: 0 });
    expect(ids(feed(world, { post_type: 'standard', sort: 'top' })['posts'])).toEqual([
      p.pA,
      p.pC,
      p.h1,
      p.h2,
      p.h0,
    ]);
  });

  it('pages with limit and offset (query strings are coerced)', async () => {
    const { world, posts: p } = await busyWorld();
    expect(feed(world, { limit: '2', offset: '1' })).toMatchObject({ total: 6, limit: 2, offset: 1 });
    expect(ids(feed(world, { limit: '2', offset: '1' })['posts'])).toEqual([p.pB, p.pA]);
    expect(ids(feed(world, { sort: 'trending', limit: '2', offset: '2' })['posts'])).toEqual([p.pB, p.h1]);
    expect(feed(world, { offset: 6 })['posts']).toEqual([]);
  });

  it('every page is the matching slice of the whole list, for every sort and filter', async () => {
    const { world } = await busyWorld();
    const whole = Object.fromEntries(
      FEED_SORTS.map((sort) => [sort, ids(feed(world, { sort, limit: 100 })['posts'])]),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...FEED_SORTS),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 7 }),
        (sort, limit, offset) => {
          const page = feed(world, { sort, limit, offset });
          expect(ids(page['posts'])).toEqual(whole[sort]!.slice(offset, offset + limit));
          expect(page['total']).toBe(6);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("shows the viewer's has_liked when a key is sent, to agents and humans alike", async () => {
    const { world, b, posts: p } = await busyWorld();
    const dave = addHuman(world, 'dave');
    likeAs(world, dave, { post_id: p.pC });
    const liked = (who: Caller | null) =>
      Object.fromEntries(feed(world, {}, who)['posts'].map((post: Body) => [post['id'], post['has_liked']]));
    expect(liked(b)).toMatchObject({ [p.pA]: true, [p.pB]: false, [p.pC]: false });
    expect(liked(dave)).toMatchObject({ [p.pA]: false, [p.pC]: true });
    expect(Object.values(liked(null)).every((v) => v === false)).toBe(true);
  });

  it('refuses a bad sort, post_type, limit or offset, and a bad key, changing nothing; clamps a limit over the ceiling', async () => {
    const { world } = await busyWorld();
    for (const query of [
      { sort: 'hot' },
      { post_type: 'meme' },
      { limit: 0 },
      { offset: -1 },
      { limit: 'ten' },
    ]) {
      refusedUnchanged(world, () => get(world, null, '/api/feed', query), 'validation_error');
    }
    expect(
      feed(world, { limit: 101 })['limit'],
      'a limit over the ceiling is clamped (docs/rules.md, Paging)',
    ).toBe(100);
    refusedUnchanged(
      world,
      () => get(world, { apiKey: 'moltchess_nope', id: '' }, '/api/feed'),
      'invalid_api_key',
    );
  });
});

describe('GET /api/feed/posts/{id}', () => {
  it('returns the post with every reply, every depth, oldest first, each naming its parent and depth', async () => {
    const { world, b, posts: p, replies: r } = await busyWorld();
    const { post } = ok(get(world, b, `/api/feed/posts/${p.pA}`));
    expect(post).toMatchObject({
      id: p.pA,
      content: 'The Sicilian is sharp',
      likes_count: 2,
      replies_count: 3,
      has_liked: true,
    });
    expect(
      post.replies.map((x: Body) => [
        x['id'],
        x['parent_reply_id'],
        x['depth'],
        x['author']['handle'],
        x['content'],
      ]),
    ).toEqual([
      [r.r1, null, 1, 'bob', 'agreed'],
      [r.r2, r.r1, 2, 'carol', 'not really'],
      [r.r3, r.r2, 3, 'alice', 'yes really'],
    ]);
    expect(post.replies[0]).toMatchObject({
      post_id: p.pA,
      likes_count: 0,
      replies_count: 1,
      has_liked: false,
    });
    expect(ok(get(world, null, `/api/feed/posts/${p.h0}`))['post']['replies']).toEqual([]);
  });

  it('answers 404 not_found for an unknown id, changing nothing', async () => {
    const { world } = await busyWorld();
    refusedUnchanged(
      world,
      () => get(world, null, '/api/feed/posts/00000000-0000-4000-8000-000000000000'),
      'not_found',
    );
  });
});

describe('GET /api/feed/unseen', () => {
  const unseen = (world: TestWorld, who: Caller, limit?: number) =>
    ok(get(world, who, '/api/feed/unseen', limit === undefined ? {} : { limit }));

  it("serves the oldest unseen first, never the caller's own, and never the same post twice", async () => {
    const { world, a, b, c } = await trioWorld();
    const [h0, h1, h2] = world.platform.state.postIds as [string, string, string];
    const events = captureEvents(world);
    const first = unseen(world, a);
    expect(first).toMatchObject({ count: 2, cursor_updated_to: iso(START_MS) });
    expect(ids(first['posts'])).toEqual([h1, h2]);
    expect(first['posts'][0]).toMatchObject({
      author: { handle: 'bob', author_type: 'agent' },
      has_liked: false,
      likes_count: 0,
    });
    expect(events).toEqual([{ type: 'unseen_served', t: START_MS, actorId: a.id, postIds: [h1, h2] }]);

    const pB = postAs(world, b, 'from bob');
    const pA = postAs(world, a, 'from alice');
    const pC = postAs(world, c, 'from carol');
    likeAs(world, a, { post_id: pB });
    expect(unseen(world, a, 1)).toMatchObject({
      posts: [{ id: pB, has_liked: true }],
      count: 1,
      cursor_updated_to: iso(START_MS + 31_000),
    });
    // Alice's own post lies between: the cursor passes it.
    expect(unseen(world, a, 1)).toMatchObject({
      posts: [{ id: pC }],
      count: 1,
      cursor_updated_to: iso(START_MS + 93_000),
    });
    expect(world.platform.state.unseenCursor.get(a.id)).toBe(5);
    // Bob has never called: he starts from the oldest post.
    expect(ids(unseen(world, b, 2)['posts'])).toEqual([h0, h2]);
    expect(ids(unseen(world, b)['posts'])).toEqual([pA, pC]);
  });

  it('an empty call changes nothing and emits nothing, and reports the standing cursor time (null before any)', async () => {
    const world = newWorld();
    const solo = await world.agent('solo');
    refusedNothing(world, () =>
      expect(unseen(world, solo)).toEqual({ posts: [], cursor_updated_to: null, count: 0 }),
    );
    world.advanceBy(5000);
    await world.agent('other');
    expect(unseen(world, solo)).toMatchObject({ count: 1, cursor_updated_to: iso(START_MS + 5000) });
    postAs(world, solo, 'my own words');
    refusedNothing(world, () =>
      expect(unseen(world, solo)).toEqual({ posts: [], cursor_updated_to: iso(START_MS + 5000), count: 0 }),
    );
  });

  it('serves humans too, and needs a key', async () => {
    const { world } = await trioWorld();
    const dave = addHuman(world, 'dave');
    const mine = postAs(world, dave, 'a human speaks');
    const body = unseen(world, dave);
    expect(body['count']).toBe(3);
    expect(ids(body['posts'])).not.toContain(mine);
    // The typed client sends `limit: undefined` when none is given: the default applies.
    const other = postAs(world, await world.agent('erin'), 'news');
    expect(ids((await world.client(dave.apiKey).unseen()).posts)).toEqual([
      world.platform.state.postIds[4],
      other,
    ]);
    refusedUnchanged(world, () => get(world, null, '/api/feed/unseen'), 'authentication_required');
    refusedUnchanged(world, () => get(world, dave, '/api/feed/unseen', { limit: 0 }), 'validation_error');
    expect(unseen(world, dave, 101)['count'], 'a limit over the ceiling is clamped, not refused').toBe(0);
  });

  it('property: across random posting and polling, each actor is served every other post exactly once, in order', async () => {
    const relaxed = { social: { limits: { post: { agent: 100_000, cooldownMs: 0 } } } };
    const action = fc.oneof(
      fc.record({ kind: fc.constant('post' as const), who: fc.nat(2) }),
      fc.record({
        kind: fc.constant('poll' as const),
        who: fc.nat(2),
        limit: fc.integer({ min: 1, max: 4 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 30 }), async (actions) => {
        const world = newWorld({ seed: 'unseen-prop', rules: relaxed });
        const agents = Object.values(await trio(world));
        const served = agents.map(() => [] as number[]);
        const seqOf = (id: string) => world.platform.state.posts.get(id)!.seq;
        const poll = (i: number, limit: number) =>
          ids(ok(get(world, agents[i]!, '/api/feed/unseen', { limit }))['posts']).map(seqOf);
        for (const step of actions) {
          world.advanceBy(1000);
          if (step.kind === 'post')
            postAs(world, agents[step.who]!, `post ${world.platform.state.postIds.length}`);
          else served[step.who]!.push(...poll(step.who, step.limit));
        }
        agents.forEach((_, i) => {
          for (let batch = poll(i, 100); batch.length > 0; batch = poll(i, 100)) served[i]!.push(...batch);
          const others = world.platform.state.postIds
            .map((id) => world.platform.state.posts.get(id)!)
            .filter((p) => p.authorId !== agents[i]!.id);
          expect(served[i]).toEqual(others.map((p) => p.seq)); // in order, each once, none skipped, none own
        });
      }),
      { numRuns: 25 },
    );
  });
});

describe('unseenStep (the pure rule)', () => {
  it('property: serves at most limit, strictly after the cursor, skipping own; the cursor is the last served', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.option(fc.nat(40), { nil: null }),
        fc.integer({ min: 1, max: 10 }),
        (own, cursor, limit) => {
          const start = cursor === null ? 0 : cursor + 1;
          const step = unseenStep(cursor, own.length, limit, (seq) => own[seq]!);
          const expected = own
            .map((mine, seq) => (!mine && seq >= start ? seq : -1))
            .filter((seq) => seq >= 0)
            .slice(0, limit);
          expect(step.served).toEqual(expected);
          expect(step.cursor).toBe(expected.length > 0 ? expected[expected.length - 1] : cursor);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The call inside changes no state and emits no event (usage counters aside). */
function refusedNothing(world: TestWorld, call: () => void): void {
  const before = world.fingerprint();
  const events = world.platform.eventCount;
  call();
  expect(world.fingerprint()).toBe(before);
  expect(world.platform.eventCount).toBe(events);
}
