import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import { directGetServer, type DirectGetOptions } from '../../src/http/direct-get.js';
import { guardCheck } from '../../src/http/guard.js';
import { buildServer, type RequestHandler, type ServerOptions } from '../../src/http/server.js';
import {
  encodeSegment,
  fixture,
  fuzzRequest,
  headersFor,
  nearValid,
  PROTO,
  type FuzzRequest,
} from '../helpers/fuzz.js';

/**
 * GETs under /api skip fastify (src/http/direct-get.ts). The answers must not tell: the same requests sent
 * to one world over a socket (the direct path) and to a twin world through fastify (`inject`, which never
 * reaches the socket server) get the same status, headers and bytes. And the path is taken only where it
 * may be: not for bodies, escapes, guard refusals or a closing server.
 */
const FC_PARAMS = { numRuns: Number(process.env['FC_RUNS'] ?? 150) };

const servers: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function listen(handler: RequestHandler, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = buildServer(handler, options);
  servers.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends the request line and headers exactly as given (no client re-encodes the target) and reads the answer. */
function rawGet(port: number, target: string, headers: Record<string, string>): Promise<RawAnswer> {
  const all: Record<string, string> = { host: `127.0.0.1:${port}`, connection: 'close', ...headers };
  const lines = [`GET ${target} HTTP/1.1`];
  for (const [name, value] of Object.entries(all)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) };
}

/** What differs between two servers by design: the time, and how the connection is kept. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
function answerHeaders(headers: Record<string, string | string[] | number | undefined>): string[] {
  return Object.entries(headers)
    .filter(([name]) => !TRANSPORT_HEADERS.has(name.toLowerCase()))
    .map(([name, value]) => `${name.toLowerCase()}: ${String(value)}`);
}

function targetFor(request: FuzzRequest): string {
  const pairs = Object.entries(request.query).flatMap(([key, value]) =>
    value === undefined
      ? []
      : ([] as string[]).concat(value).map((v) => `${encodeSegment(key)}=${encodeSegment(v)}`),
  );
  if (pairs.length === 0) return request.path;
  return `${request.path}${request.path.includes('?') ? '&' : '?'}${pairs.join('&')}`;
}

/** What a real client can put on a request line: visible ASCII, no spaces, within node's 16 KiB of header. */
const sendable = (target: string) => target.length < 8_000 && /^\/[\x21-\x7e]*$/.test(target);

describe('GETs answered without fastify', () => {
  // Each run gets two fresh fixture worlds, identical by seed: one behind the socket, one behind inject.
  let socketWorld = fixture();
  let injectWorld = fixture();
  const socketApp = listen({ handle: (request) => socketWorld.world.api.handle(request) });
  const injectApp = buildServer({ handle: (request) => injectWorld.world.api.handle(request) });
  afterAll(() => injectApp.close());

  const getRequest = fc
    .oneof({ weight: 1, arbitrary: fuzzRequest }, { weight: 2, arbitrary: nearValid(PROTO) })
    .map((request) => ({ ...request, method: 'GET' }));

  it('answer every GET byte for byte as fastify does, refusals and 404s included', async () => {
    const port = portOf(await socketApp);
    let direct = 0;
    await fc.assert(
      fc.asyncProperty(getRequest, async (request) => {
        const target = targetFor(request);
        fc.pre(sendable(target));
        socketWorld = fixture();
        injectWorld = fixture();
        const headers = headersFor(PROTO, request.key);
        const viaSocket = await rawGet(port, target, headers);
        const viaFastify = await injectApp.inject({ method: 'GET', url: target, headers });
        expect(viaSocket.status).toBe(viaFastify.statusCode);
        expect(answerHeaders(viaSocket.headers)).toEqual(answerHeaders(viaFastify.headers));
        expect(viaSocket.body).toBe(viaFastify.body);
        expect(socketWorld.world.fingerprint()).toBe(injectWorld.world.fingerprint());
        if (target.startsWith('/api/') && !target.includes('%')) direct++;
      }),
      FC_PARAMS,
    );
    // The property must have exercised the direct path, not only what it hands to fastify.
    expect(direct).toBeGreaterThan(FC_PARAMS.numRuns / 4);
  });

  it('answer a handler exception with the same 500 and a request id of the server counter', async () => {
    const reported: string[] = [];
    const throwing: RequestHandler = {
      handle: () => {
        throw new TypeError('Cannot read properties of undefined');
      },
    };
    const app = await listen(throwing, { onInternalError: (id) => reported.push(id) });
    const first = await rawGet(portOf(app), '/api/chess/games/my-turn', {});
    const second = await app.inject({ method: 'GET', url: '/api/chess/games/my-turn' });
    expect(first.status).toBe(500);
    expect(JSON.parse(first.body)).toMatchObject({ error: 'internal_error' });
    expect(first.body).not.toMatch(/TypeError|Cannot read/);
    expect(second.statusCode).toBe(500);
    // Both paths draw ids from one counter: two requests, two different ids, both reported.
    const ids = [JSON.parse(first.body).request_id, second.json().request_id];
    expect(new Set(ids).size).toBe(2);
    expect(reported).toEqual(ids);
  });

  it('answer a rejected promise (a live server whose instant failed) with the same 500', async () => {
    const reported: string[] = [];
    const rejecting: RequestHandler = { handle: () => Promise.reject(new Error('instant failed')) };
    const app = await listen(rejecting, { onInternalError: (id) => reported.push(id) });
    const answer = await rawGet(portOf(app), '/api/agents/me', {});
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'internal_error',
      message: expect.any(String),
      request_id: reported[0],
    });
  });
});

