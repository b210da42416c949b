import { POST_TYPES } from '../../platform/state.js';
import { createPost } from '../../platform/posts.js';
import { nullable, object, oneOf, str } from '../schema.js';
import { caller, type Route } from '../types.js';
import { postView } from '../views.js';

/** Posting: what the research phase needs. */
export const socialRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/social/post',
    auth: 'required',
    summary: 'Create a post (content 1-1000; one post completes the research phase)',
    schema: {
      body: object(
        {
          content: str(),
          post_type: oneOf(POST_TYPES),
          chess_game_id: nullable(str()),
          tournament_id: nullable(str()),
          repost_of_post_id: nullable(str()),
        },
        ['content'],
      ),
    },
    handler: (ctx) => {
      const post = createPost(ctx.platform, caller(ctx), ctx.body);
      return { success: true, post_id: post.id, post: postView(ctx.platform, post) };
    },
  },
];
