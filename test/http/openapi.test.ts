import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { codesOf, GROUPS, type RouteContract } from '../../src/api/contract/define.js';
import { CONTRACTS } from '../../src/api/contract/index.js';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { LIVE_ROUTES, ROUTES } from '../../src/api/routes/index.js';
import { ERROR_CODES, type ErrorCode } from '../../src/kernel/errors.js';
import { docsPage, escapeHtml } from '../../src/http/docs-page.js';
import {
  openApiDocument,
  operationIdOf,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../../src/http/openapi.js';
import { buildServer } from '../../src/http/server.js';
import { newWorld } from '../helpers/world.js';

/**
 * The OpenAPI document is generated from the route contracts alone, so these tests hold it to them: every
 * route, its auth, parameters, body, full response schema and every error it can give; the error
 * registry; determinism; an independent validator's verdict; and the HTML page built from it
 * (self-contained, escaped). Both are served over HTTP ahead of the catch-all.
 */
const FC_PARAMS = { numRuns: 300 };
const DOCUMENT = openApiDocument(CONTRACTS);

function operationOf(document: OpenApiDocument, method: string, path: string): OpenApiOperation {
  const operation = document.paths[path]?.[method.toLowerCase() as 'get'];
  if (!operation) throw new Error(`no operation ${method} ${path}`);
  return operation;
}

const contractOf = (method: string, path: string) =>
  CONTRACTS.find((c) => c.method === method && c.path === path)!;
const isControl = (contract: RouteContract) => contract.path.startsWith('/_sim/');
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document to an independent validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(DOCUMENT) as never)).resolves.toBeTruthy();
  });

  it('documents every route of the table, and each contract has exactly one row (the live rows included)', () => {
    const rows = [...ROUTES, ...LIVE_ROUTES].map((route) => route.contract);
    expect(new Set(rows).size).toBe(rows.length);
    expect(new Set(rows)).toEqual(new Set(CONTRACTS));
    const count = Object.values(DOCUMENT.paths).reduce((sum, item) => sum + Object.keys(item).length, 0);
    expect(count).toBe(CONTRACTS.length);
    for (const path of [
      '/_sim/clock',
      '/_sim/clock/advance',
      '/_sim/snapshot',
      '/_sim/restore',
      '/_sim/airdrop',
      '/_sim/invariants',
    ]) {
      expect(Object.keys(DOCUMENT.paths)).toContain(path);
    }
  });

  it('has one operation per contract, with its summary, its group as tag and the credential it takes', () => {
    const securityByAuth = { required: [{ bearer: [] }], optional: [{}, { bearer: [] }], none: [] };
    for (const contract of CONTRACTS) {
      const operation = operationOf(DOCUMENT, contract.method, contract.path);
      expect(operation.summary).toBe(contract.summary);
      expect(operation.tags).toEqual([contract.group]);
      expect(operation.security).toEqual(
        isControl(contract) ? [{ controlToken: [] }] : securityByAuth[contract.auth],
      );
      expect(operation['x-actors']).toBe(contract.actors ?? 'agents');
    }
    expect(DOCUMENT.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(DOCUMENT.components.securitySchemes['controlToken']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('keeps full paths under a root server and says /_sim is simulator control', () => {
    expect(DOCUMENT.openapi).toBe('3.1.0');
    expect(DOCUMENT.servers).toEqual([{ url: '/' }]);
    for (const path of Object.keys(DOCUMENT.paths)) expect(path).toMatch(/^\/(api|_sim)\//);
    expect(DOCUMENT.info.title).toBe('agent-chess-sim');
    expect(DOCUMENT.info.description).toMatch(/`\/_sim` are simulator control, not part of the platform/);
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(DOCUMENT.info.version).toBe(manifest.version);
  });

  it('groups routes by the spec endpoint groups, including the /api/agents routes that belong to Identity', () => {
    const expected: Array<[string, string, string]> = [
      ['GET', '/api/register/check/{handle}', 'Identity'],
      ['PATCH', '/api/agents/profile', 'Identity'],
      ['POST', '/api/agents/profile/vote', 'Agents'],
      ['GET', '/api/agents/{handle}/open-challenge', 'Agents'],
      ['POST', '/api/chess/move', 'Games'],
      ['POST', '/api/chess/challenges/{id}/accept', 'Challenges'],
      ['GET', '/api/chess/leaderboard/around', 'Leaderboard'],
      ['POST', '/api/chess/tournaments/{id}/join', 'Tournaments'],
      ['POST', '/api/social/follow', 'Social'],
      ['GET', '/api/activity', 'Feed'],
      ['GET', '/api/search/replies/thread', 'Search'],
      ['GET', '/api/human/{username}', 'Human Profiles'],
      ['GET', '/api/health', 'System'],
      ['POST', '/_sim/network/posts', 'Simulator control'],
    ];
    for (const [method, path, group] of expected)
      expect([path, operationOf(DOCUMENT, method, path).tags[0]]).toEqual([path, group]);
    expect(DOCUMENT.tags.map((tag) => tag.name)).toEqual(GROUPS.map(([name]) => name));
  });

  it('derives unique operationIds from method and path', () => {
    expect(operationIdOf('GET', '/api/chess/games/{id}')).toBe('getChessGamesById');
    expect(operationIdOf('GET', '/api/chess/leaderboard/tournament-wins')).toBe(
      'getChessLeaderboardTournamentWins',
    );
    expect(operationIdOf('PATCH', '/_sim/network/accounts/{handle}')).toBe('patchSimNetworkAccountsByHandle');
    const ids = CONTRACTS.map((c) => operationOf(DOCUMENT, c.method, c.path).operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^(get|post|patch|delete)[A-Z][A-Za-z0-9]*$/);
  });

  it('stops loudly on contracts whose operationIds collide', () => {
    const health = contractOf('GET', '/api/health');
    expect(() => openApiDocument([health, { ...health }])).toThrow(/duplicate operationId getHealth/);
  });

  it('declares every templated path segment as a required path parameter', () => {
    for (const contract of CONTRACTS) {
      const names = [...contract.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const declared = operationOf(DOCUMENT, contract.method, contract.path).parameters.filter(
        (parameter) => parameter.in === 'path',
      );
      expect(declared.map((parameter) => parameter.name)).toEqual(names);
      for (const parameter of declared)
        expect(parameter).toMatchObject({ required: true, schema: { type: 'string' } });
    }
  });

  it("gives each route with a body a requestBody with the contract's schema, required when a field is", () => {
    const withBody = CONTRACTS.filter((c) => c.body);
    expect(withBody.length).toBeGreaterThan(10);
    for (const contract of withBody) {
      const body = operationOf(DOCUMENT, contract.method, contract.path).requestBody;
      expect(body?.content['application/json'].schema).toEqual(plain(contract.body));
      expect(body?.required).toBe(((contract.body!['required'] as string[] | undefined) ?? []).length > 0);
    }
    expect(operationOf(DOCUMENT, 'POST', '/api/register').requestBody?.required).toBe(true);
    expect(operationOf(DOCUMENT, 'POST', '/api/chess/challenge').requestBody?.required).toBe(false); // an open challenge: empty body
    for (const contract of CONTRACTS.filter((c) => !c.body))
      expect(operationOf(DOCUMENT, contract.method, contract.path).requestBody).toBeUndefined();
  });

  it('lists query parameters with their enums, bounds, defaults and required flags', () => {
    const feed = Object.fromEntries(
      operationOf(DOCUMENT, 'GET', '/api/feed').parameters.map((p) => [p.name, p]),
    );
    expect(feed['sort']).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['recent', 'trending', 'top'], default: 'recent' },
    });
    expect(feed['limit']?.schema).toEqual({ type: 'integer', minimum: 1, default: 50, 'x-clamped-to': 100 });
    expect(
      operationOf(DOCUMENT, 'GET', '/api/search/posts').parameters.find((p) => p.name === 'limit')?.schema[
        'default'
      ],
    ).toBe(20);
    expect(feed['offset']?.schema).toMatchObject({ type: 'integer', minimum: 0 });
    expect(feed['post_type']?.schema['enum']).toContain('game_result');
    const search = operationOf(DOCUMENT, 'GET', '/api/search/posts').parameters;
    expect(search.find((p) => p.name === 'q')).toMatchObject({
      required: true,
      schema: { minLength: 1, maxLength: 200 },
    });
    for (const contract of CONTRACTS) {
      const query = operationOf(DOCUMENT, contract.method, contract.path).parameters.filter(
        (p) => p.in === 'query',
      );
      expect(query.map((p) => p.name)).toEqual(
        Object.keys((contract.query?.['properties'] as object | undefined) ?? {}),
      );
    }
  });

  it('sends list-valued query parameters as repeated keys (form style, exploded)', () => {
    const tag = operationOf(DOCUMENT, 'GET', '/api/agents').parameters.find((p) => p.name === 'tag');
    expect(tag).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } });
    const types = operationOf(DOCUMENT, 'GET', '/api/feed/notifications').parameters.find(
      (p) => p.name === 'types',
    );
    expect(types).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } });
    expect((types!.schema['items'] as { enum: string[] }).enum).toEqual(
      expect.arrayContaining(['mentions', 'game_posts', 'replies_to_my_posts', 'replies']),
    );
    const limit = operationOf(DOCUMENT, 'GET', '/api/agents').parameters.find((p) => p.name === 'limit');
    expect(limit).not.toHaveProperty('style');
  });

  it('gives every success response its full schema: no bare object, and strict where it is an object', () => {
    for (const contract of CONTRACTS) {
      const responses = operationOf(DOCUMENT, contract.method, contract.path).responses;
      const schema = responses[String(contract.status ?? 200)]?.content?.['application/json']?.schema;
      expect(schema, `${contract.method} ${contract.path}`).toEqual(plain(contract.response));
      const bare =
        schema?.['type'] === 'object' &&
        schema['properties'] === undefined &&
        schema['additionalProperties'] === undefined;
      expect(bare, `${contract.method} ${contract.path} answers a bare object`).toBe(false);
    }
  });

  it('lists every error a route can give, each under the status the registry gives it', () => {
    for (const contract of CONTRACTS) {
      const responses = operationOf(DOCUMENT, contract.method, contract.path).responses;
      expect(Object.keys(responses)).toContain(String(contract.status ?? 200));
      expect(responses).not.toHaveProperty('default');
      const listed: ErrorCode[] = [];
      for (const [status, response] of Object.entries(responses).filter(([key]) => /^[45]/.test(key))) {
        const codes = response.description.replace(/^Error: /, '').split(', ') as ErrorCode[];
        for (const code of codes) expect([code, HTTP_STATUS_BY_CODE[code]]).toEqual([code, Number(status)]);
        listed.push(...codes);
      }
      expect(listed.sort()).toEqual([...codesOf(contract)].sort());
    }
    const reply = Object.keys(operationOf(DOCUMENT, 'POST', '/api/social/reply').responses);
    expect(reply[0]).toBe('201');
    const check = operationOf(DOCUMENT, 'GET', '/api/register/check/{handle}').responses;
    expect(check['400']?.description).toContain('handle_taken');
    expect(
      operationOf(DOCUMENT, 'GET', '/api/chess/tournaments/{id}').responses['404']?.description,
    ).toContain('not_found');
    const move = operationOf(DOCUMENT, 'POST', '/api/chess/move').responses;
    expect(move['401']?.description).toBe('Error: authentication_required, invalid_api_key');
    expect(move['403']?.description).toContain('agents_only'); // an agents-only route refuses a human's key
    expect(move['429']?.headers).toHaveProperty('Retry-After');
    expect(operationOf(DOCUMENT, 'GET', '/api/whoami').responses).not.toHaveProperty('429'); // quota-exempt
    expect(operationOf(DOCUMENT, 'GET', '/api/feed').responses['401']?.description).toBe(
      'Error: invalid_api_key',
    ); // key optional
    expect(operationOf(DOCUMENT, 'POST', '/_sim/clock/advance').responses['401']?.description).toBe(
      'Error: control_token_required, invalid_control_token',
    );
  });

  it('lists every code of the error registry with its HTTP status, and the shared Error schema', () => {
    const errorCode = DOCUMENT.components.schemas['ErrorCode']!;
    expect(errorCode['enum']).toEqual([...ERROR_CODES]);
    expect(errorCode['x-http-status']).toEqual(HTTP_STATUS_BY_CODE);
    for (const code of ERROR_CODES)
      expect(errorCode['description']).toContain(`\`${code}\`: HTTP ${HTTP_STATUS_BY_CODE[code]}`);
    expect(DOCUMENT.components.schemas['Error']).toMatchObject({
      required: ['error', 'message'],
      properties: { error: { $ref: '#/components/schemas/ErrorCode' }, message: { type: 'string' } },
    });
  });

  it('resolves every $ref inside the document', () => {
    const refs = JSON.stringify(DOCUMENT).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(CONTRACTS.length);
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/');
      const target = pointer.reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key],
        DOCUMENT,
      );
      expect(target, ref).toBeTypeOf('object');
    }
  });

  it('is plain JSON and the same text every time it is built', () => {
    const text = JSON.stringify(DOCUMENT);
    expect(JSON.stringify(openApiDocument(CONTRACTS))).toBe(text);
    expect(JSON.parse(text)).toEqual(DOCUMENT);
    expect(docsPage(openApiDocument(CONTRACTS))).toBe(docsPage(DOCUMENT));
  });

  it('shares no object with the contracts, so editing the document cannot change validation', () => {
    const document = openApiDocument(CONTRACTS);
    const register = operationOf(document, 'POST', '/api/register');
    (register.requestBody!.content['application/json'].schema['required'] as string[]).push('bio');
    operationOf(document, 'GET', '/api/feed').parameters[0]!.schema['default'] = 7;
    expect(JSON.stringify(openApiDocument(CONTRACTS))).toBe(JSON.stringify(DOCUMENT));
  });
});

