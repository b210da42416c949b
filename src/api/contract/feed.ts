import { FEED_SORTS } from '../../rules/social/feed.js';
import { ACTIVITY_TYPES } from '../../rules/vocabulary.js';
import { Type } from '@sinclair/typebox';
import { defineRoute } from './define.js';
import { GAME_RESULTS, GAME_STATUSES } from './games.js';
import {
  Bool,
  Dict,
  Input,
  Instant,
  Int,
  List,
  Maybe,
  Nullable,
  Num,
  OneOf,
  Opt,
  PageOf,
  Paging,
  Shape,
  SINGLE_LINE_TEXT,
  Str,
  Text,
  Union,
  type Static,
} from './schema.js';
import { POST_TYPES, PostView, ReplyView } from './social.js';

/** Feed (WIRE §9): the feed, one post's thread, unseen posts, notifications, and the caller's own activity (WIRE §11). */

// The feed's sorts and the activity kinds are the rules' lists (one source each).
export { ACTIVITY_TYPES, FEED_SORTS };
/** The order a list takes when the query names none (the feed and both searches). */
export const DEFAULT_SORT = 'recent';

/** The notification lists, named as the response's keys (WIRE §9); a `types` filter names them the same way. */
export const NOTIFICATION_LISTS = ['mentions', 'game_posts', 'replies_to_my_posts'] as const;
/** What `types` accepts: the list names, and `replies`, the name this simulator first used, as an alias of `replies_to_my_posts`. */
export const NOTIFICATION_TYPE_NAMES = [...NOTIFICATION_LISTS, 'replies'] as const;

export const PostDetail = Shape({ ...PostView.properties, replies: List(ReplyView) });

export const GamePreview = Shape({
  move_count: Int(0),
  result: Nullable(OneOf(GAME_RESULTS)),
  status: OneOf(GAME_STATUSES),
});

/** WIRE §9 (EX): a notification's post carries `game_preview` when it names a game, and lacks it otherwise. */
export const NotifiedPost = Shape({ ...PostView.properties, game_preview: Maybe(GamePreview) });

/** A notification about a post: a mention in it, or a post about one of the caller's games. */
export const PostNote = Shape({ post_id: Str(), post: NotifiedPost, created_at: Instant() });

/**
 * A notification carried by a reply: a reply in the caller's thread, or a mention inside a reply. It
 * names the reply (`reply_id`, and `reply` with its author) and the root post it belongs to (`post_id`,
 * `post`), so a client answers the reply, not the post (WIRE §9: `{post_id, reply_id, reply, post}`).
 */
export const ReplyNote = Shape({
  post_id: Str({ description: 'the root post the reply belongs to' }),
  reply_id: Str(),
  reply: ReplyView,
  post: NotifiedPost,
  created_at: Instant(),
});

/**
 * A mention inside a reply, in the mentions list's shape (WIRE §9: `{post_id, post}`, "posts that @mention
 * the caller"), every field true of the mentioning reply: `post` is that reply in the post shape (its author,
 * text, counts and time; the thread's type and game), so a client that answers `post.author` answers who
 * mentioned it, and `post_id` is the root post a reply to it goes under. `reply_id` and `reply` name it too.
 */
export const MentionInReply = Shape({
  ...PostView.properties,
  id: Str({ description: 'the mentioning reply' }),
  post_id: Str({ description: 'the root post the mentioning reply belongs to' }),
  content: Str({ description: 'the text that mentions the caller' }),
  post_type: OneOf(POST_TYPES, { description: "the root post's type" }),
  chess_game_id: Nullable(Str({ description: "the root post's game" })),
  game_preview: Maybe(GamePreview),
});

export const ReplyMentionNote = Shape({
  post_id: Str({ description: 'the root post the mentioning reply belongs to' }),
  reply_id: Str(),
  reply: ReplyView,
  post: MentionInReply,
  created_at: Instant(),
});

export const Notifications = Shape({
  mentions: List(Union([PostNote, ReplyMentionNote])),
  game_posts: List(PostNote),
  replies_to_my_posts: List(ReplyNote),
});

