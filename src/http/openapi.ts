import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTTP_STATUS_BY_CODE } from '../api/errors.js';
import type { JsonSchema } from '../api/types.js';
import { codesOf, GROUPS, isControlRoute, type RouteContract } from '../api/contract/define.js';
import { ERROR_CODES, type ErrorCode } from '../kernel/errors.js';
import { DEFAULT_RULESET } from '../rules/ruleset.js';

/**
 * The OpenAPI 3.1 document of the HTTP twin, generated from the route contracts alone (src/api/contract/), so
 * the document cannot drift from what the dispatcher matches and validates or from what handlers return.
 * Paths keep their `/api` (or `/_sim`) prefix and the server URL is `/`, so a path in the document is the
 * path on the wire.
 */
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
  'Paths under `/_sim` are simulator control, not part of the platform: they drive the simulated world (its clock, snapshots, humans signing up, posts and accounts on the external network). Over HTTP they need the control token `serve` prints at start (`Authorization: Bearer <control token>`), never an API key.',
  'Authenticate with `Authorization: Bearer <api_key>`; the key is returned once by `POST /api/register` (or `POST /_sim/humans` for a human).',
  'Every error answers `{"error": "<code>", "message": "<text>"}` (some add fields such as `field`, `reason` or `retry_after`); each operation lists the codes it can answer, and the `ErrorCode` schema lists every code with its HTTP status.',
].join('\n\n');

export function openApiDocument(contracts: readonly RouteContract[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const seenIds = new Set<string>();
  for (const contract of contracts) {
    const operation = operationOf(contract);
    // Two routes with one id would make generated clients collide: a broken route table, so stop loudly.
    if (seenIds.has(operation.operationId))
      throw new Error(`duplicate operationId ${operation.operationId} (${contract.method} ${contract.path})`);
    seenIds.add(operation.operationId);
    (paths[contract.path] ??= {})[methodKey(contract)] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'agent-chess-sim', version: packageVersion(), description: DESCRIPTION },
    servers: [{ url: '/' }],
    tags: tagsUsedBy(contracts),
    paths,
    components: {
      securitySchemes: { bearer: bearerScheme(), controlToken: controlTokenScheme() },
      schemas: { ErrorCode: errorCodeSchema(), Error: errorSchema() },
    },
  };
}

/** The groups in the spec's order, only those some route falls in. */
function tagsUsedBy(contracts: readonly RouteContract[]): OpenApiDocument['tags'] {
  const used = new Set(contracts.map((contract) => contract.group));
  return GROUPS.filter(([name]) => used.has(name)).map(([name, description]) => ({ name, description }));
}

function methodKey(contract: RouteContract): HttpMethodKey {
  return contract.method.toLowerCase() as HttpMethodKey;
}

function operationOf(contract: RouteContract): OpenApiOperation {
  const operation: OpenApiOperation = {
    operationId: operationIdOf(contract.method, contract.path),
    summary: contract.summary,
    description: accessNote(contract),
    tags: [contract.group],
    security: securityOf(contract),
    parameters: [...pathParameters(contract), ...queryParameters(contract.query)],
    responses: responsesOf(contract),
    'x-actors': contract.actors ?? 'agents',
  };
  if (contract.body)
    operation.requestBody = {
      required: requiredFields(contract.body).length > 0,
      content: jsonContent(contract.body),
    };
  return operation;
}

/** `GET /api/chess/games/{id}` -> `getChessGamesById`; `/_sim/humans` -> `postSimHumans`. */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const words = (segments[0] === 'api' ? segments.slice(1) : segments).flatMap((segment) =>
    segment.startsWith('{') ? ['by', segment.slice(1, -1)] : segment.split(/[-_]+/),
  );
  return (
    method.toLowerCase() +
    words
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join('')
  );
}

/** A key the route does not require may still be sent; `{}` in the list is OpenAPI's "no credentials". */
function securityOf(contract: RouteContract): Array<Record<string, string[]>> {
  if (isControlRoute(contract)) return [{ controlToken: [] }];
  if (contract.auth === 'required') return [{ bearer: [] }];
  if (contract.auth === 'optional') return [{}, { bearer: [] }];
  return [];
}

function accessNote(contract: RouteContract): string {
  const notes = [
    authNote(contract),
    contract.quotaExempt ? 'Not counted against the daily request quota.' : '',
    contract.statefulRead ? 'A GET that changes state: every call advances the cursor.' : '',
  ];
  return notes.filter(Boolean).join(' ');
}

