import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Api } from '../../src/api/dispatch.js';
import { ROUTES } from '../../src/api/routes/index.js';
import { implement, type ApiRequest, type Route } from '../../src/api/types.js';
import { defineRoute } from '../../src/api/contract/define.js';
import { Shape } from '../../src/api/contract/schema.js';
import fc from 'fast-check';
import {
  buildServer,
  MAX_BODY_DEPTH,
  type RequestHandler,
  type ServerOptions,
} from '../../src/http/server.js';
import { redactUrl } from '../../src/http/log-redaction.js';
import { API_KEY_PREFIX } from '../../src/kernel/ids.js';
import { newWorld, type TestWorld } from '../helpers/world.js';

/**
 * What `serve` must survive on a developer's machine: bodies JSON.parse accepts but nothing after it
 * should see (numbers that overflow to Infinity, nesting ten thousand deep), exceptions in handlers
 * (a 500 with a request id, the stack in the log, nothing internal on the wire), and credentials in
 * every place a client may put them, none of which may reach the log.
 */
const servers: FastifyInstance[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Json = Record<string, any>;

/** Text no answer may carry: exception names and messages, stack frames. */
const INTERNAL_TEXT = [
  /Cannot read/,
  /Maximum call stack/,
  /undefined/,
  /\bat \S+ \(/,
  / at /,
  /TypeError/,
  /RangeError/,
  /SyntaxError/,
  /Unexpected token/,
  /FST_/,
];

function expectNoInternalText(body: string): void {
  for (const pattern of INTERNAL_TEXT)
    expect(body, `answer leaks ${pattern}: ${body.slice(0, 300)}`).not.toMatch(pattern);
}

/** A route-table handler that records every request the dispatcher is handed. */
function spying(api: RequestHandler): RequestHandler & { seen: ApiRequest[] } {
  const seen: ApiRequest[] = [];
  const handle = (request: ApiRequest) => {
    seen.push(request);
    return api.handle(request);
  };
  return { seen, handle };
}

/** Serves `handler` on an ephemeral loopback port; returns the base URL. */
async function listen(handler: RequestHandler, options: ServerOptions = {}): Promise<string> {
  const app = buildServer(handler, options);
  servers.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

interface WireAnswer {
  status: number;
  text: string;
  json: Json;
}

async function wire(
  base: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<WireAnswer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Json };
}

/** A world with alice registered and past her research phase; returns her bearer header. */
function aliceIn(world: TestWorld): Record<string, string> {
  const registered = world.raw({ method: 'POST', path: '/api/register', body: { handle: 'alice' } });
  const key = (registered.body as Json)['api_key'] as string;
  world.raw({ method: 'POST', path: '/api/social/post', key, body: { content: 'hello' } });
  return { authorization: `Bearer ${key}` };
}

describe('bodies the parser refuses', () => {
  it('refuses numbers that overflow to Infinity with 400 validation_error, naming the field, before the dispatcher sees them', async () => {
    const world = newWorld();
    const auth = aliceIn(world);
    const handler = spying(world.api);
    const base = await listen(handler);
    const cases: Array<[path: string, body: string, field: string]> = [
      ['/api/chess/challenge', '{"bounty_sol":1e999}', 'bounty_sol'],
      ['/api/chess/challenge', '{"opponent_handle":null,"bounty_sol":-1e999}', 'bounty_sol'],
      ['/api/chess/challenge', '{"bounty_sol":123456789e305}', 'bounty_sol'],
      ['/api/agents/profile', '{"tags":["a",1E400]}', 'tags.1'],
      ['/api/social/post', '{"content":"hi","meta":{"score":-1e309}}', 'meta.score'],
      ['/api/chess/challenge', '1e999', 'body'],
    ];
    const before = world.fingerprint();
    for (const [path, body, field] of cases) {
      const answer = await wire(base, path === '/api/agents/profile' ? 'PATCH' : 'POST', path, body, auth);
      expect([answer.status, answer.json['error'], answer.json['field']], body).toEqual([
        400,
        'validation_error',
        field,
      ]);
      expect(answer.json['message']).toBe(`${field}: numbers must be finite`);
      expectNoInternalText(answer.text);
    }
    expect(handler.seen).toEqual([]);
    expect(world.fingerprint()).toBe(before);
  });

  it('refuses NaN and Infinity spelt out (not JSON) and as strings (not numbers), changing nothing', async () => {
    const world = newWorld();
    const auth = aliceIn(world);
    const base = await listen(world.api);
    const before = world.fingerprint();
    for (const body of [
      '{"bounty_sol":NaN}',
      '{"bounty_sol":Infinity}',
      '{"bounty_sol":-Infinity}',
      'NaN',
      '{"bounty_sol":"NaN"}',
      '{"bounty_sol":"1e999"}',
      '{"bounty_sol":"Infinity"}',
    ]) {
      const answer = await wire(base, 'POST', '/api/chess/challenge', body, auth);
      expect([answer.status, answer.json['error']], body).toEqual([400, 'validation_error']);
      expectNoInternalText(answer.text);
    }
    expect(world.fingerprint()).toBe(before);
  });

  it('answers a body 10,000 levels deep with 400 validation_error and no exception text, on every kind of route', async () => {
    const world = newWorld();
    const auth = aliceIn(world);
    const handler = spying(world.api);
    const base = await listen(handler);
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const deepField = `{"content":"hi","tags":${deepArray}}`;
    const before = world.fingerprint();
    for (const body of [deepArray, deepObject, deepField]) {
      for (const [method, path] of [
        ['POST', '/api/register'],
        ['POST', '/api/chess/challenge'],
        ['PATCH', '/api/agents/profile'],
        ['POST', '/_sim/humans'],
        ['DELETE', '/api/social/follow'],
      ] as const) {
        const answer = await wire(base, method, path, body, auth);
        expect([answer.status, answer.json['error'], answer.json['field']], `${method} ${path}`).toEqual([
          400,
          'validation_error',
          'body',
        ]);
        expect(answer.json['message']).toBe(`body: nested deeper than ${MAX_BODY_DEPTH} levels`);
        expectNoInternalText(answer.text);
      }
    }
    expect(handler.seen).toEqual([]);
    expect(world.fingerprint()).toBe(before);
  });

  it(`passes ${MAX_BODY_DEPTH} levels to the dispatcher, refuses ${MAX_BODY_DEPTH + 1}, and does not count brackets inside strings`, async () => {
    const world = newWorld();
    const auth = aliceIn(world);
    const handler = spying(world.api);
    const base = await listen(handler);
    const nested = (depth: number) =>
      `{"handle":"deep","tags":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect((await wire(base, 'POST', '/api/register', nested(MAX_BODY_DEPTH))).json['field']).not.toBe(
      'body',
    );
    expect(handler.seen).toHaveLength(1);
    expect((await wire(base, 'POST', '/api/register', nested(MAX_BODY_DEPTH + 1))).json['field']).toBe(
      'body',
    );
    expect(handler.seen).toHaveLength(1);
    world.advanceBy(60_000); // past the post cooldown
    const brackets = JSON.stringify({ content: `\\"[{${'['.repeat(200)}` });
    const posted = await wire(base, 'POST', '/api/social/post', brackets, auth);
    expect(posted.status).toBe(200);
  });
});

describe('programmer errors', () => {
  const throwingHandler: RequestHandler = {
    handle: () => {
      const missing = undefined as unknown as { field: { read: string } };
      return { status: 200, body: { value: missing.field.read } }; // TypeError: Cannot read properties of undefined
    },
  };

  it('answer 500 internal_error with the request id and nothing internal, and the stack reaches the hook', async () => {
    const reported: Array<[string, unknown]> = [];
    const base = await listen(throwingHandler, {
      onInternalError: (requestId, error) => void reported.push([requestId, error]),
    });
    const first = await wire(base, 'GET', '/api/whoami');
    const second = await wire(base, 'POST', '/api/social/post', '{"content":"hi"}');
    expect(first.status).toBe(500);
    expect(first.json).toEqual({
      error: 'internal_error',
      message: 'internal error; see the server log',
      request_id: 'req-1',
    });
    expect(second.json).toEqual({
      error: 'internal_error',
      message: 'internal error; see the server log',
      request_id: 'req-2',
    });
    for (const answer of [first, second]) expectNoInternalText(answer.text);
    expect(reported.map(([id]) => id)).toEqual(['req-1', 'req-2']);
    const [, error] = reported[0]!;
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).stack).toMatch(/Cannot read properties of undefined[\s\S]* at /);
  });

  it('answer 500 when a route handler behind the dispatcher throws (Api.handle rethrows it), changing nothing', async () => {
    const world = newWorld();
    const boom: Route = implement(
      defineRoute({
        method: 'POST',
        path: '/api/boom',
        group: 'System',
        auth: 'none',
        summary: 'throws',
        response: Shape({}),
        errors: [],
      }),
      () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    );
    const api = new Api(world.platform, [...ROUTES, boom]);
    const reported: unknown[] = [];
    const base = await listen(api, { onInternalError: (_id, error) => void reported.push(error) });
    const before = world.fingerprint();
    const answer = await wire(base, 'POST', '/api/boom', '{}');
    expect([answer.status, answer.json['error'], answer.json['request_id']]).toEqual([
      500,
      'internal_error',
      'req-1',
    ]);
    expectNoInternalText(answer.text);
    expect(reported).toHaveLength(1);
    expect(world.fingerprint()).toBe(before);
  });

  it('go to stderr as one JSON line with the request id and the stack when no hook or logger is set', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const app = buildServer(throwingHandler);
    servers.push(app);
    const answer = await app.inject({ method: 'GET', url: '/api/whoami' });
    expect(answer.statusCode).toBe(500);
    expect(written).toHaveLength(1);
    expect(written[0]!.endsWith('\n')).toBe(true);
    expect(written[0]!.trimEnd()).not.toContain('\n');
    const line = JSON.parse(written[0]!) as Json;
    expect(line).toMatchObject({ level: 'error', request_id: 'req-1' });
    expect(line['stack']).toMatch(/^TypeError: Cannot read properties of undefined[\s\S]*\n +at /);
  });

  it('go to the request log with their stack when the logger is on, and the answer is the same', async () => {
    const lines: string[] = [];
    const app = buildServer(throwingHandler, {
      logger: true,
      logStream: { write: (line) => void lines.push(line) },
    });
    servers.push(app);
    const answer = await app.inject({ method: 'GET', url: '/api/whoami' });
    expect(answer.json()).toEqual({
      error: 'internal_error',
      message: 'internal error; see the server log',
      request_id: 'req-1',
    });
    const logged = lines
      .map((line) => JSON.parse(line) as Json)
      .find((entry) => entry['msg'] === 'internal error');
    expect(logged).toMatchObject({ level: 50, reqId: 'req-1', request_id: 'req-1' });
    expect(logged!['err']['stack']).toMatch(/TypeError: Cannot read properties of undefined/);
  });

  it('still answer 500 when the reporting hook itself throws', async () => {
    const base = await listen(throwingHandler, {
      onInternalError: () => {
        throw new Error('hook broke');
      },
    });
    const answer = await wire(base, 'GET', '/api/whoami');
    expect([answer.status, answer.json['error']]).toEqual([500, 'internal_error']);
    expect(answer.text).not.toContain('hook broke');
  });
});

