/**
 * Model-based test of the HTTP twin: fast-check drives random command sequences through `buildServer` and
 * `app.inject` (real HTTP framing, JSON text, headers) and holds every answer against a small reference
 * model (test/helpers/http-model.ts) of agents, posts and likes, follows, standing profile votes, open and
 * direct challenges, games with a chess.js board, Elo, social score and the virtual clock.
 *
 * Covered: registration (free, taken in any case, invalid; the availability check first), posts inside
 * and outside the 30 s cooldown and the hourly limit (429 with Retry-After), open and direct challenges
 * (research phase, self, too many open, downvote block either way), accepts (own, not named, closed,
 * blocked), moves in SAN or UCI by the side to move, the wrong side, an outsider, or after the game ended,
 * likes (own, repeat -> already_liked), follow = upvote, unfollow, votes up/down/clear (a down or clear
 * ends a follow), small time steps and steps past turn deadlines (timeout, rated), challenge expiry, and
 * whole-answer reads of open challenges, the feed, profiles and game detail. A refused request must leave
 * the platform's state fingerprint unchanged.
 *
 * Left out on purpose: replies, humans, bounties and escrow, tournaments, verification, notifications,
 * search, unseen, pagination, malformed input (test/property/bad-input.test.ts fuzzes that) and the
 * 1000-ply move limit (out of reach of short random games).
 */
import type { AddressInfo } from 'node:net';
import type { Move } from 'chess.js';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { buildServer } from '../../src/http/server.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import * as M from '../helpers/http-model.js';
import { FC_SEED } from '../helpers/fc-seed.js';
import { newWorld, type TestWorld } from '../helpers/world.js';

const NUM_RUNS = 50;
const MAX_COMMANDS = 150;
/** Runs over a real socket: fewer, as each request costs a round trip. */
const SOCKET_RUNS = 8;

/** Posts keep the SPEC limits; likes, follows and votes are tightened so short runs reach their limits. */
const RULES: M.ModelRules = {
  post: { limit: 10, cooldownMs: 30_000 },
  like: { limit: 5, cooldownMs: 0 },
  follow: { limit: 4, cooldownMs: 0 },
  vote: { limit: 4, cooldownMs: 0 },
};
const WORLD_RULES = {
  social: {
    limits: {
      like: { agent: RULES.like.limit, human: 10, cooldownMs: 0 },
      follow: { agent: RULES.follow.limit, human: 10, cooldownMs: 0 },
      vote: { agent: RULES.vote.limit, human: 10, cooldownMs: 0 },
    },
  },
};

/** Registration candidates: the first two are registered at setup; two are invalid. */
const NAMES = ['ann', 'ben', 'cleo', 'dana', 'ed', 'bad-name'] as const;

interface Real {
  app: FastifyInstance;
  world: TestWorld;
  /** Set when the server listens on a loopback socket: requests then go through fetch instead of inject. */
  base?: string;
}
type Json = any; // a JSON answer; every field used is checked against the model
interface Answer {
  status: number;
  body: Json;
  retryAfter: string | undefined;
}
type Cmd = fc.AsyncCommand<M.Model, Real>;
const pick = M.pick;

async function send(
  r: Real,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  key?: string,
  body?: unknown,
): Promise<Answer> {
  const auth: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  if (r.base !== undefined) {
    const json = body === undefined ? {} : { body: JSON.stringify(body) };
    const headers: Record<string, string> = {
      ...auth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const res = await fetch(`${r.base}${url}`, { method, headers, ...json });
    return {
      status: res.status,
      body: await res.json(),
      retryAfter: res.headers.get('retry-after') ?? undefined,
    };
  }
  const res = await r.app.inject({
    method,
    url,
    headers: auth,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] };
}

function expectOk(answer: Answer, expected: unknown): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toEqual(expected);
}

/** Sends a request the model says must be refused: the code, its registered status, and no state change. */
async function refused(
  r: Real,
  code: ErrorCode,
  request: () => Promise<Answer>,
  extra: object = {},
): Promise<Answer> {
  const before = r.world.fingerprint();
  const answer = await request();
  expect(answer.body, `expected ${code}`).toMatchObject({ error: code, ...extra });
  expect(answer.status).toBe(HTTP_STATUS_BY_CODE[code]);
  expect(r.world.fingerprint()).toBe(before);
  return answer;
}

