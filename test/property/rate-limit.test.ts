import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pruneWindow, rateDecision, retryAfterSeconds, type RateWindow } from '../../src/rules/rate-limit.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

/**
 * The brute-force oracle: the whole history of accepted actions, never pruned. An action at `now` is
 * allowed iff fewer than `limit` accepted actions lie in (now - window, now] and the last one is at least
 * `cooldown` old.
 */
function oracleAllows(history: readonly number[], nowMs: number, w: RateWindow): boolean {
  const inWindow = history.filter((t) => t > nowMs - w.windowMs && t <= nowMs).length;
  const last = history.at(-1);
  return inWindow < w.limit && (last === undefined || nowMs - last >= w.cooldownMs);
}

/**
 * Replays attempts at increasing times the way the platform does (decide on the pruned log, prune and
 * record on acceptance), checking every decision against the oracle; returns how many were refused.
 */
function replay(w: RateWindow, gapsMs: readonly number[]): number {
  const log: number[] = [];
  const history: number[] = [];
  let nowMs = 1_000_000;
  let refused = 0;
  for (const gap of gapsMs) {
    nowMs += gap;
    const decision = rateDecision(log, nowMs, w);
    expect(decision.allowed).toBe(oracleAllows(history, nowMs, w));
    if (!decision.allowed) {
      refused++;
      checkRefusal(log, history, nowMs, w, decision);
      continue;
    }
    pruneWindow(log, nowMs, w.windowMs);
    log.push(nowMs);
    history.push(nowMs);
    expect(log.length).toBeLessThanOrEqual(w.limit);
  }
  return refused;
}

/** A refusal's wait is exact: allowed at now + wait, still refused 1 ms earlier; the reason names the binding rule. */
function checkRefusal(
  log: number[],
  history: number[],
  nowMs: number,
  w: RateWindow,
  decision: { retryAfterMs: number; reason: string },
): void {
  const wait = decision.retryAfterMs;
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(oracleAllows(history, nowMs + wait, w)).toBe(true);
  expect(oracleAllows(history, nowMs + wait - 1, w)).toBe(false);
  expect(rateDecision(log, nowMs + wait, w).allowed).toBe(true);
  const last = history.at(-1)!;
  const cooldownPassed = nowMs - last >= w.cooldownMs;
  const underLimit = history.filter((t) => t > nowMs - w.windowMs).length < w.limit;
  if (cooldownPassed) expect(decision.reason).toBe('limit');
  if (underLimit) expect(decision.reason).toBe('cooldown');
  // The whole seconds a client is told to wait are enough.
  const seconds = retryAfterSeconds(wait);
  expect(oracleAllows(history, nowMs + seconds * 1000, w)).toBe(true);
}

const smallWindow = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  cooldownMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 })),
  windowMs: fc.integer({ min: 1, max: 500 }),
});

const rulesetWindow = fc.constantFrom(...Object.values(DEFAULT_RULESET.social.limits)).chain((rule) =>
  fc.record({
    limit: fc.constantFrom(rule.agent, rule.human),
    cooldownMs: fc.constant(rule.cooldownMs),
    windowMs: fc.constant(DEFAULT_RULESET.social.windowMs),
  }),
);

describe('rate limits against a brute-force sliding-window model', () => {
  it('small windows: every decision, wait and reason matches the oracle', () => {
    let refusals = 0;
    fc.assert(
      fc.property(
        smallWindow,
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 60 }),
        (w, gaps) => {
          refusals += replay(w, gaps);
        },
      ),
      { numRuns: 400 },
    );
    expect(refusals).toBeGreaterThan(100); // the runs really do reach the limits
  });

  it("the ruleset's own limits over hours of bursts and pauses", () => {
    const gap = fc.oneof(fc.integer({ min: 0, max: 15_000 }), fc.integer({ min: 0, max: 20 * 60_000 }));
    fc.assert(
      fc.property(rulesetWindow, fc.array(gap, { minLength: 1, maxLength: 200 }), (w, gaps) => {
        replay(w, gaps);
      }),
      { numRuns: 150 },
    );
  });

  it('retry-after seconds round up, are never 0, and a limit of 0 waits a day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 ** 9 }), (ms) => {
        const seconds = retryAfterSeconds(ms);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds * 1000).toBeGreaterThanOrEqual(ms);
        expect((seconds - 1) * 1000).toBeLessThan(Math.max(ms, 1000));
      }),
      { numRuns: 500 },
    );
    const never = rateDecision([], 0, { limit: 0, cooldownMs: 0, windowMs: 1000 });
    expect(never).toMatchObject({ allowed: false, reason: 'limit' });
    expect(retryAfterSeconds(never.allowed ? 0 : never.retryAfterMs)).toBe(86_400);
  });
});
