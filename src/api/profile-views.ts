import { toIso } from '../kernel/clock.js';
import type {
  ActivityRanked,
  HealthCounts,
  ScoreBoundaries,
  ScoredAgent,
} from '../platform/identity/agents.js';
import { socialTierOf } from '../platform/identity/agents.js';
import { socialScoreOf } from '../platform/identity/actors.js';
import { gamesPlayed } from '../platform/chess/games.js';
import { agentsOwnedBy } from '../platform/identity/humans.js';
import type { Platform } from '../platform/platform.js';
import { recentPostsOf } from '../platform/social/posts.js';
import { standingVote } from '../platform/social/votes.js';
import type { Agent, Human, Post } from '../platform/state.js';
import type * as A from './contract/agents.js';
import type * as H from './contract/humans.js';
import type * as S from './contract/system.js';
import { SocialViews } from './social-views.js';
import { agentRef } from './views.js';

/**
 * Wire views of the agents directory, public profiles (agents and humans), the activity leaderboard and
 * the system routes (WIRE §3, §11). One flat literal each: the directory and the leaderboard build one
 * row per agent on every call.
 */

/** A row of GET /api/agents; the chess stats only when the caller asked for `stats=true`. */
export function directoryRow(row: ScoredAgent, withStats: boolean): A.DirectoryRow {
  const a = row.agent;
  const view: A.DirectoryRow = {
    id: a.id,
    handle: a.handle,
    bio: a.bio,
    tags: [...a.tags],
    social_score: row.socialScore,
    followers_count: a.followersCount,
    following_count: a.followingCount,
    posts_count: a.postsCount,
    verified: a.verified,
    chess_elo: a.elo,
    created_at: toIso(a.createdAtMs),
  };
  if (withStats) {
    view.chess_games_played = gamesPlayed(a);
    view.chess_wins = a.wins;
    view.chess_losses = a.losses;
    view.chess_draws = a.draws;
    view.chess_peak_elo = a.peakElo;
  }
  return view;
}

/** `profile` of GET /api/agents/{handle}, field for field as WIRE §3's table. */
export function profileView(p: Platform, a: Agent): A.AgentProfile {
  return {
    id: a.id,
    handle: a.handle,
    bio: a.bio,
    avatar_url: a.avatarUrl,
    banner_url: null, // the simulated platform keeps no banners
    wallet_address: a.walletAddress,
    social_score: socialScoreOf(p, a),
    followers_count: a.followersCount,
    following_count: a.followingCount,
    posts_count: a.postsCount,
    profile_upvotes: a.profileUpvotes,
    profile_downvotes: a.profileDownvotes,
    verified: a.verified,
    verified_at: a.verifiedAtMs === null ? null : toIso(a.verifiedAtMs),
    twitter_handle: a.twitterHandle,
    github_repo_url: a.githubRepoUrl,
    tags: [...a.tags],
    chess_elo: a.elo,
    chess_games_played: gamesPlayed(a),
    chess_wins: a.wins,
    chess_losses: a.losses,
    chess_draws: a.draws,
    chess_peak_elo: a.peakElo,
    social_tier: socialTierOf(p, a),
  };
}

export function recentPostView(post: Post, views: SocialViews): A.RecentPost {
  return {
    id: post.id,
    content: post.content,
    post_type: post.postType,
    created_at: views.postCreatedAt(post),
    has_liked: views.hasLiked(post.id),
    likes_count: post.likesCount,
    replies_count: post.repliesCount,
  };
}

/** The whole profile response; `your_vote` only when a key was sent (WIRE §3: "present when authed"). */
export function profileResponse(p: Platform, a: Agent, viewer: Agent | Human | null): A.ProfileResponse {
  const views = new SocialViews(p, viewer);
  const response: A.ProfileResponse = {
    profile: profileView(p, a),
    recent_posts: recentPostsOf(p, a).map((post) => recentPostView(post, views)),
  };
  if (viewer !== null) response.your_vote = standingVote(p, viewer.id, a.id);
  return response;
}

export function activityRow(r: ActivityRanked): A.ActivityRow {
  const a = r.agent;
  return {
    rank: r.rank,
    agent: { id: a.id, handle: a.handle },
    handle: a.handle,
    social_score: r.socialScore,
    content_score: r.contentScore,
    likes_received: a.likesReceived,
    replies_received: a.repliesReceived,
    posts_count: a.postsCount,
    followers_count: a.followersCount,
    tournaments_created: r.tournamentsCreated,
  };
}

/** GET /api/human/{username}'s `human`, showing the page of its posts the caller asked for. */
export function humanProfile(p: Platform, human: Human, recentPosts: readonly Post[]): H.HumanProfile {
  return {
    id: human.id,
    username: human.handle,
    handle: human.handle,
    author_type: 'human',
    display_name: human.displayName,
    bio: human.bio,
    avatar_url: human.avatarUrl,
    followers_count: human.followersCount,
    following_count: human.followingCount,
    posts_count: human.postsCount,
    social_score: socialScoreOf(p, human),
    created_at: toIso(human.createdAtMs),
    agents: agentsOwnedBy(p, human).map(agentRef),
    recent_posts: new SocialViews(p, null).posts(recentPosts),
  };
}

/** Points on the wire: a downvote's weight is shown negative, as it counts against the score. */
export function boundariesView(b: ScoreBoundaries): S.ScoreBoundaries {
  const pts = b.points;
  const spread = b.population;
  return {
    tiers: b.tiers.map((t) => ({ name: t.name, min_score: t.minScore, max_score: t.maxScore })),
    points: {
      post: pts.post,
      like_received: pts.likeReceived,
      reply_received: pts.replyReceived,
      follow_received: pts.followReceived,
      win: pts.win,
      draw: pts.draw,
      downvote_received: -pts.downvoteReceived,
    },
    floor: b.floor,
    population: {
      agents: spread.agents,
      min: spread.min,
      max: spread.max,
      median: spread.median,
      p90: spread.p90,
      p99: spread.p99,
    },
  };
}

export function healthView(p: Platform, c: HealthCounts): S.Health {
  return {
    status: 'ok',
    time: toIso(p.nowMs),
    agents: c.agents,
    humans: c.humans,
    games_active: c.gamesActive,
    posts: c.posts,
  };
}
