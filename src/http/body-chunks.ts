import type { FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';

/**
 * A large route's body as it arrived: copied into one buffer of its own when its length was declared, else
 * its chunks, not yet one buffer. Fastify's `parseAs: 'buffer'` joins the chunks in one copy before the
 * route runs, which for a 200 MB restore body stalled every other client about 280 ms (bench serve-scale);
 * a reader that pauses between slices joins chunks itself (`joinInSlices`).
 */
export interface BodyChunks {
  chunks: Buffer[];
  length: number;
  /** The one chunk is a buffer of our own, the body copied into it as it arrived (see `collectChunks`). */
  own?: true;
}

/**
 * The content-type parser of the large-body routes: collects the (possibly filtered) payload's chunks with
 * the checks fastify's own raw-body reader makes: an error is a 400 unless it carries a status, and a body
 * whose received length differs from Content-Length is refused (the encoded length, when a filter counts it).
 */
export function collectChunks(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<BodyChunks> {
  const declared = Number(request.headers['content-length']);
  return new Promise((resolve, reject) => {
    const into = new ArrivingBody(declared);
    const stop = (error?: Error & { statusCode?: number }) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', stop);
      payload.removeListener('error', stop);
      if (error) {
        if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
        reject(error);
        return;
      }
      const received = (payload as { receivedEncodedLength?: number }).receivedEncodedLength || into.length;
      if (!Number.isNaN(declared) && received !== declared)
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      else resolve(into.body());
    };
    const onData = (chunk: Buffer | string) =>
      into.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    payload.on('data', onData);
    payload.on('end', stop);
    payload.on('error', stop);
    payload.resume();
  });
}

/**
 * The body as it arrives. With a Content-Length (already checked against the route's limit) it is copied
 * into one buffer of that size chunk by chunk, so each socket chunk dies young: 200 MB of chunks kept until
 * the end were external memory that set off the collector's full marking of a large heap over and over, and
 * joining them afterwards was a second copy. A filter may write a few bytes more than it read (a one-byte
 * `state` becomes `null`): a body that outgrows its buffer is kept as chunks from there on.
 */
class ArrivingBody {
  #own: Buffer | undefined;
  readonly #chunks: Buffer[] = [];
  length = 0;

  constructor(declared: number) {
    if (Number.isSafeInteger(declared) && declared > 0) this.#own = Buffer.allocUnsafe(declared);
  }

  add(chunk: Buffer): void {
    if (this.#own && this.length + chunk.length > this.#own.length) {
      this.#chunks.push(this.#own.subarray(0, this.length));
      this.#own = undefined;
    }
    if (this.#own) chunk.copy(this.#own, this.length);
    else this.#chunks.push(chunk);
    this.length += chunk.length;
  }

  body(): BodyChunks {
    if (this.#own) return { chunks: [this.#own.subarray(0, this.length)], length: this.length, own: true };
    return { chunks: this.#chunks, length: this.length };
  }
}

/** About 3 ms of copying on a busy core between pause tests. */
const BYTES_PER_COPY = 8 << 20;

/**
 * The chunks in one buffer of its own (never a view of a socket's), copied a few megabytes at a time with a
 * pause test between: `pause` is called after each share and may yield to other work.
 */
export async function joinInSlices(body: BodyChunks, pause: () => Promise<void>): Promise<Buffer> {
  if (body.own) return body.chunks[0]!;
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
  if (body.own) return body.chunks[0]!;
  return Buffer.concat(body.chunks, body.length);
}
