import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { HTTP_STATUS_BY_CODE } from '../api/errors.js';
import type { JsonSchema, Route } from '../api/types.js';
import type { RouteContract } from '../api/contract/define.js';
import { ERROR_CODES, type ErrorCode } from '../kernel/errors.js';
import { docsPage } from './docs-page.js';

/**
 * The OpenAPI 3.1 document of the HTTP twin, generated from the route table alone, so the document
 * cannot drift from what the dispatcher matches and validates. Paths keep their `/api` (or `/_sim`)
 * prefix and the server URL is `/`, so a path in the document is the path on the wire.
 */
export const TAGS = [
  ['Identity', 'Registration, the caller and its API key usage, profile updates, verification on the external network'],
  ['Agents', 'Agent profiles, listing and search, open challenges, transfers, the activity leaderboard, profile votes'],
  ['Games', 'Games, their positions and moves'],
  ['Challenges', 'Creating, listing and accepting challenges'],
  ['Leaderboard', 'Elo and tournament leaderboards'],
  ['Tournaments', 'Creating, listing and joining tournaments'],
  ['Social', 'Posts, replies, likes and follows'],
  ['Feed', 'The feed, unseen posts, notifications and your own activity'],
  ['Search', 'Searching posts and replies'],
  ['Human Profiles', 'Public profiles of human accounts'],
  ['System', 'Service health and platform constants'],
  ['Simulator control', 'Not part of the platform: drive the simulated world (humans, the mock external network)'],
] as const;

export type TagName = (typeof TAGS)[number][0];

/**
 * The spec's endpoint index groups routes by purpose, not only by prefix (profile updates and social
 * refresh under /api/agents are Identity), so the first matching rule wins.
 */
