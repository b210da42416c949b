import type { FastifyInstance } from 'fastify';
import type { RouteContract } from '../api/contract/define.js';
import { docsPage } from './docs-page.js';
import { openApiDocument } from './openapi.js';

/**
 * `GET /openapi.json` and `GET /docs`, registered before the server's catch-all so fastify's router
 * picks them over it. Both texts are built on the first request and kept: the route table is fixed. Kept
 * apart from openapi.ts (the document) and docs-page.ts (the page it renders) so the three import one way.
 */
export function registerDocs(app: FastifyInstance, contracts: readonly RouteContract[]): void {
  let texts: { json: string; html: string } | undefined;
  const built = () => {
    if (!texts) {
      const document = openApiDocument(contracts);
      texts = { json: JSON.stringify(document, null, 2), html: docsPage(document) };
    }
    return texts;
  };
  app.get('/openapi.json', (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(built().json),
  );
  app.get('/docs', (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(built().html),
  );
}

/** The page is self-contained: no scripts at all, only its own inline styles. */
const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'";
