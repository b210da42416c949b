import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/kernel/errors.js';
import {
  openChallengesInvolving,
  openPublicChallengesPage,
} from '../../src/platform/chess/challenge-index.js';
import { acceptChallenge, createChallenge, openChallenges } from '../../src/platform/chess/challenges.js';
import { publishExternal } from '../../src/platform/identity/external-network.js';
import { feedPage } from '../../src/platform/social/feed.js';
import { allGamesPage } from '../../src/platform/chess/game-index.js';
import { gamesPlayed, listGames, submitMove } from '../../src/platform/chess/games.js';
import { registerHuman } from '../../src/platform/identity/humans.js';
import { register, updateProfile } from '../../src/platform/identity/identity.js';
import {
  leaderboardPage,
  rankedAgents,
  rankedAround,
  type RankedAgent,
} from '../../src/platform/chess/leaderboards.js';
import { like } from '../../src/platform/social/likes.js';
import { likeIndex } from '../../src/platform/social/like-index.js';
import { agentsVerifiedAs } from '../../src/platform/identity/owner-index.js';
import type { Platform } from '../../src/platform/platform.js';
import { PostIndex } from '../../src/platform/social/post-index.js';
import { SortedList } from '../../src/platform/sorted-list.js';
import { createPost } from '../../src/platform/social/posts.js';
import { createReply } from '../../src/platform/social/replies.js';
import { searchPosts, searchPostsPage } from '../../src/platform/social/search.js';
import {
  POST_TYPES,
  type Agent,
  type Challenge,
  type GameStatus,
  type Human,
  type Post,
  type PostType,
} from '../../src/platform/state.js';
import { expectedVerificationText, verifyAgent } from '../../src/platform/identity/verification.js';
import { FEED_SORTS, matchesQuery, queryKey, rankItems, type FeedSort } from '../../src/rules/social/feed.js';
import { handleKey } from '../../src/rules/identity/identity.js';
import { compareRanked, isRanked } from '../../src/rules/chess/leaderboard.js';
import { newWorld, TURN_MS } from '../helpers/world.js';

/**
 * The read indexes (leaderboard order, ranked feeds, post search, open challenges, the all-players game
 * list, owned agents, likes by actor) against the answers they replaced: a scan, and often a sort, of every agent, post,
 * challenge or game on each read. Random worlds of agents and a human post, like, reply, rename themselves,
 * challenge, accept, let clocks run out, finish rated games and verify, with reads in between, so each index
 * is built at a random moment and then kept current through later changes. Every read must equal the
 * scanning answer: the same rows, in the same order, with the same totals.
 */
const AGENTS = 7;
const ACTORS = AGENTS + 1; // the last actor is the human
/** Mixed case and a non-ASCII letter, so matching must lower-case both sides as the rule does. */
const WORDS = ['Sicilian', 'french', 'ENDGAME', 'rook', 'Knight', 'Ärger', 'gambit'] as const;
const QUERIES = ['sic', 'SIC', 'en', 'Rook', 'ärg', 'ÄRGER', 'ght g', 'k', 'zz', ''] as const;
/** Without rate limits or onboarding, every generated action is judged on its own merits only. */
const OPEN_RULES = {
  research: { minPosts: 0, minFollows: 0, minLikes: 0, verifiedUnlocks: false },
  identity: { handleChanges: 1000 },
  social: {
    limits: {
      post: { agent: 10_000, human: 10_000, cooldownMs: 0 },
      reply: { agent: 10_000, human: 10_000, cooldownMs: 0 },
      like: { agent: 10_000, human: 10_000, cooldownMs: 0 },
    },
  },
};

