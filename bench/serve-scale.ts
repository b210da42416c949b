import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { buildServer } from '../src/http/server.js';
import { LiveServer } from '../src/http/live-server.js';
import { LiveWorld } from '../src/sim/live.js';
import { parseScenarioWithSource, type ScenarioWithSource } from '../src/sim/scenario/scenario.js';
import { loadServeScenario } from '../src/lib/serve-scenario.js';
import { figureLine, latencySummary, megabytes, MB, type Goal } from './figures.js';

/**
 * What one client's traffic and a large population cost everyone else on `serve` (issue 25): memory and
 * snapshot size after 200,000 profile edits from one key, and how long other clients wait while a snapshot
 * of a 100,000-agent world is restored and while a virtual day is advanced under 100 pollers.
 * `BENCH_SECTIONS=serve-scale npm run bench` runs it alone.
 */
const SERVE_SCENARIO = fileURLToPath(new URL('../../scenarios/serve.yaml', import.meta.url));
const TOKEN = 'bench-control-token-0123456789';
const CONTROL = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const DAY_MS = 24 * 3600 * 1000;
const SECRET = { keySecret: Buffer.alloc(32, 9) };

const RSS_GOAL: Goal = { better: 'lower', goal: 30, strict: true, unit: (n) => `${n} MB` };
const SNAPSHOT_GOAL: Goal = { better: 'lower', goal: 5, strict: true, unit: (n) => `${n} MB` };
const WAIT_GOAL: Goal = { better: 'lower', goal: 250, strict: true, unit: (n) => `${n} ms` };

export async function runServeScaleBench(options: {
  writes: number;
  agents: number;
  pollers: number;
  log: (line: string) => void;
}): Promise<void> {
  await profileWrites(options.writes, options.log);
  await restoreLargePopulation(options.agents, options.log);
  await advanceUnderPollers(options.pollers, options.log);
}

/** One key sends `writes` profile edits, in-process, to serve's population; the world is weighed before and after. */
async function profileWrites(writes: number, log: (line: string) => void): Promise<void> {
  const loaded = loadServeScenario(SERVE_SCENARIO, { start: '2026-01-01T00:00:00Z' }, 0);
  const live = await LiveWorld.start(loaded, SECRET);
  await live.advanceTo(live.nowMs + 3600_000);
  const register = live.handleNow({
    method: 'POST',
    path: '/api/register',
    body: { handle: 'bench_editor' },
  });
  const headers = { authorization: `Bearer ${(register.body as { api_key: string }).api_key}` };
  const before = weigh(live);
  let accepted = 0;
  for (let i = 0; i < writes; i++) {
    const body = {
      bio: `edit number ${i} of a profile that changes all the time`,
      tags: ['bench', `t${i % 97}`],
    };
    const answer = live.handleNow({ method: 'PATCH', path: '/api/agents/profile', headers, body });
    if (answer.status < 400) accepted++;
  }
  const after = weigh(live);
  log(
    `serve-scale: ${writes} PATCH /api/agents/profile from one key (in-process, serve's population): ${accepted} accepted, inputs kept ${before.inputs} -> ${after.inputs}, RSS ${megabytes(before.rss)} -> ${megabytes(after.rss)}, heap after GC ${megabytes(before.heap)} -> ${megabytes(after.heap)}`,
  );
  const growth = (after.rss - before.rss) / MB;
  log(`  ${figureLine('RSS growth', `${growth.toFixed(1)} MB`, growth, RSS_GOAL)}`);
  const snapshot = after.snapshotBytes / MB;
  log(
    `  ${figureLine('snapshot after the writes', megabytes(after.snapshotBytes), snapshot, SNAPSHOT_GOAL)}`,
  );
}

function weigh(live: LiveWorld): { heap: number; rss: number; snapshotBytes: number; inputs: number } {
  collectGarbage();
  const snapshotBytes = Buffer.byteLength(live.snapshotText());
  collectGarbage();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss, snapshotBytes, inputs: live.loggedInputs };
}

/** Pollers that read cheaply; a world of `agents` of them, with first heartbeats spread over ten minutes. */
function crowdScenario(agents: number): ScenarioWithSource {
  return parseScenarioWithSource(`
name: restore-crowd
seed: 25
start: 2026-01-01T00:00:00Z
duration: 1d
population:
  - persona: poller
    count: ${agents}
    heartbeat: { min: 5m, max: 10m }
`);
}

