import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { buildServer } from '../src/http/server.js';
import { LiveServer } from '../src/http/live-server.js';
import { LiveWorld } from '../src/sim/live.js';
import type { ScenarioWithSource } from '../src/sim/scenario/scenario.js';
import { loadServeScenario } from '../src/lib/serve-scenario.js';

/**
 * What `serve` costs its owner's machine: memory and snapshot size over many reads (they must stay flat),
 * how long other clients wait behind a one-day clock advance, and how long a snapshot takes to write and
 * to restore. The world is serve's own background population (scenarios/serve.yaml).
 */
const SERVE_SCENARIO = fileURLToPath(new URL('../../scenarios/serve.yaml', import.meta.url));
const DAY_MS = 24 * 3600 * 1000;
const TOKEN = 'bench-control-token-0123456789';
const CONTROL = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export async function runServeBench(options: { reads: number; log: (line: string) => void }): Promise<void> {
  const { reads, log } = options;
  // A fixed start (serve's own default is the wall clock) keeps the bench's world the same every run.
  const loaded = loadServeScenario(SERVE_SCENARIO, { start: '2026-01-01T00:00:00Z' }, 0);
  const live = await LiveWorld.start(loaded, { keySecret: Buffer.alloc(32, 9) });
  await live.advanceTo(live.nowMs + 3600_000);
  const key = (
    live.handleNow({ method: 'POST', path: '/api/register', body: { handle: 'bench_reader' } }).body as {
      api_key: string;
    }
  ).api_key;
  const before = measure(live);
  const headers = { authorization: `Bearer ${key}` };
  for (let i = 0; i < reads; i++)
    live.handleNow({ method: 'GET', path: i % 2 ? '/api/chess/games/my-turn' : '/api/whoami', headers });
  const after = measure(live);
  log(`serve: ${reads} authenticated reads (in-process, serve's population, after 1 virtual hour):`);
  log(
    `  heap after GC ${mb(before.heap)} -> ${mb(after.heap)} MB, RSS ${mb(before.rss)} -> ${mb(after.rss)} MB`,
  );
  log(
    `  snapshot ${mb(before.snapshotBytes)} -> ${mb(after.snapshotBytes)} MB, inputs kept ${before.inputs} -> ${after.inputs} (goal: flat)`,
  );
  await advanceWhilePolling(loaded, log);
}

function measure(live: LiveWorld): { heap: number; rss: number; snapshotBytes: number; inputs: number } {
  collectGarbage();
  const snapshotBytes = Buffer.byteLength(live.snapshotText());
  return {
    heap: process.memoryUsage().heapUsed,
    rss: process.memoryUsage().rss,
    snapshotBytes,
    inputs: live.loggedInputs,
  };
}

/** A one-day advance over HTTP while a client polls /api/health every 10 ms; then snapshot and restore of that day. */
async function advanceWhilePolling(loaded: ScenarioWithSource, log: (line: string) => void): Promise<void> {
  const live = await LiveWorld.start(loaded, { keySecret: Buffer.alloc(32, 9) });
  const server = new LiveServer(live, {
    clock: { manual: true, speed: 1 },
    own: loaded,
    wallClockMs: () => performance.now(),
  });
  const app = buildServer(server, {
    guard: { controlToken: TOKEN },
    largeBodies: server.largeBodies(),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const started = performance.now();
    const waits = await pollDuring(
      origin,
      fetch(`${origin}/_sim/clock/advance`, {
        method: 'POST',
        headers: CONTROL,
        body: JSON.stringify({ ms: DAY_MS }),
      }),
    );
    const advanceMs = performance.now() - started;
    const sorted = [...waits].sort((a, b) => a - b);
    log(
      `serve: one virtual day advanced over HTTP in ${(advanceMs / 1000).toFixed(1)} s while a client polled /api/health every 10 ms:`,
    );
    log(
      `  ${waits.length} answers during the advance; wait p50 ${ms(sorted[Math.floor(sorted.length / 2)])}, p99 ${ms(sorted[Math.floor(sorted.length * 0.99)])}, worst ${ms(sorted.at(-1))} (goal: worst under 100 ms)`,
    );
    await snapshotAndRestore(origin, log);
  } finally {
    await app.close();
  }
}

async function pollDuring(origin: string, job: Promise<Response>): Promise<number[]> {
  let done = false;
  const finished = job.then(async (r) => {
    await r.arrayBuffer();
    done = true;
  });
  const waits: number[] = [];
  while (!done) {
    const sent = performance.now();
    await (await fetch(`${origin}/api/health`)).arrayBuffer();
    if (!done) waits.push(performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await finished;
  return waits;
}

async function snapshotAndRestore(origin: string, log: (line: string) => void): Promise<void> {
  let started = performance.now();
  const text = await (await fetch(`${origin}/_sim/snapshot`, { headers: CONTROL })).text();
  const snapshotMs = performance.now() - started;
  started = performance.now();
  const waits = await pollDuring(
    origin,
    fetch(`${origin}/_sim/restore`, { method: 'POST', headers: CONTROL, body: text }),
  );
  const restoreMs = performance.now() - started;
  log(
    `  snapshot of that day: ${mb(Buffer.byteLength(text))} MB in ${ms(snapshotMs)}; restore (replay of the day) ${(restoreMs / 1000).toFixed(1)} s, worst client wait meanwhile ${ms(Math.max(0, ...waits))}`,
  );
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const ms = (value: number | undefined) => `${(value ?? 0).toFixed(1)} ms`;
