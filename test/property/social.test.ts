import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import type { ApiResponse } from '../../src/api/types.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import { socialScoreOf } from '../../src/platform/identity/actors.js';
import { InvariantSuite } from '../../src/sim/invariants/invariants.js';
import { newWorld, type RawRequest, type TestWorld } from '../helpers/world.js';

/**
 * Model-based runs of the social layer through the route table: four agents and a human issue random
 * posts (with @mentions), replies (root, nested, and nested under another post's reply, which must be
 * refused), likes (repeats included), follows and unfollows, profile votes, unseen reads and direct
 * challenges, between small and large steps of virtual time. The invariant suite watches from the first
 * event; each command also checks its own answer against a small model of what must hold.
 */
const AGENTS = ['ann', 'bob', 'cat', 'dan'] as const;
const HUMAN = 'hal';
const HANDLES = [...AGENTS, HUMAN];
const TIGHT_RULES = {
  social: {
    limits: {
      like: { agent: 2, human: 3, cooldownMs: 0 },
      follow: { agent: 2, human: 3, cooldownMs: 0 },
      vote: { agent: 2, human: 2, cooldownMs: 0 },
      reply: { agent: 4, human: 6, cooldownMs: 10_000 },
    },
  },
};

type Command =
  | { kind: 'post'; by: number; mentions: number[] }
  | { kind: 'reply'; by: number; post: number; parent: number | null; crossPost: boolean }
  | { kind: 'like'; by: number; target: number; reply: boolean }
  /** `target` is an offset from `by` among all actors. */
  | { kind: 'follow' | 'unfollow'; by: number; target: number }
  | { kind: 'vote'; by: number; target: number; vote: 'up' | 'down' | 'clear' }
  | { kind: 'unseen'; by: number; limit: number }
  | { kind: 'challenge'; by: number; opponent: number }
  /** `challenge` indexes the challenges created so far; -1 is the newest. */
  | { kind: 'accept'; challenge: number }
  | { kind: 'advance'; ms: number };

// Skewed towards ann and the human, so that one actor meets its limits within a run.
const actor = fc.oneof(
  { arbitrary: fc.constant(0), weight: 2 },
  { arbitrary: fc.constant(4), weight: 1 },
  { arbitrary: fc.nat(HANDLES.length - 1), weight: 3 },
);
const agent = fc.nat(AGENTS.length - 1);
const anyIndex = fc.nat(50);
/** Whom a follow or vote names, as an offset from the actor: now and then itself (0), which must be refused. */
const offset = fc.oneof(
  { arbitrary: fc.constant(0), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: HANDLES.length - 1 }), weight: 8 },
);

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      by: actor,
      mentions: fc.array(actor, { maxLength: 3 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('reply' as const),
      by: actor,
      post: anyIndex,
      parent: fc.option(anyIndex, { nil: null }),
      crossPost: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('like' as const),
      by: actor,
      target: anyIndex,
      reply: fc.boolean(),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('follow' as const, 'unfollow' as const),
      by: actor,
      target: offset,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('vote' as const),
      by: actor,
      target: offset,
      vote: fc.constantFrom('up' as const, 'down' as const, 'clear' as const),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('unseen' as const),
      by: actor,
      limit: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('challenge' as const), by: agent, opponent: agent }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('accept' as const), challenge: anyIndex }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 10 * 60_000, max: 2 * 3_600_000 })),
    }),
    weight: 2,
  },
);

/** One actor's quick run of likes, follows or votes on different targets: it is what meets those limits. */
const burst: fc.Arbitrary<Command[]> = fc
  .record({
    by: actor,
    kind: fc.constantFrom('like' as const, 'follow' as const, 'vote' as const),
    count: fc.integer({ min: 3, max: 6 }),
    start: anyIndex,
  })
  .map(({ by, kind, count, start }) =>
    Array.from({ length: count }, (_, i): Command => {
      const target = 1 + ((start + i) % (HANDLES.length - 1));
      if (kind === 'like') return { kind, by, target: start + i, reply: i % 2 === 0 };
      if (kind === 'follow') return { kind, by, target };
      return { kind, by, target, vote: i % 2 === 0 ? 'down' : 'up' };
    }),
  );

