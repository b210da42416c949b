import type { ErrorStatus } from './profile.js';

/**
 * What a client reads when the service or a proxy in front of it fails. The shapes are inferred (INF) from
 * what common front ends send: nginx's stock error pages for 502/503/504 (HTML, not JSON: a client that
 * parses every answer as JSON fails here), the application's own JSON for a 500 (the twin's server answers
 * its programmer errors so), and a gateway's plain-text 429 whose only machine-readable part is the
 * Retry-After header.
 */
export interface FaultAnswer {
  status: number;
  body: string | Record<string, unknown>;
  contentType: string;
  headers: Record<string, string>;
}

const REASONS: Record<ErrorStatus, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};

function proxyPage(status: number, reason: string): string {
  return (
    `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n` +
    `<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
  );
}

/** An error answer of `status`: the application's JSON for 500, the proxy's HTML page otherwise. */
export function errorAnswer(status: ErrorStatus): FaultAnswer {
  if (status === 500)
    return {
      status,
      body: { error: 'internal_error', message: 'internal error; see the server log' },
      contentType: 'application/json; charset=utf-8',
      headers: {},
    };
  return { status, body: proxyPage(status, REASONS[status]), contentType: 'text/html', headers: {} };
}

/** An outage: the load balancer has no healthy upstream (503, HTML), with a hint of when to come back. */
export function outageAnswer(retryAfterSeconds: number): FaultAnswer {
  return {
    status: 503,
    body: proxyPage(503, REASONS[503]),
    contentType: 'text/html',
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/** A gateway's burst limit: plain text, the wait only in the Retry-After header. */
export function burstAnswer(retryAfterSeconds: number): FaultAnswer {
  return {
    status: 429,
    body: 'Too Many Requests\n',
    contentType: 'text/plain; charset=utf-8',
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/** The bytes of a broken JSON answer: cut half way, or replaced by noise (a proxy's buffer, a bad chunk). */
export function brokenJson(text: string, form: 'truncated' | 'garbage'): string {
  if (form === 'truncated') return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  return '\u001f\u008b\b\u0000{"err';
}
