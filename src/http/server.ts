import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Api } from '../api/dispatch.js';
import { errorResponse } from '../api/errors.js';
import type { ApiResponse } from '../api/types.js';
import { ROUTES } from '../api/routes/index.js';
import { registerDocs } from './openapi.js';

/**
 * The HTTP twin: a fastify server that hands every request to the same route table the in-process
 * client uses (`Api.handle`), so both transports match, validate and answer identically. Fastify only
 * carries bytes: bodies arrive as text whatever their Content-Type (real SDKs send accept, join and
 * refresh with no body and no Content-Type, and unfollow as DELETE with a JSON body), and the raw URL,
 * query string included, goes to the dispatcher, which reads repeated keys as arrays.
 */
export interface ServerOptions {
  /** Largest request body in bytes; a larger one answers 413 `payload_too_large`. */
  bodyLimit?: number;
  /** Log requests with pino; the Authorization header is redacted, so API keys never reach a log. */
  logger?: boolean;
  /** Where log lines go (standard output by default). */
  logStream?: { write(line: string): void };
  /** Registers more routes (the live world's /_sim controls) before the catch-all. */
  extend?: (app: FastifyInstance) => void;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024; // OURS: the largest valid body (a 1000-character post) is far smaller

/** Anything that answers route-table requests: the platform's `Api`, or a live world that records them. */
export type RequestHandler = Pick<Api, 'handle'>;

export function buildServer(api: RequestHandler, options: ServerOptions = {}): FastifyInstance {
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    logger: options.logger ? loggerOptions(options.logStream) : false,
    // Request ids from a counter, not randomness (DESIGN: determinism).
    genReqId: requestCounter(),
    // Requests fastify refuses before routing (a path that is not valid percent-encoding) get a registered code too.
    frameworkErrors: (error, _request, reply) => send(reply, errorResponse('bad_request', `malformed request: ${error.message}`)),
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: FastifyError, _request, reply) => send(reply, transportError(error)));
  registerDocs(app, ROUTES);
  options.extend?.(app);
  // Methods no route lists (TRACE, PROPFIND) reach the dispatcher as well, which answers method_not_allowed.
  app.setNotFoundHandler((request, reply) => send(reply, dispatch(api, request)));
  app.route({ method: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'], url: '/*', handler: (request, reply) => send(reply, dispatch(api, request)) });
  return app;
}

function loggerOptions(stream: ServerOptions['logStream']) {
  // The default request serializer leaves headers out; this one logs them, so the redaction is what keeps keys out.
  const serializers = { req: (req: FastifyRequest) => ({ method: req.method, url: req.url, headers: req.headers }) };
  const redact = { paths: ['req.headers.authorization'], censor: '[redacted]' };
  return { redact, serializers, ...(stream ? { stream } : {}) };
}

function requestCounter(): () => string {
  let next = 0;
  return () => `req-${++next}`;
}

function dispatch(api: RequestHandler, request: FastifyRequest): ApiResponse {
  const body = parseBody(request.body);
  if (body === MALFORMED) return errorResponse('validation_error', 'body: not valid JSON', { field: 'body' });
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
  return api.handle({ method: request.method, path: request.url, headers, body });
}

export const MALFORMED = Symbol('malformed');

/** Text to JSON; an empty body is no body; text that is not JSON is MALFORMED. */
export function parseBody(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return MALFORMED;
  }
}

/** Errors fastify raises before a handler runs (body too large, bad framing) mapped to registered codes. */
function transportError(error: FastifyError): ApiResponse {
  if (error.statusCode === 413) return errorResponse('payload_too_large', 'the request body is larger than the server accepts');
  return errorResponse('bad_request', `malformed request: ${error.message}`);
}

/** Writes a route-table answer: status, headers (Retry-After), JSON body. */
export function send(reply: FastifyReply, response: ApiResponse): FastifyReply {
  return reply.status(response.status).headers(response.headers ?? {}).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(response.body));
}
