import { DAY_MS } from './rate-limit.js';

/**
 * The per-key daily request quota. WIRE §1 documents the figure (whoami's `requests_limit: 5000` per UTC
 * day); that the real service refuses past it is our inference. So what happens past it is a ruleset
 * choice (`ruleset.api.quota`, docs/rules.md, Social layer: the daily request quota rows):
 * - `enforce`: every counted request past it is refused with 429 `rate_limit_exceeded` until 00:00 UTC;
 * - `warn`: it is answered as usual, with the `x-quota-warning` header saying the figure was passed;
 * - `off`: nothing is refused or warned.
 */
export const QUOTA_POLICIES = ['enforce', 'warn', 'off'] as const;
export type QuotaPolicy = (typeof QUOTA_POLICIES)[number];

/** The response header a request past the quota carries under `warn` (lower case, as the transports keep names). */
export const QUOTA_WARNING_HEADER = 'x-quota-warning';

/** The counters the quota reads: which virtual UTC day they belong to and how many requests it counted. */
export interface DailyCount {
  readonly dayIndex: number;
  readonly requestsToday: number;
}

/**
 * True when today's count has reached the limit: a further counted request today is past the documented
 * figure. A count from an earlier day has been used up by nobody: it starts again at 00:00 UTC.
 */
export function dailyQuotaUsedUp(count: DailyCount, nowMs: number, requestsPerDay: number): boolean {
  return count.dayIndex === Math.floor(nowMs / DAY_MS) && count.requestsToday >= requestsPerDay;
}

/** The warning header's text (ASCII, one line): what was passed, and what the real service may do about it. */
export function quotaWarningText(requestsPerDay: number): string {
  return `daily request quota of ${requestsPerDay} passed; answered under quota policy warn, the real service may refuse with 429 rate_limit_exceeded until 00:00 UTC`;
}
