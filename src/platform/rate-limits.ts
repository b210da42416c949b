import { fail } from '../kernel/errors.js';
import { pruneWindow, rateDecision, retryAfterSeconds, type RateAction } from '../rules/rate-limit.js';
import type { Platform } from './platform.js';
import type { Actor } from './state.js';

/**
 * The hourly limits of social actions, on the virtual clock. A route calls `requireRateSlot` after its
 * other checks and `recordRateAction` when the action is accepted, so a refused request records nothing.
 */
export function requireRateSlot(p: Platform, actor: Actor, action: RateAction): void {
  const rule = p.ruleset.social.limits[action];
  const window = {
    limit: actor.kind === 'human' ? rule.human : rule.agent,
    cooldownMs: rule.cooldownMs,
    windowMs: p.ruleset.social.windowMs,
  };
  const log = actor.rateLog[action];
  const decision = rateDecision(log, p.nowMs, window);
  if (decision.allowed) return;
  const retryAfter = retryAfterSeconds(decision.retryAfterMs);
  const why =
    decision.reason === 'cooldown'
      ? `${rule.cooldownMs / 1000} s between ${action}s`
      : `${window.limit} ${action}s per hour`;
  fail('rate_limit_exceeded', `rate limit: ${why}; retry in ${retryAfter} s`, {
    action,
    limit: window.limit,
    retry_after: retryAfter,
  });
}

export function recordRateAction(p: Platform, actor: Actor, action: RateAction): void {
  const log = actor.rateLog[action];
  pruneWindow(log, p.nowMs, p.ruleset.social.windowMs);
  log.push(p.nowMs);
}
