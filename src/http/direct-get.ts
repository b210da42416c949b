import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import type { ApiResponse } from '../api/types.js';
import type { GuardCheck } from './guard.js';
import { AnswerTurns } from './answer-turns.js';

/**
 * GET requests under /api, the polls every agent's heartbeat sends, answered by node's server without
 * going through fastify. The route table (the dispatcher) does the real work either way; fastify's
 * request and reply objects, hooks and router cost about as much again for a poll, so a server that
 * took every request through fastify answered my-turn at 0.70 of a bare fastify route's rate, and 0.77-0.85
 * with this path (bench section `http`, P3). They are answered in short turns of the event loop, in arrival
 * order (answer-turns.ts: libuv accepts one connection per turn). Fastify still takes everything whose handling it owns:
 * bodies, HEAD, /_sim, the docs, paths with percent-escapes (it refuses malformed ones), requests the guard
 * refuses, requests while closing (it answers 503), and every request when the request log is on.
 * test/http/direct-get.test.ts sends the same requests both ways and compares the answers byte for byte.
 */
export interface DirectGetOptions {
  /** The route table: the same handler fastify's catch-all route calls. */
  handle: (request: DirectRequest) => ApiResponse | Promise<ApiResponse>;
  /** serve's Host/Origin/token checks; a request they refuse goes to fastify, whose hook answers it. */
  guard?: GuardCheck | undefined;
  /** The answer to an exception in the handler (a 500 naming the request id), as fastify's error handler gives it. */
  answerToError: (error: unknown, requestId: string) => ApiResponse;
  /** The server's request ids: the same counter fastify draws from, so every id stays unique. */
  nextRequestId: () => string;
  /** The wall clock the answers' turns are paced by (answer-turns.ts); without one a turn counts answers. */
  wallClockMs?: (() => number) | undefined;
}

export interface DirectRequest {
  method: 'GET';
  path: string;
  headers: Record<string, string | undefined>;
  body: undefined;
}

export interface DirectGetServer {
  serverFactory: FastifyServerFactory;
  /** From now on every request goes to fastify (called when the server starts closing). */
  stop(): void;
}

export function directGetServer(options: DirectGetOptions): DirectGetServer {
  let stopped = false;
  // In short turns, so that connections waiting to be accepted are not starved (answer-turns.ts).
  const turns = new AnswerTurns(options.wallClockMs);
  const answerDirectly = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (stopped || !isDirectGet(request) || options.guard?.(request as GuardableMessage)) return false;
    const path = request.url as string;
    // As node gives them (see server.ts's dispatch): only Set-Cookie comes as a list, and no handler reads it.
    const headers = request.headers as Record<string, string | undefined>;
    turns.add(() =>
      answer(response, () => options.handle({ method: 'GET', path, headers, body: undefined }), options),
    );
    return true;
  };
  const serverFactory: FastifyServerFactory = (fastifyHandler, settings) => {
    const server = http.createServer((request, response) => {
      if (!answerDirectly(request, response)) fastifyHandler(request, response);
    });
    server.on('connection', () => turns.connectionAccepted());
    applyFastifyTimeouts(server, settings);
    return server;
  };
  return { serverFactory, stop: () => (stopped = true) };
}

type GuardableMessage = IncomingMessage & { url: string };

/** A GET under /api with no percent-escape anywhere in its target (fastify decodes those, and refuses bad ones). */
function isDirectGet(request: IncomingMessage): boolean {
  const url = request.url;
  return request.method === 'GET' && url !== undefined && url.startsWith('/api/') && !url.includes('%');
}

/** Written at once, or when the handler's promise settles (the returned promise, which the turn awaits). */
function answer(
  response: ServerResponse,
  handle: () => ApiResponse | Promise<ApiResponse>,
  options: DirectGetOptions,
): void | Promise<void> {
  const fail = (error: unknown) => write(response, options.answerToError(error, options.nextRequestId()));
  let answered: ApiResponse | Promise<ApiResponse>;
  try {
    answered = handle();
  } catch (error) {
    fail(error);
    return;
  }
  // The in-process Api answers at once; a live server's answer may wait for the instant running to end.
  if (answered instanceof Promise) return answered.then((ready) => write(response, ready), fail);
  write(response, answered);
}

/** The bytes fastify's `send` (server.ts) writes for the same answer: status, content-type, length, extra headers. */
function write(response: ServerResponse, answer: ApiResponse): void {
  const text = answer.text ?? JSON.stringify(answer.body);
  const headers: http.OutgoingHttpHeaders = { 'content-type': JSON_TYPE };
  if (answer.headers) Object.assign(headers, answer.headers);
  headers['content-length'] = Buffer.byteLength(text);
  response.writeHead(answer.status, headers);
  response.end(text);
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** What fastify sets on a server it makes itself (its defaults: keep-alive 72 s, no request timeout). */
function applyFastifyTimeouts(server: http.Server, settings: FastifyTimeouts): void {
  if (settings.keepAliveTimeout !== undefined) server.keepAliveTimeout = settings.keepAliveTimeout;
  if (settings.requestTimeout !== undefined) server.requestTimeout = settings.requestTimeout;
  if (settings.connectionTimeout !== undefined) server.setTimeout(settings.connectionTimeout);
  if (settings.maxRequestsPerSocket) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
}

interface FastifyTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}
