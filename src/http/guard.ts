import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponse } from '../api/errors.js';
import type { ApiResponse } from '../api/types.js';

/**
 * What `serve` checks before any route runs. It runs on a developer's machine next to a browser, so:
 * - every request must name this server in `Host` (a loopback name, or what `--host`/`--allow-host` name):
 *   a page on another site that rebinds its DNS name to 127.0.0.1 sends its own name and is refused;
 * - a request with an `Origin` must come from this server's own origin (or one `--allow-origin` names): a
 *   page elsewhere cannot drive the API through a visitor's browser;
 * - the simulator's control plane (/_sim) needs the control token as `Authorization: Bearer <token>`,
 *   compared in constant time, and a body there must be declared JSON (a form post from a page cannot be).
 */
export interface GuardOptions {
  /** The control plane's bearer token. */
  controlToken: string;
  /** Host names (no port) the server answers to besides the loopback names. */
  allowedHosts?: readonly string[];
  /** Origins (scheme://host:port) allowed besides the server's own. */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** What the checks read of a request: fastify's request and node's own both carry it. */
export interface GuardedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  socket?: { localPort?: number | undefined } | undefined;
}

/** The refusal a request gets before any route, or undefined when it may go on. */
export type GuardCheck = (request: GuardedRequest) => ApiResponse | undefined;

export function guardCheck(options: GuardOptions): GuardCheck {
  const hosts = new Set([...LOOPBACK_NAMES, ...(options.allowedHosts ?? []).map(normalHost)]);
  const origins = new Set(options.allowedOrigins ?? []);
  const tokenDigest = digest(options.controlToken);
  return (request) =>
    hostRefusal(request, hosts) ??
    originRefusal(request, hosts, origins) ??
    controlRefusal(request, tokenDigest);
}

export function registerGuards(app: FastifyInstance, check: GuardCheck): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = check(request);
    if (refusal)
      return reply
        .status(refusal.status)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify(refusal.body));
    return undefined;
  });
}

function hostRefusal(request: GuardedRequest, hosts: Set<string>): ApiResponse | undefined {
  const name = hostName(request.headers.host);
  if (name !== undefined && (hosts.has(name) || name.endsWith('.localhost'))) return undefined;
  return errorResponse(
    'host_not_allowed',
    'the Host header does not name this server (use http://127.0.0.1 or localhost, or start serve with --allow-host)',
  );
}

function originRefusal(
  request: GuardedRequest,
  hosts: Set<string>,
  origins: Set<string>,
): ApiResponse | undefined {
  const origin = request.headers.origin;
  if (origin === undefined || origins.has(origin) || isOwnOrigin(origin, request, hosts)) return undefined;
  return errorResponse(
    'cross_site_request',
    `requests from ${origin.slice(0, 100)} are refused (start serve with --allow-origin to permit a page)`,
  );
}

function isOwnOrigin(origin: string, request: GuardedRequest, hosts: Set<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, files) and anything unparseable
  }
  const port = request.socket?.localPort;
  const samePort = port === undefined || url.port === String(port);
  return url.protocol === 'http:' && hosts.has(normalHost(url.hostname)) && samePort;
}

function controlRefusal(request: GuardedRequest, tokenDigest: Buffer): ApiResponse | undefined {
  if (!isControlPath(request.url)) return undefined;
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (sent === undefined)
    return errorResponse(
      'control_token_required',
      'the /_sim control routes need Authorization: Bearer <control token> (printed when serve starts)',
    );
  if (!timingSafeEqual(digest(sent), tokenDigest))
    return errorResponse('invalid_control_token', 'the control token is not valid');
  return bodyTypeRefusal(request);
}

/** /_sim and everything under it, however the path is spelled (case, escapes, `/api` prefix are not routes there). */
export function isControlPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // an undecodable path reaches no route; check it as sent
  }
  return /^\/+_sim(\/|$)/i.test(decoded) || /^\/+_sim(\/|$)/i.test(path);
}

function bodyTypeRefusal(request: GuardedRequest): ApiResponse | undefined {
  const length = Number(request.headers['content-length'] ?? 0);
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (length === 0 && !chunked) return undefined;
  const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return undefined;
  return errorResponse(
    'unsupported_media_type',
    'a /_sim body must be sent with Content-Type: application/json',
  );
}

/** The host name of a Host header, lower case, without port or IPv6 brackets; undefined when absent or malformed. */
function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d+)?$/i.exec(header);
  if (bracketed) return normalHost(bracketed[1]!);
  const plain = /^([a-z0-9.-]+)(?::\d+)?$/i.exec(header);
  return plain ? normalHost(plain[1]!) : undefined;
}

function normalHost(name: string): string {
  const bare = name.replace(/^\[|\]$/g, '').toLowerCase();
  return isIP(bare) === 6 && bare === '0:0:0:0:0:0:0:1' ? '::1' : bare;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
