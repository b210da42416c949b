import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { errorResponse } from '../api/errors.js';
import { JsonStream, type ApiRequest, type ApiResponse } from '../api/types.js';
import { CONTRACTS } from '../api/contract/index.js';
import { limitBody } from './body-limit.js';
import { collectChunks, joinAtOnce, type BodyChunks } from './body-chunks.js';
import { directGetServer, JSON_TYPE } from './direct-get.js';
import { guardCheck, registerGuards, type GuardCheck, type GuardOptions } from './guard.js';
import { redactHeaders, redactUrl, scrubLine } from './log-redaction.js';
import { registerDocs } from './docs-routes.js';
import type { HttpFaults } from './faults.js';

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
  /**
   * Log requests with pino. Every header and query parameter that can carry a credential, any path segment or
   * value shaped like a key, and the control token anywhere in a line are redacted (log-redaction.ts).
   */
  logger?: boolean;
  /** Where log lines go (standard output by default). */
  logStream?: { write(line: string): void };
  /** Routes whose body may pass `bodyLimit`, up to a limit decided per request (a live server's restore). */
  largeBodies?: readonly LargeBodyRoute[];
  /** The simulated clock, for the `virtual_time` field of each log line. */
  virtualNowMs?: () => number;
  /** `serve`'s checks before any route: Host, Origin, and the control token on /_sim (guard.ts). */
  guard?: GuardOptions;
  /**
   * Where a programmer error (an exception in a handler) is reported; the client gets only a 500 with the
   * request id. By default it goes to the request log when `logger` is on, else one JSON line on stderr.
   */
  onInternalError?: InternalErrorHook;
  /** `serve --faults`: the fault profile acted out on the sockets (faults.ts); with rules, every request goes through fastify. */
  faults?: HttpFaults;
  /** Fixed GET answers besides the route table (serve's live view: /, /stream and their assets), guarded as every route. */
  pages?: readonly PageRoute[];
  /** The wall clock the direct GETs are answered in turns by (serve's; direct-get.ts, answer-turns.ts). */
  wallClockMs?: () => number;
}

/** A page or asset answered as is: its bytes, type and headers (a Content-Security-Policy, caching). */
export interface PageRoute {
  path: string;
  contentType: string;
  headers: Readonly<Record<string, string>>;
  body: () => string;
}

export type InternalErrorHook = (requestId: string, error: unknown) => void;

export interface LargeBodyRoute {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  limitBytes: () => number;
  /** Reads the body's chunks in its own way (in slices: a restore's snapshot); readJsonBody of the text when left out. */
  readBody?: (body: BodyChunks) => Promise<BodyRead>;
  /** Rewrites the body as it arrives (the restore drops the state it never reads); sets `receivedEncodedLength`. */
  filter?: () => NodeJS.ReadWriteStream & { receivedEncodedLength: number };
}

export const DEFAULT_BODY_LIMIT = 64 * 1024; // OURS: the largest valid body (a 1000-character post) is far smaller

/** Anything that answers route-table requests: the platform's `Api`, or a live world that records them (and may make a request wait for the instant it is running to end). */
export interface RequestHandler {
  handle(request: ApiRequest): ApiResponse | Promise<ApiResponse>;
}

