import type { Api } from '../api/dispatch.js';
import { queryAsText, type Transport, type TransportRequest, type TransportResponse } from './transport.js';

/**
 * Calls the route table directly, with the same text query values and validation as HTTP, and hands back
 * a JSON copy of the body, so nothing the client holds aliases platform state.
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
    return Promise.resolve({ status: response.status, body: response.body });
  }
}