async function rateLimited(r: Real, waitMs: number, request: () => Promise<Answer>): Promise<void> {
  const answer = await refused(r, 'rate_limit_exceeded', request);
  expect(answer.status).toBe(429);
  expect(answer.retryAfter).toBe(String(M.retryAfterSeconds(waitMs)));
}

/** Moves both clocks; games that time out on the way must read back as the model has them. */
async function advance(m: M.Model, r: Real, untilMs: number): Promise<void> {
  const timedOut = M.advanceModel(m, untilMs);
  r.world.advanceTo(untilMs);
  for (const game of timedOut) {
    const answer = await send(r, 'GET', `/api/chess/games/${game.id}`);
    expectOk(answer, M.gameDetail(m, game, null));
    expect(answer.body).toMatchObject({ status: 'completed', end_reason: 'timeout' });
  }
}

/** Upper/lower case by the bits of `mask`, so lookups and collisions are exercised case-insensitively. */
function recase(text: string, mask: number): string {
  return [...text].map((ch, i) => ((mask >> i) & 1 ? ch.toUpperCase() : ch)).join('');
}

/** The agent `offset` places after `me` among `count`, skipping `me`; offset 0 (or a lone agent) is `me`. */
function relative(count: number, me: number, offset: number): number {
  return offset === 0 || count === 1 ? me : (me + 1 + ((offset - 1) % (count - 1))) % count;
}

// ---- identity and posts ------------------------------------------------------------------------------

class Register implements Cmd {
  constructor(
    readonly name: number,
    readonly mask: number,
  ) {}
  check = (): boolean => true;
  async run(m: M.Model, r: Real): Promise<void> {
    const handle = recase(pick(NAMES, this.name), this.mask);
    const checkHandle = () => send(r, 'GET', `/api/register/check/${handle}`);
    const refusal: ErrorCode | null = !M.validHandle(handle)
      ? 'validation_error'
      : M.handleTaken(m, handle)
        ? 'handle_taken'
        : null;
    if (refusal === null) {
      expectOk(await checkHandle(), { success: true, available: true, handle });
      return registerAgent(m, r, handle);
    }
    await refused(r, refusal, checkHandle);
    await refused(r, refusal, () => send(r, 'POST', '/api/register', undefined, { handle }));
  }
  toString = (): string => `register(${recase(pick(NAMES, this.name), this.mask)})`;
}

async function registerAgent(m: M.Model, r: Real, handle: string): Promise<void> {
  const answer = await send(r, 'POST', '/api/register', undefined, { handle });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ success: true, handle, verification_required: true });
  expect(answer.body.api_key).toMatch(/^moltchess_/);
  M.addAgent(m, handle, answer.body.agent_id, answer.body.api_key, answer.body.wallet_address);
}

class Post implements Cmd {
  /** `wait`: let the 30 s cooldown pass first (31 s of virtual time); otherwise post at once. */
  constructor(
    readonly by: number,
    readonly wait: boolean,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    if (this.wait) await advance(m, r, m.nowMs + 31_000);
    const author = this.by % m.agents.length;
    const agent = m.agents[author]!;
    const content = `note ${m.posts.length + 1} from ${agent.handle}`;
    const request = () => send(r, 'POST', '/api/social/post', agent.key, { content });
    const wait = M.rateWait(m, agent, 'post');
    if (wait !== null) return rateLimited(r, wait, request);
    const answer = await request();
    expect(answer.status).toBe(200);
    const post = M.recordPost(m, author, answer.body.post_id, content);
    expect(answer.body).toEqual({
      success: true,
      post_id: post.id,
      post: M.postView(m, post, author),
      deduplicated: false,
    });
  }
  toString = (): string => `post(${this.by}${this.wait ? ', after 31 s' : ''})`;
}

// ---- challenges and games ----------------------------------------------------------------------------