type Command =
  | { kind: 'post'; by: number; words: number[]; postType: PostType }
  /** `reply`: likes a reply (named under post_id, which the route accepts) instead of a post. */
  | { kind: 'like'; by: number; post: number; reply: boolean }
  | { kind: 'reply'; by: number; post: number }
  /** White wins when it moves once and Black lets the clock run out; Black wins when White never moves. */
  | { kind: 'game'; white: number; black: number; whiteWins: boolean }
  | { kind: 'rename'; agent: number; name: number }
  /** `opponent` null: an open challenge. */
  | { kind: 'challenge'; by: number; opponent: number | null }
  /** `pick` indexes every challenge made so far (most are no longer open, which is refused). */
  | { kind: 'accept'; by: number; pick: number }
  /** Past a turn deadline (a timeout ends the game) or past a challenge's expiry. */
  | { kind: 'advance'; ms: number }
  /** Verifies with one of a few external handles, spelled in either case (one owner, several agents). */
  | { kind: 'verify'; agent: number; owner: number; upper: boolean }
  | { kind: 'feed'; sort: FeedSort; postType: PostType | null; limit: number; offset: number }
  | { kind: 'search'; q: string; sort: FeedSort; postType: PostType | null; limit: number; offset: number }
  | { kind: 'board'; limit: number; offset: number }
  | { kind: 'around'; agent: number; half: number }
  | { kind: 'challenges'; agent: number }
  | { kind: 'publicChallenges'; challenger: number | null; limit: number; offset: number }
  | { kind: 'games'; status: GameStatus | undefined; limit: number; offset: number }
  | { kind: 'owned'; owner: number }
  /** Every actor's like of every post and reply, as the like index answers it. */
  | { kind: 'liked' };

const actor = fc.nat(ACTORS - 1);
const agentIndex = fc.nat(AGENTS - 1);
const anyIndex = fc.nat(60);
const sort = fc.constantFrom(...FEED_SORTS);
/** Mostly the common types, so filtered views have members. */
const postType = fc.oneof(
  { arbitrary: fc.constantFrom<PostType>('standard', 'challenge'), weight: 3 },
  { arbitrary: fc.constantFrom(...POST_TYPES), weight: 1 },
);
const filter = fc.option(postType, { nil: null, freq: 2 });
const paging = { limit: fc.integer({ min: 1, max: 12 }), offset: fc.oneof(fc.constant(0), fc.nat(30)) };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      by: actor,
      words: fc.array(fc.nat(WORDS.length - 1), { minLength: 1, maxLength: 3 }),
      postType,
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('like' as const),
      by: actor,
      post: anyIndex,
      reply: fc.boolean(),
    }),
    weight: 8,
  },
  { arbitrary: fc.record({ kind: fc.constant('reply' as const), by: actor, post: anyIndex }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('game' as const),
      white: agentIndex,
      black: agentIndex,
      whiteWins: fc.boolean(),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('rename' as const), agent: agentIndex, name: fc.nat(40) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('feed' as const), sort, postType: filter, ...paging }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('search' as const),
      q: fc.constantFrom(...QUERIES),
      sort,
      postType: filter,
      ...paging,
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('board' as const), ...paging }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('around' as const),
      agent: agentIndex,
      half: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('challenge' as const),
      by: agentIndex,
      opponent: fc.option(agentIndex, { nil: null }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('accept' as const), by: agentIndex, pick: anyIndex }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(1_000, TURN_MS, 61 * 60_000),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('verify' as const),
      agent: agentIndex,
      owner: fc.nat(2),
      upper: fc.boolean(),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('challenges' as const), agent: agentIndex }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('publicChallenges' as const),
      challenger: fc.option(agentIndex, { nil: null }),
      ...paging,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('games' as const),
      status: fc.constantFrom<GameStatus | undefined>(undefined, 'active', 'completed', 'pending'),
      ...paging,
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('owned' as const), owner: fc.nat(2) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('liked' as const) }), weight: 1 },
);

class Sandbox {
  readonly world = newWorld({ seed: 'read-indexes', rules: OPEN_RULES });
  readonly p: Platform = this.world.platform;
  readonly actors: Array<Agent | Human> = [];
  readonly challenges: Challenge[] = [];
  /** Built beside the platform's own index, with limits so small that eviction and trimming happen often. */
  readonly tiny = new PostIndex(this.p, { searchViewsKept: 2, changeLogLimit: 4 });

  constructor() {
    this.p.onEvent((event) => this.tiny.follow(event));
    for (let i = 0; i < AGENTS; i++) this.actors.push(register(this.p, { handle: `agent${i}` }).agent);
    this.actors.push(registerHuman(this.p, { username: 'human0' }).human);
  }

  agent(index: number): Agent {
    return this.actors[index] as Agent;
  }

