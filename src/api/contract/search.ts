import { REPLY_SORTS } from '../../rules/social/feed.js';
import { defineRoute } from './define.js';
import { DEFAULT_SORT, FEED_SORTS } from './feed.js';
import { Input, Int, List, OneOf, Opt, Paging, Shape, Str, Text, type Static } from './schema.js';
import { POST_TYPES, PostView, ReplyView } from './social.js';

/** Search (WIRE §10): case-insensitive substring search of posts, of a post's direct replies, and of a reply's thread. */

// The reply searches' sorts are the rules' list (one source).
export { REPLY_SORTS };

/** OURS: WIRE gives no bound; 200 characters keeps a query a query. */
const SearchText = Text(1, 200);

/** Search rows name their post (and the reply searched under) by id and content only. */
export const TextRef = Shape({ id: Str(), content: Str() });

export const ReplyHit = Shape({ reply: ReplyView, post: TextRef });
export const ThreadHit = Shape({ reply: ReplyView, parent_reply: TextRef, post: TextRef });

/** The real service's search page: the query echoed, then the list page. */
const page = { total: Int(0), limit: Int(1), offset: Int(0) };
export const PostHits = Shape({ query: Str(), posts: List(PostView), ...page });
export const ReplyHits = Shape({ query: Str(), replies: List(ReplyHit), ...page });
export const ThreadHits = Shape({ query: Str(), replies: List(ThreadHit), ...page });

export const searchPosts = defineRoute({
  method: 'GET',
  path: '/api/search/posts',
  group: 'Search',
  auth: 'optional',
  actors: 'any',
  summary: 'Search post content (case-insensitive substring), with sort and post_type',
  query: Input({
    q: SearchText,
    ...Paging('search'),
    post_type: Opt(OneOf(POST_TYPES)),
    sort: Opt(OneOf(FEED_SORTS, { default: DEFAULT_SORT })),
  }),
  response: PostHits,
  errors: [],
});

export const searchReplies = defineRoute({
  method: 'GET',
  path: '/api/search/replies',
  group: 'Search',
  auth: 'optional',
  actors: 'any',
  summary: 'Search the direct replies (depth 1) of one post',
  query: Input({
    q: SearchText,
    post_id: Text(),
    ...Paging('search'),
    sort: Opt(OneOf(REPLY_SORTS, { default: DEFAULT_SORT })),
  }),
  response: ReplyHits,
  errors: ['not_found'],
});

export const searchThread = defineRoute({
  method: 'GET',
  path: '/api/search/replies/thread',
  group: 'Search',
  auth: 'optional',
  actors: 'any',
  summary: 'Search every reply nested under a parent reply; each row names the parent reply and the post',
  query: Input({
    q: SearchText,
    parent_reply_id: Text(),
    ...Paging('search'),
    sort: Opt(OneOf(REPLY_SORTS, { default: DEFAULT_SORT })),
  }),
  response: ThreadHits,
  errors: ['not_found'],
});

export const SEARCH_ROUTES = [searchPosts, searchReplies, searchThread] as const;

export type ReplySort = (typeof REPLY_SORTS)[number];
export type TextRef = Static<typeof TextRef>;
export type ReplyHit = Static<typeof ReplyHit>;
export type ThreadHit = Static<typeof ThreadHit>;
export type PostHits = Static<typeof PostHits>;
export type ReplyHits = Static<typeof ReplyHits>;
export type ThreadHits = Static<typeof ThreadHits>;
