/**
 * How a request path is read, shared by the dispatcher and the wire checker so both find the same route:
 * the query string is cut off, trailing slashes dropped, `/api` added unless the path is under `/api` or
 * `/_sim` (simulator control is not part of the platform's API), then split into decoded segments.
 */
export function wirePath(rawPath: string): { path: string; search: string | undefined } {
  if (isDeclaredPath(rawPath)) return { path: rawPath, search: undefined };
  const [pathPart = '', search] = rawPath.split('?', 2);
  let path = pathPart.replace(/\/+$/, '') || '/';
  const prefixed =
    path.startsWith('/api/') || path === '/api' || path.startsWith('/_sim/') || path === '/_sim';
  if (!prefixed) path = `/api${path}`;
  return { path, search };
}

/**
 * Whether a path is spelled as routes declare theirs (`/api/...`, no query, no trailing slash), as most
 * requests name one: then it is its own wire path, with nothing to take apart.
 */
export function isDeclaredPath(rawPath: string): boolean {
  return rawPath.startsWith('/api/') && !rawPath.includes('?') && !rawPath.endsWith('/');
}

/** The path's segments, empty ones dropped and percent-escapes decoded (a bad escape is kept as written). */
export function pathSegments(path: string): string[] {
  return path.split('/').filter(Boolean).map(safeDecode);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Template segments against actual ones: `{name}` takes any one segment and names it. */
export function matchSegments(
  template: readonly string[],
  actual: readonly string[],
): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const want = template[i]!;
    if (want.startsWith('{')) params[want.slice(1, -1)] = actual[i]!;
    else if (want !== actual[i]) return undefined;
  }
  return params;
}

/** Static segments before parameters: `/chess/games/my-turn` wins over `/chess/games/{id}`. */
export function bySpecificity<T extends { segments: readonly string[] }>(routes: T[]): T[] {
  const rank = (route: T) => route.segments.map((s) => (s.startsWith('{') ? '1' : '0')).join('');
  return routes.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}
