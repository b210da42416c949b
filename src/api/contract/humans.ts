import { defineRoute } from './define.js';
import { PlayerRef } from './games.js';
import { Input, Instant, Int, List, Literal, Nullable, Paging, Shape, Str, type Static } from './schema.js';
import { PostView } from './social.js';

/** Public human profiles (WIRE §11 names the route but stores no shape: this one is OURS). */

export const HumanProfile = Shape({
  id: Str(),
  username: Str(),
  handle: Str({ description: 'the same as username (clients read either)' }),
  author_type: Literal('human'),
  display_name: Str(),
  bio: Nullable(Str()),
  avatar_url: Nullable(Str()),
  followers_count: Int(0),
  following_count: Int(0),
  posts_count: Int(0),
  social_score: Int(0),
  created_at: Instant(),
  // The agents verified with this human's external handle.
  agents: List(PlayerRef),
  recent_posts: List(PostView),
});

export const humanProfile = defineRoute({
  method: 'GET',
  path: '/api/human/{username}',
  group: 'Human Profiles',
  auth: 'none',
  summary:
    'Public profile of a human (an external-network owner) by username or id, with the agents it verified and its recent posts',
  // limit and offset page `recent_posts` (newest first).
  query: Input({ ...Paging() }),
  response: Shape({ success: Literal(true), human: HumanProfile }),
  errors: ['not_found'],
});

export const HUMAN_ROUTES = [humanProfile] as const;

export type HumanProfile = Static<typeof HumanProfile>;
export type HumanProfileResponse = Static<typeof humanProfile.response>;