  post(index: number): Post | undefined {
    const ids = this.p.state.postIds;
    return ids.length === 0 ? undefined : this.p.state.posts.get(ids[index % ids.length]!);
  }

  reply(index: number): string | undefined {
    const ids = [...this.p.state.replies.keys()];
    return ids.length === 0 ? undefined : ids[index % ids.length];
  }

  run(c: Command): void {
    if (c.kind === 'post')
      createPost(this.p, this.actors[c.by]!, {
        content: c.words.map((w) => WORDS[w]).join(' '),
        post_type: c.postType,
      });
    else if (c.kind === 'like')
      this.#maybe(() =>
        like(this.p, this.actors[c.by]!, {
          post_id: (c.reply ? this.reply(c.post) : this.post(c.post)?.id) ?? 'none',
        }),
      );
    else if (c.kind === 'reply')
      this.#maybe(() =>
        createReply(this.p, this.actors[c.by]!, {
          post_id: this.post(c.post)?.id ?? 'none',
          content: 'a reply',
        }),
      );
    else if (c.kind === 'game') this.#game(c.white, c.black, c.whiteWins);
    else if (c.kind === 'rename')
      this.#maybe(() => updateProfile(this.p, this.agent(c.agent), { handle: `Name${c.name}` }));
    else if (c.kind === 'challenge')
      this.#maybe(() =>
        this.challenges.push(
          createChallenge(this.p, this.agent(c.by), {
            opponent_handle: c.opponent === null ? null : this.agent(c.opponent).handle,
          }),
        ),
      );
    else if (c.kind === 'accept')
      this.#maybe(() =>
        acceptChallenge(
          this.p,
          this.agent(c.by),
          this.challenges[c.pick % Math.max(1, this.challenges.length)]?.id ?? 'none',
        ),
      );
    else if (c.kind === 'advance') this.world.advanceBy(c.ms);
    else if (c.kind === 'verify')
      this.#verify(this.agent(c.agent), `${c.upper ? 'Owner' : 'owner'}${c.owner}`);
    else if (c.kind === 'liked') this.#checkLikes();
    else if (
      c.kind === 'challenges' ||
      c.kind === 'publicChallenges' ||
      c.kind === 'games' ||
      c.kind === 'owned'
    )
      this.#checkListRead(c);
    else this.#checkRead(c);
  }

  /** The like index against the state's like keys, for every actor and every post and reply. */
  #checkLikes(): void {
    const targets = [...this.p.state.posts.keys(), ...this.p.state.replies.keys(), 'none'];
    for (const actor of this.actors)
      for (const target of targets)
        expect(likeIndex(this.p).has(actor.id, target)).toBe(this.p.state.likes.has(`${actor.id}>${target}`));
  }

  #verify(agent: Agent, externalHandle: string): void {
    publishExternal(this.p, externalHandle, expectedVerificationText(agent));
    verifyAgent(this.p, agent, externalHandle);
  }

  #checkListRead(c: Extract<Command, { kind: 'challenges' | 'publicChallenges' | 'games' | 'owned' }>): void {
    if (c.kind === 'challenges') {
      const id = this.agent(c.agent).id;
      const expected = openChallenges(this.p).filter((ch) => ch.challengerId === id || ch.opponentId === id);
      expect(ids(openChallengesInvolving(this.p, id))).toEqual(ids(expected));
    } else if (c.kind === 'publicChallenges') {
      const challengerId = c.challenger === null ? undefined : this.agent(c.challenger).id;
      const expected = openChallenges(this.p).filter(
        (ch) => ch.opponentId === null && (challengerId === undefined || ch.challengerId === challengerId),
      );
      const got = openPublicChallengesPage(this.p, c.limit, c.offset, challengerId);
      expect(ids(got.rows)).toEqual(ids(expected.slice(c.offset, c.offset + c.limit)));
      expect(got.total).toBe(expected.length);
    } else if (c.kind === 'games') {
      const expected = listGames(this.p, null, c.status);
      const got = allGamesPage(this.p, c.status, c.limit, c.offset);
      expect(ids(got.games)).toEqual(ids(expected.slice(c.offset, c.offset + c.limit)));
      expect(got.total).toBe(expected.length);
    } else {
      const key = handleKey(`owner${c.owner}`);
      const expected = [...this.p.state.agents.values()].filter(
        (a) => a.verified && a.twitterHandle !== null && handleKey(a.twitterHandle) === key,
      );
      expect(ids(agentsVerifiedAs(this.p, `OWNER${c.owner}`))).toEqual(ids(expected));
    }
  }

  #game(white: number, black: number, whiteWins: boolean): void {
    if (white === black) return;
    const challenge = createChallenge(this.p, this.agent(white), {
      opponent_handle: this.agent(black).handle,
    });
    const { game } = acceptChallenge(this.p, this.agent(black), challenge.id);
    if (whiteWins) submitMove(this.p, this.agent(white), { game_id: game.id, move_uci: 'e2e4' });
    this.world.advanceBy(TURN_MS);
    expect(game.status).toBe('completed');
  }

  /** Refusals (own post, repeated like, a taken name, no post yet) are part of a random world; they change nothing. */
  #maybe(action: () => unknown): void {
    try {
      action();
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
    }
  }

  #checkRead(c: Extract<Command, { kind: 'feed' | 'search' | 'board' | 'around' }>): void {
    if (c.kind === 'feed') {
      const expected = fullSortFeed(this.p, c.sort, c.postType, c.limit, c.offset);
      const got = feedPage(this.p, {
        sort: c.sort,
        ...(c.postType === null ? {} : { postType: c.postType }),
        limit: c.limit,
        offset: c.offset,
      });
      expect(seqs(got.posts)).toEqual(seqs(expected.posts));
      expect(got.total).toBe(expected.total);
      const view = this.tiny.typeView(c.postType);
      expect(seqs(view.slice(c.sort, c.offset, c.offset + c.limit))).toEqual(seqs(expected.posts));
      expect(view.size).toBe(expected.total);
    } else if (c.kind === 'search') {
      const all = fullSortSearch(this.p, c.q, c.sort, c.postType);
      const page = all.slice(c.offset, c.offset + c.limit);
      const postType = c.postType === null ? undefined : c.postType;
      expect(seqs(searchPosts(this.p, c.q, c.sort, postType))).toEqual(seqs(all));
      const got = searchPostsPage(this.p, {
        q: c.q,
        sort: c.sort,
        postType,
        limit: c.limit,
        offset: c.offset,
      });
      expect(seqs(got.posts)).toEqual(seqs(page));
      expect(got.total).toBe(all.length);
      const view = this.tiny.searchView(queryKey(c.q), c.postType);
      expect(seqs(view.slice(c.sort, c.offset, c.offset + c.limit))).toEqual(seqs(page));
    } else if (c.kind === 'board') {
      const all = fullSortLeaderboard(this.p);
      expect(rows(rankedAgents(this.p))).toEqual(rows(all));
      const got = leaderboardPage(this.p, c.limit, c.offset);
      expect(rows(got.rows)).toEqual(rows(all.slice(c.offset, c.offset + c.limit)));
      expect(got.total).toBe(all.length);
    } else {
      const expected = fullSortAround(this.p, this.agent(c.agent), c.half);
      const got = rankedAround(this.p, this.agent(c.agent), c.half);
      expect({ rows: rows(got.rows), yourRank: got.yourRank, total: got.total }).toEqual({
        rows: rows(expected.rows),
        yourRank: expected.yourRank,
        total: expected.total,
      });
    }
  }
}

