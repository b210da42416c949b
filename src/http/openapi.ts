import type { FastifyInstance } from 'fastify';
import type { Route } from '../api/types.js';

/** The OpenAPI document and its docs page (filled by the issue 5 work). */
export function registerDocs(app: FastifyInstance, routes: readonly Route[]): void {
  void app;
  void routes;
}
