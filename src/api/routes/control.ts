import { toIso } from '../../kernel/clock.js';
import {
  publishExternal,
  requireExternalAccount,
  updateExternalAccount,
} from '../../platform/identity/external-network.js';
import { registerHuman } from '../../platform/identity/humans.js';
import type { ExternalAccount } from '../../platform/state.js';
import * as C from '../contract/control.js';
import { implement, type Route } from '../types.js';

/**
 * Simulator control rows of the route table (OURS, under /_sim, no key): what the real world does outside
 * the platform. A human signs up through X, someone posts on X, an X profile changes or is banned. Both
 * transports serve them; the live server's own /_sim routes are in src/http/sim-control.ts.
 */
export const controlRoutes: Route[] = [
  implement(C.createHuman, ({ platform, body }) => {
    const { human, apiKey } = registerHuman(platform, body);
    return {
      success: true as const,
      human_id: human.id,
      username: human.handle,
      display_name: human.displayName,
      api_key: apiKey,
      author_type: 'human' as const,
    };
  }),
  implement(C.publishExternalPost, ({ platform, body }) => {
    const { account, post } = publishExternal(platform, body.handle, body.text);
    return { success: true as const, post_id: post.id, handle: account.handle, created_at: toIso(post.atMs) };
  }),
  implement(C.updateExternalAccount, ({ platform, params, body }) => ({
    success: true as const,
    account: externalAccountView(updateExternalAccount(platform, params['handle']!, body)),
  })),
  implement(C.getExternalAccount, ({ platform, params }) => ({
    success: true as const,
    account: externalAccountView(requireExternalAccount(platform, params['handle']!)),
  })),
];

function externalAccountView(account: ExternalAccount): C.ExternalAccount {
  return {
    handle: account.handle,
    display_name: account.displayName,
    avatar_url: account.avatarUrl,
    followers: account.followers,
    followers_count: account.followers,
    banned: account.banned,
    posts: account.posts.map((post) => ({ id: post.id, text: post.text, created_at: toIso(post.atMs) })),
  };
}
