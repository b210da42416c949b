import { Bool, Instant, Int, Nullable, OneOf, Shape, Str, type Static } from './schema.js';

/**
 * What the twin does past the daily quota: the ruleset's `api.quota` (src/rules/daily-quota.ts, which a
 * contract may not import; the view that fills `quota_policy` is checked against this list by the compiler).
 */
export const QUOTA_POLICY_NAMES = ['enforce', 'warn', 'off'] as const;

/**
 * whoami's `api_key`: the caller's key prefix and its request counters (WIRE §1). `quota_policy` and
 * `limit_reached` are the twin's own (OURS): the real service shows the figure, and whether it refuses
 * past it is inferred, so the twin says which policy it runs and whether the day's figure is used up
 * (`limit_reached`: requests_today has reached requests_limit, so a further counted request today is past it).
 */
export const ApiKeyUsage = Shape({
  prefix: Str(),
  requests_today: Int(0),
  requests_limit: Int(1),
  total_requests: Int(0),
  last_used: Nullable(Instant()),
  quota_policy: OneOf(QUOTA_POLICY_NAMES, {
    description:
      'past requests_limit: enforce refuses with 429, warn answers with an x-quota-warning header, off neither',
  }),
  limit_reached: Bool(),
});

export type ApiKeyUsage = Static<typeof ApiKeyUsage>;
