/**
 * P3's baseline under autocannon, in a process of its own as `serve` is: fastify with one JSON route. It sends
 * its port to the parent over IPC and serves until the parent kills it.
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as AddressInfo).port });