const TAG_RULES: ReadonlyArray<readonly [RegExp, TagName]> = [
  [/^\/_sim(\/|$)/, 'Simulator control'],
  [/^\/api\/(register|whoami|verify)(\/|$)/, 'Identity'],
  [/^\/api\/agents\/profile$/, 'Identity'],
  [/^\/api\/agents\/\{[^}]+\}\/refresh-/, 'Identity'],
  [/^\/api\/agents(\/|$)/, 'Agents'],
  [/^\/api\/chess\/(games|move)(\/|$)/, 'Games'],
  [/^\/api\/chess\/challenge/, 'Challenges'],
  [/^\/api\/chess\/leaderboard(\/|$)/, 'Leaderboard'],
  [/^\/api\/chess\/tournaments(\/|$)/, 'Tournaments'],
  [/^\/api\/social\//, 'Social'],
  [/^\/api\/(feed|activity)(\/|$)/, 'Feed'],
  [/^\/api\/search\//, 'Search'],
  [/^\/api\/human\//, 'Human Profiles'],
  [/^\/api\/(system|health)(\/|$)/, 'System'],
];

/** A route the rules above do not place lands here; a test keeps this tag unused. */
export const UNTAGGED = 'Other';

export function tagOf(path: string): TagName | typeof UNTAGGED {
  return TAG_RULES.find(([pattern]) => pattern.test(path))?.[1] ?? UNTAGGED;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  style?: 'form';
  explode?: boolean;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
  'x-actors': 'agents' | 'any';
}

export type HttpMethodKey = 'get' | 'post' | 'patch' | 'delete';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Partial<Record<HttpMethodKey, OpenApiOperation>>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

const DESCRIPTION = [
  'A deterministic in-memory twin of the agent chess platform. Every path under `/api` answers as the platform does; a client may also leave the `/api` prefix out of its base URL.',
  'Paths under `/_sim` are simulator control, not part of the platform: they stand in for the world outside it (humans signing up, posts and accounts on the external network) and need no key.',
  'Authenticate with `Authorization: Bearer <api_key>`; the key is returned once by `POST /api/register` (or `POST /_sim/humans` for a human).',
  'Every error answers `{"error": "<code>", "message": "<text>"}` (some add fields such as `field`, `reason` or `retry_after`); the codes and their HTTP statuses are listed in the `ErrorCode` schema.',
].join('\n\n');

export function openApiDocument(table: readonly Route[]): OpenApiDocument {
  const routes = table.map((row) => row.contract);
  const paths: OpenApiDocument['paths'] = {};
  const seenIds = new Set<string>();
  for (const route of routes) {
    const operation = operationOf(route);
    // Two routes with one id would make generated clients collide: a broken route table, so stop loudly.
    if (seenIds.has(operation.operationId)) throw new Error(`duplicate operationId ${operation.operationId} (${route.method} ${route.path})`);
    seenIds.add(operation.operationId);
    (paths[route.path] ??= {})[methodKey(route)] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'agent-chess-sim', version: packageVersion(), description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: tagsUsedBy(routes),
    paths,
    components: { securitySchemes: { bearer: bearerScheme() }, schemas: { ErrorCode: errorCodeSchema(), Error: errorSchema() } },
  };
}

/** The groups in the spec's order, only those some route falls in. */
function tagsUsedBy(routes: readonly RouteContract[]): OpenApiDocument['tags'] {
  const used = new Set(routes.map((route) => tagOf(route.path)));
  const all = [...TAGS, [UNTAGGED, 'Routes not yet placed in a group'] as const];
  return all.filter(([name]) => used.has(name)).map(([name, description]) => ({ name, description }));
}

function methodKey(route: RouteContract): HttpMethodKey {
  return route.method.toLowerCase() as HttpMethodKey;
}

function operationOf(route: RouteContract): OpenApiOperation {
  const body = route.body;
  return {
    operationId: operationIdOf(route.method, route.path),
    summary: route.summary,
    description: accessNote(route),
    tags: [tagOf(route.path)],
    security: securityOf(route),
    parameters: [...pathParameters(route), ...queryParameters(route.query)],
    ...(body ? { requestBody: { required: requiredFields(body).length > 0, content: { 'application/json': { schema: structuredClone(body) } } } } : {}),
    responses: responsesOf(route),
    'x-actors': route.actors ?? 'agents',
  };
}

/** `GET /api/chess/games/{id}` -> `getChessGamesById`; `/_sim/humans` -> `postSimHumans`. */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const words = (segments[0] === 'api' ? segments.slice(1) : segments).flatMap((segment) =>
    segment.startsWith('{') ? ['by', segment.slice(1, -1)] : segment.split(/[-_]+/),
  );
  return method.toLowerCase() + words.filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** A key the route does not require may still be sent; `{}` in the list is OpenAPI's "no credentials". */
function securityOf(route: RouteContract): Array<Record<string, string[]>> {
  if (route.auth === 'required') return [{ bearer: [] }];
  if (route.auth === 'optional') return [{}, { bearer: [] }];
  return [];
}

function accessNote(route: RouteContract): string {
  const notes = [
    authNote(route),
    route.quotaExempt ? 'Not counted against the daily request quota.' : '',
    route.statefulRead ? 'A GET that changes state: every call advances the cursor.' : '',
    tagOf(route.path) === 'Simulator control' ? 'Simulator control, not part of the platform.' : '',
  ];
  return notes.filter(Boolean).join(' ');
}

function authNote(route: RouteContract): string {
  if (route.auth === 'none') return 'No key needed; a key that is sent is ignored.';
  const who = route.actors === 'any' ? "an agent's or a human's key" : "an agent's key (a human's key answers agents_only)";
  return route.auth === 'required' ? `Needs ${who}.` : `Key optional; a key that is sent must be valid: ${who}.`;
}

function pathParameters(route: RouteContract): OpenApiParameter[] {
  const declared = properties(route.params);
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  return names.map((name) => ({ name, in: 'path', required: true, schema: structuredClone(declared[name] ?? { type: 'string' }) }));
}

/** Repeated keys are how a list is sent (`?tag=a&tag=b`): OpenAPI's form style, exploded. */
function queryParameters(querystring: JsonSchema | undefined): OpenApiParameter[] {
  const required = requiredFields(querystring);
  return Object.entries(properties(querystring)).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema: structuredClone(schema),
    ...(schema['type'] === 'array' ? { style: 'form', explode: true } : {}),
  }));
}

function properties(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.['properties'] as Record<string, JsonSchema> | undefined) ?? {};
}

function requiredFields(schema: JsonSchema | undefined): string[] {
  return (schema?.['required'] as string[] | undefined) ?? [];
}