describe('the docs page', () => {
  const PAGE = docsPage(DOCUMENT);

  it('shows every operation with its method, path and summary, grouped under a table of contents', () => {
    for (const contract of CONTRACTS) {
      const operation = operationOf(DOCUMENT, contract.method, contract.path);
      const anchor = `op-${operation.operationId.toLowerCase()}`;
      expect(PAGE).toContain(`<a href="#${anchor}">`);
      expect(PAGE).toContain(
        `<article id="${anchor}">\n<h3><span class="method ${contract.method.toLowerCase()}">${contract.method}</span> <code>${escapeHtml(contract.path)}</code></h3>`,
      );
      expect(PAGE).toContain(escapeHtml(contract.summary));
    }
    for (const tag of DOCUMENT.tags) expect(PAGE).toContain(`>${escapeHtml(tag.name)}</h2>`);
    for (const code of ERROR_CODES)
      expect(PAGE).toContain(`<tr><td><code>${code}</code></td><td>${HTTP_STATUS_BY_CODE[code]}</td></tr>`);
  });

  it('writes out parameters with enums and defaults, body fields and auth', () => {
    const feed = PAGE.slice(
      PAGE.indexOf('<article id="op-getfeed">'),
      PAGE.indexOf('</article>', PAGE.indexOf('<article id="op-getfeed">')),
    );
    expect(feed).toContain(
      'one of: <code>recent</code>, <code>trending</code>, <code>top</code>; default <code>recent</code>',
    );
    expect(feed).toContain('at least 1; default <code>50</code>; a larger value is clamped to 100');
    expect(feed).toContain('<strong>Auth Optional.</strong>');
    expect(PAGE).toContain('<strong>Public.</strong> No key needed');
    expect(PAGE).toContain('<strong>Auth Required.</strong> Needs an agent&#39;s key');
    expect(PAGE).toContain(
      'each one of: <code>mentions</code>, <code>game_posts</code>, <code>replies_to_my_posts</code>, <code>replies</code>',
    );
    expect(PAGE).toContain('<tr><td><code>game_id</code></td><td>string</td><td>yes</td><td></td></tr>');
  });

  it('is self-contained: no scripts, no external resources', () => {
    expect(PAGE.startsWith('<!doctype html>')).toBe(true);
    expect(PAGE).not.toMatch(/<script|<link|<img|<iframe|\bsrc=/i);
    expect(PAGE).not.toMatch(/https?:\/\//);
  });

  it('escapes markup characters in any text', () => {
    expect(escapeHtml('<script>alert("x & \'y\'")</script>')).toBe(
      '&lt;script&gt;alert(&quot;x &amp; &#39;y&#39;&quot;)&lt;/script&gt;',
    );
    const unescape = (text: string) =>
      text.replace(
        /&(lt|gt|quot|#39|amp);/g,
        (_m, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!,
      );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeHtml(text);
        return !/[<>"']/.test(escaped) && unescape(escaped) === text;
      }),
      FC_PARAMS,
    );
  });

  it('escapes route text that carries markup', () => {
    const hostile: RouteContract = {
      ...contractOf('POST', '/api/register'),
      summary: 'steal <script>alert(1)</script> & `keys`',
    };
    const page = docsPage(openApiDocument([hostile]));
    expect(page).not.toContain('<script>');
    expect(page).toContain('steal &lt;script&gt;alert(1)&lt;/script&gt; &amp; <code>keys</code>');
  });
});

describe('the docs routes', () => {
  const servers: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const serve = () => {
    const app = buildServer(newWorld().api);
    servers.push(app);
    return app;
  };

  it('serves the document at /openapi.json as JSON', async () => {
    const response = await serve().inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(DOCUMENT);
  });

  it('serves the page at /docs as HTML that allows no scripts', async () => {
    const response = await serve().inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.body).toBe(docsPage(DOCUMENT));
  });

  it('answers over a loopback socket too', async () => {
    const app = serve();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const docs = await fetch(`http://127.0.0.1:${port}/docs`);
    expect([docs.status, docs.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await docs.text()).toContain('<code>/api/chess/move</code>');
    const spec = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    expect(((await spec.json()) as OpenApiDocument).info.title).toBe('agent-chess-sim');
  });

  it('leaves every other path to the route table', async () => {
    const app = serve();
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const posted = await app.inject({ method: 'POST', url: '/docs' });
    expect(posted.statusCode).toBe(404);
    expect(posted.json()).toMatchObject({ error: 'route_not_found' });
  });
});
