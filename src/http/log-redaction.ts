import { API_KEY_PREFIX } from '../kernel/ids.js';

/**
 * What keeps credentials out of `serve --log`. The twin reads a key only from `Authorization: Bearer`,
 * but clients put keys everywhere else too (an `X-Auth-Token` header, `?api-key=`, a path segment), and a
 * log that holds a key is a leaked key. Three layers, each enough for the common case on its own:
 * - by name: every header and query parameter whose name (in any case or spelling) carries credentials;
 * - by shape: any header value, query value or path segment that looks like a key once percent-decoded;
 * - the whole line: every key-shaped run and the control token, wherever else it got in (an error's stack).
 */
export const REDACTED = '[redacted]';

/** Header names that carry credentials, compared in their spelling-free form (see `spellingFree`). */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(
  [
    'authorization',
    'proxy-authorization',
    'x-api-key',
    'api-key',
    'x-auth-token',
    'auth-token',
    'x-access-token',
    'x-control-token',
    'x-token',
    'cookie',
    'set-cookie',
  ].map(spellingFree),
);

/** Query parameter names that carry credentials, compared in their spelling-free form. */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(
  [
    'api_key',
    'key',
    'token',
    'access_token',
    'auth_token',
    'control_token',
    'authorization',
    'auth',
    'bearer',
    'x-api-key',
    'x-auth-token',
  ].map(spellingFree),
);

/** A name with case, `-`, `_`, `.` and spaces dropped: `api-key`, `API_KEY`, `apiKey` and `api.key` read alike. */
function spellingFree(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

/**
 * Text that holds an API key: the `moltchess_` prefix in any case, or a run of 40 or more letters and digits
 * (a key's secret part, sent without its prefix; no id, handle or route name is that long).
 */
const KEY_SHAPE = new RegExp(`${API_KEY_PREFIX}[a-z0-9]*|[a-z0-9]{40,}`, 'gi');

export function looksLikeKey(text: string): boolean {
  KEY_SHAPE.lastIndex = 0;
  const found = KEY_SHAPE.test(decoded(text));
  KEY_SHAPE.lastIndex = 0;
  return found;
}

/** Percent-decoded (and `+` read as a space) until nothing changes, at most three times; raw where undecodable. */
function decoded(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round++) {
    const next = decodeLeniently(current);
    if (next === current) break;
    current = next;
  }
  return current.replace(/\+/g, ' ');
}

/** decodeURIComponent escape by escape, so one malformed escape does not hide a key elsewhere in the text. */
function decodeLeniently(text: string): string {
  return text.replace(/(%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The URL with every credential replaced: a query value whose name carries credentials or that looks like a
 * key, and a path segment that looks like a key. Everything else is kept as sent.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  const path = start < 0 ? url : url.slice(0, start);
  const redactedPath = path
    .split('/')
    .map((segment) => (looksLikeKey(segment) ? REDACTED : segment))
    .join('/');
  if (start < 0) return redactedPath;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map(redactPair);
  return `${redactedPath}?${pairs.join('&')}`;
}

function redactPair(pair: string): string {
  const equals = pair.indexOf('=');
  if (equals < 0) return looksLikeKey(pair) ? REDACTED : pair;
  const name = pair.slice(0, equals);
  if (looksLikeKey(name)) return `${REDACTED}=${REDACTED}`;
  const credential =
    CREDENTIAL_PARAMS.has(spellingFree(decoded(name))) || looksLikeKey(pair.slice(equals + 1));
  return credential ? `${name}=${REDACTED}` : pair;
}

/** The headers as logged: a credential-carrying name or a key-shaped value (or name) is replaced. */
export function redactHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const logged: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    const loggedName = looksLikeKey(name) ? REDACTED : name;
    logged[loggedName] =
      CREDENTIAL_HEADERS.has(spellingFree(name)) || valueLooksLikeKey(value) ? REDACTED : value;
  }
  return logged;
}

function valueLooksLikeKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(valueLooksLikeKey);
  return typeof value === 'string' && looksLikeKey(value);
}

/**
 * The last pass over a whole log line: every key-shaped run, and each of `secrets` (the control token),
 * replaced wherever it stands. Percent-encoded keys are caught by the URL and header passes above, which
 * decode before they look.
 */
export function scrubLine(line: string, secrets: readonly string[] = []): string {
  let scrubbed = line.replace(KEY_SHAPE, REDACTED);
  for (const secret of secrets) if (secret !== '') scrubbed = scrubbed.split(secret).join(REDACTED);
  return scrubbed;
}