describe("serve's guard on the direct path", () => {
  it('refuses a foreign Host or Origin on a GET under /api over a socket, as on every other request', async () => {
    const world = fixture();
    const app = await listen(world.world.api, { guard: { controlToken: 'control-token-control-token' } });
    const port = portOf(app);
    const key = headersFor(PROTO, 'alice');
    const refused: Array<[Record<string, string>, string]> = [
      [{ host: 'attacker.example' }, 'host_not_allowed'],
      [{ host: `attacker.example:${port}` }, 'host_not_allowed'],
      [{ origin: 'null' }, 'cross_site_request'],
      [{ origin: 'https://attacker.example' }, 'cross_site_request'],
    ];
    const before = world.world.fingerprint();
    for (const [headers, code] of refused) {
      const answer = await rawGet(port, '/api/chess/games/my-turn', { ...key, ...headers });
      expect([answer.status, JSON.parse(answer.body).error]).toEqual([403, code]);
    }
    // A refusal reaches no route: no request was counted against alice's quota.
    expect(world.world.fingerprint()).toBe(before);
    const own = await rawGet(port, '/api/chess/games/my-turn', {
      ...key,
      origin: `http://127.0.0.1:${port}`,
    });
    expect(own.status).toBe(200);
  });
});

describe('which requests take the direct path', () => {
  const FASTIFY_STATUS = 299;
  const answered: ApiResponse = { status: 200, body: { ok: true } };
  let running: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve())));

  /** A socket server with the direct path in front of a stand-in for fastify that answers 299. */
  async function standIn(options: Partial<DirectGetOptions> = {}) {
    const direct = directGetServer({
      handle: () => answered,
      answerToError: () => ({ status: 500, body: {} }),
      nextRequestId: () => 'req-1',
      ...options,
    });
    const server = direct.serverFactory((_request, response) => response.writeHead(FASTIFY_STATUS).end(), {});
    running = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const statusOf = async (method: string, target: string, headers: Record<string, string> = {}) => {
      const answer = await fetch(`http://127.0.0.1:${port}${target}`, { method, headers });
      return answer.status;
    };
    return { direct, statusOf };
  }

  it('takes GETs under /api and hands fastify every other request', async () => {
    const { statusOf } = await standIn();
    expect(await statusOf('GET', '/api/chess/games/my-turn')).toBe(200);
    expect(await statusOf('GET', '/api/feed?limit=5')).toBe(200);
    for (const [method, target] of [
      ['POST', '/api/chess/games/my-turn'],
      ['HEAD', '/api/chess/games/my-turn'],
      ['DELETE', '/api/social/follow/bob'],
      ['GET', '/api/agents/profile/al%69ce'],
      ['GET', '/api'],
      ['GET', '/openapi.json'],
      ['GET', '/_sim/clock'],
      ['GET', '/API/feed'],
    ])
      expect(await statusOf(method!, target!), `${method} ${target}`).toBe(FASTIFY_STATUS);
  });

  it('hands fastify what the guard refuses, so its hook answers it', async () => {
    const guard = guardCheck({ controlToken: 'token' });
    const { statusOf } = await standIn({ guard });
    expect(await statusOf('GET', '/api/feed', { origin: 'https://elsewhere.example' })).toBe(FASTIFY_STATUS);
    expect(await statusOf('GET', '/api/feed', { origin: 'http://localhost:1' })).toBe(FASTIFY_STATUS);
    expect(await statusOf('GET', '/api/feed')).toBe(200);
  });

  it('hands fastify everything once the server is closing', async () => {
    const { direct, statusOf } = await standIn();
    direct.stop();
    expect(await statusOf('GET', '/api/feed')).toBe(FASTIFY_STATUS);
  });

  it('keeps fastify timeouts on the server it makes', async () => {
    const direct = directGetServer({
      handle: () => answered,
      answerToError: () => ({ status: 500, body: {} }),
      nextRequestId: () => 'req-1',
    });
    const settings = { keepAliveTimeout: 72_000, requestTimeout: 0, connectionTimeout: 0 };
    const server = direct.serverFactory(() => undefined, settings);
    expect(server.keepAliveTimeout).toBe(72_000);
    expect(server.requestTimeout).toBe(0);
  });
});