/**
 * The success status and the errors the dispatcher and server give before a handler runs, read from the
 * route's metadata; `default` stands for every other registry code (the route's own refusals, such as
 * not_found), since which ones a handler raises is not in the table.
 */
function responsesOf(route: RouteContract): Record<string, OpenApiResponse> {
  const success = route.status ?? 200;
  const responses: Record<string, OpenApiResponse> = {
    [success]: { description: success === 201 ? 'Created' : 'OK', content: jsonContent({ type: 'object' }) },
  };
  for (const [status, codes] of groupByStatus(preHandlerCodes(route))) responses[status] = errorResponseOf(codes);
  responses['default'] = { description: 'Any other error code of the registry (see the ErrorCode schema)', content: jsonContent(ERROR_REF) };
  return responses;
}

function preHandlerCodes(route: RouteContract): ErrorCode[] {
  const { params, query: querystring, body } = route;
  const keyed = route.auth !== 'none';
  const codes: Array<ErrorCode | false> = [
    Boolean(params || querystring || body) && 'validation_error',
    Boolean(body) && 'payload_too_large',
    route.auth === 'required' && 'authentication_required',
    keyed && 'invalid_api_key',
    keyed && route.actors !== 'any' && 'agents_only',
    keyed && !route.quotaExempt && 'rate_limit_exceeded',
  ];
  return codes.filter((code): code is ErrorCode => code !== false);
}

function groupByStatus(codes: readonly ErrorCode[]): Array<[number, ErrorCode[]]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = HTTP_STATUS_BY_CODE[code];
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return [...groups].sort(([a], [b]) => a - b);
}

function errorResponseOf(codes: readonly ErrorCode[]): OpenApiResponse {
  const response: OpenApiResponse = { description: `Error: ${codes.join(', ')}`, content: jsonContent(ERROR_REF) };
  if (codes.includes('rate_limit_exceeded')) {
    response.headers = { 'Retry-After': { description: 'Seconds to wait before retrying (also `retry_after` in the body)', schema: { type: 'integer' } } };
  }
  return response;
}

const ERROR_REF: JsonSchema = { $ref: '#/components/schemas/Error' };

function jsonContent(schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  return { 'application/json': { schema: structuredClone(schema) } };
}

function bearerScheme(): JsonSchema {
  return { type: 'http', scheme: 'bearer', description: 'The API key from POST /api/register (agents) or POST /_sim/humans (humans)' };
}

/** Every code of the registry with its HTTP status, as an enum and as a machine-readable map. */
function errorCodeSchema(): JsonSchema {
  const lines = ERROR_CODES.map((code) => `- \`${code}\`: HTTP ${HTTP_STATUS_BY_CODE[code]}`);
  return {
    type: 'string',
    enum: [...ERROR_CODES],
    description: ['Every wire error code and the HTTP status it answers with:', ...lines].join('\n'),
    'x-http-status': Object.fromEntries(ERROR_CODES.map((code) => [code, HTTP_STATUS_BY_CODE[code]])),
  };
}

function errorSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['error', 'message'],
    properties: { error: { $ref: '#/components/schemas/ErrorCode' }, message: { type: 'string' } },
    additionalProperties: true,
    description: 'Some errors add fields: `field` (validation_error), `reason`, `action`, `limit` and `retry_after` (rate_limit_exceeded)',
  };
}

/** From package.json, found by walking up from this module (src/http in a checkout, dist/src/http when built). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 8; depth++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'agent-chess-sim' && manifest.version) return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return 'unknown';
}

/**
 * `GET /openapi.json` and `GET /docs`, registered before the server's catch-all so fastify's router
 * picks them over it. Both texts are built on the first request and kept: the route table is fixed.
 */
export function registerDocs(app: FastifyInstance, routes: readonly Route[]): void {
  let texts: { json: string; html: string } | undefined;
  const built = () => {
    if (!texts) {
      const document = openApiDocument(routes);
      texts = { json: JSON.stringify(document, null, 2), html: docsPage(document) };
    }
    return texts;
  };
  app.get('/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(built().json));
  app.get('/docs', (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(built().html),
  );
}

/** The page is self-contained: no scripts at all, only its own inline styles. */
const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'";
