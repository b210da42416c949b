import { toIso } from '../kernel/clock.js';
import type { ExternalAccount } from '../platform/state.js';
import type * as C from './contract/control.js';
import type { LiveControl } from './types.js';

/** Wire views of the simulator's control routes: the mock external network's accounts, the live clock. */

export function externalAccountView(account: ExternalAccount): C.ExternalAccount {
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

/** The clock as every clock route reports it (the contract's clock fields). */
export function clockFields(live: LiveControl): Omit<C.ClockResponse, 'success'> {
  const next = live.nextTimerDueMs();
  return {
    now: toIso(live.nowMs),
    now_ms: live.nowMs,
    manual: live.clock.manual,
    speed: live.clock.speed,
    next_timer_at: next === undefined ? null : toIso(next),
    busy: live.job,
  };
}
