/** How a client reaches the platform: in-process (the route table) or HTTP (a base URL). */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
  apiKey?: string;
}

export interface TransportResponse {
  status: number;
  body: unknown;
  /** Response headers that matter to a client (lower-case names), e.g. `retry-after` on a 429. */
  headers?: Record<string, string>;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /**
   * The answer now, for a transport that has it at once (the route table in this process): a client then
   * makes one settled promise per request instead of a chain of `then`s. `send` must answer the same.
   */
  sendNow?(request: TransportRequest): TransportResponse;
}

/** What a request without a query gives: one frozen object, not a fresh one per request. */
const NO_QUERY: Readonly<Record<string, string | string[]>> = Object.freeze({});

/**
 * Query values as an HTTP client would send them: text, arrays as repeated keys, booleans as true/false.
 * Read by key, not through Object.entries, which makes an array and a pair per field of every request.
 */
export function queryAsText(query?: TransportRequest['query']): Readonly<Record<string, string | string[]>> {
  if (query === undefined) return NO_QUERY;
  const out: Record<string, string | string[]> = {};
  for (const key in query) {
    const value = query[key];
    if (value === undefined || !Object.hasOwn(query, key)) continue;
    out[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}