/** A downvote (by either side) and then a direct challenge, created or accepted, between the same two agents. */
const grudge: fc.Arbitrary<Command[]> = fc
  .record({
    by: agent,
    other: fc.integer({ min: 1, max: AGENTS.length - 1 }),
    reverse: fc.boolean(),
    accept: fc.boolean(),
  })
  .map(({ by, other, reverse, accept }): Command[] => {
    const opponent = (by + other) % AGENTS.length;
    const [voter, voted] = reverse ? [opponent, by] : [by, opponent];
    const vote: Command = {
      kind: 'vote',
      by: voter,
      target: (voted - voter + HANDLES.length) % HANDLES.length,
      vote: 'down',
    };
    const challenge: Command = { kind: 'challenge', by, opponent };
    return accept ? [challenge, vote, { kind: 'accept', challenge: -1 }] : [vote, challenge];
  });

const commands = fc
  .array(
    fc.oneof(
      { arbitrary: command.map((c) => [c]), weight: 8 },
      { arbitrary: burst, weight: 1 },
      { arbitrary: grudge, weight: 1 },
    ),
    { minLength: 15, maxLength: 50 },
  )
  .map((chunks) => chunks.flat());

interface Actor {
  handle: string;
  id: string;
  key: string;
  kind: 'agent' | 'human';
}

interface Model {
  world: TestWorld;
  actors: Actor[];
  posts: Array<{ id: string; authorId: string }>;
  replies: Array<{ id: string; postId: string; authorId: string }>;
  likers: Map<string, Set<string>>;
  votes: Map<string, 'up' | 'down'>;
  follows: Set<string>;
  served: Map<string, string[]>;
  challenges: Array<{
    id: string;
    challenger: number;
    opponent: number;
    expiresAtMs: number;
    accepted: boolean;
  }>;
  outcomes: Map<string, number>;
}

const pair = (a: string, b: string) => `${a}>${b}`;

/** Every request goes through here: a refusal must carry the registry's status and change nothing. */
function call(m: Model, request: RawRequest): ApiResponse {
  const before = m.world.fingerprint();
  const response = m.world.raw(request);
  const code = (response.body as { error?: ErrorCode }).error;
  m.outcomes.set(code ?? 'ok', (m.outcomes.get(code ?? 'ok') ?? 0) + 1);
  if (code === undefined) return response;
  expect(response.status).toBe(HTTP_STATUS_BY_CODE[code]);
  expect(
    m.world.fingerprint(),
    `${request.method} ${request.path} refused with ${code} but changed state`,
  ).toBe(before);
  if (code === 'rate_limit_exceeded') {
    const action = (response.body as { action?: string }).action;
    m.outcomes.set(`429 ${action}`, (m.outcomes.get(`429 ${action}`) ?? 0) + 1);
    const retry = (response.body as { retry_after?: unknown }).retry_after;
    expect(Number.isInteger(retry) && (retry as number) >= 1, `retry_after ${String(retry)}`).toBe(true);
    expect(response.headers?.['retry-after']).toBe(String(retry));
  }
  return response;
}

const errorOf = (response: ApiResponse) => (response.body as { error?: ErrorCode }).error;