const seqs = (posts: readonly Post[]) => posts.map((post) => post.seq);
const ids = (records: ReadonlyArray<{ id: string }>) => records.map((record) => record.id);
const rows = (ranked: readonly RankedAgent[]) => ranked.map((r) => `${r.rank}:${r.agent.handle}`);

// The answers the indexes replaced, as they were written: every agent or post mapped, filtered and sorted.

function fullSortLeaderboard(p: Platform): RankedAgent[] {
  const candidates = [...p.state.agents.values()].map((agent) => ({
    agent,
    handle: agent.handle,
    elo: agent.elo,
    gamesPlayed: gamesPlayed(agent),
  }));
  return candidates
    .filter(isRanked)
    .sort(compareRanked)
    .map((c, i) => ({ rank: i + 1, agent: c.agent }));
}

function fullSortAround(
  p: Platform,
  caller: Agent,
  half: number,
): { rows: RankedAgent[]; yourRank: number | null; total: number } {
  const all = fullSortLeaderboard(p);
  const index = all.findIndex((r) => r.agent.id === caller.id);
  if (index < 0) {
    const at = all.findIndex((r) => r.agent.elo < caller.elo);
    const centre = at < 0 ? all.length : at;
    return { rows: all.slice(Math.max(0, centre - half), centre + half), yourRank: null, total: all.length };
  }
  return {
    rows: all.slice(Math.max(0, index - half), index + half + 1),
    yourRank: index + 1,
    total: all.length,
  };
}

