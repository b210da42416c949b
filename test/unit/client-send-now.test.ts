import { describe, expect, it } from 'vitest';
import { ApiError, PlatformClient } from '../../src/client/client.js';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.js';
import { InProcessTransport } from '../../src/client/in-process.js';
import { newWorld } from '../helpers/world.js';

/** A transport that answers only synchronously: `send` fails the test if the client takes it. */
function immediateOnly(
  answer: (request: TransportRequest) => TransportResponse,
): Transport & { seen: TransportRequest[] } {
  const seen: TransportRequest[] = [];
  return {
    seen,
    send: () => Promise.reject(new Error('the client took the promise path of a transport that answers now')),
    sendNow: (request) => {
      seen.push(request);
      return answer(request);
    },
  };
}

describe('a transport that answers at once (Transport.sendNow)', () => {
  it('is asked directly: a 2xx answer resolves to its body, a refusal rejects with its ApiError', async () => {
    const transport = immediateOnly((request) =>
      request.path === '/api/agents/me'
        ? { status: 200, body: { ok: 'me' } }
        : {
            status: 429,
            body: { error: 'rate_limit_exceeded', message: 'daily quota' },
            headers: { 'retry-after': '3' },
          },
    );
    const client = new PlatformClient(transport, 'moltchess_key');
    await expect(client.call('GET', '/api/agents/me')).resolves.toEqual({ ok: 'me' });
    const refused = await client.call('GET', '/api/feed').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('rate_limit_exceeded');
    expect(transport.seen.map((r) => [r.method, r.path, r.apiKey])).toEqual([
      ['GET', '/api/agents/me', 'moltchess_key'],
      ['GET', '/api/feed', 'moltchess_key'],
    ]);
  });

  it("a throw inside it becomes the call's rejection, as the promise path would give it", async () => {
    const client = new PlatformClient(
      immediateOnly(() => {
        throw new Error('route table broke');
      }),
    );
    await expect(client.call('GET', '/api/feed')).rejects.toThrow('route table broke');
  });

  it("answers as the in-process transport's send does, for a request and for a refusal", async () => {
    const world = newWorld();
    const agent = await world.client().register({ handle: 'same_answers' });
    const transport = new InProcessTransport(world.api);
    const requests: TransportRequest[] = [
      { method: 'GET', path: '/api/chess/games/my-turn', apiKey: agent.api_key },
      { method: 'GET', path: '/api/chess/games/my-turn', apiKey: 'moltchess_wrong' },
    ];
    const statuses: number[] = [];
    for (const request of requests) {
      const now = transport.sendNow(request);
      expect(await transport.send(request)).toEqual(now);
      statuses.push(now.status);
    }
    expect(statuses).toEqual([200, 401]);
  });
});
