import type { FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';

/**
 * A large route's body as it arrived: its chunks, not yet one buffer. Fastify's `parseAs: 'buffer'` joins
 * the chunks in one copy before the route runs, which for a 200 MB restore body stalled every other client
 * about 280 ms (bench serve-scale); a reader that pauses between slices joins them itself (`joinInSlices`).
 */
export interface BodyChunks {
  chunks: Buffer[];
  length: number;
}

/**
 * The content-type parser of the large-body routes: collects the (possibly filtered) payload's chunks with
 * the checks fastify's own raw-body reader makes: an error is a 400 unless it carries a status, and a body
 * whose received length differs from Content-Length is refused (the encoded length, when a filter counts it).
 */
export function collectChunks(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<BodyChunks> {
  const declared = Number(request.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = (error?: Error & { statusCode?: number }) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', stop);
      payload.removeListener('error', stop);
      if (error) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        reject(error);
        return;
      }
      const received = (payload as { receivedEncodedLength?: number }).receivedEncodedLength || length;
      if (!Number.isNaN(declared) && received !== declared)
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      else resolve({ chunks, length });
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      length += bytes.length;
    };
    payload.on('data', onData);
    payload.on('end', stop);
    payload.on('error', stop);
    payload.resume();
  });
}

/** About 3 ms of copying on a busy core between pause tests. */
const BYTES_PER_COPY = 8 << 20;

/**
 * The chunks in one buffer of its own (never a view of a socket's), copied a few megabytes at a time with a
 * pause test between: `pause` is called after each share and may yield to other work.
 */
export async function joinInSlices(body: BodyChunks, pause: () => Promise<void>): Promise<Buffer> {
  const joined = Buffer.allocUnsafe(body.length);
  let offset = 0;
  let sincePause = 0;
  for (const chunk of body.chunks) {
    chunk.copy(joined, offset);
    offset += chunk.length;
    sincePause += chunk.length;
    if (sincePause < BYTES_PER_COPY) continue;
    sincePause = 0;
    await pause();
  }
  return joined;
}

export function joinAtOnce(body: BodyChunks): Buffer {
  return Buffer.concat(body.chunks, body.length);
}