class Challenge implements Cmd {
  /** `target` null: an open challenge; otherwise a direct one (possibly at oneself). */
  constructor(
    readonly by: number,
    readonly target: number | null,
    readonly mask: number,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const me = this.by % m.agents.length;
    const opponent = this.target === null ? null : relative(m.agents.length, me, this.target);
    const body = opponent === null ? {} : { opponent_handle: recase(m.agents[opponent]!.handle, this.mask) };
    const request = () => send(r, 'POST', '/api/chess/challenge', m.agents[me]!.key, body);
    const refusal = challengeRefusal(m, me, opponent);
    if (refusal) return void (await refused(r, refusal, request));
    const answer = await request();
    expect(answer.status).toBe(200);
    const challenge: M.ModelChallenge = {
      id: answer.body.challenge.challenge_id,
      challenger: me,
      opponent,
      atMs: m.nowMs,
      status: 'open',
    };
    m.challenges.push(challenge);
    expect(answer.body).toEqual({ success: true, challenge: M.challengeView(m, challenge), ...M.NO_ESCROW });
  }
  toString = (): string => `challenge(${this.by} -> ${this.target ?? 'open'})`;
}

/** One agent opens challenges back to back, past the cap on open challenges. */
class ChallengeBurst implements Cmd {
  constructor(readonly by: number) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const me = this.by % m.agents.length;
    const room = M.researchDone(m.agents[me]!) ? M.MAX_OPEN_CHALLENGES - M.openChallengeCount(m, me) : 0;
    for (let i = 0; i <= room; i++) await new Challenge(me, null, 0).run(m, r); // the last one is refused
  }
  toString = (): string => `challengeBurst(${this.by})`;
}

/** The platform's checks in precedence order; null when the challenge must be created. */
function challengeRefusal(m: M.Model, me: number, opponent: number | null): ErrorCode | null {
  if (!M.researchDone(m.agents[me]!)) return 'research_phase_incomplete';
  if (opponent === me) return 'bad_request';
  if (M.openChallengeCount(m, me) >= M.MAX_OPEN_CHALLENGES) return 'too_many_open_challenges';
  if (opponent !== null && M.downvoteBetween(m, me, opponent)) return 'vote_blocked';
  return null;
}

class Accept implements Cmd {
  /** `openOnly` picks among open challenges; `named` lets a direct challenge's opponent accept it. */
  constructor(
    readonly challenge: number,
    readonly by: number,
    readonly openOnly: boolean,
    readonly named: boolean,
  ) {}
  check = (m: Readonly<M.Model>): boolean => this.candidates(m).length > 0;
  candidates(m: Readonly<M.Model>): M.ModelChallenge[] {
    return this.openOnly ? m.challenges.filter((c) => c.status === 'open') : m.challenges;
  }
  async run(m: M.Model, r: Real): Promise<void> {
    const c = pick(this.candidates(m), this.challenge);
    const me =
      this.named && c.opponent !== null ? c.opponent : relative(m.agents.length, c.challenger, this.by);
    const request = () => send(r, 'POST', `/api/chess/challenges/${c.id}/accept`, m.agents[me]!.key);
    const refusal = acceptRefusal(m, c, me);
    if (refusal) return void (await refused(r, refusal, request));
    const answer = await request();
    const game = M.startGame(m, c, me);
    expectOk(answer, { success: true, game: M.gameSummary(m, game), ...M.NO_ESCROW });
  }
  toString = (): string =>
    `accept(#${this.challenge}${this.openOnly ? ' open' : ''} by ${this.named ? 'named' : this.by})`;
}

function acceptRefusal(m: M.Model, c: M.ModelChallenge, me: number): ErrorCode | null {
  if (!M.researchDone(m.agents[me]!)) return 'research_phase_incomplete';
  if (c.status !== 'open') return 'challenge_not_open';
  if (c.challenger === me) return 'cannot_accept_own_challenge';
  if (c.opponent !== null && c.opponent !== me) return 'challenge_not_for_you';
  if (c.opponent !== null && M.downvoteBetween(m, me, c.challenger)) return 'vote_blocked';
  return null;
}

type Mover = 'turn' | 'wrong' | 'outsider';