async function setup(tight: boolean): Promise<{ model: Model; suite: InvariantSuite }> {
  const world = newWorld({ seed: 'social-property', ...(tight ? { rules: TIGHT_RULES } : {}) });
  const suite = new InvariantSuite(world.platform);
  const actors: Actor[] = [];
  for (const handle of AGENTS) {
    const a = await world.agent(handle);
    actors.push({ handle, id: a.id, key: a.apiKey, kind: 'agent' });
  }
  const human = world.raw({ method: 'POST', path: '/_sim/humans', body: { username: HUMAN } }).body as {
    human_id: string;
    api_key: string;
  };
  actors.push({ handle: HUMAN, id: human.human_id, key: human.api_key, kind: 'human' });
  const posts = world.platform.state.postIds.map((id) => ({
    id,
    authorId: world.platform.state.posts.get(id)!.authorId,
  }));
  const model: Model = {
    world,
    actors,
    posts,
    replies: [],
    likers: new Map(),
    votes: new Map(),
    follows: new Set(),
    served: new Map(),
    challenges: [],
    outcomes: new Map(),
  };
  return { model, suite };
}

function doPost(m: Model, c: Extract<Command, { kind: 'post' }>): void {
  const by = m.actors[c.by]!;
  const content = ['gm', ...c.mentions.map((i) => `@${HANDLES[i]}`)].join(' ');
  const response = call(m, { method: 'POST', path: '/api/social/post', key: by.key, body: { content } });
  if (response.status === 200)
    m.posts.push({ id: (response.body as { post_id: string }).post_id, authorId: by.id });
  else expect(errorOf(response)).toBe('rate_limit_exceeded');
}

/** A nested reply names a parent of the same post; `crossPost` picks a parent from another post, which must be refused. */
function doReply(m: Model, c: Extract<Command, { kind: 'reply' }>): void {
  const by = m.actors[c.by]!;
  const post = m.posts[c.post % m.posts.length]!;
  const candidates = m.replies.filter((r) => (c.crossPost ? r.postId !== post.id : r.postId === post.id));
  const parent =
    c.parent === null || candidates.length === 0 ? null : candidates[c.parent % candidates.length]!;
  const body = {
    post_id: post.id,
    content: `re @${HANDLES[(c.by + 1) % HANDLES.length]}`,
    ...(parent ? { parent_reply_id: parent.id } : {}),
  };
  const response = call(m, { method: 'POST', path: '/api/social/reply', key: by.key, body });
  if (parent && parent.postId !== post.id) return expect(errorOf(response)).toBe('validation_error');
  if (response.status !== 201) return expect(errorOf(response)).toBe('rate_limit_exceeded');
  const reply = response.body as { reply_id: string; post_id: string; parent_reply_id: string | null };
  expect(reply.post_id).toBe(post.id);
  expect(reply.parent_reply_id).toBe(parent?.id ?? null);
  m.replies.push({ id: reply.reply_id, postId: post.id, authorId: by.id });
}

/** Likes are idempotent: a repeat answers already_liked with the same count; one's own words cannot be liked. */
function doLike(m: Model, c: Extract<Command, { kind: 'like' }>): void {
  const by = m.actors[c.by]!;
  const pool = c.reply && m.replies.length > 0 ? m.replies : m.posts;
  const target = pool[c.target % pool.length]!;
  const likers = m.likers.get(target.id) ?? new Set<string>();
  const body = pool === m.replies ? { reply_id: target.id } : { post_id: target.id };
  const response = call(m, { method: 'POST', path: '/api/social/like', key: by.key, body });
  const answer = response.body as { already_liked?: boolean; likes_count?: number };
  if (likers.has(by.id)) {
    expect(answer).toMatchObject({ already_liked: true, likes_count: likers.size });
  } else if (target.authorId === by.id) {
    expect(errorOf(response)).toBe('bad_request');
  } else if (response.status === 200) {
    m.likers.set(target.id, likers.add(by.id));
    expect(answer.already_liked).toBeUndefined();
    expect(answer.likes_count).toBe(likers.size);
  } else expect(errorOf(response)).toBe('rate_limit_exceeded');
}

function followBody(target: Actor) {
  return target.kind === 'agent' ? { target_handle: target.handle } : { target_username: target.handle };
}

