import { Instant, Int, Nullable, Shape, Str, type Static } from './schema.js';

/** whoami's `api_key`: the caller's key prefix and its request counters (WIRE §1). */
export const ApiKeyUsage = Shape({
  prefix: Str(),
  requests_today: Int(0),
  requests_limit: Int(1),
  total_requests: Int(0),
  last_used: Nullable(Instant()),
});

export type ApiKeyUsage = Static<typeof ApiKeyUsage>;
