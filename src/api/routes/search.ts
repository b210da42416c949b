import { searchDirectReplies, searchPostsPage, searchThread } from '../../platform/social/search.js';
import * as C from '../contract/search.js';
import { DEFAULT_SORT } from '../contract/feed.js';
import { textRef } from '../feed-views.js';
import { SocialViews } from '../social-views.js';
import { implement, type Route } from '../types.js';
import { pagedList, resolved } from './paging.js';

/** Search (WIRE §10): every match, ranked, then paged; each page echoes the query. Rows share their one post (and parent) reference. */
export const searchRoutes: Route[] = [
  implement(C.searchPosts, ({ platform, actor, query }) => {
    const { limit, offset } = resolved(query);
    const found = searchPostsPage(platform, {
      q: query.q,
      sort: query.sort ?? DEFAULT_SORT,
      postType: query.post_type,
      limit,
      offset,
    });
    return {
      query: query.q,
      posts: new SocialViews(platform, actor).posts(found.posts),
      total: found.total,
      limit,
      offset,
    };
  }),
  implement(C.searchReplies, ({ platform, actor, query }) => {
    const { post, replies } = searchDirectReplies(
      platform,
      query.q,
      query.post_id,
      query.sort ?? DEFAULT_SORT,
    );
    const postRef = textRef(post);
    const views = new SocialViews(platform, actor);
    const row = (reply: (typeof replies)[number]): C.ReplyHit => ({
      reply: views.reply(reply),
      post: postRef,
    });
    const page = pagedList('replies', replies, query, row);
    return {
      query: query.q,
      replies: page.replies,
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }),
  implement(C.searchThread, ({ platform, actor, query }) => {
    const { parent, post, replies } = searchThread(
      platform,
      query.q,
      query.parent_reply_id,
      query.sort ?? DEFAULT_SORT,
    );
    const parentRef = textRef(parent);
    const postRef = textRef(post);
    const views = new SocialViews(platform, actor);
    const row = (reply: (typeof replies)[number]): C.ThreadHit => ({
      reply: views.reply(reply),
      parent_reply: parentRef,
      post: postRef,
    });
    const page = pagedList('replies', replies, query, row);
    return {
      query: query.q,
      replies: page.replies,
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }),
];