/**
 * A server of `agents` pollers at their start writes its snapshot (GET /_sim/snapshot) and restores it
 * (POST /_sim/restore) while a client polls /api/health every 10 ms: the waits are those of the restore.
 * The restoring client runs in a thread of its own, as it would be another program: sending 153 MB from
 * the server's own thread costs that thread seconds of copying that no server work causes.
 */
export async function restoreLargePopulation(agents: number, log: (line: string) => void): Promise<void> {
  const loaded = crowdScenario(agents);
  const started = performance.now();
  const live = await LiveWorld.start(loaded, SECRET);
  const buildMs = performance.now() - started;
  await withServer(live, loaded, async (origin) => {
    const restorer = await snapshotUnderPoller(origin, agents, log);
    let restoreMs = 0;
    const waits = await pollDuring(origin, 1, async () => {
      restoreMs = await restorer.restore();
      return new Response('restored');
    });
    const waited = latencySummary(waits);
    log(
      `serve-scale: restore of a ${agents}-agent world (built in ${(buildMs / 1000).toFixed(1)} s, snapshot ${megabytes(restorer.bytes)}) over HTTP in ${(restoreMs / 1000).toFixed(1)} s, sent by another thread, while a client polled /api/health every 10 ms: ${waited.count} answers, wait p50 ${waited.p50.toFixed(1)} ms, p99 ${waited.p99.toFixed(1)} ms`,
    );
    log(
      `  ${figureLine('worst wait of another client during the restore', `${waited.max.toFixed(1)} ms`, waited.max, WAIT_GOAL)}`,
    );
  });
}

/** The restoring client fetches the snapshot (GET /_sim/snapshot) while a client polls /api/health every 10 ms. */
async function snapshotUnderPoller(
  origin: string,
  agents: number,
  log: (line: string) => void,
): Promise<RestoringClient> {
  let restorer: RestoringClient | undefined;
  let fetchMs = 0;
  const waits = await pollDuring(origin, 1, async () => {
    const started = performance.now();
    restorer = await RestoringClient.fetchSnapshot(origin);
    fetchMs = performance.now() - started;
    return new Response('fetched');
  });
  const waited = latencySummary(waits);
  log(
    `serve-scale: snapshot of a ${agents}-agent world (${megabytes(restorer!.bytes)}) fetched over HTTP in ${(fetchMs / 1000).toFixed(1)} s by another thread, while a client polled /api/health every 10 ms: ${waited.count} answers, wait p50 ${waited.p50.toFixed(1)} ms, p99 ${waited.p99.toFixed(1)} ms`,
  );
  log(
    `  ${figureLine('worst wait of another client during the snapshot', `${waited.max.toFixed(1)} ms`, waited.max, WAIT_GOAL)}`,
  );
  return restorer!;
}

/** A client in a worker thread that reads the server's snapshot as bytes and, when told, posts it back. */
class RestoringClient {
  private constructor(
    private readonly worker: Worker,
    readonly bytes: number,
  ) {}

  static async fetchSnapshot(origin: string): Promise<RestoringClient> {
    const worker = new Worker(RESTORER_SOURCE, { eval: true, workerData: { origin, headers: CONTROL } });
    const fetched = (await once(worker, 'message')) as [{ bytes: number }];
    return new RestoringClient(worker, fetched[0].bytes);
  }

  /** Posts the snapshot back; the restore's wall time in ms, or throws with the server's answer. */
  async restore(): Promise<number> {
    this.worker.postMessage('restore');
    const [answer] = (await once(this.worker, 'message')) as [{ status: number; text: string; ms: number }];
    await this.worker.terminate();
    if (answer.status !== 200) throw new Error(`the restore failed: ${answer.status} ${answer.text}`);
    return answer.ms;
  }
}