/** Follow and unfollow: a follow of an agent is its upvote, an unfollow takes that upvote back. */
function doFollow(m: Model, c: Extract<Command, { kind: 'follow' | 'unfollow' }>): void {
  const by = m.actors[c.by]!;
  const target = m.actors[(c.by + c.target) % m.actors.length]!;
  const key = pair(by.id, target.id);
  const method = c.kind === 'follow' ? 'POST' : 'DELETE';
  const response = call(m, { method, path: '/api/social/follow', key: by.key, body: followBody(target) });
  // Following oneself is refused; unfollowing oneself is just "not following".
  if (by.id === target.id && c.kind === 'follow') return expect(errorOf(response)).toBe('bad_request');
  if (response.status !== 200) return expect(errorOf(response)).toBe('rate_limit_exceeded');
  const answer = response.body as { already_following?: boolean; unfollowed?: boolean };
  if (c.kind === 'follow') {
    expect(answer.already_following).toBe(m.follows.has(key));
    m.follows.add(key);
    if (target.kind === 'agent') m.votes.set(key, 'up');
  } else {
    expect(answer.unfollowed).toBe(m.follows.has(key));
    if (m.follows.delete(key) && m.votes.get(key) === 'up') m.votes.delete(key);
  }
}

/** Votes: agents' profiles only; a down or clear vote by a follower ends the follow too. */
function doVote(m: Model, c: Extract<Command, { kind: 'vote' }>): void {
  const by = m.actors[c.by]!;
  const target = m.actors[(c.by + c.target) % m.actors.length]!;
  const key = pair(by.id, target.id);
  const response = call(m, {
    method: 'POST',
    path: '/api/agents/profile/vote',
    key: by.key,
    body: { target_handle: target.handle, vote: c.vote },
  });
  if (target.kind === 'human') return expect(errorOf(response)).toBe('not_found');
  if (by.id === target.id) return expect(errorOf(response)).toBe('bad_request');
  if (response.status !== 200) return expect(errorOf(response)).toBe('rate_limit_exceeded');
  expect((response.body as { your_vote: unknown }).your_vote).toBe(c.vote === 'clear' ? null : c.vote);
  if (c.vote === 'clear') m.votes.delete(key);
  else m.votes.set(key, c.vote);
  if (c.vote !== 'up') m.follows.delete(key);
}

/** Unseen never serves a post twice, never the caller's own, and serves oldest first. */
function doUnseen(m: Model, c: Extract<Command, { kind: 'unseen' }>): void {
  const by = m.actors[c.by]!;
  const response = call(m, {
    method: 'GET',
    path: '/api/feed/unseen',
    key: by.key,
    query: { limit: String(c.limit) },
  });
  expect(response.status).toBe(200);
  const ids = (response.body as { posts: Array<{ id: string }> }).posts.map((p) => p.id);
  const served = m.served.get(by.id) ?? [];
  const order = (id: string) => m.posts.findIndex((p) => p.id === id);
  for (const id of ids) {
    expect(served, `post ${id} served twice to ${by.handle}`).not.toContain(id);
    expect(m.posts[order(id)]!.authorId).not.toBe(by.id);
    expect(order(id)).toBeGreaterThan(served.length === 0 ? -1 : order(served.at(-1)!));
    served.push(id);
  }
  expect(ids.length).toBeLessThanOrEqual(c.limit);
  m.served.set(by.id, served);
}

const blocked = (m: Model, a: Actor, b: Actor) =>
  m.votes.get(pair(a.id, b.id)) === 'down' || m.votes.get(pair(b.id, a.id)) === 'down';

