import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer, type PageRoute } from '../../src/http/server.js';
import { LiveServer, type SessionReportWriter } from '../../src/http/live-server.js';
import { LiveWorld } from '../../src/sim/live.js';
import { parseScenarioWithSource } from '../../src/sim/scenario/scenario.js';
import type { FaultProfile } from '../../src/faults/profile.js';

/** The control token test servers are given (serve draws one from the OS). */
export const TEST_CONTROL_TOKEN = 'test-control-token-0123456789';

export interface LiveTestServer {
  app: FastifyInstance;
  server: LiveServer;
  /** http://127.0.0.1:PORT once listening (empty for an inject-only server). */
  origin: string;
  /** Headers that reach the /_sim control plane with a JSON body. */
  control: Record<string, string>;
}

/** A manual-clock live server for a scenario text, guarded as `serve` guards it; listening on loopback unless `inject`. */
export async function startLiveServer(
  scenarioText: string,
  options: {
    listen?: boolean;
    wallClockMs?: () => number;
    /** A fault profile HTTP clients meet (serve --faults), and a faster wall wait for its latency. */
    faults?: FaultProfile;
    faultSleep?: (ms: number) => Promise<void>;
    /** Let /_sim/clock/resume and /speed act, as serve does (nothing ticks the clock here: the test does). */
    realTime?: boolean;
    /** Pages served beside the routes (serve's live view). */
    pages?: readonly PageRoute[];
    /** What POST /_sim/report writes with (serve --out); without it the route refuses, as serve without --out. */
    sessionReport?: SessionReportWriter;
  } = {},
): Promise<LiveTestServer> {
  const loaded = parseScenarioWithSource(scenarioText);
  const world = await LiveWorld.start(loaded, { keySecret: Buffer.alloc(32, 7) });
  const server = new LiveServer(world, {
    clock: { manual: true, speed: 1 },
    ...(options.realTime ? { realTime: true } : {}),
    own: loaded,
    ...(options.wallClockMs ? { wallClockMs: options.wallClockMs } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.faultSleep ? { faultSleep: options.faultSleep } : {}),
    ...(options.sessionReport ? { sessionReport: options.sessionReport } : {}),
  });
  const app = buildServer(server, {
    guard: { controlToken: TEST_CONTROL_TOKEN },
    largeBodies: server.largeBodies(),
    faults: server.httpFaults,
    ...(options.pages ? { pages: options.pages } : {}),
  });
  const control = { authorization: `Bearer ${TEST_CONTROL_TOKEN}`, 'content-type': 'application/json' };
  if (options.listen === false) return { app, server, origin: '', control };
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, server, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, control };
}
