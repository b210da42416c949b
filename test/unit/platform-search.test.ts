import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newWorld, START_MS, type TestWorld } from '../helpers/world.js';
import {
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
} from '../helpers/feed-fixture.js';

/**
 * pA "The Sicilian is sharp" (2 likes) and pC "sicilian or french?" (1 like) match "sicilian"; pB is a
 * `challenge` post. Replies on pA: r1 (b) > r2 (c) > r4 (b), and r3 (a) directly; r5 on pB matches too.
 */
async function searchWorld() {
  const { world, a, b, c } = await trioWorld('search-seed');
  const pA = postAs(world, a, 'The Sicilian is sharp');
  const pB = postAs(world, b, 'A Sicilian challenge, anyone?', { post_type: 'challenge' });
  const pC = postAs(world, c, 'sicilian or french?');
  likeAs(world, b, { post_id: pA });
  likeAs(world, c, { post_id: pA });
  likeAs(world, a, { post_id: pC });
  const r1 = replyAs(world, b, pA, 'I love the Najdorf');
  const r2 = replyAs(world, c, pA, 'najdorf is best', r1);
  const r3 = replyAs(world, a, pA, 'Najdorf? try the Dragon');
  const r4 = replyAs(world, b, pA, 'NAJDORF forever', r2);
  const r5 = replyAs(world, c, pB, 'najdorf here too');
  const r6 = replyAs(world, c, pA, 'the Dragon bites', r1);
  return { world, a, b, c, posts: { pA, pB, pC }, replies: { r1, r2, r3, r4, r5, r6 } };
}

const search = (world: TestWorld, path: string, query: Body) =>
  ok(get(world, null, `/api/search/${path}`, query));
const replyIds = (body: Body) => body['replies'].map((row: Body) => row['reply']['id']);

describe('GET /api/search/posts', () => {
  it('matches content case-insensitively, newest first, with the query echoed and default paging 20', async () => {
    const { world, posts: p } = await searchWorld();
    const body = search(world, 'posts', { q: 'SICILIAN' });
    expect(ids(body['posts'])).toEqual([p.pC, p.pB, p.pA]);
    expect(body).toMatchObject({ query: 'SICILIAN', total: 3, limit: 20, offset: 0 });
    expect(body['posts'][2]).toMatchObject({
      id: p.pA,
      content: 'The Sicilian is sharp',
      like_count: 2,
      reply_count: 5,
      author: { handle: 'alice' },
      created_at: iso(START_MS + 31_000),
    });
    expect(search(world, 'posts', { q: 'caro-kann' })).toMatchObject({ posts: [], total: 0 });
  });

  it('sorts top and trending (ties newest first), filters post_type, and pages', async () => {
    const { world, a, posts: p } = await searchWorld();
    expect(ids(search(world, 'posts', { q: 'sicilian', sort: 'top' })['posts'])).toEqual([p.pA, p.pC, p.pB]);
    // pB (1 reply) and pC (1 like) tie on likes + replies: the newer, pC, goes first; one more reply lifts pB.
    expect(ids(search(world, 'posts', { q: 'sicilian', sort: 'trending' })['posts'])).toEqual([
      p.pA,
      p.pC,
      p.pB,
    ]);
    replyAs(world, a, p.pB, 'sure');
    expect(ids(search(world, 'posts', { q: 'sicilian', sort: 'trending' })['posts'])).toEqual([
      p.pA,
      p.pB,
      p.pC,
    ]);
    expect(ids(search(world, 'posts', { q: 'sicilian', sort: 'top' })['posts'])).toEqual([p.pA, p.pC, p.pB]);
    expect(ids(search(world, 'posts', { q: 'sicilian', post_type: 'challenge' })['posts'])).toEqual([p.pB]);
    expect(search(world, 'posts', { q: 'sicilian', limit: 1, offset: 1 })).toMatchObject({
      posts: [{ id: p.pB }],
      total: 3,
      limit: 1,
      offset: 1,
    });
  });

  it('refuses a missing, empty or overlong q and a bad sort, changing nothing', async () => {
    const { world } = await searchWorld();
    for (const query of [
      {},
      { q: '' },
      { q: 'x'.repeat(201) },
      { q: 'a', sort: 'hot' },
      { q: 'a', limit: 0 },
    ]) {
      refusedUnchanged(world, () => get(world, null, '/api/search/posts', query), 'validation_error');
    }
    expect(
      search(world, 'posts', { q: 'a', limit: 101 })['limit'],
      'a limit over the ceiling is clamped (docs/rules.md, Paging)',
    ).toBe(100);
    expect(search(world, 'posts', { q: 'x'.repeat(200) })['total']).toBe(0);
  });
});

