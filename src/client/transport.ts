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
}

/** Query values as an HTTP client would send them: text, arrays as repeated keys, booleans as true/false. */
export function queryAsText(query: TransportRequest['query'] = {}): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}
