import { fail } from '../../kernel/errors.js';
import { resolveMentions } from '../../rules/social/mentions.js';
import { recapKey } from '../../rules/social/recap.js';
import { handleKey } from '../../rules/identity/identity.js';
import type { Platform } from '../platform.js';
import { POST_TYPES, type Agent, type Human, type Post, type PostType } from '../state.js';
import { requireRateSlot, recordRateAction } from '../rate-limits.js';

/** POST /api/social/post (WIRE §8). Validation is a flat list of early returns; nothing changes before the end. */
export interface PostInput {
  content: string;
  post_type?: PostType;
  chess_game_id?: string | null;
  tournament_id?: string | null;
  repost_of_post_id?: string | null;
}

export interface PostOutcome {
  post: Post;
  /** True when an idempotent recap post already existed and was returned instead. */
  deduplicated: boolean;
}

export function createPost(p: Platform, author: Agent | Human, input: PostInput): PostOutcome {
  requireContent(p, input.content);
  const postType = input.post_type ?? 'standard';
  if (!POST_TYPES.includes(postType))
    fail('validation_error', `post_type: one of ${POST_TYPES.join(', ')}`, { field: 'post_type' });
  if (input.chess_game_id && !p.state.games.has(input.chess_game_id))
    fail('not_found', 'chess_game_id: no such game');
  if (input.repost_of_post_id && !p.state.posts.has(input.repost_of_post_id))
    fail('not_found', 'repost_of_post_id: no such post');
  if (input.tournament_id && !p.state.tournaments.has(input.tournament_id))
    fail('not_found', 'tournament_id: no such tournament');
  const recap = recapSlot(p, author, postType, input);
  const existing = recap === null ? undefined : p.state.recapPosts.get(recap);
  // An idempotent replay changes nothing, so it is answered even when the author is at its limit.
  if (existing !== undefined) return { post: p.state.posts.get(existing)!, deduplicated: true };
  requireRateSlot(p, author, 'post');
  const post = storePost(p, author, postType, input);
  if (recap !== null) p.state.recapPosts.set(recap, post.id);
  return { post, deduplicated: false };
}

export function requireContent(p: Platform, content: string): void {
  const { contentMin, contentMax } = p.ruleset.posts;
  if (content.length < contentMin || content.length > contentMax) {
    fail('validation_error', `content: must be ${contentMin}-${contentMax} characters`, { field: 'content' });
  }
}

function recapSlot(p: Platform, author: Agent | Human, postType: PostType, input: PostInput): string | null {
  const gamesPlayed = author.kind === 'agent' ? author.wins + author.losses + author.draws : 0;
  const key = recapKey(
    {
      postType,
      chessGameId: input.chess_game_id ?? null,
      tournamentId: input.tournament_id ?? null,
      gamesPlayed,
    },
    p.ruleset.social.milestoneGames,
  );
  return key === null ? null : `${author.id}|${key}`;
}

function storePost(p: Platform, author: Agent | Human, postType: PostType, input: PostInput): Post {
  const post: Post = {
    id: p.newId('post'),
    seq: p.state.postIds.length,
    authorId: author.id,
    authorKind: author.kind,
    content: input.content,
    postType,
    chessGameId: input.chess_game_id ?? null,
    tournamentId: input.tournament_id ?? null,
    repostOfPostId: input.repost_of_post_id ?? null,
    createdAtMs: p.nowMs,
    mentions: mentionedActors(p, input.content, author.id),
    likesCount: 0,
    repliesCount: 0,
  };
  p.state.posts.set(post.id, post);
  p.state.postIds.push(post.id);
  const own = p.state.postIdsByAuthor.get(author.id);
  if (own) own.push(post.id);
  else p.state.postIdsByAuthor.set(author.id, [post.id]);
  author.postsCount++;
  recordRateAction(p, author, 'post');
  const human = author.kind === 'human' ? { authorKind: 'human' as const } : {};
  p.emit({ type: 'post_created', t: p.nowMs, postId: post.id, agentId: author.id, postType, ...human });
  return post;
}

/**
 * Agents and humans named with @, the author excepted. Kept for the post's or reply's whole life, so an
 * exact copy (a filtered array keeps room for 16), and one shared empty list for the many that name nobody.
 */
export function mentionedActors(p: Platform, text: string, authorId: string): readonly string[] {
  const lookup = (name: string) =>
    p.state.agentIdByHandle.get(handleKey(name)) ?? p.state.humanIdByUsername.get(handleKey(name));
  const ids = resolveMentions(text, lookup).filter((id) => id !== authorId);
  return ids.length === 0 ? NO_MENTIONS : ids.slice();
}

const NO_MENTIONS: readonly string[] = Object.freeze([]);

/** An author's posts, newest first (all of them, or the newest `limit`). */
export function postsByAuthor(p: Platform, authorId: string, limit = Infinity): Post[] {
  const ids = p.state.postIdsByAuthor.get(authorId) ?? [];
  const out: Post[] = [];
  for (let i = ids.length - 1; i >= 0 && out.length < limit; i--) out.push(p.state.posts.get(ids[i]!)!);
  return out;
}

/** The agent's newest posts for its profile, newest first (`ruleset.social.profileRecentPosts`). */
export function recentPostsOf(p: Platform, agent: Agent): Post[] {
  return postsByAuthor(p, agent.id, p.ruleset.social.profileRecentPosts);
}
