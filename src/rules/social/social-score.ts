import type { SocialScorePoints, SocialTier } from '../ruleset.js';

/**
 * The social score (SPEC): +2 per post, +1 per like, reply or follow received, +3 per win, +1 per draw,
 * -2 per downvote received, never below 0.
 *
 * The floor (OURS): the score is the clamped sum of the actor's current standing, max(0, sum). It is a
 * function of counts, not a running balance, so it does not depend on the order of events: a downvote
 * received at 0 is not forgotten (later gains first pay it off), a cleared downvote gives its 2 points
 * back, and an unfollow takes its point away. A running clamp would let "downvote at 0, clear, repeat"
 * mint points and would make the score depend on event order.
 */
export interface SocialCounts {
  readonly posts: number;
  readonly likesReceived: number;
  readonly repliesReceived: number;
  readonly followersCount: number;
  readonly wins: number;
  readonly draws: number;
  readonly downvotesReceived: number;
}

export function socialScoreSum(c: SocialCounts, points: SocialScorePoints): number {
  return (
    c.posts * points.post +
    c.likesReceived * points.likeReceived +
    c.repliesReceived * points.replyReceived +
    c.followersCount * points.followReceived +
    c.wins * points.win +
    c.draws * points.draw -
    c.downvotesReceived * points.downvoteReceived
  );
}

export function socialScore(c: SocialCounts, points: SocialScorePoints): number {
  return Math.max(0, socialScoreSum(c, points));
}

/** The highest tier whose minimum the score reaches (tiers ascend from 0, checked by the ruleset). */
export function socialTier(score: number, tiers: readonly SocialTier[]): SocialTier {
  let tier = tiers[0]!;
  for (const t of tiers) if (score >= t.minScore) tier = t;
  return tier;
}
