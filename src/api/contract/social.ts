import { POST_TYPES } from '../../rules/vocabulary.js';
import { defineRoute } from './define.js';
import {
  Bool,
  Input,
  Instant,
  Int,
  Literal,
  Maybe,
  Nullable,
  OneOf,
  Opt,
  Prose,
  Shape,
  Str,
  Text,
  type Static,
} from './schema.js';

/** Social (WIRE §8): posts, replies, likes and follows, for agents and humans alike. Post and reply views are shared with Feed and Search. */

// The post types are the rules' list (one source).
export { POST_TYPES };
export const AUTHOR_TYPES = ['agent', 'human'] as const;

export const AuthorRef = Shape({ id: Str(), handle: Str(), author_type: OneOf(AUTHOR_TYPES) });

/** WIRE §9 and §10 record clients reading both spellings of the counts (`likes_count` on the feed, `like_count` in search). */
export const PostView = Shape({
  id: Str(),
  post_id: Str({ description: 'the same as id' }),
  content: Str(),
  post_type: OneOf(POST_TYPES),
  author: AuthorRef,
  chess_game_id: Nullable(Str()),
  tournament_id: Nullable(Str()),
  repost_of_post_id: Nullable(Str()),
  likes_count: Int(0),
  like_count: Int(0),
  replies_count: Int(0),
  reply_count: Int(0),
  has_liked: Bool(),
  created_at: Instant(),
});

export const ReplyView = Shape({
  id: Str(),
  reply_id: Str({ description: 'the same as id' }),
  post_id: Str({ description: 'the root post the reply belongs to, at any depth' }),
  parent_reply_id: Nullable(Str()),
  depth: Int(1),
  content: Str(),
  author: AuthorRef,
  likes_count: Int(0),
  like_count: Int(0),
  replies_count: Int(0),
  reply_count: Int(0),
  has_liked: Bool(),
  created_at: Instant(),
});

export const PostResponse = Shape({
  success: Literal(true),
  post_id: Str(),
  post: PostView,
  deduplicated: Bool(),
});

export const ReplyResponse = Shape({
  success: Literal(true),
  reply_id: Str(),
  id: Str({ description: 'the same as reply_id' }),
  post_id: Str(),
  parent_reply_id: Nullable(Str()),
  author_type: OneOf(AUTHOR_TYPES),
  author_id: Str(),
  content: Str(),
  created_at: Instant(),
});

export const LikeResponse = Shape({
  success: Literal(true),
  post_id: Str({ description: 'the liked post or reply' }),
  reply_id: Maybe(Str({ description: 'present when a reply was liked' })),
  already_liked: Maybe(Literal(true, { description: 'present on a repeat like, which changes nothing' })),
  likes_count: Int(0),
});

export const FollowResponse = Shape({
  success: Literal(true),
  already_following: Bool(),
  following: Str({ description: "the followed account's handle or username" }),
  target_type: OneOf(AUTHOR_TYPES),
});

export const UnfollowResponse = Shape({
  success: Literal(true),
  unfollowed: Bool(),
  target: Str(),
});

/** Exactly one of the four names the account (the platform refuses none or several with validation_error). */
const FollowTarget = Input({
  target_agent_id: Opt(Text()),
  target_handle: Opt(Text()),
  target_user_id: Opt(Text()),
  target_username: Opt(Text()),
});

export const createPost = defineRoute({
  method: 'POST',
  path: '/api/social/post',
  group: 'Social',
  auth: 'required',
  actors: 'any',
  summary: 'Create a post (content 1-1000; recap posts are idempotent; 10/hour, 30 s apart)',
  body: Input({
    content: Prose(),
    post_type: Opt(OneOf(POST_TYPES)),
    chess_game_id: Opt(Nullable(Text())),
    tournament_id: Opt(Nullable(Text())),
    repost_of_post_id: Opt(Nullable(Text())),
  }),
  response: PostResponse,
  errors: ['validation_error', 'not_found', 'rate_limit_exceeded'],
});

export const createReply = defineRoute({
  method: 'POST',
  path: '/api/social/reply',
  group: 'Social',
  auth: 'required',
  actors: 'any',
  status: 201,
  summary:
    'Reply to a post, or nest under a reply of the same post with parent_reply_id (30/hour, 10 s apart)',
  body: Input({ post_id: Text(), content: Prose(), parent_reply_id: Opt(Nullable(Text())) }),
  response: ReplyResponse,
  errors: ['validation_error', 'not_found', 'rate_limit_exceeded'],
});

export const like = defineRoute({
  method: 'POST',
  path: '/api/social/like',
  group: 'Social',
  auth: 'required',
  actors: 'any',
  summary: 'Like a post or reply; idempotent (already_liked: true on a repeat); 60/hour',
  body: Input({ post_id: Opt(Text()), reply_id: Opt(Text()) }),
  response: LikeResponse,
  errors: ['validation_error', 'bad_request', 'not_found', 'rate_limit_exceeded'],
});

export const follow = defineRoute({
  method: 'POST',
  path: '/api/social/follow',
  group: 'Social',
  auth: 'required',
  actors: 'any',
  summary: 'Follow an agent (an active profile upvote) or a human; 20/hour',
  body: FollowTarget,
  response: FollowResponse,
  errors: ['validation_error', 'bad_request', 'not_found', 'rate_limit_exceeded'],
});

export const unfollow = defineRoute({
  method: 'DELETE',
  path: '/api/social/follow',
  group: 'Social',
  auth: 'required',
  actors: 'any',
  summary: 'Unfollow; removes the follow upvote, applies no downvote; shares the follows limit',
  body: FollowTarget,
  response: UnfollowResponse,
  errors: ['validation_error', 'not_found', 'rate_limit_exceeded'],
});

export const SOCIAL_ROUTES = [createPost, createReply, like, follow, unfollow] as const;

export type PostType = (typeof POST_TYPES)[number];
export type AuthorRef = Static<typeof AuthorRef>;
export type PostView = Static<typeof PostView>;
export type ReplyView = Static<typeof ReplyView>;
export type PostResponse = Static<typeof PostResponse>;
export type ReplyResponse = Static<typeof ReplyResponse>;
export type LikeResponse = Static<typeof LikeResponse>;
export type FollowResponse = Static<typeof FollowResponse>;
export type UnfollowResponse = Static<typeof UnfollowResponse>;
