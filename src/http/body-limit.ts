import { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A body limit decided per request (fastify's own is fixed per route): a restore may be as large as the
 * snapshots this server writes, no larger. A declared Content-Length over the limit is refused before any
 * byte is read; a chunked body is counted as it arrives and cut off at the limit. Either answers 413.
 */
export function limitBody(limitBytes: () => number) {
  return async (
    request: FastifyRequest,
    _reply: FastifyReply,
    payload: NodeJS.ReadableStream,
  ): Promise<NodeJS.ReadableStream> => {
    const limit = limitBytes();
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > limit) callback(tooLarge());
        else callback(null, chunk);
      },
    });
    payload.on('error', (error: Error) => counter.destroy(error));
    return payload.pipe(counter);
  };
}

function tooLarge(): Error & { statusCode: number } {
  return Object.assign(new Error('request body too large'), { statusCode: 413 });
}
