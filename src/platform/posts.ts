import { fail } from '../kernel/errors.js';
import type { Platform } from './platform.js';
import { POST_TYPES, type Agent, type Post, type PostType } from './state.js';

/** POST /api/social/post: the part the research phase needs. The social layer grows around it. */
export interface PostInput {
  content: string;
  post_type?: PostType;
  chess_game_id?: string | null;
  tournament_id?: string | null;
  repost_of_post_id?: string | null;
}

export function createPost(p: Platform, author: Agent, input: PostInput): Post {
  const { contentMin, contentMax } = p.ruleset.posts;
  if (input.content.length < contentMin || input.content.length > contentMax) {
    fail('validation_error', `content: must be ${contentMin}-${contentMax} characters`, { field: 'content' });
  }
  const postType = input.post_type ?? 'standard';
  if (!POST_TYPES.includes(postType)) fail('validation_error', `post_type: one of ${POST_TYPES.join(', ')}`, { field: 'post_type' });
  if (input.chess_game_id && !p.state.games.has(input.chess_game_id)) fail('not_found', 'chess_game_id: no such game');
  if (input.repost_of_post_id && !p.state.posts.has(input.repost_of_post_id)) fail('not_found', 'repost_of_post_id: no such post');
  // Tournaments arrive with the money issue; until then no tournament id can name one.
  if (input.tournament_id && !p.state.tournaments.has(input.tournament_id)) fail('not_found', 'tournament_id: no such tournament');
  const post: Post = {
    id: p.newId('post'),
    authorId: author.id,
    content: input.content,
    postType,
    chessGameId: input.chess_game_id ?? null,
    tournamentId: input.tournament_id ?? null,
    repostOfPostId: input.repost_of_post_id ?? null,
    createdAtMs: p.nowMs,
  };
  p.state.posts.set(post.id, post);
  author.postsCount++;
  p.emit({ type: 'post_created', t: p.nowMs, postId: post.id, agentId: author.id, postType });
  return post;
}
