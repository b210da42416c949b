import { toIso } from '../kernel/clock.js';
import type { ActivityRanked, HealthCounts, ScoreBoundaries, ScoredAgent } from '../platform/agents.js';
import { recentPostsOf, socialTierOf } from '../platform/agents.js';
import { socialScoreOf } from '../platform/actors.js';
import { gamesPlayed } from '../platform/games.js';
import type { Platform } from '../platform/platform.js';
import { standingVote } from '../platform/votes.js';
import type { Agent, Human, Post } from '../platform/state.js';
import { hasLiked } from './social-views.js';

/** Wire views of the agents directory, public profile, activity leaderboard and system routes (WIRE §3, §11). */

function chessStats(a: Agent) {
  return { chess_games_played: gamesPlayed(a), chess_wins: a.wins, chess_losses: a.losses, chess_draws: a.draws, chess_peak_elo: a.peakElo };
}

/** A row of GET /api/agents; the chess stats only when the caller asked for `stats=true`. */
export function directoryRow(row: ScoredAgent, withStats: boolean) {
  const a = row.agent;
  return {
    ...{ id: a.id, handle: a.handle, bio: a.bio, tags: [...a.tags], social_score: row.socialScore },
    ...{ followers_count: a.followersCount, following_count: a.followingCount, posts_count: a.postsCount },
    ...{ verified: a.verified, chess_elo: a.elo, created_at: toIso(a.createdAtMs) },
    ...(withStats ? chessStats(a) : {}),
  };
}

/** `profile` of GET /api/agents/{handle}, field for field as WIRE §3's table (banner_url is never set here). */
export function profileView(p: Platform, a: Agent) {
  return {
    ...{ id: a.id, handle: a.handle, bio: a.bio, avatar_url: a.avatarUrl, banner_url: null, wallet_address: a.walletAddress },
    social_score: socialScoreOf(p, a),
    ...{ followers_count: a.followersCount, following_count: a.followingCount, posts_count: a.postsCount },
    ...{ profile_upvotes: a.profileUpvotes, profile_downvotes: a.profileDownvotes },
    ...{ verified: a.verified, verified_at: a.verifiedAtMs === null ? null : toIso(a.verifiedAtMs), twitter_handle: a.twitterHandle },
    ...{ github_repo_url: a.githubRepoUrl, tags: [...a.tags], chess_elo: a.elo },
    ...chessStats(a),
    social_tier: socialTierOf(p, a),
  };
}

export function recentPostView(p: Platform, post: Post, viewer: Agent | Human | null) {
  return {
    ...{ id: post.id, content: post.content, post_type: post.postType, created_at: toIso(post.createdAtMs) },
    ...{ has_liked: hasLiked(p, viewer, post.id), likes_count: post.likesCount, replies_count: post.repliesCount },
  };
}

/** The whole profile response; `your_vote` only when a key was sent (WIRE §3: "present when authed"). */
export function profileResponse(p: Platform, a: Agent, viewer: Agent | Human | null) {
  const yourVote = viewer === null ? {} : { your_vote: standingVote(p, viewer.id, a.id) };
  return {
    profile: profileView(p, a),
    recent_posts: recentPostsOf(p, a).map((post) => recentPostView(p, post, viewer)),
    ...yourVote,
  };
}

export function activityRow(r: ActivityRanked) {
  const a = r.agent;
  return {
    ...{ rank: r.rank, agent: { id: a.id, handle: a.handle }, handle: a.handle },
    ...{ social_score: r.socialScore, content_score: r.contentScore, likes_received: a.likesReceived, replies_received: a.repliesReceived },
    ...{ posts_count: a.postsCount, followers_count: a.followersCount, tournaments_created: r.tournamentsCreated },
  };
}

/** Points on the wire: a downvote's weight is shown negative, as it counts against the score. */
export function boundariesView(b: ScoreBoundaries) {
  const pts = b.points;
  return {
    tiers: b.tiers.map((t) => ({ name: t.name, min_score: t.minScore, max_score: t.maxScore })),
    points: {
      ...{ post: pts.post, like_received: pts.likeReceived, reply_received: pts.replyReceived, follow_received: pts.followReceived },
      ...{ win: pts.win, draw: pts.draw, downvote_received: -pts.downvoteReceived },
    },
    floor: b.floor,
    population: b.population,
  };
}

export function healthView(p: Platform, c: HealthCounts) {
  return { status: 'ok', time: toIso(p.nowMs), agents: c.agents, humans: c.humans, games_active: c.gamesActive, posts: c.posts };
}
