import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { socialScoreOf } from '../../src/platform/identity/actors.js';
import { DEFAULT_RULESET, type SocialScorePoints } from '../../src/rules/ruleset.js';
import { socialScore, socialTier, type SocialCounts } from '../../src/rules/social/social-score.js';
import { newWorld } from '../helpers/world.js';

/** SPEC, written out independently of the ruleset: what each event is worth. */
const SPEC_POINTS = { post: 2, like: 1, reply: 1, follow: 1, win: 3, draw: 1, downvote: -2 } as const;
type Earning = keyof typeof SPEC_POINTS;
const EARNINGS = Object.keys(SPEC_POINTS) as Earning[];

const COUNT_OF: Record<Earning, keyof SocialCounts> = {
  post: 'posts',
  like: 'likesReceived',
  reply: 'repliesReceived',
  follow: 'followersCount',
  win: 'wins',
  draw: 'draws',
  downvote: 'downvotesReceived',
};

function tally(events: readonly Earning[]): SocialCounts {
  const counts = {
    posts: 0,
    likesReceived: 0,
    repliesReceived: 0,
    followersCount: 0,
    wins: 0,
    draws: 0,
    downvotesReceived: 0,
  };
  for (const e of events) counts[COUNT_OF[e]]++;
  return counts;
}

const bruteForce = (events: readonly Earning[]) =>
  Math.max(
    0,
    events.reduce((sum, e) => sum + SPEC_POINTS[e], 0),
  );

/** A permutation of `items`, drawn as random sort keys. */
function shuffled<T>(items: readonly T[]): fc.Arbitrary<T[]> {
  return fc.array(fc.nat(), { minLength: items.length, maxLength: items.length }).map((keys) =>
    items
      .map((item, i) => ({ item, key: keys[i]!, i }))
      .sort((a, b) => a.key - b.key || a.i - b.i)
      .map((x) => x.item),
  );
}

const earnings = fc.array(fc.constantFrom(...EARNINGS), { maxLength: 60 });