class MoveCmd implements Cmd {
  constructor(
    readonly game: number,
    readonly move: number,
    readonly who: Mover,
    readonly uci: boolean,
    readonly activeOnly: boolean,
  ) {}
  check = (m: Readonly<M.Model>): boolean =>
    this.candidates(m).length > 0 && (this.who !== 'outsider' || m.agents.length > 2);
  candidates(m: Readonly<M.Model>): M.ModelGame[] {
    return this.activeOnly ? m.games.filter((g) => g.end === null) : m.games;
  }
  async run(m: M.Model, r: Real): Promise<void> {
    const game = pick(this.candidates(m), this.game);
    const mover = this.moverOf(m, game);
    const legal = M.legalMoves(game);
    const move = legal.length > 0 ? pick(legal, this.move) : null;
    const text =
      move === null ? { move_san: 'e4' } : this.uci ? { move_uci: move.lan } : { move_san: move.san };
    const request = () =>
      send(r, 'POST', '/api/chess/move', m.agents[mover]!.key, { game_id: game.id, ...text });
    const refusal = moveRefusal(m, game, mover);
    if (refusal)
      return void (await refused(r, refusal.code, request, refusal.reason ? { reason: refusal.reason } : {}));
    await playChecked(m, r, game, move!, this.uci);
  }
  moverOf(m: Readonly<M.Model>, game: M.ModelGame): number {
    const side = M.sideToMove(game);
    if (this.who === 'turn') return M.playerOf(game, side);
    if (this.who === 'wrong') return M.playerOf(game, side === 'white' ? 'black' : 'white');
    const outsiders = m.agents.map((_, i) => i).filter((i) => i !== game.white && i !== game.black);
    return pick(outsiders, this.move);
  }
  toString = (): string =>
    `move(#${this.game}${this.activeOnly ? ' live' : ''}, ${this.move}, ${this.who}${this.uci ? ', uci' : ''})`;
}

/** The side to move plays a legal move; the answer must match the model's record of it. */
async function playChecked(m: M.Model, r: Real, game: M.ModelGame, move: Move, uci: boolean): Promise<void> {
  const mover = m.agents[M.playerOf(game, M.sideToMove(game))]!;
  const text = uci ? { move_uci: move.lan } : { move_san: move.san };
  const answer = await send(r, 'POST', '/api/chess/move', mover.key, { game_id: game.id, ...text });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  M.playMove(m, game, move, answer.body.move.move_id);
  const summary = M.gameSummary(m, game);
  const expected = {
    success: true,
    move: M.moveView(game, game.moves.length - 1),
    game_status: summary.status,
  };
  expectOk(answer, { ...expected, game_result: summary.result, end_reason: summary.end_reason });
}

/** Short lines that end a game on the board, so the board's endings (and a rated draw) are reached. */
const LINES = {
  foolsMate: ['f3', 'e5', 'g4', 'Qh4#'],
  stalemate: [
    'e3',
    'a5',
    'Qh5',
    'Ra6',
    'Qxa5',
    'h5',
    'h4',
    'Rah6',
    'Qxc7',
    'f6',
    'Qxd7+',
    'Kf7',
    'Qxb7',
    'Qd3',
    'Qxb8',
    'Qh7',
    'Qxc8',
    'Kg6',
    'Qe6',
  ],
  threefold: ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8'],
} as const;

class PlayLine implements Cmd {
  constructor(
    readonly game: number,
    readonly line: keyof typeof LINES,
    readonly uci: boolean,
  ) {}
  check = (m: Readonly<M.Model>): boolean => this.fresh(m).length > 0;
  fresh(m: Readonly<M.Model>): M.ModelGame[] {
    return m.games.filter((g) => g.end === null && g.moves.length === 0);
  }
  async run(m: M.Model, r: Real): Promise<void> {
    const game = pick(this.fresh(m), this.game);
    for (const san of LINES[this.line]) {
      const move = M.legalMoves(game).find((mv) => mv.san === san);
      expect(move, `${san} is legal in the model`).toBeDefined();
      await playChecked(m, r, game, move!, this.uci);
    }
    expect(game.end, `${this.line} ends the game`).not.toBeNull();
  }
  toString = (): string => `playLine(#${this.game}, ${this.line}${this.uci ? ', uci' : ''})`;
}

function moveRefusal(
  m: M.Model,
  game: M.ModelGame,
  mover: number,
): { code: ErrorCode; reason?: string } | null {
  if (!M.researchDone(m.agents[mover]!)) return { code: 'research_phase_incomplete' };
  const color = M.colorOf(game, mover);
  if (color === null) return { code: 'bad_request', reason: 'not_a_player' };
  if (game.end)
    return {
      code: 'bad_request',
      reason: game.end.reason === 'timeout' ? 'deadline_passed' : 'game_not_active',
    };
  if (color !== M.sideToMove(game)) return { code: 'bad_request', reason: 'not_your_turn' };
  return null;
}

