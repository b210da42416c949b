import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routes/index.js';
import { MULTI_LINE_TEXT, SINGLE_LINE_TEXT, TEXT_RULE_MESSAGE } from '../../src/api/contract/schema.js';
import type { ApiResponse, JsonSchema, QueryValue } from '../../src/api/types.js';
import { expectErrorResponse, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * Control, bidi and zero-width characters are refused in every string a client sends (docs/rules.md,
 * "Text characters"): 400 validation_error naming the field, and nothing changes. Tab, LF and CR stay allowed
 * in prose (post and reply content, bios, tournament descriptions); the zero-width joiner stays allowed
 * everywhere, since emoji sequences need it. fast-check prints the seed of a failing run; replay it with
 * FC_SEED=<seed>.
 */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const CLASSES: Record<string, number[]> = {
  nul: [0x00],
  c0: range(0x01, 0x1f).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d),
  c1: range(0x7f, 0x9f),
  bidi: [0x061c, 0x200e, 0x200f, ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)],
  zero_width: [0x200b, 0x200c, ...range(0x2060, 0x2064), 0xfeff],
};
const LINE_BREAKS = [0x09, 0x0a, 0x0d];
const FORBIDDEN_IN_PROSE = Object.values(CLASSES).flat();
const FORBIDDEN_IN_LINES = [...FORBIDDEN_IN_PROSE, ...LINE_BREAKS];
const FAMILY = '👨‍👩‍👧'; // three emoji joined by U+200D
const RULES = { tournaments: { creatorMinGames: 0 } };

const hex = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** One field of one route: the request carrying `text` in that field, everything else valid. */
interface Target {
  name: string;
  field: string;
  prose: boolean;
  request: (
    f: Fixture,
    text: string,
  ) => { method: string; path: string; key?: string; body?: unknown; query?: Record<string, QueryValue> };
}

interface Fixture {
  world: TestWorld;
  alice: TestAgent;
  postId: string;
  fresh: () => string;
}

const TARGETS: Target[] = [
  {
    name: 'register bio',
    field: 'bio',
    prose: true,
    request: (f, t) => ({ method: 'POST', path: '/api/register', body: { handle: f.fresh(), bio: t } }),
  },
  {
    name: 'register tags',
    field: 'tags.1',
    prose: false,
    request: (f, t) => ({
      method: 'POST',
      path: '/api/register',
      body: { handle: f.fresh(), tags: ['chess', t] },
    }),
  },
  {
    name: 'register handle',
    field: 'handle',
    prose: false,
    request: (_f, t) => ({ method: 'POST', path: '/api/register', body: { handle: `ab${t}cd` } }),
  },
  {
    name: 'human display name',
    field: 'display_name',
    prose: false,
    request: (f, t) => ({
      method: 'POST',
      path: '/_sim/humans',
      body: { username: f.fresh(), display_name: t },
    }),
  },
  {
    name: 'human bio',
    field: 'bio',
    prose: true,
    request: (f, t) => ({ method: 'POST', path: '/_sim/humans', body: { username: f.fresh(), bio: t } }),
  },
  {
    name: 'external display name',
    field: 'display_name',
    prose: false,
    request: (_f, t) => ({
      method: 'PATCH',
      path: '/_sim/network/accounts/alice',
      body: { display_name: t },
    }),
  },
  {
    name: 'profile bio',
    field: 'bio',
    prose: true,
    request: (f, t) => ({
      method: 'PATCH',
      path: '/api/agents/profile',
      key: f.alice.apiKey,
      body: { bio: t },
    }),
  },
  {
    name: 'profile tags',
    field: 'tags.0',
    prose: false,
    request: (f, t) => ({
      method: 'PATCH',
      path: '/api/agents/profile',
      key: f.alice.apiKey,
      body: { tags: [t] },
    }),
  },
  {
    name: 'profile github',
    field: 'github_username',
    prose: false,
    request: (f, t) => ({
      method: 'PATCH',
      path: '/api/agents/profile',
      key: f.alice.apiKey,
      body: { github_username: t },
    }),
  },
  {
    name: 'post content',
    field: 'content',
    prose: true,
    request: (f, t) => ({
      method: 'POST',
      path: '/api/social/post',
      key: f.alice.apiKey,
      body: { content: t },
    }),
  },
  {
    name: 'reply content',
    field: 'content',
    prose: true,
    request: (f, t) => ({
      method: 'POST',
      path: '/api/social/reply',
      key: f.alice.apiKey,
      body: { post_id: f.postId, content: t },
    }),
  },
  {
    name: 'tournament name',
    field: 'name',
    prose: false,
    request: (f, t) => ({
      method: 'POST',
      path: '/api/chess/tournaments',
      key: f.alice.apiKey,
      body: { name: t, max_participants: 8 },
    }),
  },
  {
    name: 'tournament description',
    field: 'description',
    prose: true,
    request: (f, t) => ({
      method: 'POST',
      path: '/api/chess/tournaments',
      key: f.alice.apiKey,
      body: { name: 'Cup', max_participants: 8, description: t },
    }),
  },
  {
    name: 'search query',
    field: 'q',
    prose: false,
    request: (f, t) => ({ method: 'GET', path: '/api/search/posts', key: f.alice.apiKey, query: { q: t } }),
  },
  {
    name: 'directory search',
    field: 'search',
    prose: false,
    request: (_f, t) => ({ method: 'GET', path: '/api/agents', query: { search: t } }),
  },
  {
    name: 'directory tag',
    field: 'tag.0',
    prose: false,
    request: (_f, t) => ({ method: 'GET', path: '/api/agents', query: { tag: t } }),
  },
];

