import { parseIsoInstant, toIso } from '../../kernel/clock.js';
import { fail } from '../../kernel/errors.js';
import { listActivity } from '../../platform/social/activity.js';
import { feedPage, repliesOf, requirePost, serveUnseen } from '../../platform/social/feed.js';
import { listNotifications } from '../../platform/social/notifications.js';
import type { NotificationType } from '../../platform/state.js';
import * as C from '../contract/feed.js';
import { activityView, mentionNoteView, postDetailView, postNoteView, replyNoteView } from '../feed-views.js';
import { SocialViews } from '../social-views.js';
import { actorCaller, implement, type Route } from '../types.js';
import { pagedList, resolved } from './paging.js';

/** Feed (WIRE §9): the feed, a post's thread, unseen posts and notifications; the caller's activity (WIRE §11). Lists are newest first. */
export const feedRoutes: Route[] = [
  implement(C.feed, ({ platform, actor, query }) => {
    const { limit, offset } = resolved(query);
    const { posts, total } = feedPage(platform, {
      sort: query.sort ?? C.DEFAULT_SORT,
      postType: query.post_type,
      limit,
      offset,
    });
    return { posts: new SocialViews(platform, actor).posts(posts), total, limit, offset };
  }),
  implement(C.feedPost, ({ platform, actor, params }) => {
    const post = requirePost(platform, params['id']!);
    return postDetailView(post, repliesOf(platform, post.id), new SocialViews(platform, actor));
  }),
  implement(C.unseen, (ctx) => {
    const me = actorCaller(ctx);
    const { posts, cursorAtMs } = serveUnseen(ctx.platform, me, resolved(ctx.query).limit);
    return {
      posts: new SocialViews(ctx.platform, me).posts(posts),
      cursor_updated_to: cursorAtMs === null ? null : toIso(cursorAtMs),
      count: posts.length,
    };
  }),
  implement(C.notifications, (ctx) => {
    const me = actorCaller(ctx);
    const p = ctx.platform;
    const since =
      ctx.query.since === undefined
        ? null
        : (parseIsoInstant(ctx.query.since) ??
          fail('validation_error', 'since: must be an ISO 8601 time', { field: 'since' }));
    const lists = listNotifications(p, me.id, {
      limit: resolved(ctx.query).limit,
      sinceMs: since,
      types: platformTypes(ctx.query.types),
    });
    const views = new SocialViews(p, me);
    return {
      mentions: lists.mentions.map((note) => mentionNoteView(p, note, views)),
      game_posts: lists.game_posts.map((note) => postNoteView(p, note, views)),
      replies_to_my_posts: lists.replies.map((note) => replyNoteView(p, note, views)),
    };
  }),
  implement(C.activity, (ctx) => {
    const me = actorCaller(ctx);
    return pagedList('activities', listActivity(ctx.platform, me.id, ctx.query.type), ctx.query, (row) =>
      activityView(ctx.platform, me.id, row),
    );
  }),
];

/**
 * The platform's list for each name a `types` filter may give: the response's own keys, and `replies`, the
 * name this simulator first used, kept as an alias of `replies_to_my_posts` (the platform files these as `replies`).
 */
const PLATFORM_TYPE: Readonly<Record<C.NotificationTypeName, NotificationType>> = {
  mentions: 'mentions',
  game_posts: 'game_posts',
  replies_to_my_posts: 'replies',
  replies: 'replies',
};

/** The platform's lists a `types` filter names (every list when it names none), without repeats. */
function platformTypes(names: readonly C.NotificationTypeName[] = C.NOTIFICATION_LISTS): NotificationType[] {
  return [...new Set(names.map((name) => PLATFORM_TYPE[name]))];
}