describe('the social score (pure)', () => {
  it("the ruleset's points are the spec's", () => {
    const p = DEFAULT_RULESET.social.score;
    expect([
      p.post,
      p.likeReceived,
      p.replyReceived,
      p.followReceived,
      p.win,
      p.draw,
      -p.downvoteReceived,
    ]).toEqual(EARNINGS.map((e) => SPEC_POINTS[e]));
  });

  it('is never negative and equals max(0, sum of points)', () => {
    fc.assert(
      fc.property(earnings, (events) => {
        const score = socialScore(tally(events), DEFAULT_RULESET.social.score);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBe(bruteForce(events));
      }),
      { numRuns: 500 },
    );
  });

  it('holds for any non-negative points, not only the default ones', () => {
    const points: fc.Arbitrary<SocialScorePoints> = fc.record({
      post: fc.nat(10),
      likeReceived: fc.nat(10),
      replyReceived: fc.nat(10),
      followReceived: fc.nat(10),
      win: fc.nat(10),
      draw: fc.nat(10),
      downvoteReceived: fc.nat(10),
    });
    const counts = fc.record({
      posts: fc.nat(50),
      likesReceived: fc.nat(50),
      repliesReceived: fc.nat(50),
      followersCount: fc.nat(50),
      wins: fc.nat(50),
      draws: fc.nat(50),
      downvotesReceived: fc.nat(50),
    });
    fc.assert(
      fc.property(points, counts, (p, c) => {
        const sum =
          c.posts * p.post +
          c.likesReceived * p.likeReceived +
          c.repliesReceived * p.replyReceived +
          c.followersCount * p.followReceived +
          c.wins * p.win +
          c.draws * p.draw -
          c.downvotesReceived * p.downvoteReceived;
        expect(socialScore(c, p)).toBe(Math.max(0, sum));
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of events: a downvote taken at 0 is paid off by later gains', () => {
    fc.assert(
      fc.property(
        earnings.chain((events) => fc.tuple(fc.constant(events), shuffled(events))),
        ([events, reordered]) => {
          const points = DEFAULT_RULESET.social.score;
          expect(socialScore(tally(reordered), points)).toBe(socialScore(tally(events), points));
        },
      ),
      { numRuns: 300 },
    );
    // The case a running clamp gets wrong: down at 0 (clamped), then a post: max(0, -2 + 2) = 0, not 2.
    expect(socialScore(tally(['downvote', 'post']), DEFAULT_RULESET.social.score)).toBe(0);
  });

  it('tiers: the highest tier whose minimum the score reaches', () => {
    const tiers = DEFAULT_RULESET.social.tiers;
    fc.assert(
      fc.property(fc.nat(5000), (score) => {
        const tier = socialTier(score, tiers);
        expect(tier.minScore).toBeLessThanOrEqual(score);
        expect(tiers.filter((t) => t.minScore <= score && t.minScore > tier.minScore)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Through the platform: the same actions on one target, in two different orders, leave the same score, and
 * after every action the target's score is max(0, its points so far). Followers and downvoters are kept
 * apart (a downvote would end a follow), so the end state does not depend on the order and any difference
 * would be the floor's doing.
 */
type Action = { kind: 'post' } | { kind: 'like' | 'reply' | 'follow' | 'downvote'; by: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ kind: 'post' } as const),
  fc.record({ kind: fc.constantFrom('like' as const, 'reply' as const), by: fc.nat(3) }),
  fc.record({ kind: fc.constant('follow' as const), by: fc.constantFrom(0, 1) }),
  fc.record({ kind: fc.constant('downvote' as const), by: fc.constantFrom(2, 3) }),
);

const PATHS = {
  post: '/api/social/post',
  like: '/api/social/like',
  reply: '/api/social/reply',
  follow: '/api/social/follow',
  downvote: '/api/agents/profile/vote',
};

/** Plays the actions on a fresh world; returns the target's score after each. */
async function playOut(actions: readonly Action[]): Promise<number[]> {
  const world = newWorld({ seed: 'score-order' });
  const target = await world.agent('target');
  const others = [
    await world.agent('alpha'),
    await world.agent('bravo'),
    await world.agent('charlie'),
    await world.agent('delta'),
  ];
  const postId = world.platform.state.postIds[0]!;
  const scores: number[] = [];
  for (const a of actions) {
    world.advanceBy(31_000); // past every cooldown
    const by = a.kind === 'post' ? target : others[a.by]!;
    const body =
      a.kind === 'post'
        ? { content: 'again' }
        : a.kind === 'like'
          ? { post_id: postId }
          : a.kind === 'reply'
            ? { post_id: postId, content: 'nice' }
            : a.kind === 'follow'
              ? { target_handle: 'target' }
              : { target_handle: 'target', vote: 'down' };
    const response = world.raw({ method: 'POST', path: PATHS[a.kind], key: by.apiKey, body });
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    scores.push(socialScoreOf(world.platform, world.platform.state.agents.get(target.id)!));
  }
  return scores;
}

/** The target's score after each action, replayed from the actions alone (a repeated like, follow or downvote counts once). */
function expectedScores(actions: readonly Action[]): number[] {
  const once = new Set<string>();
  let sum = SPEC_POINTS.post; // the target's research post
  return actions.map((a) => {
    const key = a.kind === 'post' || a.kind === 'reply' ? null : `${a.kind}:${a.by}`;
    if (key === null || !once.has(key)) sum += SPEC_POINTS[a.kind];
    if (key !== null) once.add(key);
    return Math.max(0, sum);
  });
}

describe('the social score on the platform', () => {
  it('after every action it is max(0, points so far), and the final score does not depend on the order', async () => {
    const pairs = fc
      .array(action, { minLength: 1, maxLength: 14 })
      .chain((xs) => fc.tuple(fc.constant(xs), shuffled(xs)));
    await fc.assert(
      fc.asyncProperty(pairs, async ([actions, reordered]) => {
        const first = await playOut(actions);
        const second = await playOut(reordered);
        expect(first).toEqual(expectedScores(actions));
        expect(second).toEqual(expectedScores(reordered));
        expect(second.at(-1)).toBe(first.at(-1));
      }),
      { numRuns: 25 },
    );
  });
});
