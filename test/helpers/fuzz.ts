import { WireChecker } from '../../src/client/wire-check.js';
import fc from 'fast-check';
import { expect } from 'vitest';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import type { ApiResponse, QueryValue } from '../../src/api/types.js';
import { ROUTES } from '../../src/api/routes/index.js';
import { newWorld, type TestWorld } from './world.js';

/**
 * What both fuzzers share: the in-process one (test/property/bad-input.test.ts, straight into the route
 * table) and the HTTP one (test/http/fuzz.test.ts, through fastify). A fixture world built through the
 * route table; arbitraries of odd text, ids, bodies, queries, keys and mangled paths over every route; and
 * the contract every answer must keep. The arbitraries close over the prototype fixture's ids and keys,
 * which every `fixture()` reproduces exactly (same seed), so generated ids hit live objects in each run.
 */
export interface Fixture {
  world: TestWorld;
  keys: { alice: string; bob: string; carol: string };
  ids: {
    alice: string;
    bob: string;
    carol: string;
    gameId: string;
    openId: string;
    directId: string;
    doneId: string;
    postId: string;
    replyId: string;
    nestedId: string;
    humanId: string;
  };
}

export function ok(response: ApiResponse): Record<string, unknown> {
  if (response.status !== 200) throw new Error(`fixture request failed: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

/** Built through the route table only, synchronously; same seed, so the same ids on every run. */
export function fixture(): Fixture {
  const world = newWorld({ seed: 'bad-input' });
  const reg = (handle: string) => ok(world.raw({ method: 'POST', path: '/api/register', body: { handle } }));
  const alice = reg('alice');
  const bob = reg('bob');
  const carol = reg('carol');
  const keys = {
    alice: alice['api_key'] as string,
    bob: bob['api_key'] as string,
    carol: carol['api_key'] as string,
  };
  for (const key of [keys.alice, keys.bob])
    ok(world.raw({ method: 'POST', path: '/api/social/post', key, body: { content: 'research' } }));
  const challenge = (key: string, body: unknown) =>
    (
      ok(world.raw({ method: 'POST', path: '/api/chess/challenge', key, body }))['challenge'] as Record<
        string,
        unknown
      >
    )['challenge_id'] as string;
  const accept = (key: string, id: string) =>
    ok(world.raw({ method: 'POST', path: `/api/chess/challenges/${id}/accept`, key }));
  const move = (key: string, game_id: string, move_san: string) =>
    ok(world.raw({ method: 'POST', path: '/api/chess/move', key, body: { game_id, move_san } }));
  // A finished game (fool's mate), so history and the leaderboard have rows.
  const doneId = challenge(keys.alice, { opponent_handle: 'bob' });
  accept(keys.bob, doneId);
  for (const [key, san] of [
    [keys.alice, 'f3'],
    [keys.bob, 'e5'],
    [keys.alice, 'g4'],
    [keys.bob, 'Qh4#'],
  ] as const)
    move(key, doneId, san);
  // The active game: Bob (White) played e4, Alice (Black) to move.
  const gameId = challenge(keys.bob, {});
  accept(keys.alice, gameId);
  move(keys.bob, gameId, 'e4');
  const openId = challenge(keys.alice, {});
  const directId = challenge(keys.bob, { opponent_handle: 'alice' });
  const social = socialFixture(world, keys);
  const ids = {
    alice: alice['agent_id'] as string,
    bob: bob['agent_id'] as string,
    carol: carol['agent_id'] as string,
    gameId,
    openId,
    directId,
    doneId,
    ...social,
  };
  return { world, keys, ids };
}

/** A post with a reply and a nested reply, a like, a follow, a human and a published external post. */
function socialFixture(world: TestWorld, keys: Fixture['keys']) {
  const send = (key: string | undefined, method: string, path: string, body: unknown) =>
    world.raw({ method, path, key, body });
  world.advanceBy(30_000); // past the post cooldown of the research posts
  const postId = ok(send(keys.alice, 'POST', '/api/social/post', { content: 'gg @bob' }))[
    'post_id'
  ] as string;
  const replyOk = (r: ApiResponse) => (r.status === 201 ? (r.body as Record<string, unknown>) : ok(r));
  const replyId = replyOk(
    send(keys.bob, 'POST', '/api/social/reply', { post_id: postId, content: 'thanks' }),
  )['reply_id'] as string;
  world.advanceBy(10_000);
  const nestedId = replyOk(
    send(keys.alice, 'POST', '/api/social/reply', {
      post_id: postId,
      content: 'again?',
      parent_reply_id: replyId,
    }),
  )['reply_id'] as string;
  ok(send(keys.bob, 'POST', '/api/social/like', { post_id: postId }));
  ok(send(keys.carol, 'POST', '/api/social/follow', { target_handle: 'alice' }));
  const human = ok(send(undefined, 'POST', '/_sim/humans', { username: 'hana' }));
  ok(send(undefined, 'POST', '/_sim/network/posts', { handle: 'ext_alice', text: 'hello' }));
  return { postId, replyId, nestedId, humanId: human['human_id'] as string };
}

/** The prototype fixture: read its ids and keys, never send it requests (build a fresh `fixture()` for that). */
export const PROTO = fixture();

// --- generators -------------------------------------------------------------------------------------------

export const HUGE = fc.constantFrom('a', 'é', '😀', '\u0000', '%', '/', ' ').map((c) => c.repeat(20_000));
export const oddText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\n',
    'null',
    'undefined',
    'true',
    '0',
    '-1',
    '1e309',
    'NaN',
    '__proto__',
    'constructor',
    'toString',
    '../..',
    '%00',
    '%E0%A4%A',
    '\uD800',
    '\u202E',
    'Ω≈ç√',
    '名前',
  ),
  HUGE,
);
export const knownIds = fc.constantFrom(
  ...Object.values(PROTO.ids),
  'alice',
  'BOB',
  'carol',
  'ghost',
  'hana',
  'ext_alice',
);
export const anyId = fc.oneof(knownIds, fc.uuid(), oddText);
export const chessText = fc.oneof(
  fc.constantFrom(
    'e5',
    'e7e5',
    'Nf6',
    'O-O',
    '0-0-0',
    'e1g1',
    'a7a8q',
    'Qh4#',
    'Ke7',
    'e4',
    'e2e4',
    'xx',
    'e9',
    'O-O-O-O',
    'Nf3+',
    'exd5',
    'e7e8k',
    'bxa8=K',
    'P@e4',
  ),
  fc.stringMatching(/^[a-hKQRBNO0x=+#-]{0,6}[1-8]?$/),
);
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: oddText },
  { weight: 2, arbitrary: anyId },
  { weight: 2, arbitrary: chessText },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      0.005,
      0.01,
      10,
      10.5,
      1e21,
      Number.MAX_SAFE_INTEGER,
      [],
      {},
      [null],
      ['a', 1],
    ),
  },
  { weight: 1, arbitrary: fc.array(oddText, { maxLength: 12 }) },
);

export const BODY_FIELDS = [
  'handle',
  'bio',
  'tags',
  'github_url',
  'github_username',
  'github_repo_url',
  'opponent_handle',
  'bounty_sol',
  'game_id',
  'move_san',
  'move_uci',
  'content',
  'post_type',
  'chess_game_id',
  'tournament_id',
  'repost_of_post_id',
  'post_id',
  'reply_id',
  'parent_reply_id',
  'target_handle',
  'target_agent_id',
  'target_user_id',
  'target_username',
  'vote',
  'twitter_handle',
  'username',
  'display_name',
  'text',
  'avatar_url',
  'followers',
  'banned',
] as const;
export const QUERY_FIELDS = [
  'limit',
  'offset',
  'status',
  'player_handle',
  'player',
  'my_turn',
  'half_window',
  'challenger_handle',
  'sort',
  'post_type',
  'q',
  'post_id',
  'parent_reply_id',
  'since',
  'types',
  'type',
  'search',
  'tag',
  'active_only',
  'stats',
] as const;

export const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BODY_FIELDS) },
  { weight: 1, arbitrary: oddText },
);
export const objectBody = fc.dictionary(fieldName, anyValue, { maxKeys: 6 });
export const anyBody: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: objectBody },
  {
    weight: 1,
    arbitrary: fc.constantFrom(undefined, null, 0, 42, 'a string', true, [], [{}], [{ handle: 'zed' }]),
  },
  { weight: 1, arbitrary: fc.array(anyValue, { maxLength: 4 }) },
);
export const queryText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '1',
    '50',
    '100',
    '101',
    '-1',
    '1.5',
    '1e3',
    'true',
    'false',
    'active',
    'completed',
    'pending',
    'alice',
    'ghost',
  ),
  oddText,
);
export const queryValue: fc.Arbitrary<QueryValue> = fc.oneof(
  queryText,
  fc.array(queryText, { maxLength: 3 }),
  fc.constant(undefined),
);
export const anyQuery = fc.dictionary(
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_FIELDS) }, { weight: 1, arbitrary: oddText }),
  queryValue,
  { maxKeys: 4 },
);

export type KeyChoice =
  'none' | 'alice' | 'bob' | 'carol' | 'wrong' | 'malformed' | 'empty' | 'lowercase-bearer';
export const keyChoice = fc.constantFrom<KeyChoice>(
  'none',
  'alice',
  'bob',
  'carol',
  'wrong',
  'malformed',
  'empty',
  'lowercase-bearer',
);

export const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'get', 'OPTIONS'] as const;

/** Fills `{param}` segments; sometimes mangles the path shape (prefix, slashes, case, a query inside). */
export const routePath = fc
  .tuple(
    fc.constantFrom(...ROUTES.map((r) => r.contract.path)),
    fc.array(anyId, { minLength: 3, maxLength: 3 }),
    fc.nat(9),
  )
  .map(([path, ids, shape]) => {
    let i = 0;
    const filled = path.replace(/\{[^}]+\}/g, () => encodeSegment(ids[i++] ?? ''));
    if (shape === 0) return filled.replace(/^\/api/, '');
    if (shape === 1) return `${filled}/`;
    if (shape === 2) return filled.replace('/api/', '/api//');
    if (shape === 3) return `${filled}?limit=${encodeSegment(ids[2] ?? '')}&__proto__=x`;
    if (shape === 4) return filled.toUpperCase();
    if (shape === 5) return `${filled}/extra`;
    return filled;
  });
/** encodeURIComponent, except that lone surrogates (which it refuses) go into the path raw. */
export function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

const methodFor = (path: string) => ROUTES.find((r) => r.contract.path === path)?.contract.method ?? 'GET';

export interface FuzzRequest {
  method: string;
  path: string;
  key: KeyChoice;
  query: Record<string, QueryValue>;
  body: unknown;
}

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    route: fc.constantFrom(...ROUTES),
    path: routePath,
    usePathOfRoute: fc.boolean(),
    otherMethod: fc.oneof(
      { weight: 5, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    key: keyChoice,
    query: anyQuery,
    body: anyBody,
  })
  .map(({ route, path, usePathOfRoute, otherMethod, key, query, body }) => {
    // Half the time the method matches the mangled path's route; otherwise a random route's method.
    const method = otherMethod ?? (usePathOfRoute ? methodFor(path) : route.contract.method);
    return {
      method,
      path: usePathOfRoute ? path : route.contract.path.replace(/\{[^}]+\}/g, PROTO.ids.gameId),
      key,
      query,
      body,
    };
  });

/** Almost-valid requests: a working request with one or two fields changed, so the checks past auth run. */
export function nearValid(f: Pick<Fixture, 'ids'>): fc.Arbitrary<FuzzRequest> {
  const { ids } = f;
  const templates: FuzzRequest[] = [
    {
      method: 'POST',
      path: '/api/register',
      key: 'none',
      query: {},
      body: { handle: 'newcomer', bio: 'b', tags: ['t'], github_url: null },
    },
    { method: 'GET', path: '/api/register/check/newcomer', key: 'none', query: {}, body: undefined },
    { method: 'GET', path: '/api/whoami', key: 'alice', query: {}, body: undefined },
    {
      method: 'PATCH',
      path: '/api/agents/profile',
      key: 'alice',
      query: {},
      body: { bio: 'new', handle: 'alice_two', tags: [] },
    },
    {
      method: 'POST',
      path: '/api/social/post',
      key: 'carol',
      query: {},
      body: { content: 'hello', post_type: 'standard' },
    },
    {
      method: 'POST',
      path: '/api/chess/challenge',
      key: 'alice',
      query: {},
      body: { opponent_handle: 'bob', bounty_sol: null },
    },
    {
      method: 'GET',
      path: '/api/chess/challenges/open',
      key: 'none',
      query: { limit: '10', challenger_handle: 'alice' },
      body: undefined,
    },
    { method: 'GET', path: '/api/chess/challenges/mine', key: 'bob', query: {}, body: undefined },
    {
      method: 'POST',
      path: `/api/chess/challenges/${ids.openId}/accept`,
      key: 'bob',
      query: {},
      body: undefined,
    },
    {
      method: 'POST',
      path: `/api/chess/challenges/${ids.directId}/accept`,
      key: 'alice',
      query: {},
      body: undefined,
    },
    { method: 'GET', path: '/api/agents/alice/open-challenge', key: 'none', query: {}, body: undefined },
    {
      method: 'GET',
      path: '/api/chess/games',
      key: 'alice',
      query: { status: 'active', player_handle: 'bob', my_turn: 'true' },
      body: undefined,
    },
    { method: 'GET', path: '/api/chess/games/my-turn', key: 'alice', query: { limit: '5' }, body: undefined },
    {
      method: 'GET',
      path: '/api/chess/games/history',
      key: 'bob',
      query: { limit: '5', offset: '0' },
      body: undefined,
    },
    { method: 'GET', path: `/api/chess/games/${ids.gameId}`, key: 'alice', query: {}, body: undefined },
    {
      method: 'POST',
      path: '/api/chess/move',
      key: 'alice',
      query: {},
      body: { game_id: ids.gameId, move_san: 'e5', move_uci: 'e7e5' },
    },
    {
      method: 'POST',
      path: '/api/chess/move',
      key: 'alice',
      query: {},
      body: { game_id: ids.gameId, move_uci: 'e7e5' },
    },
    {
      method: 'POST',
      path: '/api/chess/move',
      key: 'bob',
      query: {},
      body: { game_id: ids.gameId, move_san: 'd4' },
    },
    {
      method: 'POST',
      path: '/api/chess/move',
      key: 'bob',
      query: {},
      body: { game_id: ids.doneId, move_san: 'e4' },
    },
    {
      method: 'GET',
      path: '/api/chess/leaderboard',
      key: 'none',
      query: { limit: '2', offset: '1' },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/api/chess/leaderboard/around',
      key: 'bob',
      query: { half_window: '3' },
      body: undefined,
    },
    {
      method: 'POST',
      path: '/api/social/reply',
      key: 'carol',
      query: {},
      body: { post_id: ids.postId, content: 'hi', parent_reply_id: ids.nestedId },
    },
    { method: 'POST', path: '/api/social/like', key: 'carol', query: {}, body: { reply_id: ids.replyId } },
    { method: 'POST', path: '/api/social/follow', key: 'bob', query: {}, body: { target_username: 'hana' } },
    {
      method: 'DELETE',
      path: '/api/social/follow',
      key: 'carol',
      query: {},
      body: { target_handle: 'alice' },
    },
    {
      method: 'POST',
      path: '/api/agents/profile/vote',
      key: 'alice',
      query: {},
      body: { target_handle: 'carol', vote: 'down' },
    },
    {
      method: 'GET',
      path: '/api/feed',
      key: 'bob',
      query: { sort: 'trending', post_type: 'standard', limit: '5' },
      body: undefined,
    },
    { method: 'GET', path: `/api/feed/posts/${ids.postId}`, key: 'none', query: {}, body: undefined },
    { method: 'GET', path: '/api/feed/unseen', key: 'carol', query: { limit: '2' }, body: undefined },
    {
      method: 'GET',
      path: '/api/feed/notifications',
      key: 'bob',
      query: { since: '2026-03-01T00:00:00Z', types: ['mentions', 'replies'] },
      body: undefined,
    },
    { method: 'GET', path: '/api/activity', key: 'alice', query: { type: 'post_created' }, body: undefined },
    {
      method: 'GET',
      path: '/api/search/posts',
      key: 'none',
      query: { q: 'gg', sort: 'top' },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/api/search/replies',
      key: 'none',
      query: { q: 'th', post_id: ids.postId },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/api/search/replies/thread',
      key: 'none',
      query: { q: 'a', parent_reply_id: ids.replyId },
      body: undefined,
    },
    {
      method: 'GET',
      path: '/api/agents',
      key: 'none',
      query: { search: 'a', tag: ['x'], active_only: 'true', stats: 'true' },
      body: undefined,
    },
    { method: 'GET', path: '/api/agents/alice', key: 'bob', query: {}, body: undefined },
    {
      method: 'GET',
      path: '/api/agents/leaderboard',
      key: 'none',
      query: { sort: 'content' },
      body: undefined,
    },
    { method: 'GET', path: '/api/human/hana', key: 'none', query: {}, body: undefined },
    { method: 'POST', path: '/api/verify', key: 'alice', query: {}, body: { twitter_handle: 'ext_alice' } },
    { method: 'POST', path: '/api/agents/alice/refresh-social', key: 'alice', query: {}, body: undefined },
    {
      method: 'POST',
      path: '/_sim/humans',
      key: 'none',
      query: {},
      body: { username: 'newcomer', display_name: 'N' },
    },
    {
      method: 'POST',
      path: '/_sim/network/posts',
      key: 'none',
      query: {},
      body: { handle: 'ext_bob', text: 'MoltChess' },
    },
    {
      method: 'PATCH',
      path: '/_sim/network/accounts/ext_alice',
      key: 'none',
      query: {},
      body: { followers: 5, banned: false },
    },
  ];
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), field: fieldName, value: anyValue }),
    fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...BODY_FIELDS) }),
    fc.record({
      kind: fc.constant('set' as const),
      field: fc.constantFrom('move_san', 'move_uci'),
      value: chessText,
    }),
    fc.record({
      kind: fc.constant('query' as const),
      field: fc.constantFrom(...QUERY_FIELDS),
      value: queryValue,
    }),
    fc.record({ kind: fc.constant('key' as const), key: keyChoice }),
    fc.record({ kind: fc.constant('id' as const), id: anyId }),
    fc.record({ kind: fc.constant('body' as const), body: anyBody }),
  );
  return fc
    .tuple(fc.constantFrom(...templates), fc.array(mutation, { minLength: 1, maxLength: 2 }))
    .map(([template, mutations]) => {
      const req: FuzzRequest = { ...template, query: { ...template.query } };
      for (const m of mutations) {
        if (m.kind === 'set' || m.kind === 'drop') {
          const body =
            typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)
              ? { ...req.body }
              : {};
          if (m.kind === 'set')
            Object.defineProperty(body, m.field, {
              value: m.value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else delete (body as Record<string, unknown>)[m.field];
          req.body = body;
        } else if (m.kind === 'query') req.query[m.field] = m.value;
        else if (m.kind === 'key') req.key = m.key;
        else if (m.kind === 'body') req.body = m.body;
        else req.path = req.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|alice|newcomer/, encodeSegment(m.id));
      }
      return req;
    });
}

/** The Authorization header of each key choice (a key of the fixture's agents, or a broken one). */
export function headersFor(f: Pick<Fixture, 'keys'>, key: KeyChoice): Record<string, string> {
  switch (key) {
    case 'none':
      return {};
    case 'alice':
    case 'bob':
    case 'carol':
      return { authorization: `Bearer ${f.keys[key]}` };
    case 'wrong':
      return { authorization: `Bearer moltchess_${'0'.repeat(40)}` };
    case 'malformed':
      return { authorization: `Token ${f.keys.alice}` };
    case 'empty':
      return { authorization: '' };
    case 'lowercase-bearer':
      return { authorization: `bearer ${f.keys.bob}` };
  }
}

/** The one GET that changes state by design (the unseen cursor): its path, however the fuzzer mangled it. */
const STATEFUL_READS = ROUTES.filter((r) => r.contract.statefulRead).map((r) =>
  r.contract.path.replace(/^\/api/, '').toLowerCase(),
);
export function statefulRead(path: string): boolean {
  const bare = path
    .split('?')[0]!
    .toLowerCase()
    .replace(/\/+$/, '')
    .replace(/^\/api\/*/, '/');
  return STATEFUL_READS.some((p) => bare === p);
}

/** A route-table answer, with the request it answers. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/**
 * The contract of every answer, whatever was sent: a JSON object; a 2xx carries no `error`, and a GET that
 * succeeds changes nothing (the unseen feed's cursor aside); anything else is a 4xx whose code is in the
 * registry with the registry's status, and changes nothing. `now` reads the state fingerprint after the
 * request, `before` is the one taken before it. Returns '2xx' or the error code, for coverage counts.
 */
const WIRE = new WireChecker();

export function expectAnswerContract(answer: Answer, before: string, now: () => string): string {
  const { status, body } = answer;
  expect(
    WIRE.problem(answer.method, answer.path, status, body),
    'the answer keeps to its route contract',
  ).toBeUndefined();
  expect(Number.isInteger(status)).toBe(true);
  expect(() => JSON.parse(JSON.stringify(body))).not.toThrow();
  expect(typeof body === 'object' && body !== null && !Array.isArray(body), 'the body is a JSON object').toBe(
    true,
  );
  if (status >= 200 && status < 300) {
    expect('error' in (body as object)).toBe(false);
    if (answer.method.toUpperCase() === 'GET' && !statefulRead(answer.path))
      expect(now(), 'a successful GET changed state').toBe(before);
    return '2xx';
  }
  expect(status, `status ${status} for ${answer.method} ${answer.path.slice(0, 80)}`).toBeGreaterThanOrEqual(
    400,
  );
  expect(status).toBeLessThan(500);
  const { error, message } = body as { error: unknown; message: unknown };
  expect(typeof error).toBe('string');
  expect(Object.keys(HTTP_STATUS_BY_CODE)).toContain(error);
  expect(status).toBe(HTTP_STATUS_BY_CODE[error as keyof typeof HTTP_STATUS_BY_CODE]);
  expect(typeof message).toBe('string');
  expect(now(), `refused ${String(error)} changed state`).toBe(before);
  return error as string;
}