async function fixture(): Promise<Fixture> {
  const world = newWorld({ seed: 'text-characters', rules: RULES });
  const alice = await world.agent('alice');
  world.advanceBy(31_000); // past the 30 s between posts
  const posted = await alice.client.post('a post to reply to');
  let n = 0;
  return { world, alice, postId: posted.post_id, fresh: () => `fresh_${++n}` };
}

function send(f: Fixture, target: Target, text: string): ApiResponse {
  return f.world.raw(target.request(f, text));
}

/** Refused with 400 validation_error naming the field, in words, and the platform is exactly as it was. */
function expectRefused(f: Fixture, target: Target, text: string): void {
  const before = f.world.fingerprint();
  const response = send(f, target, text);
  const label = `${target.name} with ${[...text].map((c) => hex(c.codePointAt(0)!)).join(' ')}`;
  expect(response.status, label).toBe(400);
  expectErrorResponse(response, 'validation_error');
  expect(response.body, label).toMatchObject({
    field: target.field,
    message: `${target.field}: ${TEXT_RULE_MESSAGE}`,
  });
  expect(f.world.fingerprint(), label).toBe(before);
}

describe('forbidden characters in client strings', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });

  for (const [kind, codes] of Object.entries(CLASSES)) {
    it(`refuses ${kind} characters (${codes.length} code points) in every text field, changing nothing`, () => {
      for (const target of TARGETS)
        for (const code of codes) expectRefused(f, target, `ok ${String.fromCodePoint(code)} ok`);
    });
  }

  it('refuses tab, LF and CR in single-line fields only', () => {
    for (const target of TARGETS.filter((t) => !t.prose))
      for (const code of LINE_BREAKS) expectRefused(f, target, `a${String.fromCodePoint(code)}b`);
  });

  it('refuses a forbidden character at either end, alone, or among emoji', () => {
    const post = TARGETS.find((t) => t.name === 'post content')!;
    for (const text of ['\u202Egpj.exe', 'hello\u200B', '\uFEFF', `${FAMILY}\u2066${FAMILY}`, '\u0000'])
      expectRefused(f, post, text);
  });
});

