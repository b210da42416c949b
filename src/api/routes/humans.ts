import { requireHuman } from '../../platform/identity/actors.js';
import { postsByAuthor } from '../../platform/social/posts.js';
import * as C from '../contract/humans.js';
import { humanProfile } from '../profile-views.js';
import { implement, type Route } from '../types.js';
import { page } from './paging.js';

/** Public human profiles (WIRE §11: the route exists, its shape is not stored; this one is OURS). */
export const humansRoutes: Route[] = [
  implement(C.humanProfile, ({ platform, params, query }) => {
    const human = requireHuman(platform, params['username']!);
    const posts = page(postsByAuthor(platform, human.id), query);
    return { success: true as const, human: humanProfile(platform, human, posts.items) };
  }),
];
