import { QUOTA_WARNING_HEADER } from '../rules/daily-quota.js';
import { queryAsText, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/** Talks to a base URL over HTTP: our `serve`, or the real service. The base may or may not end in /api. */
export class HttpTransport implements Transport {
  readonly #origin: string;

  constructor(baseUrl: string) {
    this.#origin = baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const url = new URL(this.#origin + request.path);
    for (const [key, value] of Object.entries(queryAsText(request.query))) {
      for (const v of ([] as string[]).concat(value)) url.searchParams.append(key, v);
    }
    const headers: Record<string, string> = {};
    if (request.apiKey) headers['authorization'] = `Bearer ${request.apiKey}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method: request.method,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
    const text = await response.text();
    const answer: TransportResponse = { status: response.status, body: text ? JSON.parse(text) : null };
    const kept = keptHeaders(response.headers);
    if (kept) answer.headers = kept;
    return answer;
  }
}

/** The response headers a client acts on: a 429's wait, and the warning `serve --quota warn` adds past the daily figure. */
const CLIENT_HEADERS = ['retry-after', QUOTA_WARNING_HEADER] as const;

function keptHeaders(headers: Headers): Record<string, string> | undefined {
  const kept: Record<string, string> = {};
  for (const name of CLIENT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}