export function buildServer(api: RequestHandler, options: ServerOptions = {}): FastifyInstance {
  const nextRequestId = requestCounter();
  const guard = options.guard ? guardCheck(options.guard) : undefined;
  const direct = directGetPath(api, options, guard, nextRequestId);
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    logger: options.logger ? loggerOptions(options) : false,
    // Request ids from a counter, not randomness (DESIGN: determinism).
    genReqId: nextRequestId,
    // Requests fastify refuses before routing (a path that is not valid percent-encoding) get a registered code too.
    frameworkErrors: (error, request, reply) => void send(reply, errorAnswer(error, request, options)),
    ...(direct ? { serverFactory: direct.serverFactory } : {}),
  });
  if (direct)
    app.addHook('preClose', (done) => {
      direct.stop();
      done();
    });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: FastifyError, request, reply) =>
    send(reply, errorAnswer(error, request, options)),
  );
  if (guard) registerGuards(app, guard);
  const faults = options.faults;
  if (faults) app.addHook('preHandler', (request, reply) => faults.preHandler(request, reply));
  registerDocs(app, CONTRACTS);
  for (const page of options.pages ?? [])
    app.get(page.path, (_request, out) => out.type(page.contentType).headers(page.headers).send(page.body()));
  const reply = (request: FastifyRequest, out: FastifyReply, answer: ApiResponse) =>
    faults?.finish(request, out, answer) ? out : send(out, answer);
  const handler = (request: FastifyRequest, out: FastifyReply) => {
    const answer = dispatch(api, request);
    // The in-process Api answers at once; a live server's answer may wait for the instant running to end.
    return answer instanceof Promise
      ? answer.then((ready) => reply(request, out, ready))
      : reply(request, out, answer);
  };
  registerLargeBodyRoutes(app, options.largeBodies ?? [], api, reply);
  // Methods no route lists (TRACE, PROPFIND) reach the dispatcher as well, which answers method_not_allowed.
  app.setNotFoundHandler(handler);
  app.route({ method: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'], url: '/*', handler });
  return app;
}

/** The GETs under /api answered in front of fastify; none with the request log on, since fastify writes its lines. */
function directGetPath(
  api: RequestHandler,
  options: ServerOptions,
  guard: ReturnType<typeof guardCheck> | undefined,
  nextRequestId: () => string,
): ReturnType<typeof directGetServer> | undefined {
  if (options.logger) return undefined;
  return directGetServer({
    handle: (request) => api.handle(request),
    guard: withFaults(guard, options.faults),
    answerToError: (error, requestId) => answerToError(error, requestId, options),
    nextRequestId,
    wallClockMs: options.wallClockMs,
  });
}

/**
 * Only the byte limit and the body reader differ: these requests go to the same dispatcher as every other.
 * Their bodies stay bytes (a scope of their own parser) so that a reader may decode only what it needs.
 */
function registerLargeBodyRoutes(
  app: FastifyInstance,
  large: readonly LargeBodyRoute[],
  api: RequestHandler,
  reply: (request: FastifyRequest, out: FastifyReply, answer: ApiResponse) => FastifyReply | Promise<unknown>,
): void {
  if (large.length === 0) return;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // The chunks as they came, joined by the route's own reader (a restore's in slices: body-chunks.ts).
    scope.addContentTypeParser('*', (request: FastifyRequest, payload: NodeJS.ReadableStream) =>
      collectChunks(request, payload),
    );
    for (const { method, path, limitBytes, readBody, filter } of large)
      scope.route({
        method,
        url: path,
        bodyLimit: Number.MAX_SAFE_INTEGER,
        preParsing: filter ? filtered(limitBody(limitBytes), filter) : limitBody(limitBytes),
        handler: (request, out) =>
          readLargeBody(request.body, readBody).then((read) => {
            const answer = 'refusal' in read ? read.refusal : dispatchRead(api, request, read.body);
            return Promise.resolve(answer).then((ready) => reply(request, out, ready));
          }),
      });
  });
}

/** Not an answer: tells the direct path (which only asks whether its guard objects) to leave the request to fastify. */
const FAULTS_ACTIVE: ApiResponse = { status: 0, body: null };

/** The direct path leaves a request to fastify when the guard refuses it, or while a fault profile has rules. */
function withFaults(guard: GuardCheck | undefined, faults: HttpFaults | undefined): GuardCheck | undefined {
  if (!faults) return guard;
  return (request) => guard?.(request) ?? (faults.empty ? undefined : FAULTS_ACTIVE);
}