describe('GET /api/search/replies', () => {
  it('searches only the direct replies (depth 1) of the given post', async () => {
    const { world, b, posts: p, replies: r } = await searchWorld();
    const body = search(world, 'replies', { q: 'najdorf', post_id: p.pA });
    expect(replyIds(body)).toEqual([r.r3, r.r1]);
    expect(body).toMatchObject({ query: 'najdorf', total: 2, limit: 20, offset: 0 });
    expect(body['replies'][1]).toEqual({
      reply: expect.objectContaining({
        id: r.r1,
        content: 'I love the Najdorf',
        author: expect.objectContaining({ handle: 'bob' }),
        parent_reply_id: null,
        depth: 1,
      }),
      post: { id: p.pA, content: 'The Sicilian is sharp' },
    });
    likeAs(world, b, { reply_id: r.r3 });
    likeAs(world, await world.agent('dave'), { reply_id: r.r1 });
    likeAs(world, await world.agent('erin'), { reply_id: r.r1 });
    expect(replyIds(search(world, 'replies', { q: 'najdorf', post_id: p.pA, sort: 'top' }))).toEqual([
      r.r1,
      r.r3,
    ]);
    expect(replyIds(search(world, 'replies', { q: 'dragon', post_id: p.pA }))).toEqual([r.r3]);
  });

  it('answers not_found for an unknown post, and refuses a missing post_id or q or a trending sort', async () => {
    const { world, posts: p } = await searchWorld();
    refusedUnchanged(
      world,
      () =>
        get(world, null, '/api/search/replies', { q: 'a', post_id: '00000000-0000-4000-8000-000000000000' }),
      'not_found',
    );
    refusedUnchanged(world, () => get(world, null, '/api/search/replies', { q: 'a' }), 'validation_error');
    refusedUnchanged(
      world,
      () => get(world, null, '/api/search/replies', { post_id: p.pA }),
      'validation_error',
    );
    refusedUnchanged(
      world,
      () => get(world, null, '/api/search/replies', { q: 'a', post_id: p.pA, sort: 'trending' }),
      'validation_error',
    );
  });
});

describe('GET /api/search/replies/thread', () => {
  it('searches every reply nested under the parent (its whole subtree), naming the parent and the post', async () => {
    const { world, posts: p, replies: r } = await searchWorld();
    const body = search(world, 'replies/thread', { q: 'najdorf', parent_reply_id: r.r1 });
    expect(replyIds(body)).toEqual([r.r4, r.r2]); // not r1 itself, not its sibling r3, not r5 of another post
    expect(body).toMatchObject({ query: 'najdorf', total: 2, limit: 20, offset: 0 });
    expect(body['replies'][0]).toEqual({
      reply: expect.objectContaining({
        id: r.r4,
        content: 'NAJDORF forever',
        depth: 3,
        parent_reply_id: r.r2,
      }),
      parent_reply: { id: r.r1, content: 'I love the Najdorf' },
      post: { id: p.pA, content: 'The Sicilian is sharp' },
    });
    expect(replyIds(search(world, 'replies/thread', { q: 'dragon', parent_reply_id: r.r1 }))).toEqual([r.r6]);
    expect(replyIds(search(world, 'replies/thread', { q: 'najdorf', parent_reply_id: r.r2 }))).toEqual([
      r.r4,
    ]);
    expect(search(world, 'replies/thread', { q: 'najdorf', parent_reply_id: r.r4 })).toMatchObject({
      replies: [],
      total: 0,
    });
  });

  it('answers not_found for an unknown parent, and refuses a missing parent_reply_id, changing nothing', async () => {
    const { world } = await searchWorld();
    refusedUnchanged(
      world,
      () => get(world, null, '/api/search/replies/thread', { q: 'a', parent_reply_id: 'nope' }),
      'not_found',
    );
    refusedUnchanged(
      world,
      () => get(world, null, '/api/search/replies/thread', { q: 'a' }),
      'validation_error',
    );
  });

  it('property: the thread search finds exactly the descendants of the parent whose text matches', async () => {
    const relaxed = { social: { limits: { reply: { agent: 100_000, cooldownMs: 0 } } } };
    // Each reply: which earlier reply it nests under (or the post), and whether its text carries the word.
    const tree = fc.array(fc.record({ parent: fc.option(fc.nat(), { nil: null }), match: fc.boolean() }), {
      minLength: 1,
      maxLength: 14,
    });
    await fc.assert(
      fc.asyncProperty(tree, fc.nat(), async (shape, pick) => {
        const world = newWorld({ seed: 'thread-prop', rules: relaxed });
        const { a, b } = await trio(world);
        const postId = postAs(world, a, 'root');
        const made: Array<{ id: string; parent: string | null; match: boolean }> = [];
        for (const node of shape) {
          const parent =
            node.parent === null || made.length === 0 ? null : made[node.parent % made.length]!.id;
          made.push({
            id: replyAs(world, b, postId, node.match ? 'has Needle' : 'plain', parent ?? undefined),
            parent,
            match: node.match,
          });
        }
        const root = made[pick % made.length]!;
        const isUnder = (node: (typeof made)[number]): boolean => {
          for (let up = node.parent; up !== null; up = made.find((m) => m.id === up)!.parent)
            if (up === root.id) return true;
          return false;
        };
        const expected = made
          .filter((node) => node.match && isUnder(node))
          .map((node) => node.id)
          .reverse();
        expect(
          replyIds(search(world, 'replies/thread', { q: 'needle', parent_reply_id: root.id, limit: 100 })),
        ).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});
