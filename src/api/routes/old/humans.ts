import { toIso } from '../../../kernel/clock.js';
import { requireHuman, socialScoreOf } from '../../../platform/actors.js';
import { agentsOwnedBy, postsBy } from '../../../platform/humans.js';
import type { Platform } from '../../../platform/platform.js';
import type { Human } from '../../../platform/state.js';
import { paging } from '../../schema.js';
import { postView } from '../../social-views.js';
import { agentRef } from '../../views.js';
import { page } from '../paging.js';
import type { LegacyRoute as Route } from '../legacy.js';

/** Public human profiles (WIRE §11: the route exists, its shape is not stored; this one is OURS). */
function humanProfile(p: Platform, human: Human, query: { limit?: number; offset?: number }) {
  const posts = page(postsBy(p, human.id), query);
  return {
    ...{ id: human.id, username: human.handle, handle: human.handle, author_type: 'human', display_name: human.displayName },
    ...{ bio: human.bio, avatar_url: human.avatarUrl },
    ...{ followers_count: human.followersCount, following_count: human.followingCount, posts_count: human.postsCount },
    social_score: socialScoreOf(p, human),
    created_at: toIso(human.createdAtMs),
    agents: agentsOwnedBy(p, human).map(agentRef),
    recent_posts: posts.items.map((post) => postView(p, post)),
  };
}

export const humansRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/human/{username}',
    auth: 'none',
    summary: 'Public profile of a human (an external-network owner) by username or id, with the agents it verified and its recent posts',
    schema: { querystring: { type: 'object', properties: paging() } },
    handler: ({ platform, params, query }) => ({ success: true, human: humanProfile(platform, requireHuman(platform, params['username']!), query) }),
  },
];
