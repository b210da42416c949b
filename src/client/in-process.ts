import type { Api } from '../api/dispatch.js';
import { queryAsText, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/**
 * Calls the route table directly, with the same text query values and validation as HTTP. Views build
 * fresh objects (arrays copied) for every response, so nothing a client holds aliases platform state;
 * skipping a JSON round trip here keeps the in-process loop fast.
 */
export class InProcessTransport implements Transport {
  readonly #api: Api;
  /**
   * The authorization header of each key, written once: a crowd's agents each send one key on every
   * request, and the route table only reads the headers.
   */
  readonly #headersByKey = new Map<string, Readonly<Record<string, string>>>();
  /**
   * The key and headers of the last request: most requests come from the agent that sent the one before
   * (a heartbeat is a run of them), and comparing the key string the client keeps costs less than looking
   * it up among thousands.
   */
  #lastKey: string | undefined = undefined;
  #lastHeaders: Readonly<Record<string, string>> = NO_HEADERS;

  constructor(api: Api) {
    this.#api = api;
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    return Promise.resolve(this.sendNow(request));
  }

  sendNow(request: TransportRequest): TransportResponse {
    const response = this.#api.handle({
      method: request.method,
      path: request.path,
      query: queryAsText(request.query),
      headers: request.apiKey ? this.#headersFor(request.apiKey) : NO_HEADERS,
      body: request.body,
    });
    // The route table's answer is made for this request alone; only its headers are copied, and only when
    // there are any (a quota warning, a 429's wait): nearly every answer is passed on as it is.
    if (response.headers === undefined && response.text === undefined) return response;
    const answer: TransportResponse = { status: response.status, body: response.body };
    if (response.headers) answer.headers = { ...response.headers };
    return answer;
  }

  #headersFor(apiKey: string): Readonly<Record<string, string>> {
    if (apiKey === this.#lastKey) return this.#lastHeaders;
    let headers = this.#headersByKey.get(apiKey);
    if (headers === undefined) {
      headers = Object.freeze({ authorization: `Bearer ${apiKey}` });
      this.#headersByKey.set(apiKey, headers);
    }
    this.#lastKey = apiKey;
    this.#lastHeaders = headers;
    return headers;
  }
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
