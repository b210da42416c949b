import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import type { QueryValue } from '../../src/api/types.js';
import { ROUTES } from '../../src/api/routes/index.js';
import { buildServer, DEFAULT_BODY_LIMIT } from '../../src/http/server.js';
import {
  encodeSegment,
  expectAnswerContract,
  fixture,
  fuzzRequest,
  headersFor,
  keyChoice,
  nearValid,
  PROTO,
  type Fixture,
} from '../helpers/fuzz.js';

/**
 * The bad-input fuzzer, over HTTP: the same arbitraries (test/helpers/fuzz.ts), sent through fastify with
 * `inject`, plus what only a wire can carry: body text that is not JSON or is cut short, Content-Types other
 * than JSON, bodies over the server's limit, odd methods, repeated and broken query keys, malformed
 * Authorization headers, numbers JSON.parse overflows to Infinity. Every answer must be a JSON object with
 * a registered code and the registry's status (never a 5xx), a refusal changes nothing, and no refusal
 * carries an exception's text. Replay a failure with FC_SEED=<seed>.
 */
const FC_PARAMS = { numRuns: Number(process.env['FC_RUNS'] ?? 200) };

// One server for the whole file; each property run swaps a fresh fixture world in behind it.
let current: Fixture = fixture();
const app = buildServer({ handle: (request) => current.world.api.handle(request) });
afterAll(() => app.close());

interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

// --- what only the wire carries ------------------------------------------------------------------------------

// inject takes a method in upper or lower case only (a real socket's parser takes upper case only).
const ODD_METHODS = ['HEAD', 'TRACE', 'PROPFIND', 'SEARCH', 'patch', 'delete'] as const;

const { alice, bob } = PROTO.keys;
const EXTRA_AUTHORIZATION = [
  'Bearer',
  'Bearer ',
  `Bearer ${alice} ${bob}`,
  `Bearer\t${alice}`,
  `Basic YWxpY2U6cHc=`,
  alice,
  `Bearer ${alice.toUpperCase()}`,
  `Bearer ${alice.slice(0, -1)}`,
  `Bearer "${alice}"`,
  `Bearer ${'x'.repeat(4096)}`,
];
const authorization = fc.oneof(
  { weight: 4, arbitrary: keyChoice.map((key) => headersFor(PROTO, key)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...EXTRA_AUTHORIZATION).map((value) => ({ authorization: value })),
  },
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zz',
  'application/octet-stream',
);

/** Ways to break JSON text: cut short, trailing junk, wrong quotes, a byte-order mark, not JSON at all. */
const MANGLES: ReadonlyArray<(json: string) => string> = [
  (t) => t.slice(0, -1),
  (t) => `${t},`,
  (t) => `{${t}`,
  (t) => t.replace('"', "'"),
  (t) => `\uFEFF${t}`,
  () => '{"a":}',
  () => '[1,]',
  () => 'NaN',
  () => 'undefined',
  () => "{'handle': 'zed'}",
  () => '{"content": "unterminated',
  () => '\uD800',
];

/** A body larger than the server accepts, still valid JSON, so only the limit can refuse it. */
const oversize = (body: unknown) =>
  JSON.stringify({ ...asObject(body), pad: 'x'.repeat(DEFAULT_BODY_LIMIT) });
const asObject = (body: unknown) =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};

type PayloadKind = 'json' | 'malformed' | 'oversize' | 'form' | 'blank' | 'nonfinite';
const payloadKind = fc.oneof(
  { weight: 8, arbitrary: fc.constant<PayloadKind>('json') },
  { weight: 2, arbitrary: fc.constant<PayloadKind>('malformed') },
  { weight: 1, arbitrary: fc.constantFrom<PayloadKind>('oversize', 'form', 'blank', 'nonfinite') },
);

/**
 * Numbers JSON.parse turns into ±Infinity. JSON.stringify cannot write them (it writes null), so they are
 * spliced into the text, in the fields where the API takes numbers and anywhere else.
 */
const NON_FINITE = ['1e999', '-1e999', '1E400', '-123456789e305'];
const NUMBER_FIELDS = ['bounty_sol', 'followers', 'sol', 'ms', 'at_ms', 'limit', 'tags', 'handle'];
const SPLICE = '__non_finite__';

function nonFinite(body: unknown, mangle: number): string {
  const field = NUMBER_FIELDS[mangle % NUMBER_FIELDS.length]!;
  const number = NON_FINITE[Math.floor(mangle / NUMBER_FIELDS.length) % NON_FINITE.length]!;
  const value = field === 'tags' ? ['a', SPLICE] : SPLICE;
  return JSON.stringify({ ...asObject(body), [field]: value }).replace(`"${SPLICE}"`, number);
}

function payloadFor(body: unknown, kind: PayloadKind, mangle: number): string | undefined {
  const json = body === undefined ? undefined : JSON.stringify(body);
  if (kind === 'json') return json;
  if (kind === 'malformed') return MANGLES[mangle % MANGLES.length]!(json ?? '{}');
  if (kind === 'oversize') return oversize(body);
  if (kind === 'nonfinite') return nonFinite(body, mangle);
  return kind === 'form' ? 'handle=zed&content=hi' : ' \n';
}

