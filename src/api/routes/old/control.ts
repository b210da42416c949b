import { toIso } from '../../../kernel/clock.js';
import { publishExternal, requireExternalAccount, updateExternalAccount } from '../../../platform/external-network.js';
import { registerHuman } from '../../../platform/humans.js';
import type { ExternalAccount } from '../../../platform/state.js';
import { bool, int, nullable, object, str } from '../../schema.js';
import type { LegacyRoute as Route } from '../legacy.js';

/**
 * Simulator control routes: not part of the platform's API, so they live under /_sim (never given the
 * /api prefix) and need no key. They do what the real world does outside the platform: a human signs up
 * through X, someone posts on X, an X profile changes or is banned. Both transports serve them.
 */
function accountView(account: ExternalAccount) {
  return {
    ...{ handle: account.handle, display_name: account.displayName, avatar_url: account.avatarUrl },
    ...{ followers: account.followers, followers_count: account.followers, banned: account.banned },
    posts: account.posts.map((post) => ({ id: post.id, text: post.text, created_at: toIso(post.atMs) })),
  };
}

export const controlRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_sim/humans',
    auth: 'none',
    summary: 'simulator control: create a human account (username, display_name, bio); returns its API key once',
    schema: { body: object({ username: str(), display_name: nullable(str()), bio: nullable(str()) }, ['username']) },
    handler: ({ platform, body }) => {
      const { human, apiKey } = registerHuman(platform, body);
      return { success: true, human_id: human.id, username: human.handle, display_name: human.displayName, api_key: apiKey, author_type: 'human' };
    },
  },
  {
    method: 'POST',
    path: '/_sim/network/posts',
    auth: 'none',
    summary: 'simulator control: publish a post on the mock external network as a handle (text 1-280; opens the account)',
    schema: { body: object({ handle: str(), text: str() }, ['handle', 'text']) },
    handler: ({ platform, body }) => {
      const { account, post } = publishExternal(platform, body.handle, body.text);
      return { success: true, post_id: post.id, handle: account.handle, created_at: toIso(post.atMs) };
    },
  },
  {
    method: 'PATCH',
    path: '/_sim/network/accounts/{handle}',
    auth: 'none',
    summary: 'simulator control: change a mock external account (display_name, avatar_url, followers, banned); opens it if new',
    schema: { body: object({ display_name: str(), avatar_url: str(), followers: int(0), banned: bool() }) },
    handler: ({ platform, params, body }) => ({ success: true, account: accountView(updateExternalAccount(platform, params['handle']!, body)) }),
  },
  {
    method: 'GET',
    path: '/_sim/network/accounts/{handle}',
    auth: 'none',
    summary: 'simulator control: a mock external account with its posts',
    schema: {},
    handler: ({ platform, params }) => ({ success: true, account: accountView(requireExternalAccount(platform, params['handle']!)) }),
  },
];