describe('what stays allowed', () => {
  it('keeps line breaks and tabs in posts, replies and bios, and emoji joined by U+200D everywhere', async () => {
    const world = newWorld({ seed: 'text-allowed', rules: RULES });
    const alice = await world.agent('alice', {
      bio: `line one\nline two\r\n\ttabbed ${FAMILY}`,
      tags: [`family${FAMILY}`],
    });
    const me = world.platform.state.agents.get(alice.id)!;
    expect(me.bio).toBe(`line one\nline two\r\n\ttabbed ${FAMILY}`);
    expect(me.tags).toEqual([`family${FAMILY}`]);

    world.advanceBy(31_000); // past the 30 s between posts
    const posted = await alice.client.post(`gg\n\nwell played ${FAMILY}\ttab`);
    expect(world.platform.state.posts.get(posted.post_id)!.content).toBe(`gg\n\nwell played ${FAMILY}\ttab`);
    const reply = world.raw({
      method: 'POST',
      path: '/api/social/reply',
      key: alice.apiKey,
      body: { post_id: posted.post_id, content: 'first\nsecond' },
    });
    expect(reply.status).toBe(201);

    const human = world.raw({
      method: 'POST',
      path: '/_sim/humans',
      body: { username: 'hal', display_name: `Hal ${FAMILY}`, bio: 'two\nlines' },
    });
    expect(human.status, JSON.stringify(human.body)).toBe(200);
    const tournament = world.raw({
      method: 'POST',
      path: '/api/chess/tournaments',
      key: alice.apiKey,
      body: { name: `Cup ${FAMILY}`, max_participants: 8, description: 'rules:\n1. play' },
    });
    expect(tournament.status, JSON.stringify(tournament.body)).toBe(200);
    const search = world.raw({
      method: 'GET',
      path: '/api/search/posts',
      key: alice.apiKey,
      query: { q: FAMILY },
    });
    expect((search.body as { total: number }).total).toBe(1);
    // Other non-ASCII text is untouched: accents, CJK, RTL letters (without override characters).
    world.advanceBy(31_000);
    expect((await alice.client.post('café 国际象棋 שחמט')).success).toBe(true);
  });

  it('validates handles and ids as before', async () => {
    const world = newWorld({ seed: 'text-handles' });
    expect((await world.client().register({ handle: 'Good_name.1' })).success).toBe(true);
    const accented = world.raw({ method: 'POST', path: '/api/register', body: { handle: 'café_bot' } });
    expectErrorResponse(accented, 'validation_error');
    expect((accented.body as { message: string }).message).not.toContain(TEXT_RULE_MESSAGE); // the handle rule's own words
    const unknown = world.raw({
      method: 'GET',
      path: '/api/feed/posts/00000000-0000-4000-8000-000000000000',
    });
    expectErrorResponse(unknown, 'not_found');
  });
});

describe('the rule covers every route', () => {
  /** Every string schema in the route table, with the property name it sits under. */
  function stringSchemas(schema: unknown, name: string, out: Array<[string, JsonSchema]>): void {
    if (typeof schema !== 'object' || schema === null) return;
    const s = schema as JsonSchema;
    const types = ([] as unknown[]).concat(s['type']);
    if (types.includes('string')) out.push([name, s]);
    for (const [key, child] of Object.entries((s['properties'] as Record<string, unknown> | undefined) ?? {}))
      stringSchemas(child, key, out);
    if (s['items']) stringSchemas(s['items'], name, out);
  }

  it('gives every free-text string of every route a text rule, prose only to prose fields, and no other pattern', () => {
    const found: Array<[string, JsonSchema]> = [];
    for (const route of ROUTES)
      for (const part of [route.contract.params, route.contract.query, route.contract.body])
        stringSchemas(part, '', found);
    expect(found.length).toBeGreaterThan(40);
    for (const [name, schema] of found) {
      if (schema['enum']) continue; // a closed list of words needs no character rule
      const expected = ['content', 'bio', 'description', 'text'].includes(name)
        ? MULTI_LINE_TEXT
        : SINGLE_LINE_TEXT;
      expect(schema['pattern'], name).toBe(expected);
    }
  });
});

describe('forbidden characters (property)', () => {
  it('refuses any string holding a forbidden code point, in any text field, and changes no state', async () => {
    const f = await fixture();
    const targetArb = fc.constantFrom(...TARGETS);
    const caseArb = targetArb.chain((target) =>
      fc.record({
        target: fc.constant(target),
        before: fc.string({ unit: 'grapheme', maxLength: 12 }),
        code: fc.constantFrom(...(target.prose ? FORBIDDEN_IN_PROSE : FORBIDDEN_IN_LINES)),
        after: fc.string({ unit: 'grapheme', maxLength: 12 }),
      }),
    );
    fc.assert(
      fc.property(caseArb, ({ target, before, code, after }) => {
        expectRefused(f, target, `${before}${String.fromCodePoint(code)}${after}`);
      }),
      { numRuns: 500 },
    );
  });
});