const RESTORER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { origin, headers } = workerData;
(async () => {
  const body = Buffer.from(await (await fetch(origin + '/_sim/snapshot', { headers })).arrayBuffer());
  parentPort.once('message', async () => {
    const started = performance.now();
    const answer = await fetch(origin + '/_sim/restore', { method: 'POST', headers, body });
    const text = (await answer.text()).slice(0, 200);
    parentPort.postMessage({ status: answer.status, text, ms: performance.now() - started });
  });
  parentPort.postMessage({ bytes: body.length });
})();
`;

/** A one-day advance of serve's population over HTTP while `pollers` clients poll /api/health back to back. */
export async function advanceUnderPollers(pollers: number, log: (line: string) => void): Promise<void> {
  const loaded = loadServeScenario(SERVE_SCENARIO, { start: '2026-01-01T00:00:00Z' }, 0);
  const live = await LiveWorld.start(loaded, SECRET);
  await withServer(live, loaded, async (origin) => {
    const idle = latencySummary(
      await pollDuring(origin, pollers, () => sleep(IDLE_MS).then(() => new Response('idle'))),
    );
    let started = 0;
    const waits = await pollDuring(origin, pollers, () => {
      started = performance.now();
      return fetch(`${origin}/_sim/clock/advance`, {
        method: 'POST',
        headers: CONTROL,
        body: JSON.stringify({ ms: DAY_MS }),
      });
    });
    const advanceMs = performance.now() - started;
    const waited = latencySummary(waits);
    log(
      `serve-scale: the same ${pollers} clients for ${IDLE_MS / 1000} s with nothing running (the machine's floor): wait p50 ${idle.p50.toFixed(1)} ms, p99 ${idle.p99.toFixed(1)} ms, worst ${idle.max.toFixed(1)} ms`,
    );
    log(
      `serve-scale: one virtual day advanced over HTTP in ${(advanceMs / 1000).toFixed(1)} s while ${pollers} clients polled /api/health: ${waited.count} answers, wait p50 ${waited.p50.toFixed(1)} ms, p99 ${waited.p99.toFixed(1)} ms`,
    );
    log(
      `  ${figureLine('worst wait of a poller during the advance', `${waited.max.toFixed(1)} ms`, waited.max, WAIT_GOAL)}`,
    );
  });
}

async function withServer(
  live: LiveWorld,
  own: ScenarioWithSource,
  work: (origin: string) => Promise<void>,
): Promise<void> {
  const server = new LiveServer(live, {
    clock: { manual: true, speed: 1 },
    own,
    wallClockMs: () => performance.now(),
  });
  const app = buildServer(server, { guard: { controlToken: TOKEN }, largeBodies: server.largeBodies() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    await work(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  } finally {
    await app.close();
  }
}

/**
 * Each of `clients` polls until the job answers, pausing 10 ms between polls; the waits of every poll answered
 * meanwhile. The pollers run in a thread of their own, as other programs would: polling from the server's
 * own thread, every client's sending and reading waited for the job's slices too (a hundred polls sent at
 * once were answered one slice apart, 2.3 s for the last, with no slice of the job over 200 ms). Each client
 * has made one request (its connection open) before the job starts: a hundred connections opened at once
 * wait seconds on a loaded machine whatever the server does.
 */
async function pollDuring(
  origin: string,
  clients: number,
  startJob: () => Promise<Response>,
): Promise<number[]> {
  const pollers = new Worker(POLLERS_SOURCE, { eval: true, workerData: { origin, clients } });
  await once(pollers, 'message'); // connections open
  pollers.postMessage('poll');
  const response = await startJob();
  const body = await response.text();
  pollers.postMessage('stop');
  const [waits] = (await once(pollers, 'message')) as [number[]];
  await pollers.terminate();
  if (!response.ok) throw new Error(`the job failed: ${response.status} ${body.slice(0, 200)}`);
  return waits;
}

const POLLERS_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { origin, clients } = workerData;
const health = async () => (await fetch(origin + '/api/health')).arrayBuffer();
let done = false;
const waits = [];
const poll = async () => {
  while (!done) {
    const sent = performance.now();
    await health();
    if (!done) waits.push(performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
(async () => {
  await Promise.all(Array.from({ length: clients }, health));
  parentPort.postMessage('ready');
  await new Promise((resolve) => parentPort.once('message', resolve));
  const polling = Promise.all(Array.from({ length: clients }, poll));
  await new Promise((resolve) => parentPort.once('message', resolve));
  done = true;
  await polling;
  parentPort.postMessage(waits);
})();
`;

const IDLE_MS = 5000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