// ---- likes, follows, votes ---------------------------------------------------------------------------

class Like implements Cmd {
  constructor(
    readonly by: number,
    readonly post: number,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.posts.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const me = this.by % m.agents.length;
    const post = pick(m.posts, this.post);
    const request = () => send(r, 'POST', '/api/social/like', m.agents[me]!.key, { post_id: post.id });
    if (post.likedBy.has(me))
      return expectOk(await request(), {
        success: true,
        post_id: post.id,
        already_liked: true,
        likes_count: post.likedBy.size,
      });
    if (post.author === me) return void (await refused(r, 'bad_request', request, { reason: 'own_content' }));
    const wait = M.rateWait(m, m.agents[me]!, 'like');
    if (wait !== null) return rateLimited(r, wait, request);
    const answer = await request();
    post.likedBy.add(me);
    m.agents[me]!.likesGiven++;
    m.agents[me]!.rate.like.push(m.nowMs);
    m.agents[post.author]!.likesReceived++;
    expectOk(answer, { success: true, post_id: post.id, likes_count: post.likedBy.size });
  }
  toString = (): string => `like(${this.by}, post #${this.post})`;
}

class Follow implements Cmd {
  constructor(
    readonly by: number,
    readonly target: number,
    readonly mask: number,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const me = this.by % m.agents.length;
    const target = relative(m.agents.length, me, this.target);
    const handle = m.agents[target]!.handle;
    const request = () =>
      send(r, 'POST', '/api/social/follow', m.agents[me]!.key, { target_handle: recase(handle, this.mask) });
    if (me === target) return void (await refused(r, 'bad_request', request, { reason: 'self_follow' }));
    const answer = (already: boolean) => ({
      success: true,
      already_following: already,
      following: handle,
      target_type: 'agent',
    });
    if (m.follows.has(M.pair(me, target))) return expectOk(await request(), answer(true));
    const wait = M.rateWait(m, m.agents[me]!, 'follow');
    if (wait !== null) return rateLimited(r, wait, request);
    const sent = await request();
    M.startFollow(m, me, target);
    m.agents[me]!.rate.follow.push(m.nowMs);
    M.setVote(m, me, target, 'up'); // SPEC: following an agent is an active profile upvote
    expectOk(sent, answer(false));
    await checkProfile(m, r, target, me);
  }
  toString = (): string => `follow(${this.by} -> ${this.target})`;
}

class Unfollow implements Cmd {
  constructor(
    readonly by: number,
    readonly target: number,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const me = this.by % m.agents.length;
    const target = relative(m.agents.length, me, this.target);
    const handle = m.agents[target]!.handle;
    const request = () =>
      send(r, 'DELETE', '/api/social/follow', m.agents[me]!.key, { target_handle: handle });
    if (!m.follows.has(M.pair(me, target)))
      return expectOk(await request(), { success: true, unfollowed: false, target: handle });
    const wait = M.rateWait(m, m.agents[me]!, 'follow');
    if (wait !== null) return rateLimited(r, wait, request);
    const sent = await request();
    M.endFollow(m, me, target);
    m.agents[me]!.rate.follow.push(m.nowMs);
    // SPEC: unfollowing removes the follow's upvote and applies no downvote.
    if (m.votes.get(M.pair(me, target)) === 'up') M.setVote(m, me, target, null);
    expectOk(sent, { success: true, unfollowed: true, target: handle });
    await checkProfile(m, r, target, me);
  }
  toString = (): string => `unfollow(${this.by} -> ${this.target})`;
}

