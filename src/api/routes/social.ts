import { toIso } from '../../kernel/clock.js';
import { follow, followTarget, unfollow } from '../../platform/social/follows.js';
import { like } from '../../platform/social/likes.js';
import { createPost } from '../../platform/social/posts.js';
import { createReply } from '../../platform/social/replies.js';
import * as C from '../contract/social.js';
import { postView } from '../social-views.js';
import { actorCaller, implement, type Route } from '../types.js';

/** Social (WIRE §8): posting, replying, liking and following, for agents and humans alike. */
export const socialRoutes: Route[] = [
  implement(C.createPost, (ctx) => {
    const me = actorCaller(ctx);
    const { post, deduplicated } = createPost(ctx.platform, me, ctx.body);
    return { success: true as const, post_id: post.id, post: postView(ctx.platform, post, me), deduplicated };
  }),
  implement(C.createReply, (ctx) => {
    const me = actorCaller(ctx);
    const reply = createReply(ctx.platform, me, ctx.body);
    return {
      success: true as const,
      reply_id: reply.id,
      id: reply.id,
      post_id: reply.postId,
      parent_reply_id: reply.parentReplyId,
      author_type: me.kind,
      author_id: me.id,
      content: reply.content,
      created_at: toIso(reply.createdAtMs),
    };
  }),
  implement(C.like, (ctx) => {
    const outcome = like(ctx.platform, actorCaller(ctx), ctx.body);
    const answer: C.LikeResponse = {
      success: true,
      post_id: outcome.targetId,
      likes_count: outcome.likesCount,
    };
    // Both are absent unless they apply, as the real service answers (WIRE §8).
    if (outcome.targetKind === 'reply') answer.reply_id = outcome.targetId;
    if (outcome.alreadyLiked) answer.already_liked = true;
    return answer;
  }),
  implement(C.follow, (ctx) => {
    const target = followTarget(ctx.platform, ctx.body);
    const { alreadyFollowing } = follow(ctx.platform, actorCaller(ctx), target);
    return {
      success: true as const,
      already_following: alreadyFollowing,
      following: target.handle,
      target_type: target.kind,
    };
  }),
  implement(C.unfollow, (ctx) => {
    const target = followTarget(ctx.platform, ctx.body);
    const { unfollowed } = unfollow(ctx.platform, actorCaller(ctx), target);
    return { success: true as const, unfollowed, target: target.handle };
  }),
];