function authNote(contract: RouteContract): string {
  if (isControlRoute(contract))
    return 'Simulator control, not part of the platform. Over HTTP it needs the control token; in-process, nothing.';
  if (contract.auth === 'none') return 'No key needed; a key that is sent is ignored.';
  const who =
    contract.actors === 'any'
      ? "an agent's or a human's key"
      : "an agent's key (a human's key answers agents_only)";
  return contract.auth === 'required'
    ? `Needs ${who}.`
    : `Key optional; a key that is sent must be valid: ${who}.`;
}

function pathParameters(contract: RouteContract): OpenApiParameter[] {
  const declared = properties(contract.params);
  const names = [...contract.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  return names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: plainJson(declared[name] ?? { type: 'string' }),
  }));
}

/** Repeated keys are how a list is sent (`?tag=a&tag=b`): OpenAPI's form style, exploded. */
function queryParameters(querystring: JsonSchema | undefined): OpenApiParameter[] {
  const required = requiredFields(querystring);
  return Object.entries(properties(querystring)).map(([name, schema]) => {
    const parameter: OpenApiParameter = {
      name,
      in: 'query',
      required: required.includes(name),
      schema: withPageSize(plainJson(schema)),
    };
    if (schema['type'] === 'array') Object.assign(parameter, { style: 'form', explode: true });
    return parameter;
  });
}

/**
 * A `limit` marked with its page size takes its default and ceiling from the ruleset (the dispatcher's
 * `resolvePaging`); the document states the default ruleset's figures. The ceiling is not a `maximum`:
 * a larger limit is clamped, not refused.
 */
function withPageSize(schema: JsonSchema): JsonSchema {
  const size = schema['x-page-size'];
  if (size === undefined) return schema;
  const { defaultPageLimit, searchPageLimit, maxPageLimit } = DEFAULT_RULESET.api;
  const out: JsonSchema = {
    ...schema,
    default: size === 'search' ? searchPageLimit : defaultPageLimit,
    'x-clamped-to': maxPageLimit,
  };
  delete out['x-page-size'];
  return out;
}

function properties(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.['properties'] as Record<string, JsonSchema> | undefined) ?? {};
}

function requiredFields(schema: JsonSchema | undefined): string[] {
  return (schema?.['required'] as string[] | undefined) ?? [];
}

/** The success answer with its full schema, then every error the route can give, grouped by HTTP status. */
function responsesOf(contract: RouteContract): Record<string, OpenApiResponse> {
  const success = contract.status ?? 200;
  const responses: Record<string, OpenApiResponse> = {
    [success]: { description: success === 201 ? 'Created' : 'OK', content: jsonContent(contract.response) },
  };
  for (const [status, codes] of groupByStatus(codesOf(contract))) responses[status] = errorResponseOf(codes);
  return responses;
}

function groupByStatus(codes: readonly ErrorCode[]): Array<[number, ErrorCode[]]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = HTTP_STATUS_BY_CODE[code];
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return [...groups].sort(([a], [b]) => a - b);
}

/** The shared Error shape, with `error` narrowed to the codes this status can carry on this route. */
function errorResponseOf(codes: readonly ErrorCode[]): OpenApiResponse {
  const schema = {
    allOf: [ERROR_REF, { type: 'object', properties: { error: { type: 'string', enum: [...codes] } } }],
  };
  const response: OpenApiResponse = {
    description: `Error: ${codes.join(', ')}`,
    content: jsonContent(schema),
  };
  if (codes.includes('rate_limit_exceeded') || codes.includes('busy')) {
    response.headers = {
      'Retry-After': {
        description: 'Seconds to wait before retrying (also `retry_after` in the body)',
        schema: { type: 'integer' },
      },
    };
  }
  return response;
}

const ERROR_REF: JsonSchema = { $ref: '#/components/schemas/Error' };

function jsonContent(schema: JsonSchema): { 'application/json': { schema: JsonSchema } } {
  return { 'application/json': { schema: plainJson(schema) } };
}

/** A TypeBox schema as plain JSON: its symbol-keyed metadata dropped, and no object shared with the contract. */
function plainJson(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

function bearerScheme(): JsonSchema {
  return {
    type: 'http',
    scheme: 'bearer',
    description: 'The API key from POST /api/register (agents) or POST /_sim/humans (humans)',
  };
}

function controlTokenScheme(): JsonSchema {
  return {
    type: 'http',
    scheme: 'bearer',
    description:
      'The control token `serve` prints at start (or --control-token / ACS_CONTROL_TOKEN); only /_sim routes take it',
  };
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
    description:
      'Some errors add fields: `field` (validation_error), `reason`, `action`, `limit` and `retry_after` (rate_limit_exceeded), `request_id` (internal_error)',
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