class VoteCmd implements Cmd {
  constructor(
    readonly by: number,
    readonly target: number,
    readonly vote: 'up' | 'down' | 'clear',
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const me = this.by % m.agents.length;
    const target = relative(m.agents.length, me, this.target);
    const t = m.agents[target]!;
    const request = () =>
      send(r, 'POST', '/api/agents/profile/vote', m.agents[me]!.key, {
        target_handle: t.handle,
        vote: this.vote,
      });
    if (me === target) return void (await refused(r, 'bad_request', request, { reason: 'self_vote' }));
    const next = this.vote === 'clear' ? null : this.vote;
    const standing = m.votes.get(M.pair(me, target)) ?? null;
    const wait = M.rateWait(m, m.agents[me]!, 'vote');
    if (standing !== next && wait !== null) return rateLimited(r, wait, request);
    const answer = await request();
    if (standing !== next) {
      // OURS: nobody follows without upvoting, so a down or clear vote by a follower ends the follow.
      if (next !== 'up' && m.follows.has(M.pair(me, target))) M.endFollow(m, me, target);
      M.setVote(m, me, target, next);
      m.agents[me]!.rate.vote.push(m.nowMs);
    }
    expectOk(answer, {
      success: true,
      target_agent_id: t.id,
      profile_upvotes: t.up,
      profile_downvotes: t.down,
      your_vote: next,
    });
  }
  toString = (): string => `vote(${this.by} -> ${this.target}: ${this.vote})`;
}

// ---- time and reads ----------------------------------------------------------------------------------

class Wait implements Cmd {
  constructor(readonly ms: number) {}
  check = (): boolean => true;
  run = (m: M.Model, r: Real): Promise<void> => advance(m, r, m.nowMs + this.ms);
  toString = (): string => `wait(${this.ms} ms)`;
}

/** Steps just past the earliest live turn deadline: that game (and any due with it) ends by timeout. */
class PassDeadline implements Cmd {
  constructor(readonly extraMs: number) {}
  check = (m: Readonly<M.Model>): boolean => M.nextDeadline(m) !== null;
  run = (m: M.Model, r: Real): Promise<void> => advance(m, r, M.nextDeadline(m)! + this.extraMs);
  toString = (): string => `passDeadline(+${this.extraMs} ms)`;
}

class ReadOpenChallenges implements Cmd {
  check = (): boolean => true;
  run = async (m: M.Model, r: Real): Promise<void> =>
    expectOk(await send(r, 'GET', '/api/chess/challenges/open'), M.openChallengesAnswer(m));
  toString = (): string => 'read(open challenges)';
}

class ReadFeed implements Cmd {
  constructor(readonly viewer: number | null) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const viewer = this.viewer === null ? null : this.viewer % m.agents.length;
    expectOk(
      await send(r, 'GET', '/api/feed', viewer === null ? undefined : m.agents[viewer]!.key),
      M.feedAnswer(m, viewer),
    );
  }
  toString = (): string => `read(feed as ${this.viewer ?? 'nobody'})`;
}

async function checkProfile(
  m: M.Model,
  r: Real,
  target: number,
  viewer: number | null,
  name?: string,
): Promise<void> {
  const key = viewer === null ? undefined : m.agents[viewer]!.key;
  const answer = await send(r, 'GET', `/api/agents/${name ?? m.agents[target]!.handle}`, key);
  expectOk(answer, M.profileAnswer(m, target, viewer));
}

