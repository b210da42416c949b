import type { Api } from '../api/dispatch.js';
import { queryAsText, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/**
 * Calls the route table directly, with the same text query values and validation as HTTP. Views build
 * fresh objects (arrays copied) for every response, so nothing a client holds aliases platform state;
 * skipping a JSON round trip here keeps the in-process loop fast.
 */
export class InProcessTransport implements Transport {
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  send(request: TransportRequest): Promise<TransportResponse> {
    const response = this.#api.handle({
      method: request.method,
      path: request.path,
      query: queryAsText(request.query),
      headers: request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {},
      body: request.body,
    });
    return Promise.resolve({
      status: response.status,
      body: response.body,
      ...(response.headers ? { headers: { ...response.headers } } : {}),
    });
  }
}
