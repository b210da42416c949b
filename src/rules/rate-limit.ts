/**
 * Hourly social limits with cooldowns (SPEC Limits). The window slides (OURS): an action is allowed when
 * fewer than `limit` accepted actions of the same kind lie in the last `windowMs`, and the last one is at
 * least `cooldownMs` old. A sliding window has no boundary burst (a fixed window lets 2x the limit through
 * around the hour), and it is what an independent checker can verify from the log alone.
 */
export const RATE_ACTIONS = ['post', 'reply', 'like', 'follow', 'vote', 'refresh', 'profile'] as const;
export type RateAction = (typeof RATE_ACTIONS)[number];

export interface RateWindow {
  readonly limit: number;
  readonly cooldownMs: number;
  readonly windowMs: number;
}

export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterMs: number; readonly reason: 'cooldown' | 'limit' };

/** `times`: accepted actions, oldest first, none older than `windowMs` (see `pruneWindow`). */
export function rateDecision(times: readonly number[], nowMs: number, window: RateWindow): RateDecision {
  const last = times.at(-1);
  const cooldownLeft = last === undefined ? 0 : last + window.cooldownMs - nowMs;
  const inWindow = times.length - firstInWindow(times, nowMs, window.windowMs);
  // The oldest action that must age out before one more fits: the (inWindow - limit + 1)-th oldest.
  const limitLeft =
    inWindow >= window.limit
      ? window.limit === 0
        ? Infinity
        : times[times.length - window.limit]! + window.windowMs - nowMs
      : 0;
  if (cooldownLeft <= 0 && limitLeft <= 0) return { allowed: true };
  return {
    allowed: false,
    retryAfterMs: Math.max(cooldownLeft, limitLeft),
    reason: limitLeft >= cooldownLeft ? 'limit' : 'cooldown',
  };
}

/** Index of the first time still inside the window ending at `nowMs` (a time exactly `windowMs` old has left it). */
function firstInWindow(times: readonly number[], nowMs: number, windowMs: number): number {
  let i = 0;
  while (i < times.length && times[i]! <= nowMs - windowMs) i++;
  return i;
}

/** Drops times that have left the window, in place, so a log holds at most `limit` entries. */
export function pruneWindow(times: number[], nowMs: number, windowMs: number): void {
  const keep = firstInWindow(times, nowMs, windowMs);
  if (keep > 0) times.splice(0, keep);
}

/** Retry-After is whole seconds, rounded up, and never 0 for a refusal. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Number.isFinite(retryAfterMs) ? Math.max(1, Math.ceil(retryAfterMs / 1000)) : 86_400;
}

/** The per-key daily quota (WIRE §1: requests_limit 5000, by UTC day): ms until the next UTC midnight. */
export const DAY_MS = 86_400_000;

export function msUntilNextDay(nowMs: number): number {
  return DAY_MS - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
}