function fullSortFeed(
  p: Platform,
  sort: FeedSort,
  postType: PostType | null,
  limit: number,
  offset: number,
): { posts: Post[]; total: number } {
  const matching = p.state.postIds
    .map((id) => p.state.posts.get(id)!)
    .filter((post) => postType === null || post.postType === postType);
  const ranked = rankItems(matching, sort);
  return { posts: ranked.slice(offset, offset + limit), total: ranked.length };
}

function fullSortSearch(p: Platform, q: string, sort: FeedSort, postType: PostType | null): Post[] {
  const matching = p.state.postIds
    .map((id) => p.state.posts.get(id)!)
    .filter((post) => (postType === null || post.postType === postType) && matchesQuery(post.content, q));
  return rankItems(matching, sort);
}

describe('read indexes equal the full sorts they replaced', () => {
  it('each index answers as the scan or sort it replaced, on random worlds', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 150, size: 'max' }), (commands) => {
        const sandbox = new Sandbox();
        for (const c of commands) sandbox.run(c);
        // A last full round of reads, so every run compares each index at least once at its end state.
        for (const s of FEED_SORTS) {
          sandbox.run({ kind: 'feed', sort: s, postType: null, limit: 100, offset: 0 });
          sandbox.run({ kind: 'search', q: 'e', sort: s, postType: null, limit: 100, offset: 0 });
        }
        sandbox.run({ kind: 'board', limit: 100, offset: 0 });
        for (let i = 0; i < AGENTS; i++) sandbox.run({ kind: 'around', agent: i, half: 2 });
        for (let i = 0; i < AGENTS; i++) sandbox.run({ kind: 'challenges', agent: i });
        sandbox.run({ kind: 'publicChallenges', challenger: null, limit: 100, offset: 0 });
        for (const status of [undefined, 'pending', 'active', 'completed', 'cancelled'] as const)
          sandbox.run({ kind: 'games', status, limit: 100, offset: 0 });
        for (let owner = 0; owner < 3; owner++) sandbox.run({ kind: 'owned', owner });
        sandbox.run({ kind: 'liked' });
      }),
      { numRuns: 80 },
    );
  });
});

describe('SortedList', () => {
  /** Items are [key, id] pairs ordered by key then id (a total order); a change of key replaces the pair. */
  type Item = readonly [number, number];
  const byKeyThenId = (a: Item, b: Item) => a[0] - b[0] || a[1] - b[1];
  const step = fc.oneof(
    fc.record({ op: fc.constant('insert' as const), key: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
    fc.record({ op: fc.constant('replace' as const), pick: fc.nat(), key: fc.integer({ min: 0, max: 6 }) }),
  );

  it('inserts, removes and moves items exactly where a full sort puts them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 20 }),
        fc.array(step, { maxLength: 60 }),
        (initial, steps) => {
          let nextId = 0;
          let live: Item[] = initial.map((key) => [key, nextId++] as const);
          const list = new SortedList(byKeyThenId, live);
          for (const s of steps) {
            if (s.op === 'insert') {
              const item = [s.key, nextId++] as const;
              list.insert(item);
              live.push(item);
            } else if (live.length > 0) {
              const previous = live[s.pick % live.length]!;
              live = live.filter((item) => item !== previous);
              if (s.op === 'remove') list.remove(previous);
              else {
                const next = [s.key, previous[1]] as const;
                list.replace(previous, next);
                live.push(next);
              }
            }
            const expected = [...live].sort(byKeyThenId);
            expect(Array.from({ length: list.length }, (_, i) => list.at(i))).toEqual(expected);
            for (const item of live) expect(list.indexOf(item)).toBe(expected.indexOf(item));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
