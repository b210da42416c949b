import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSeedsLocally } from '../../src/sweep/pool/pool.js';
import { runSeedsOnQueue } from '../../src/sweep/queue/queue-producer.js';
import { buildSweep, sweepIdentity, sweepJson } from '../../src/sweep/sweep-result.js';
import { packageVersion } from '../../src/sweep/version.js';
import { cli, fixtureGroup, tempDir, waitFor, writeScenario } from './helpers.js';

/**
 * The queue path against a real redis-server (Debian's `redis-server`, which .ci/run installs) on a free
 * loopback port, with no persistence: two worker processes, one SIGKILLed while it runs a seed; BullMQ's
 * stalled-job check gives that seed to the other worker, and the producer writes the bytes a local sweep
 * writes. Without redis-server this file fails in CI (CI=true) and skips elsewhere, saying why.
 */
const REDIS = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
const IN_CI = process.env['CI'] === 'true';

if (!REDIS && !IN_CI)
  console.warn(
    'test/sweep/queue.test.ts: redis-server is not installed (apt-get install redis-server); skipping the queue tests',
  );

describe.runIf(!REDIS && IN_CI)('redis-server in CI', () => {
  it('is installed (.ci/run installs the Debian package redis-server)', () => {
    throw new Error(
      'redis-server is not on PATH in CI: the queue tests cannot run; .ci/run must apt-get install redis-server',
    );
  });
});

describe.runIf(Boolean(REDIS)).concurrent('sweep --queue on BullMQ', () => {
  let redis: ChildProcess | undefined;
  let url = '';
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const port = await freePort();
    const dir = tempDir();
    redis = spawn(
      REDIS,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    redis.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitFor(() => log, /Ready to accept connections/, 10_000, 'redis-server to start');
    url = `redis://127.0.0.1:${port}`;
  });

  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    redis?.kill('SIGTERM');
  });

  /** A `worker` process; its stdout is collected in `out.text`. */
  function startWorker(queueName: string) {
    const out = { text: '', child: undefined as ChildProcess | undefined };
    const done = cli(
      [
        'worker',
        '--queue',
        url,
        '--queue-name',
        queueName,
        '--concurrency',
        '1',
        '--lock',
        '3s',
        '--stalled-interval',
        '1s',
      ],
      {
        onSpawn: (child) => {
          out.child = child;
          children.push(child);
          child.stdout!.on('data', (chunk: Buffer) => (out.text += chunk.toString()));
        },
      },
    );
    return { out, done };
  }

  it('two workers, one SIGKILLed mid-seed: the seed is run again elsewhere and sweep.json equals a local sweep', async () => {
    const dir = tempDir();
    // ~60 heartbeats of 15 ms real time: each seed lasts long enough for the kill to land while it runs
    const scenario = writeScenario(
      dir,
      'queued',
      fixtureGroup('sleeper.mjs', '{ sleepMs: 15 }', '{ min: 60s, max: 60s }'),
    );
    const queueName = `test-${process.pid}`;
    const a = startWorker(queueName);
    const b = startWorker(queueName);
    await Promise.all(
      [a, b].map((w) => waitFor(() => w.out.text, /worker ready/, 20_000, 'a worker to connect')),
    );

    const text = readFileSync(scenario, 'utf8');
    const seeds = [1, 2, 3, 4];
    const producer = cli([
      'sweep',
      scenario,
      '--seeds',
      '1..4',
      '--queue',
      url,
      '--queue-name',
      queueName,
      '--out',
      join(dir, 'out'),
      '--no-progress',
    ]);
    const [, killedSeed] = await waitFor(
      () => a.out.text,
      /seed (\d+) started/,
      20_000,
      'worker A to start a seed',
    );
    a.out.child!.kill('SIGKILL');
    const local = runSeedsLocally(
      seeds.map((seed) => ({ scenarioText: text, scenarioFile: scenario, seed })),
      { workers: 1, seedTimeoutMs: 60_000 },
    );
    const [result, localResults] = await Promise.all([producer, local]);
    expect(result.code, result.stderr).toBe(0);
    const expected = sweepJson(
      buildSweep(
        sweepIdentity(packageVersion(), { name: 'queued', file: scenario, text }, seeds),
        localResults,
      ),
    );
    expect(readFileSync(join(dir, 'out', 'sweep.json'), 'utf8')).toBe(expected);
    // the killed worker's seed was taken again, and finished, by the other worker
    expect(b.out.text).toContain(`seed ${killedSeed} started`);
    expect(b.out.text).toMatch(new RegExp(`seed ${killedSeed} passed`));
    expect(a.out.text).not.toMatch(new RegExp(`seed ${killedSeed} passed`));

    b.out.child!.kill('SIGTERM');
    const stopped = await b.done;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/stopping: seeds running here go back to the queue/);
    expect(stopped.stdout).toMatch(/worker done: \d+ seed\(s\) finished here/);
  });

  it('with no worker, the producer says how to start one and, past the queue wait, reports the seeds lost', async () => {
    const dir = tempDir();
    const scenario = writeScenario(dir, 'orphan');
    const notices: string[] = [];
    const tasks = [1, 2].map((seed) => ({
      scenarioText: readFileSync(scenario, 'utf8'),
      scenarioFile: scenario,
      seed,
    }));
    const queueName = `nobody-${process.pid}`;
    const results = await runSeedsOnQueue(tasks, {
      url,
      queueName,
      sweepId: 'orphans',
      version: packageVersion(),
      seedTimeoutMs: 60_000,
      idleLimitMs: 2_000,
      onNotice: (line) => notices.push(line),
    });
    expect(notices).toEqual([
      `no worker is connected to queue ${queueName} yet; start one with: npx agent-chess-sim worker --queue ${url}`,
    ]);
    expect(results.map((r) => [r.seed, r.status, r.error])).toEqual(
      [1, 2].map((seed) => [
        seed,
        'lost',
        'no worker finished it; no seed finished for 2 s (is a worker running?)',
      ]),
    );
  });

  it('refuses an unreachable Redis at once, with one line', async () => {
    const port = await freePort();
    const task = { scenarioText: '', scenarioFile: 'x.yaml', seed: 1 };
    await expect(
      runSeedsOnQueue([task], {
        url: `redis://127.0.0.1:${port}`,
        queueName: 'q',
        sweepId: 's',
        version: 'v',
        seedTimeoutMs: 1000,
        idleLimitMs: 1000,
      }),
    ).rejects.toThrow(new RegExp(`^cannot reach Redis at redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`));
  });
});

/** A loopback port nobody listens on (the OS's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