function loggerOptions(options: ServerOptions) {
  // The default request serializer leaves headers out; this one logs them, so the redaction is what keeps keys out.
  const serializers = {
    req: (req: FastifyRequest) => ({
      method: req.method,
      url: redactUrl(req.url),
      headers: redactHeaders(req.headers),
    }),
  };
  // The last pass, over each whole line: a key or the control token that got in anywhere else (log-redaction.ts).
  const secrets = options.guard ? [options.guard.controlToken] : [];
  const hooks = { streamWrite: (line: string) => scrubLine(line, secrets) };
  // Each line also carries the simulated time, which is what a reader lines up with games and deadlines.
  const virtualNowMs = options.virtualNowMs;
  const mixin = virtualNowMs ? () => ({ virtual_time: new Date(virtualNowMs()).toISOString() }) : undefined;
  const stream = options.logStream;
  return { serializers, hooks, ...(stream ? { stream } : {}), ...(mixin ? { mixin } : {}) };
}

function requestCounter(): () => string {
  let next = 0;
  return () => `req-${++next}`;
}

function dispatch(api: RequestHandler, request: FastifyRequest): ApiResponse | Promise<ApiResponse> {
  const read = readJsonBody(request.body);
  if ('refusal' in read) return read.refusal;
  return dispatchRead(api, request, read.body);
}

function dispatchRead(
  api: RequestHandler,
  request: FastifyRequest,
  body: unknown,
): ApiResponse | Promise<ApiResponse> {
  // Passed as node gives them, not copied: the only header that node gives as a list is Set-Cookie, which no
  // handler reads (node keeps the first of repeated Authorization headers).
  const headers = request.headers as Record<string, string | undefined>;
  return api.handle({ method: request.method, path: request.url, headers, body });
}

/** The limit's stream piped through a route's filter; an error of the first (413) ends the second. */
function filtered(limit: ReturnType<typeof limitBody>, filter: NonNullable<LargeBodyRoute['filter']>) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    const limited = await limit(request, reply, payload);
    const out = filter();
    limited.on('error', (error: Error) => out.emit('error', error));
    return limited.pipe(out);
  };
}

/** A large route's body (bytes, or nothing), read by the route's own reader or as JSON text. */
async function readLargeBody(
  raw: unknown,
  readBody: ((body: BodyChunks) => Promise<BodyRead>) | undefined,
): Promise<BodyRead> {
  if (!isBodyChunks(raw)) return readJsonBody(raw);
  return readBody ? readBody(raw) : readJsonBody(joinAtOnce(raw).toString('utf8'));
}

function isBodyChunks(raw: unknown): raw is BodyChunks {
  return typeof raw === 'object' && raw !== null && Array.isArray((raw as BodyChunks).chunks);
}

/**
 * Deepest nesting of arrays and objects a body may have. The deepest valid body is 2 levels (an object
 * holding `tags`); 32 leaves room for any client's wrapping, while code past the parser (validation,
 * copies, snapshots, hashing) may walk a body recursively without running out of stack.
 */
export const MAX_BODY_DEPTH = 32;

export type BodyRead = { body: unknown } | { refusal: ApiResponse };

/**
 * Text to JSON, refusing what JSON.parse accepts but nothing after it should see: nesting deeper than
 * MAX_BODY_DEPTH (checked on the text, before parsing, without recursion), and numbers that overflow to
 * Infinity (`1e999`), which a later JSON round trip would turn into null. An empty body is no body.
 */
export function readJsonBody(raw: unknown): BodyRead {
  if (typeof raw !== 'string' || raw.trim() === '') return { body: undefined };
  if (nestingDepth(raw) > MAX_BODY_DEPTH)
    return bodyRefusal('body', `body: nested deeper than ${MAX_BODY_DEPTH} levels`);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return bodyRefusal('body', 'body: not valid JSON');
  }
  const field = nonFiniteField(body);
  return field === undefined ? { body } : bodyRefusal(field, `${field}: numbers must be finite`);
}