/** Query values as the wire carries them: arrays as repeated keys, then sometimes a broken tail. */
const QUERY_TAILS = [
  '',
  '',
  '',
  '',
  '&limit=1&limit=2',
  '&status=active&status=pending',
  '#fragment',
  '&&',
  '&=x',
  '&%zz=1',
  '&limit',
  '&limit=%E0%A4%A',
];
function urlFor(path: string, query: Record<string, QueryValue>, tail: string): string {
  const pairs = Object.entries(query).flatMap(([key, value]) =>
    value === undefined
      ? []
      : ([] as string[]).concat(value).map((v) => `${encodeSegment(key)}=${encodeSegment(v)}`),
  );
  const search = [...pairs, tail.replace(/^&/, '')].filter((part) => part !== '').join('&');
  if (search === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

/** `undefined` most of the time: `arbitrary` once in `1 + rest` draws. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, rest: number) =>
  fc.oneof({ weight: rest, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const wireRequest: fc.Arbitrary<WireRequest> = fc
  .record({
    base: fc.oneof({ weight: 2, arbitrary: fuzzRequest }, { weight: 3, arbitrary: nearValid(PROTO) }),
    oddMethod: sometimes(fc.constantFrom(...ODD_METHODS), 8),
    auth: sometimes(authorization, 3),
    contentType,
    kind: payloadKind,
    mangle: fc.nat(),
    tail: fc.constantFrom(...QUERY_TAILS),
  })
  .map(({ base, oddMethod, auth, contentType: type, kind, mangle, tail }) => {
    const headers = { ...(auth ?? headersFor(PROTO, base.key)), ...(type ? { 'content-type': type } : {}) };
    const payload = payloadFor(base.body, kind, mangle);
    return {
      method: oddMethod ?? base.method,
      url: urlFor(base.path, base.query, tail),
      headers,
      ...(payload !== undefined ? { payload } : {}),
    };
  });

// --- the contract over the wire -----------------------------------------------------------------------------

/** An exception's name or message, or a stack frame: no refusal may carry one. */
const INTERNAL_TEXT = [
  /Cannot read/,
  /Maximum call stack/,
  /undefined/,
  / at /,
  /\bat \S+:\d+:\d+/,
  /\(node:/,
  /TypeError/,
  /RangeError/,
  /ReferenceError/,
  /SyntaxError/,
  /Unexpected token/,
  /FST_ERR/,
];

/** What the request itself carried, decoded as the dispatcher reads it: a refusal may echo it (`no agent "undefined"`). */
function sentText(request: WireRequest): string {
  return [request.url, safeDecode(request.url), request.payload ?? '', JSON.stringify(request.headers)].join(
    '\n',
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function expectNoInternalText(request: WireRequest, body: string): void {
  const sent = sentText(request);
  for (const pattern of INTERNAL_TEXT) {
    if (!pattern.test(sent))
      expect(
        body,
        `${request.method} ${request.url.slice(0, 80)} leaks ${pattern}: ${body.slice(0, 300)}`,
      ).not.toMatch(pattern);
  }
}

/** Checks one wire answer; returns '2xx', the error code, or a label for HEAD. */
function expectWireContract(
  request: WireRequest,
  response: LightMyRequestResponse,
  before: string,
  now: () => string,
): string {
  const status = response.statusCode;
  // No fuzzed input is a server fault: a 500 here means a handler threw.
  expect(
    status,
    `${request.method} ${request.url.slice(0, 80)} answered ${status}: ${response.body.slice(0, 200)}`,
  ).toBeLessThan(500);
  if (status >= 400) expectNoInternalText(request, response.body);
  if (request.method.toUpperCase() === 'HEAD') {
    // HEAD answers carry headers only; the route table has no HEAD routes.
    expect(response.body).toBe('');
    expect(Object.values(HTTP_STATUS_BY_CODE)).toContain(status);
    expect(now()).toBe(before);
    return 'HEAD';
  }
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  let body: unknown;
  expect(() => (body = JSON.parse(response.body)), `not JSON: ${response.body.slice(0, 200)}`).not.toThrow();
  if (status === 429)
    expect(response.headers['retry-after']).toBe(String((body as { retry_after?: unknown }).retry_after));
  return expectAnswerContract({ method: request.method, path: request.url, status, body }, before, now);
}

async function send(f: Fixture, request: WireRequest): Promise<string> {
  const before = f.world.fingerprint();
  const response = await app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  return expectWireContract(request, response, before, () => f.world.fingerprint());
}

const seen = new Map<string, number>();
const count = (label: string) => seen.set(label, (seen.get(label) ?? 0) + 1);

describe('fuzzing the HTTP server', () => {
  it('serves the same fixture world as the in-process fuzzer, keys included', () => {
    const again = fixture();
    expect(again.ids).toEqual(PROTO.ids);
    expect(again.keys).toEqual(PROTO.keys);
    expect(again.world.fingerprint(true)).toBe(PROTO.world.fingerprint(true));
  });

  it('answers fuzzed wire requests to every route with 2xx or a registered 4xx, and refusals change nothing', async () => {
    seen.clear();
    await fc.assert(
      fc.asyncProperty(fc.array(wireRequest, { minLength: 1, maxLength: 6 }), async (requests) => {
        current = fixture();
        for (const request of requests) count(await send(current, request));
      }),
      FC_PARAMS,
    );
    if (process.env['FUZZ_STATS']) console.log(JSON.stringify([...seen].sort()));
    // The wire fuzzer reaches every gate: transport (413, malformed JSON), routing, authentication, validation, handlers.
    const gates = [
      '2xx',
      'payload_too_large',
      'validation_error',
      'route_not_found',
      'method_not_allowed',
      'authentication_required',
      'invalid_api_key',
      'not_found',
      'bad_request',
      'HEAD',
    ];
    for (const code of gates)
      expect(seen.get(code) ?? 0, `never saw ${code}: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
  });

  it('refuses malformed JSON on every route that reads a body, and an oversized one with 413; a GET ignores its body', async () => {
    current = fixture();
    const f = current;
    const headers = { ...headersFor(f, 'alice'), 'content-type': 'application/json' };
    for (const route of ROUTES) {
      const url = route.contract.path.replace(/\{[^}]+\}/g, f.ids.gameId);
      const label = `${route.contract.method} ${route.contract.path}`;
      if (route.contract.method === 'GET') {
        // Fastify does not read a GET's body, so whatever it holds, the answer is the bodiless one.
        const bare = await app.inject({ method: 'GET', url, headers: headersFor(f, 'alice') });
        for (const payload of ['{"content": ', oversize({})]) {
          const response = await app.inject({ method: 'GET', url, headers, payload });
          expect([response.statusCode, response.json()['error']], label).toEqual([
            bare.statusCode,
            bare.json()['error'],
          ]);
        }
        continue;
      }
      expect(
        await send(f, { method: route.contract.method, url, headers, payload: '{"content": ' }),
        label,
      ).toBe('validation_error');
      expect(
        await send(f, { method: route.contract.method, url, headers, payload: oversize({ content: 'hi' }) }),
        label,
      ).toBe('payload_too_large');
    }
  });

  it('refuses numbers that overflow to Infinity wherever the API takes numbers, naming the field', async () => {
    current = fixture();
    const f = current;
    const cases: Array<[method: string, url: string, body: string, field: string]> = [];
    for (const number of NON_FINITE) {
      cases.push(
        ['POST', '/api/chess/challenge', `{"opponent_handle":"bob","bounty_sol":${number}}`, 'bounty_sol'],
        ['POST', '/api/chess/challenge', `{"bounty_sol":${number}}`, 'bounty_sol'],
        ['PATCH', '/_sim/network/accounts/ext_alice', `{"followers":${number},"banned":false}`, 'followers'],
        ['PATCH', '/api/agents/profile', `{"tags":["a",${number}]}`, 'tags.1'],
        [
          'POST',
          '/api/chess/move',
          `{"game_id":"${f.ids.gameId}","move_san":"e5","extra":{"n":${number}}}`,
          'extra.n',
        ],
      );
    }
    for (const [method, url, payload, field] of cases) {
      const request = {
        method,
        url,
        headers: { ...headersFor(f, 'alice'), 'content-type': 'application/json' },
        payload,
      };
      expect(await send(f, request), payload).toBe('validation_error');
      const answer = await app.inject({ method: method as 'POST', url, headers: request.headers, payload });
      expect(answer.json(), payload).toEqual({
        error: 'validation_error',
        message: `${field}: numbers must be finite`,
        field,
      });
    }
  });

  it('reads valid JSON whatever the Content-Type says, as real clients send it', async () => {
    current = fixture();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
      'multipart/form-data; boundary=zz',
    ]) {
      const handle = `by_${type.split(/[/;]/)[1]!.replace(/-/g, '_')}`;
      const registered = await app.inject({
        method: 'POST',
        url: '/register',
        headers: { 'content-type': type },
        payload: JSON.stringify({ handle }),
      });
      expect([registered.statusCode, registered.json()['handle']]).toEqual([200, handle]);
    }
  });

  it('answers a method no route lists (TRACE) and a path that is not valid percent-encoding with registered codes', async () => {
    current = fixture();
    const trace = await app.inject({ method: 'TRACE', url: '/api/whoami' });
    expect([trace.statusCode, trace.json()['error']]).toEqual([405, 'method_not_allowed']);
    const badPath = await app.inject({ method: 'GET', url: '/api/agents/%E0%A4%A' });
    expect([badPath.statusCode, badPath.json()['error']]).toEqual([400, 'bad_request']);
  });
});
