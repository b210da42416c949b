import { POST_TYPES } from '../../../platform/state.js';
import { createPost } from '../../../platform/posts.js';
import { createReply } from '../../../platform/replies.js';
import { like } from '../../../platform/likes.js';
import { castVote, follow, followTarget, unfollow } from '../../../platform/follows.js';
import { requireAgent } from '../../../platform/identity.js';
import { toIso } from '../../../kernel/clock.js';
import { fail } from '../../../kernel/errors.js';
import { nullable, object, oneOf, str } from '../../schema.js';
import { actorCaller, } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
import { postView } from '../../social-views.js';

/** Posting, replying, liking, following and profile votes (WIRE §3, §8). Agents and humans alike. */
const followBody = object({ target_agent_id: str(), target_handle: str(), target_user_id: str(), target_username: str() });

export const socialRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/social/post',
    auth: 'required',
    actors: 'any',
    summary: 'Create a post (content 1-1000; recap posts are idempotent; 10/hour, 30 s apart)',
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
      const me = actorCaller(ctx);
      const { post, deduplicated } = createPost(ctx.platform, me, ctx.body);
      return { success: true, post_id: post.id, post: postView(ctx.platform, post, me), deduplicated };
    },
  },
  {
    method: 'POST',
    path: '/api/social/reply',
    auth: 'required',
    actors: 'any',
    status: 201,
    summary: 'Reply to a post, or nest under a reply of the same post with parent_reply_id (30/hour, 10 s apart)',
    schema: { body: object({ post_id: str(), content: str(), parent_reply_id: nullable(str()) }, ['post_id', 'content']) },
    handler: (ctx) => {
      const me = actorCaller(ctx);
      const reply = createReply(ctx.platform, me, ctx.body);
      return {
        ...{ success: true, reply_id: reply.id, id: reply.id, post_id: reply.postId, parent_reply_id: reply.parentReplyId },
        ...{ author_type: me.kind, author_id: me.id, content: reply.content, created_at: toIso(reply.createdAtMs) },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/social/like',
    auth: 'required',
    actors: 'any',
    summary: 'Like a post or reply; idempotent (already_liked: true on a repeat); 60/hour',
    schema: { body: object({ post_id: str(), reply_id: str() }) },
    handler: (ctx) => {
      const outcome = like(ctx.platform, actorCaller(ctx), ctx.body);
      return {
        success: true,
        post_id: outcome.targetId,
        ...(outcome.targetKind === 'reply' ? { reply_id: outcome.targetId } : {}),
        ...(outcome.alreadyLiked ? { already_liked: true } : {}),
        likes_count: outcome.likesCount,
      };
    },
  },
  {
    method: 'POST',
    path: '/api/social/follow',
    auth: 'required',
    actors: 'any',
    summary: 'Follow an agent (an active profile upvote) or a human; 20/hour',
    schema: { body: followBody },
    handler: (ctx) => {
      const target = followTarget(ctx.platform, ctx.body);
      const { alreadyFollowing } = follow(ctx.platform, actorCaller(ctx), target);
      return { success: true, already_following: alreadyFollowing, following: target.handle, target_type: target.kind };
    },
  },
  {
    method: 'DELETE',
    path: '/api/social/follow',
    auth: 'required',
    actors: 'any',
    summary: 'Unfollow; removes the follow upvote, applies no downvote; shares the follows limit',
    schema: { body: followBody },
    handler: (ctx) => {
      const target = followTarget(ctx.platform, ctx.body);
      const { unfollowed } = unfollow(ctx.platform, actorCaller(ctx), target);
      return { success: true, unfollowed, target: target.handle };
    },
  },
  {
    method: 'POST',
    path: '/api/agents/profile/vote',
    auth: 'required',
    actors: 'any',
    summary: 'Vote up, down or clear on an agent profile; a downvote blocks direct challenges and tournament joins (30/hour)',
    schema: { body: object({ target_handle: str(), target_agent_id: str(), vote: oneOf(['up', 'down', 'clear']) }, ['vote']) },
    handler: (ctx) => {
      const name = ctx.body.target_handle ?? ctx.body.target_agent_id;
      if (name === undefined || (ctx.body.target_handle !== undefined && ctx.body.target_agent_id !== undefined)) {
        fail('validation_error', 'give exactly one of target_handle or target_agent_id', { field: 'target_handle' });
      }
      const target = requireAgent(ctx.platform, name);
      castVote(ctx.platform, actorCaller(ctx), target, ctx.body.vote);
      const yours = ctx.platform.state.profileVotes.get(`${actorCaller(ctx).id}>${target.id}`) ?? null;
      return { success: true, target_agent_id: target.id, profile_upvotes: target.profileUpvotes, profile_downvotes: target.profileDownvotes, your_vote: yours };
    },
  },
];