function bodyRefusal(field: string, message: string): BodyRead {
  return { refusal: errorResponse('validation_error', message, { field }) };
}

/** The deepest bracket nesting in JSON text, brackets inside strings not counted; one pass, no recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\')
        i++; // the escaped character cannot end the string
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

/**
 * The path (in the validator's dotted form: `bounty_sol`, `tags.0`) of the first number that is not
 * finite, `body` for a bare one, or undefined. Iterative, though MAX_BODY_DEPTH already bounds the depth.
 */
function nonFiniteField(body: unknown): string | undefined {
  const pending: Array<[value: unknown, path: string]> = [[body, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'number' && !Number.isFinite(value)) return path || 'body';
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) pending.push([child, path ? `${path}.${key}` : key]);
  }
  return undefined;
}

const INTERNAL_MESSAGE = 'internal error; see the server log';

/**
 * The answer to an error fastify hands over. Faults of the request (fastify and the body stream it reads
 * set a 4xx statusCode: body too large, bad Content-Length, a URL that is not valid percent-encoding) keep
 * their registered codes with fixed messages. Anything else is a programmer error: a 500 that names the
 * request and nothing internal, its stack reported to the log. Never echoes `error.message`.
 */
function errorAnswer(error: unknown, request: FastifyRequest, options: ServerOptions): ApiResponse {
  return answerToError(error, request.id, options, request.log);
}

/** errorAnswer for a request id; `log` is the request's logger when the request log is on. */
function answerToError(
  error: unknown,
  requestId: string,
  options: ServerOptions,
  log?: FastifyRequest['log'],
): ApiResponse {
  const fault = requestFault(error);
  if (fault) return fault;
  reportInternalError(error, requestId, options, log);
  return errorResponse('internal_error', INTERNAL_MESSAGE, { request_id: requestId });
}

function requestFault(error: unknown): ApiResponse | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 413)
    return errorResponse('payload_too_large', 'the request body is larger than the server accepts');
  if (status === 415)
    return errorResponse('unsupported_media_type', 'the server does not accept this Content-Type');
  const code = (error as { code?: unknown }).code;
  return errorResponse(
    'bad_request',
    REQUEST_FAULT_MESSAGES.get(String(code)) ?? 'malformed request: the server could not read it',
  );
}

const REQUEST_FAULT_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['FST_ERR_BAD_URL', 'malformed request: the URL is not valid percent-encoding'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'malformed request: Content-Length does not match the body'],
]);

/** Hands the error to the hook, the request log or stderr; a failing reporter never stops the 500. */
function reportInternalError(
  error: unknown,
  requestId: string,
  options: ServerOptions,
  log: FastifyRequest['log'] | undefined,
): void {
  try {
    if (options.onInternalError) options.onInternalError(requestId, error);
    else if (options.logger && log) log.error({ err: error, request_id: requestId }, 'internal error');
    else writeInternalErrorLine(requestId, error);
  } catch {
    // Nothing left to report to; the client still gets its 500.
  }
}

/** One JSON line, so a stack (or a message holding request text) cannot forge further log lines. */
export function writeInternalErrorLine(requestId: string, error: unknown): void {
  const stack = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  const line = JSON.stringify({ level: 'error', msg: 'internal error', request_id: requestId, stack });
  process.stderr.write(`${scrubLine(line)}\n`); // a message may quote request text, key included
}

/**
 * Writes a route-table answer: status, headers (Retry-After), JSON body (or the JSON text it already is, or
 * the stream of that text as it is written: a live server's snapshot, sent as the socket takes it).
 */
export function send(reply: FastifyReply, response: ApiResponse): FastifyReply {
  reply.code(response.status).header('content-type', JSON_TYPE);
  if (response.headers) reply.headers(response.headers);
  if (response.body instanceof JsonStream) return reply.send(response.body.stream);
  return reply.send(response.text ?? JSON.stringify(response.body));
}
