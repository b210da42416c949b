/**
 * P3's baseline under autocannon, in a process of its own as `serve` is: one fastify route at serve's path doing
 * what any my-turn endpoint must. It reads the bearer key, finds its owner by the key's SHA-256 digest in a
 * map (compared in constant time: the twin keeps keys only as digests too), refuses any other key with a 401,
 * and answers the twin's own my-turn body for that key, parsed once and serialized again per request, so the
 * bytes on the wire are the twin's. What it leaves out is the twin's own work: the route table, validation,
 * usage counting and the game lookup. The parent sends `{ path, key, body }` over IPC; the child answers with its port.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

interface BareSetup {
  /** The route's path: serve's, so the requests are the same bytes too. */
  path: string;
  /** The bearer key the route accepts. */
  key: string;
  /** The twin's my-turn answer for that key, as text. */
  body: string;
}

const digest = (key: string) => createHash('sha256').update(key).digest();

async function main(): Promise<void> {
  const [setup] = (await once(process, 'message')) as [BareSetup];
  const owners = new Map([[digest(setup.key).toString('hex'), { digest: digest(setup.key) }]]);
  const answer: unknown = JSON.parse(setup.body);
  const app = Fastify({ logger: false });
  app.get(setup.path, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const sent = digest(header.startsWith('Bearer ') ? header.slice(7) : '');
    const owner = owners.get(sent.toString('hex'));
    if (!owner || !timingSafeEqual(owner.digest, sent))
      return reply.code(401).send({ success: false, error: 'unauthorized' });
    return answer;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ port: (app.server.address() as AddressInfo).port });
}

await main();
