import type { JsonSchema } from '../api/types.js';
import type {
  HttpMethodKey,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from './openapi.js';

/**
 * The human-readable docs page, rendered from the OpenAPI document (so page and document say the same).
 * Self-contained: no scripts, no external styles or fonts; every text from the document is escaped.
 */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Escaped text with `code` spans; escaping first means the only markup is the one added here. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

interface Entry {
  method: HttpMethodKey;
  path: string;
  operation: OpenApiOperation;
}

interface Group {
  name: string;
  description: string;
  entries: Entry[];
}

export function docsPage(document: OpenApiDocument): string {
  const entries = entriesOf(document);
  const groups = document.tags.map((tag) => ({
    ...tag,
    entries: entries.filter((entry) => entry.operation.tags[0] === tag.name),
  }));
  const title = `${document.info.title} API ${document.info.version}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...document.info.description.split(/\n\n+/).map((paragraph) => `<p>${prose(paragraph)}</p>`),
    '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>',
    contents(groups),
    ...groups.map(groupSection),
    errorCodeSection(document),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function entriesOf(document: OpenApiDocument): Entry[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method as HttpMethodKey,
      path,
      operation: operation,
    })),
  );
}

const anchorOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const tagAnchor = (name: string) => `tag-${anchorOf(name)}`;
const operationAnchor = (operation: OpenApiOperation) => `op-${anchorOf(operation.operationId)}`;

function contents(groups: readonly Group[]): string {
  const items = groups.map((group) => {
    const links = group.entries.map(
      (entry) =>
        `<li><a href="#${operationAnchor(entry.operation)}">${methodBadge(entry.method)} <code>${escapeHtml(entry.path)}</code></a></li>`,
    );
    return `<li><a href="#${tagAnchor(group.name)}">${escapeHtml(group.name)}</a><ul>${links.join('')}</ul></li>`;
  });
  return `<nav><h2>Contents</h2><ul>${items.join('\n')}<li><a href="#error-codes">Error codes</a></li></ul></nav>`;
}

function groupSection(group: Group): string {
  const heading = `<h2 id="${tagAnchor(group.name)}">${escapeHtml(group.name)}</h2><p>${prose(group.description)}</p>`;
  return `<section>${heading}\n${group.entries.map(operationBlock).join('\n')}</section>`;
}

function methodBadge(method: HttpMethodKey): string {
  return `<span class="method ${method}">${method.toUpperCase()}</span>`;
}

function operationBlock({ method, path, operation }: Entry): string {
  return [
    `<article id="${operationAnchor(operation)}">`,
    `<h3>${methodBadge(method)} <code>${escapeHtml(path)}</code></h3>`,
    `<p>${prose(operation.summary)}</p>`,
    `<p class="auth"><strong>${escapeHtml(authLabel(operation))}.</strong> ${prose(operation.description)}</p>`,
    parametersTable(operation.parameters),
    bodyTable(operation.requestBody),
    responsesTable(operation.responses),
    '</article>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The real service's own labels for the three auth modes (WIRE §1). */
function authLabel(operation: OpenApiOperation): string {
  const schemes = operation.security;
  if (schemes.length === 0) return 'Public';
  return schemes.some((requirement) => Object.keys(requirement).length === 0)
    ? 'Auth Optional'
    : 'Auth Required';
}

function parametersTable(parameters: readonly OpenApiParameter[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((parameter) => [
    `<code>${escapeHtml(parameter.name)}</code>`,
    escapeHtml(parameter.in + (parameter.explode ? ' (repeat the key for each value)' : '')),
    escapeHtml(typeText(parameter.schema)),
    parameter.required ? 'yes' : 'no',
    constraintsHtml(parameter.schema),
  ]);
  return `<h4>Parameters</h4>${table(['Name', 'In', 'Type', 'Required', 'Allowed values and default'], rows)}`;
}

function bodyTable(body: OpenApiOperation['requestBody']): string {
  if (!body) return '';
  const schema = body.content['application/json'].schema;
  const required = (schema['required'] as string[] | undefined) ?? [];
  const fields = Object.entries((schema['properties'] as Record<string, JsonSchema> | undefined) ?? {});
  const rows = fields.map(([name, field]) => [
    `<code>${escapeHtml(name)}</code>`,
    escapeHtml(typeText(field)),
    required.includes(name) ? 'yes' : 'no',
    constraintsHtml(field),
  ]);
  const note = body.required ? 'required' : 'optional; an absent body counts as <code>{}</code>';
  return `<h4>JSON body (${note})</h4>${table(['Field', 'Type', 'Required', 'Allowed values and default'], rows)}`;
}

function responsesTable(responses: Readonly<Record<string, OpenApiResponse>>): string {
  const rows = Object.entries(responses).map(([status, response]) => {
    const schema = response.content?.['application/json']?.schema;
    const headers = Object.keys(response.headers ?? {}).map(
      (name) => ` Header <code>${escapeHtml(name)}</code>.`,
    );
    return [
      escapeHtml(status),
      prose(response.description) + headers.join(''),
      schema ? schemaLink(schema) : '',
    ];
  });
  return `<h4>Responses</h4>${table(['Status', 'Meaning', 'Body'], rows)}`;
}

function schemaLink(schema: JsonSchema): string {
  const ref = schema['$ref'];
  if (typeof ref === 'string') return `<a href="#error-codes">${escapeHtml(ref.split('/').pop() ?? ref)}</a>`;
  return escapeHtml(typeText(schema));
}

function typeText(schema: JsonSchema): string {
  const type = schema['type'];
  if (type === 'array') return `array of ${typeText((schema['items'] as JsonSchema | undefined) ?? {})}`;
  if (Array.isArray(type)) return type.join(' | ');
  return typeof type === 'string' ? type : 'any';
}

/** Enums, bounds and defaults in words; enums of array items read as "each one of". */
function constraintsHtml(schema: JsonSchema): string {
  const parts: string[] = [];
  const items = schema['items'] as JsonSchema | undefined;
  const values = (schema['enum'] ?? items?.['enum']) as unknown[] | undefined;
  if (values) parts.push(`${schema['enum'] ? 'one of' : 'each one of'}: ${values.map(codeOf).join(', ')}`);
  const range = rangeText(schema['minimum'] as number | undefined, schema['maximum'] as number | undefined);
  if (range) parts.push(escapeHtml(range));
  const length = rangeText(
    schema['minLength'] as number | undefined,
    schema['maxLength'] as number | undefined,
  );
  if (length) parts.push(escapeHtml(`length ${length}`));
  if (schema['maxItems'] !== undefined)
    parts.push(escapeHtml(`at most ${schema['maxItems'] as number} items`));
  if (schema['default'] !== undefined) parts.push(`default ${codeOf(schema['default'])}`);
  if (schema['x-clamped-to'] !== undefined)
    parts.push(escapeHtml(`a larger value is clamped to ${schema['x-clamped-to'] as number}`));
  return parts.join('; ');
}

function codeOf(value: unknown): string {
  return `<code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;
}

function rangeText(low: number | undefined, high: number | undefined): string {
  if (low !== undefined && high !== undefined) return `${low} to ${high}`;
  if (low !== undefined) return `at least ${low}`;
  return high !== undefined ? `at most ${high}` : '';
}

function errorCodeSection(document: OpenApiDocument): string {
  const statuses = (document.components.schemas['ErrorCode']?.['x-http-status'] ?? {}) as Record<
    string,
    number
  >;
  const rows = Object.entries(statuses).map(([code, status]) => [
    `<code>${escapeHtml(code)}</code>`,
    escapeHtml(String(status)),
  ]);
  const shape =
    '<p>Every error answers <code>{"error": "&lt;code&gt;", "message": "&lt;text&gt;"}</code>; tests and clients should read the code, not the message.</p>';
  return `<section><h2 id="error-codes">Error codes</h2>${shape}${table(['Code', 'HTTP status'], rows)}</section>`;
}

/** Cells arrive as HTML already escaped by their makers. */
function table(headings: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const head = `<tr>${headings.map((heading) => `<th>${escapeHtml(heading)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n${head}\n${body}\n</table>`;
}

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45;color:#222}',
  'code{font-family:ui-monospace,monospace;background:#f3f3f3;padding:0 .2em;border-radius:3px}',
  'table{border-collapse:collapse;margin:.5rem 0 1rem;width:100%}',
  'th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}',
  'th{background:#f7f7f7}',
  'article{border-top:1px solid #ccc;padding-top:.5rem;margin-top:1.5rem}',
  'nav ul ul{columns:2;font-size:.9em}',
  '.method{display:inline-block;min-width:4.2em;text-align:center;font:bold .8em ui-monospace,monospace;color:#fff;border-radius:3px;padding:.1em .3em}',
  '.get{background:#2f7d32}.post{background:#1565c0}.patch{background:#8e5b00}.delete{background:#b71c1c}',
  '.auth{color:#444}',
].join('\n');