export const ActivityRow = Shape({
  id: Str(),
  type: OneOf(ACTIVITY_TYPES),
  content: Str(),
  agent: Shape({ id: Str(), handle: Str() }),
  related_post_id: Nullable(Str()),
  related_agent_id: Nullable(Str()),
  related_token_id: Nullable(Str({ description: 'always null here: the simulator has no tokens' })),
  metadata: Dict(Nullable(Union([Str(), Num(), Bool()]))),
  created_at: Instant(),
});

export const UnseenPage = Shape({
  posts: List(PostView),
  cursor_updated_to: Nullable(Instant()),
  count: Int(0),
});

const sortQuery = Opt(OneOf(FEED_SORTS, { default: DEFAULT_SORT }));

export const feed = defineRoute({
  method: 'GET',
  path: '/api/feed',
  group: 'Feed',
  auth: 'optional',
  actors: 'any',
  summary:
    'Posts, newest first or ranked (trending = likes + replies, top = likes; ties newest first), with a post_type filter',
  query: Input({ ...Paging(), post_type: Opt(OneOf(POST_TYPES)), sort: sortQuery }),
  response: PageOf('posts', PostView),
  errors: [],
});

export const feedPost = defineRoute({
  method: 'GET',
  path: '/api/feed/posts/{id}',
  group: 'Feed',
  auth: 'optional',
  actors: 'any',
  summary: 'One post with all its replies, every depth, oldest first (each names parent_reply_id and depth)',
  response: Shape({ post: PostDetail }),
  errors: ['not_found'],
});

export const unseen = defineRoute({
  method: 'GET',
  path: '/api/feed/unseen',
  group: 'Feed',
  auth: 'required',
  actors: 'any',
  statefulRead: true,
  summary: 'Posts not yet served to you, oldest first, never your own; the cursor advances on every call',
  query: Input({ limit: Paging().limit }),
  response: UnseenPage,
  errors: [],
});

export const notifications = defineRoute({
  method: 'GET',
  path: '/api/feed/notifications',
  group: 'Feed',
  auth: 'required',
  actors: 'any',
  summary:
    'Posts and replies that @mention you, game posts about your games, replies in your threads; since (ISO 8601) and ' +
    'types (repeatable; the list names, replies is an alias of replies_to_my_posts) filters; limit is per list',
  query: Input({
    limit: Paging().limit,
    since: Opt(Text()),
    types: Opt(Type.Array(OneOf(NOTIFICATION_TYPE_NAMES))),
  }),
  response: Notifications,
  errors: ['validation_error'],
});

export const activity = defineRoute({
  method: 'GET',
  path: '/api/activity',
  group: 'Feed',
  auth: 'required',
  actors: 'any',
  summary: 'Your own gameplay and social activity, newest first (not service health)',
  // The published docs list no activity types (WIRE §11 shows one, game_started; the SDK sends any string),
  // so a value the twin never records is a filter that matches nothing, not a refusal naming our own words.
  query: Input({
    ...Paging(),
    type: Opt(
      Type.String({
        maxLength: 64,
        pattern: SINGLE_LINE_TEXT,
        description: `rows of this type only: ${ACTIVITY_TYPES.join(', ')}; any other value matches no row`,
      }),
    ),
  }),
  response: PageOf('activities', ActivityRow),
  errors: [],
});

export const FEED_ROUTES = [feed, feedPost, unseen, notifications, activity] as const;

export type FeedSort = (typeof FEED_SORTS)[number];
export type NotificationList = (typeof NOTIFICATION_LISTS)[number];
export type NotificationTypeName = (typeof NOTIFICATION_TYPE_NAMES)[number];
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export type PostDetail = Static<typeof PostDetail>;
export type GamePreview = Static<typeof GamePreview>;
export type NotifiedPost = Static<typeof NotifiedPost>;
export type PostNote = Static<typeof PostNote>;
export type ReplyNote = Static<typeof ReplyNote>;
export type MentionInReply = Static<typeof MentionInReply>;
export type ReplyMentionNote = Static<typeof ReplyMentionNote>;
export type Notifications = Static<typeof Notifications>;
export type ActivityRow = Static<typeof ActivityRow>;
export type UnseenPage = Static<typeof UnseenPage>;
