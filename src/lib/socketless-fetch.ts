import { errorResponse } from '../api/errors.js';
import { JsonStream, type ApiResponse } from '../api/types.js';
import { JSON_TYPE } from '../http/direct-get.js';
import type { GuardCheck } from '../http/guard.js';
import { DEFAULT_BODY_LIMIT, readJsonBody, type RequestHandler } from '../http/server.js';

/**
 * A `fetch` that never opens a socket: the request goes through the same checks the HTTP server makes
 * (the control token on /_sim, the body limit, the JSON reading) and on to the same handler, and the answer
 * comes back as a `Response`. Only the path and query of the URL are read, so any origin works
 * (`http://twin/api/whoami`, or the twin's own URL). Nothing in it waits on I/O or on a timer, which is what
 * lets an agent built on `fetch` run under a test's fake timers.
 */
export function socketlessFetch(
  handler: RequestHandler,
  guard: GuardCheck,
  largeBodyPaths: readonly string[],
): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href, 'http://127.0.0.1');
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init?.headers ?? request?.headers);
    const text = await bodyText(
      init?.body ?? (request && method !== 'GET' ? await request.text() : undefined),
    );
    const path = `${url.pathname}${url.search}`;
    // The Host is this twin's by construction: there is no network name to check, only the token.
    const refusal = guard({ url: path, headers: { ...headers, host: '127.0.0.1', origin: undefined } });
    if (refusal) return toResponse(refusal);
    if (
      text !== undefined &&
      Buffer.byteLength(text) > DEFAULT_BODY_LIMIT &&
      !largeBodyPaths.includes(url.pathname)
    )
      return toResponse(
        errorResponse('payload_too_large', 'the request body is larger than the server accepts'),
      );
    const read = readJsonBody(text);
    if ('refusal' in read) return toResponse(read.refusal);
    const answer = await handler.handle({ method, path, headers, body: read.body });
    // An answer written as it is read (a snapshot) is read whole: there is no socket to stream it to.
    return answer.body instanceof JsonStream
      ? toResponse({ ...answer, body: undefined, text: await answer.body.text() })
      : toResponse(answer);
  };
}

function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init).forEach((value, name) => (out[name] = value));
  return out;
}

/** A string body is used as it is (no stream to wait for); anything else is read as text. */
async function bodyText(body: RequestInit['body'] | string): Promise<string | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  return new Response(body).text();
}

function toResponse(answer: ApiResponse): Response {
  return textResponse(answer.text ?? JSON.stringify(answer.body), answer.status, {
    'content-type': JSON_TYPE,
    ...(answer.headers ?? {}),
  });
}

/**
 * A Response whose body is a string already in memory. A plain `new Response(text)` reads its body back
 * through a web stream, which under fake timers costs a turn of the real event loop per read (a third of a
 * millisecond, so seconds over a virtual day of polling); this one answers text() and json() at once and
 * builds the stream only if `body` itself is read. Its body is read once, as fetch's own responses are.
 */
function textResponse(text: string, status: number, headers: Record<string, string>): Response {
  const response = new Response(null, { status, headers });
  let used = false;
  const take = (): string => {
    if (used) throw new TypeError('Body is unusable: the body has already been read');
    used = true;
    return text;
  };
  Object.defineProperties(response, {
    body: {
      get: () => {
        used = true;
        return new Response(text).body;
      },
    },
    bodyUsed: { get: () => used },
    text: { value: () => Promise.resolve().then(take) },
    json: { value: () => Promise.resolve().then(() => JSON.parse(take()) as unknown) },
    arrayBuffer: {
      value: () =>
        Promise.resolve().then(() => {
          const bytes = Buffer.from(take());
          return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        }),
    },
    clone: {
      value: () => {
        if (used) throw new TypeError('Response.clone: the body has already been read');
        return textResponse(text, status, headers);
      },
    },
  });
  return response;
}
