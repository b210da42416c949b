import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { collectChunks, joinAtOnce, joinInSlices } from '../../src/http/body-chunks.js';

const requestWith = (contentLength?: number) =>
  ({
    headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) },
  }) as FastifyRequest;

describe('a large body kept as its chunks (src/http/body-chunks.ts)', () => {
  it('copies a body of declared length into one buffer of its own as it arrives', async () => {
    const parts = Array.from({ length: 12 }, (_, i) => Buffer.alloc(100_000 + i, i));
    const total = parts.reduce((n, p) => n + p.length, 0);
    const body = await collectChunks(requestWith(total), Readable.from(parts));
    expect([body.chunks.length, body.length, body.own]).toEqual([1, total, true]);
    const joined = await joinInSlices(body, () => Promise.reject(new Error('nothing left to join')));
    expect(joined.equals(Buffer.concat(parts))).toBe(true);
    expect(parts.some((p) => p.buffer === joined.buffer)).toBe(false);
  });

  it('keeps chunks from where a filtered body outgrows its declared length', async () => {
    // A filter that writes more than it read: `{"state":1}` arrives as `{"state":null}`.
    const filtered = Object.assign(Readable.from([Buffer.from('{"state":'), Buffer.from('null}')]), {
      receivedEncodedLength: 11,
    });
    const body = await collectChunks(requestWith(11), filtered);
    expect(body.own).toBeUndefined();
    expect(joinAtOnce(body).toString()).toBe('{"state":null}');
  });

  it('collects the chunks of a body of undeclared length, joins them in shares with a pause between, byte for byte', async () => {
    const parts = Array.from({ length: 40 }, (_, i) => Buffer.alloc(1 << 20, i)); // 40 MB in 1 MB chunks
    const total = parts.reduce((n, p) => n + p.length, 0);
    const body = await collectChunks(requestWith(), Readable.from(parts));
    expect([body.chunks.length, body.length]).toEqual([40, total]);
    let pauses = 0;
    const joined = await joinInSlices(body, () => {
      pauses++;
      return Promise.resolve();
    });
    expect(joined.equals(Buffer.concat(parts))).toBe(true);
    expect(joined.buffer).not.toBe(parts[0]!.buffer); // a buffer of its own, never a view of a chunk's
    expect(pauses).toBe(5); // a pause test after every 8 MB copied
  });

  it('refuses a body whose length differs from Content-Length, and a stream error as a 400', async () => {
    await expect(collectChunks(requestWith(10), Readable.from([Buffer.from('abc')]))).rejects.toMatchObject({
      code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
    });
    expect(await collectChunks(requestWith(), Readable.from([Buffer.from('abc')]))).toMatchObject({
      length: 3,
    });
    const broken = new Readable({
      read() {
        this.destroy(new Error('socket hang up'));
      },
    });
    await expect(collectChunks(requestWith(3), broken)).rejects.toMatchObject({ statusCode: 400 });
  });
});