describe('faults fastify finds itself', () => {
  it('keep their registered 4xx codes with fixed messages, echoing nothing', async () => {
    const world = newWorld();
    const reported: unknown[] = [];
    const base = await listen(world.api, {
      bodyLimit: 1024,
      onInternalError: (_id, error) => void reported.push(error),
    });
    const huge = await wire(base, 'POST', '/api/register', JSON.stringify({ handle: 'x'.repeat(2000) }));
    expect(huge.json).toEqual({
      error: 'payload_too_large',
      message: 'the request body is larger than the server accepts',
    });
    const badPath = await wire(base, 'GET', '/api/agents/%E0%A4%A<script>');
    expect(badPath.json).toEqual({
      error: 'bad_request',
      message: 'malformed request: the URL is not valid percent-encoding',
    });
    for (const answer of [huge, badPath]) expectNoInternalText(answer.text);
    expect(reported).toEqual([]);
  });

  it('answer a Content-Length that does not match the body with 400 bad_request and a fixed message', async () => {
    const app = buildServer(newWorld().api);
    servers.push(app);
    const answer = await app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-length': '100' },
      payload: '{"handle":"x"}',
    });
    expect([answer.statusCode, answer.json()]).toEqual([
      400,
      { error: 'bad_request', message: 'malformed request: Content-Length does not match the body' },
    ]);
  });
});

