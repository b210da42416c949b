import { toIso } from '../../../kernel/clock.js';
import { fail } from '../../../kernel/errors.js';
import { FEED_SORTS, parseIsoInstant, REPLY_SORTS } from '../../../rules/feed.js';
import { feedPage, repliesOf, requirePost, serveUnseen } from '../../../platform/feed.js';
import { listNotifications, NOTIFICATION_TYPES } from '../../../platform/notifications.js';
import { ACTIVITY_TYPES, listActivity } from '../../../platform/activity.js';
import { searchDirectReplies, searchPosts, searchThread } from '../../../platform/search.js';
import { POST_TYPES } from '../../../platform/state.js';
import { int, object, oneOf, paging, str } from '../../schema.js';
import { actorCaller, type JsonSchema } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
type RouteContext = any;
import { postView, replyView } from '../../social-views.js';
import { activityView, notificationView, postDetailView, textRef } from '../../feed-views.js';
import { pagedList } from '../paging.js';

/** Feed, unseen, notifications (WIRE §9), activity (WIRE §11) and search (WIRE §10). */
const feedSort = { ...oneOf(FEED_SORTS), default: 'recent' };
const replySort = { ...oneOf(REPLY_SORTS), default: 'recent' };
const searchText = str(1, 200); // OURS: WIRE gives no bound; 200 keeps a query a query
const viewerOf = (ctx: RouteContext) => ctx.actor;

const feedRows: Route[] = [
  {
    method: 'GET',
    path: '/api/feed',
    auth: 'optional',
    actors: 'any',
    summary: 'Posts, newest first or ranked (trending = likes + replies, top = likes; ties newest first), with a post_type filter',
    schema: { querystring: object({ ...paging(50, 100), post_type: oneOf(POST_TYPES), sort: feedSort }) },
    handler: (ctx) => {
      const { limit, offset, sort } = ctx.query;
      const { posts, total } = feedPage(ctx.platform, { sort, postType: ctx.query.post_type, limit, offset });
      return { posts: posts.map((post) => postView(ctx.platform, post, viewerOf(ctx))), total, limit, offset };
    },
  },
  {
    method: 'GET',
    path: '/api/feed/posts/{id}',
    auth: 'optional',
    actors: 'any',
    summary: 'One post with all its replies, every depth, oldest first (each names parent_reply_id and depth)',
    schema: {},
    handler: (ctx) => {
      const post = requirePost(ctx.platform, ctx.params['id']!);
      return postDetailView(ctx.platform, post, repliesOf(ctx.platform, post.id), viewerOf(ctx));
    },
  },
  {
    method: 'GET',
    path: '/api/feed/unseen',
    auth: 'required',
    actors: 'any',
    statefulRead: true,
    summary: 'Posts not yet served to you, oldest first, never your own; the cursor advances on every call',
    schema: { querystring: object({ limit: { ...int(1, 100), default: 50 } }) },
    handler: (ctx) => {
      const me = actorCaller(ctx);
      const { posts, cursorAtMs } = serveUnseen(ctx.platform, me, ctx.query.limit);
      const views = posts.map((post) => postView(ctx.platform, post, me));
      return { posts: views, cursor_updated_to: cursorAtMs === null ? null : toIso(cursorAtMs), count: views.length };
    },
  },
];

const notificationRows: Route[] = [
  {
    method: 'GET',
    path: '/api/feed/notifications',
    auth: 'required',
    actors: 'any',
    summary: 'Posts that @mention you, game posts about your games, replies to your posts; since (ISO 8601) and types filters',
    schema: {
      querystring: object({
        limit: { ...int(1, 100), default: 50 },
        since: str(),
        types: { type: 'array', items: oneOf(NOTIFICATION_TYPES), default: [...NOTIFICATION_TYPES] } as JsonSchema,
      }),
    },
    handler: (ctx) => {
      const me = actorCaller(ctx);
      const since = ctx.query.since === undefined ? null : (parseIsoInstant(ctx.query.since) ?? fail('validation_error', 'since: must be an ISO 8601 time', { field: 'since' }));
      const lists = listNotifications(ctx.platform, me.id, { limit: ctx.query.limit, sinceMs: since, types: ctx.query.types });
      const view = (list: typeof lists.mentions) => list.map((note) => notificationView(ctx.platform, note, me));
      return { mentions: view(lists.mentions), game_posts: view(lists.game_posts), replies_to_my_posts: view(lists.replies) };
    },
  },
  {
    method: 'GET',
    path: '/api/activity',
    auth: 'required',
    actors: 'any',
    summary: 'Your own gameplay and social activity, newest first (not service health)',
    schema: { querystring: object({ ...paging(50, 100), type: oneOf(ACTIVITY_TYPES) }) },
    handler: (ctx) => {
      const me = actorCaller(ctx);
      const rows = listActivity(ctx.platform, me.id, ctx.query.type);
      return pagedList('activities', rows, ctx.query, (row) => activityView(ctx.platform, me.id, row));
    },
  },
];

const searchRows: Route[] = [
  {
    method: 'GET',
    path: '/api/search/posts',
    auth: 'optional',
    actors: 'any',
    summary: 'Search post content (case-insensitive substring), with sort and post_type',
    schema: { querystring: object({ q: searchText, ...paging(20, 100), post_type: oneOf(POST_TYPES), sort: feedSort }, ['q']) },
    handler: (ctx) => {
      const posts = searchPosts(ctx.platform, ctx.query.q, ctx.query.sort, ctx.query.post_type);
      return { query: ctx.query.q, ...pagedList('posts', posts, ctx.query, (post) => postView(ctx.platform, post, viewerOf(ctx))) };
    },
  },
  {
    method: 'GET',
    path: '/api/search/replies',
    auth: 'optional',
    actors: 'any',
    summary: 'Search the direct replies (depth 1) of one post',
    schema: { querystring: object({ q: searchText, post_id: str(), ...paging(20, 100), sort: replySort }, ['q', 'post_id']) },
    handler: (ctx) => {
      const { post, replies } = searchDirectReplies(ctx.platform, ctx.query.q, ctx.query.post_id, ctx.query.sort);
      const row = (reply: (typeof replies)[number]) => ({ reply: replyView(ctx.platform, reply, viewerOf(ctx)), post: textRef(post) });
      return { query: ctx.query.q, ...pagedList('replies', replies, ctx.query, row) };
    },
  },
  {
    method: 'GET',
    path: '/api/search/replies/thread',
    auth: 'optional',
    actors: 'any',
    summary: 'Search every reply nested under a parent reply; each row names the parent reply and the post',
    schema: { querystring: object({ q: searchText, parent_reply_id: str(), ...paging(20, 100), sort: replySort }, ['q', 'parent_reply_id']) },
    handler: (ctx) => {
      const { parent, post, replies } = searchThread(ctx.platform, ctx.query.q, ctx.query.parent_reply_id, ctx.query.sort);
      const row = (reply: (typeof replies)[number]) => ({ reply: replyView(ctx.platform, reply, viewerOf(ctx)), parent_reply: textRef(parent), post: textRef(post) });
      return { query: ctx.query.q, ...pagedList('replies', replies, ctx.query, row) };
    },
  },
];

export const feedRoutes: Route[] = [...feedRows, ...notificationRows, ...searchRows];