/** A direct challenge across a standing downvote is refused with vote_blocked (unless refused earlier for too many open). */
function doChallenge(m: Model, c: Extract<Command, { kind: 'challenge' }>): void {
  if (c.by === c.opponent) return;
  const [by, opponent] = [m.actors[c.by]!, m.actors[c.opponent]!];
  const response = call(m, {
    method: 'POST',
    path: '/api/chess/challenge',
    key: by.key,
    body: { opponent_handle: opponent.handle },
  });
  const open = m.challenges.filter(
    (x) => x.challenger === c.by && !x.accepted && x.expiresAtMs > m.world.nowMs,
  ).length;
  const tooMany = open >= m.world.platform.ruleset.challenges.maxOpenPerAgent;
  if (tooMany) return expect(errorOf(response)).toBe('too_many_open_challenges');
  if (blocked(m, by, opponent)) return expect(errorOf(response)).toBe('vote_blocked');
  expect(response.status).toBe(200);
  const id = (response.body as { challenge: { challenge_id: string } }).challenge.challenge_id;
  m.challenges.push({
    id,
    challenger: c.by,
    opponent: c.opponent,
    expiresAtMs: m.world.nowMs + m.world.platform.ruleset.challenges.expiryMs,
    accepted: false,
  });
}

function doAccept(m: Model, c: Extract<Command, { kind: 'accept' }>): void {
  if (m.challenges.length === 0) return;
  // -1 names the newest challenge.
  const challenge = c.challenge < 0 ? m.challenges.at(-1)! : m.challenges[c.challenge % m.challenges.length]!;
  const [challenger, opponent] = [m.actors[challenge.challenger]!, m.actors[challenge.opponent]!];
  const response = call(m, {
    method: 'POST',
    path: `/api/chess/challenges/${challenge.id}/accept`,
    key: opponent.key,
  });
  const open = !challenge.accepted && challenge.expiresAtMs > m.world.nowMs;
  if (!open) return expect(errorOf(response)).toBe('challenge_not_open');
  if (blocked(m, challenger, opponent)) return expect(errorOf(response)).toBe('vote_blocked');
  expect(response.status).toBe(200);
  challenge.accepted = true;
}

function run(m: Model, c: Command): void {
  switch (c.kind) {
    case 'post':
      return doPost(m, c);
    case 'reply':
      return doReply(m, c);
    case 'like':
      return doLike(m, c);
    case 'follow':
    case 'unfollow':
      return doFollow(m, c);
    case 'vote':
      return doVote(m, c);
    case 'unseen':
      return doUnseen(m, c);
    case 'challenge':
      return doChallenge(m, c);
    case 'accept':
      return doAccept(m, c);
    case 'advance':
      return m.world.advanceBy(c.ms);
  }
}

/** Every score is non-negative and the public profiles show the platform's own figure. */
function checkScores(m: Model): void {
  for (const a of m.actors) {
    const path = a.kind === 'agent' ? `/api/agents/${a.handle}` : `/api/human/${a.handle}`;
    const body = m.world.raw({ method: 'GET', path }).body as {
      profile?: { social_score: number };
      human?: { social_score: number };
    };
    const shown = (body.profile ?? body.human)!.social_score;
    const actorRecord = m.world.platform.state.agents.get(a.id) ?? m.world.platform.state.humans.get(a.id)!;
    expect(shown).toBeGreaterThanOrEqual(0);
    expect(shown).toBe(socialScoreOf(m.world.platform, actorRecord));
  }
}

describe('the social layer under random commands', () => {
  it('holds every invariant, and every command answers as the model says', async () => {
    const totals = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.boolean(), commands, async (tight, script) => {
        const { model, suite } = await setup(tight);
        for (const c of script) run(model, c);
        checkScores(model);
        const failed = suite.finish(model.world.nowMs).filter((r) => !r.passed);
        expect(failed.map((r) => `${r.name}: ${r.violations.map((v) => v.message).join('; ')}`)).toEqual([]);
        for (const [k, v] of model.outcomes) totals.set(k, (totals.get(k) ?? 0) + v);
      }),
      { numRuns: 40 },
    );
    // The runs reach every branch that matters: limits, repeats, refused nesting and vote blocks.
    const limited = ['429 post', '429 reply', '429 like', '429 follow', '429 vote'];
    for (const code of [
      'ok',
      'validation_error',
      'vote_blocked',
      'bad_request',
      'challenge_not_open',
      ...limited,
    ]) {
      expect(totals.get(code) ?? 0, `no run answered ${code}`).toBeGreaterThan(0);
    }
  });
});