describe('the request log', () => {
  const SECRET = 'moltchess_sentinelsentinelsentinelsentinel00';

  it('redacts every header and query parameter that can carry a credential', async () => {
    const lines: string[] = [];
    const app = buildServer(newWorld().api, {
      logger: true,
      logStream: { write: (line) => void lines.push(line) },
    });
    servers.push(app);
    const headers = {
      authorization: `Bearer ${SECRET}`,
      'proxy-authorization': `Basic ${SECRET}`,
      'x-api-key': SECRET,
      cookie: `session=${SECRET}`,
      'set-cookie': `k=${SECRET}`,
      'x-control-token': SECRET,
      'X-Api-Key': SECRET,
    };
    const params = [
      'api_key',
      'apikey',
      'key',
      'token',
      'access_token',
      'control_token',
      'API_KEY',
      'Token',
      'api%5Fkey',
      'Access_Token',
    ];
    const query = params.map((name) => `${name}=${SECRET}`).join('&');
    await app.inject({ method: 'GET', url: `/api/feed?limit=5&${query}&sort=new`, headers });
    await app.inject({
      method: 'GET',
      url: `/api/whoami?api_key=${SECRET}`,
      headers: { 'x-api-key': SECRET },
    });
    const log = lines.join('');
    expect(log).toContain('/api/feed?limit=5&api_key=[redacted]');
    expect(log).toContain('&sort=new');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('sentinel');
  });

  it('stamps each line with the simulated time when given a virtual clock', async () => {
    const lines: string[] = [];
    const world = newWorld();
    const app = buildServer(world.api, {
      logger: true,
      logStream: { write: (line) => void lines.push(line) },
      virtualNowMs: () => world.platform.nowMs,
    });
    servers.push(app);
    await app.inject({ method: 'GET', url: '/api/health' });
    const stamped = lines.map((line) => JSON.parse(line) as { virtual_time?: string });
    expect(stamped.length).toBeGreaterThan(0);
    for (const line of stamped) expect(line.virtual_time).toBe(new Date(world.platform.nowMs).toISOString());
  });

  it('keeps URLs without credentials as they were sent', () => {
    expect(redactUrl('/api/feed')).toBe('/api/feed');
    expect(redactUrl('/api/feed?limit=5&sort=new')).toBe('/api/feed?limit=5&sort=new');
    expect(redactUrl('/api/feed?token')).toBe('/api/feed?token');
    expect(redactUrl('/api/feed?keys=1&monkey=2&token=3')).toBe('/api/feed?keys=1&monkey=2&token=[redacted]');
    expect(redactUrl('/x?key=a=b&%ZZ=1')).toBe('/x?key=[redacted]&%ZZ=1');
    expect(redactUrl('/api/agents/alice_01/profile?x-api-keys=1')).toBe(
      '/api/agents/alice_01/profile?x-api-keys=1',
    );
    expect(redactUrl('/api/games/4f1c2b1e-9d2a-4c3b-8a7d-0e6f5a4b3c2d')).toBe(
      '/api/games/4f1c2b1e-9d2a-4c3b-8a7d-0e6f5a4b3c2d',
    );
  });

  describe('with a real minted key in every place a client may put one', () => {
    const world = newWorld();
    const key = (
      world.raw({ method: 'POST', path: '/api/register', body: { handle: 'minted' } }).body as Json
    )['api_key'] as string;
    const secretPart = key.slice(API_KEY_PREFIX.length);
    const CONTROL_TOKEN = 'ctl_Zq8-Xw3vN2pL7yR4tK9mB6cH1dF5gJ0sA_eU7iO3wQ2';
    /** A logging server (a fresh one per test: afterEach closes them); `logOf` sends one request and reads its lines. */
    function loggingServer() {
      const lines: string[] = [];
      const app = buildServer(world.api, {
        logger: true,
        logStream: { write: (line) => void lines.push(line) },
        guard: { controlToken: CONTROL_TOKEN },
      });
      servers.push(app);
      const logOf = async (request: {
        url: string;
        method?: 'GET' | 'POST' | 'DELETE';
        headers?: Record<string, string>;
      }) => {
        lines.length = 0;
        await app.inject({ method: 'GET', ...request });
        return lines.join('');
      };
      return logOf;
    }

    /** The key as a client might spell it: as minted, upper-cased, percent-encoded in whole or in part. */
    const spelled = fc.oneof(
      fc.constant(key),
      fc.constant(key.toUpperCase()),
      fc.constant(secretPart),
      fc.constant([...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')),
      fc
        .array(fc.boolean(), { minLength: key.length, maxLength: key.length })
        .map((escape) =>
          [...key].map((c, i) => (escape[i] ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join(''),
        ),
    );
    const headerName = fc.oneof(
      fc.constantFrom(
        'authorization',
        'Authorization',
        'X-Auth-Token',
        'x-api-key',
        'X-API-KEY',
        'api-key',
        'X-Access-Token',
        'cookie',
        'x-control-token',
      ),
      fc.stringMatching(/^x-[a-z]{1,12}$/),
    );
    const headerValue = (spelling: string) =>
      fc.constantFrom(spelling, `Bearer ${spelling}`, `token=${spelling}`, `Basic ${spelling}:x`);
    const paramName = fc.oneof(
      fc.constantFrom(
        'api-key',
        'api_key',
        'API_KEY',
        'apiKey',
        'Api-Key',
        'api%2Dkey',
        'token',
        'X-Auth-Token',
        'key',
      ),
      fc.stringMatching(/^[a-z]{1,10}$/),
    );
    const pathWith = (spelling: string) =>
      fc.constantFrom(
        `/api/agents/${spelling}`,
        `/api/${spelling}/profile`,
        `/api/games/${spelling}/moves`,
        `/api/agents/${spelling}?limit=5`,
      );

    /** The log, and the log percent-decoded escape by escape, hold no spelling of the key. */
    function expectNoKey(log: string): void {
      expect(log).toContain('"url"'); // the request was logged at all
      const decodedLog = log.replace(/(%[0-9a-f]{2})+/gi, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      });
      for (const text of [log, decodedLog]) expect(text.toLowerCase()).not.toContain(secretPart);
    }

    it('never logs a key sent in any header, under any name or spelling', async () => {
      const logOf = loggingServer();
      await fc.assert(
        fc.asyncProperty(
          headerName,
          spelled.chain((spelling) => headerValue(spelling)),
          async (name, value) => expectNoKey(await logOf({ url: '/api/feed', headers: { [name]: value } })),
        ),
        { numRuns: 150 },
      );
    });

    it('never logs a key sent as a query value, under any parameter name or spelling', async () => {
      const logOf = loggingServer();
      await fc.assert(
        fc.asyncProperty(paramName, spelled, async (name, spelling) => {
          const log = await logOf({ url: `/api/feed?limit=5&${name}=${spelling}&sort=new` });
          expectNoKey(log);
          expect(log).toContain('limit=5');
          expect(log).toContain('sort=new');
        }),
        { numRuns: 150 },
      );
    });

    it('never logs a key sent inside a path, in any spelling, on a direct GET or any other method', async () => {
      const logOf = loggingServer();
      await fc.assert(
        fc.asyncProperty(
          spelled.chain((spelling) => pathWith(spelling)),
          fc.constantFrom('GET', 'POST', 'DELETE'),
          async (url, method) => expectNoKey(await logOf({ url, method })),
        ),
        { numRuns: 150 },
      );
    });

    it('never logs the control token, wherever a request carries it', async () => {
      const logOf = loggingServer();
      const log = await logOf({
        url: `/_sim/state?control_token=${CONTROL_TOKEN}&note=${CONTROL_TOKEN}`,
        headers: { authorization: `Bearer ${CONTROL_TOKEN}`, 'x-note': CONTROL_TOKEN },
      });
      expect(log).toContain('/_sim/state');
      expect(log).not.toContain(CONTROL_TOKEN);
    });
  });
});