class ReadProfile implements Cmd {
  /** `byId` addresses the profile by UUID instead of the handle (in `mask`'s case). */
  constructor(
    readonly target: number,
    readonly viewer: number | null,
    readonly mask: number,
    readonly byId: boolean,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.agents.length > 0;
  run(m: M.Model, r: Real): Promise<void> {
    const target = this.target % m.agents.length;
    const viewer = this.viewer === null ? null : this.viewer % m.agents.length;
    const agent = m.agents[target]!;
    return checkProfile(m, r, target, viewer, this.byId ? agent.id : recase(agent.handle, this.mask));
  }
  toString = (): string => `read(profile ${this.target} as ${this.viewer ?? 'nobody'})`;
}

class ReadGame implements Cmd {
  constructor(
    readonly game: number,
    readonly viewer: number | null,
  ) {}
  check = (m: Readonly<M.Model>): boolean => m.games.length > 0;
  async run(m: M.Model, r: Real): Promise<void> {
    const game = pick(m.games, this.game);
    const viewer = this.viewer === null ? null : this.viewer % m.agents.length;
    const key = viewer === null ? undefined : m.agents[viewer]!.key;
    expectOk(await send(r, 'GET', `/api/chess/games/${game.id}`, key), M.gameDetail(m, game, viewer));
  }
  toString = (): string => `read(game #${this.game} as ${this.viewer ?? 'nobody'})`;
}

// ---- the run -----------------------------------------------------------------------------------------

const who = fc.nat(7);
const mask = fc.nat(15);
const viewer = fc.option(who, { nil: null });
/** Another agent, or (one time in ten) 0, which names the acting agent itself. */
const other = fc.oneof(
  { arbitrary: fc.constant(0), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 7 }), weight: 9 },
);
const repeat = <T>(times: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T>[] =>
  Array.from({ length: times }, () => arbitrary);

const COMMANDS = [
  fc.tuple(fc.nat(NAMES.length - 1), mask).map(([n, k]) => new Register(n, k)),
  ...repeat(
    3,
    fc.tuple(who, fc.boolean()).map(([b, w]) => new Post(b, w)),
  ),
  ...repeat(
    2,
    fc.tuple(who, fc.option(other, { nil: null }), mask).map(([b, t, k]) => new Challenge(b, t, k)),
  ),
  who.map((b) => new ChallengeBurst(b)),
  ...repeat(
    2,
    fc.tuple(fc.nat(20), other, fc.boolean(), fc.boolean()).map(([c, b, o, n]) => new Accept(c, b, o, n)),
  ),
  ...repeat(
    6,
    fc
      .tuple(
        fc.nat(20),
        fc.nat(200),
        fc.constantFrom<Mover>('turn', 'turn', 'turn', 'turn', 'turn', 'turn', 'wrong', 'outsider'),
        fc.boolean(),
        fc.nat(9),
      )
      .map(([g, mv, w, u, a]) => new MoveCmd(g, mv, w, u, a > 0)),
  ),
  fc
    .tuple(
      fc.nat(20),
      fc.constantFrom<keyof typeof LINES>('foolsMate', 'stalemate', 'threefold'),
      fc.boolean(),
    )
    .map(([g, l, u]) => new PlayLine(g, l, u)),
  ...repeat(
    2,
    fc.tuple(who, fc.nat(30)).map(([b, p]) => new Like(b, p)),
  ),
  fc.tuple(who, other, mask).map(([b, t, k]) => new Follow(b, t, k)),
  fc.tuple(who, other).map(([b, t]) => new Unfollow(b, t)),
  ...repeat(
    2,
    fc
      .tuple(who, other, fc.constantFrom('up' as const, 'down' as const, 'clear' as const))
      .map(([b, t, v]) => new VoteCmd(b, t, v)),
  ),
  fc.integer({ min: 1, max: 90_000 }).map((ms) => new Wait(ms)),
  fc.integer({ min: 20 * 60_000, max: 70 * 60_000 }).map((ms) => new Wait(ms)), // challenges expire, hourly windows slide
  fc.integer({ min: 0, max: 3_000 }).map((ms) => new PassDeadline(ms)),
  fc.constant(new ReadOpenChallenges()),
  viewer.map((v) => new ReadFeed(v)),
  fc.tuple(who, viewer, mask, fc.boolean()).map(([t, v, k, i]) => new ReadProfile(t, v, k, i)),
  fc.tuple(fc.nat(20), viewer).map(([g, v]) => new ReadGame(g, v)),
];

async function setup(socket: boolean): Promise<{ model: M.Model; real: Real }> {
  const world = newWorld({ seed: 'http-model', rules: WORLD_RULES });
  const app = buildServer(world.api);
  const real: Real = { world, app };
  if (socket) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    real.base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
  const model = M.newModel(world.nowMs, RULES);
  for (const handle of NAMES.slice(0, 2)) await registerAgent(model, real, handle);
  return { model, real };
}

function modelProperty(socket: boolean) {
  return fc.asyncProperty(
    fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS, size: 'max' }),
    async (commands) => {
      const run = await setup(socket);
      try {
        await fc.asyncModelRun(() => run, commands);
        // Every profile agrees at the end, whatever the last commands touched.
        for (let i = 0; i < run.model.agents.length; i++) await checkProfile(run.model, run.real, i, null);
      } finally {
        await run.real.app.close();
      }
    },
  );
}

describe('the HTTP API against a reference model', () => {
  it('answers every random command sequence as the model predicts (inject)', async () => {
    await fc.assert(modelProperty(false), { numRuns: NUM_RUNS });
  });

  it('answers the same way over a loopback socket', async () => {
    await fc.assert(modelProperty(true), { seed: FC_SEED + 1, numRuns: SOCKET_RUNS });
  });
});
