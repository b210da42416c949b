import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LiveWorld, SnapshotError, type LiveSnapshot, type Slicing } from '../../src/sim/live.js';
import { parseScenarioWithSource } from '../../src/sim/scenario/scenario.js';
import { startLiveServer, TEST_CONTROL_TOKEN } from '../helpers/live-server.js';

/**
 * The live world behind `serve`: a clock that moves when told, in slices, requests from outside between the
 * world's own instants, and snapshot/restore by replay of what changed state, which continues exactly as the
 * original would.
 */
const SCENARIO = `
name: live
seed: 42
start: 2026-03-01T00:00:00Z
duration: 30d
population:
  - persona: random
    count: 6
    heartbeat: { min: 20s, max: 40s }
  - persona: replier
    count: 2
    heartbeat: { min: 60s, max: 90s }
`;

type Json = Record<string, any>;
const MIN = 60_000;
const SECRET = { keySecret: Buffer.alloc(32, 3) };

/** Which snapshot this file's restores go through: the world's checkpoint (serve's default) or the replay log. */
let replayLog = false;
const start = () => LiveWorld.start(parseScenarioWithSource(SCENARIO), { ...SECRET, replayLog });

function register(live: LiveWorld, handle: string): string {
  return (live.handleNow({ method: 'POST', path: '/api/register', body: { handle } }).body as Json)[
    'api_key'
  ] as string;
}

/** What an agent under test does from outside, every 7 virtual minutes: post, challenge, poll, read. */
async function play(
  live: LiveWorld,
  key: string,
  from: number,
  to: number,
  slicing?: Slicing,
): Promise<void> {
  const headers = { authorization: `Bearer ${key}` };
  for (let step = from; step < to; step++) {
    live.handleNow({
      method: 'POST',
      path: '/api/social/post',
      headers,
      body: { content: `step ${step} @random_0001` },
    });
    live.handleNow({ method: 'POST', path: '/api/chess/challenge', headers, body: {} });
    live.handleNow({ method: 'GET', path: '/api/feed/unseen?limit=5', headers });
    live.handleNow({ method: 'GET', path: '/api/chess/games/my-turn', headers });
    live.handleNow({ method: 'POST', path: '/api/chess/challenge', headers, body: { bounty_sol: 'lots' } }); // refused
    await live.advanceTo(live.nowMs + 7 * MIN, slicing);
  }
}

/** Slices of a few instants each, with nothing between them but a resolved promise. */
function everyInstants(n: number): Slicing {
  return {
    startSlice: () => {
      let count = 0;
      return () => ++count >= n;
    },
    yieldNow: () => Promise.resolve(),
  };
}

describe.each([
  { mode: 'checkpoint', replay: false },
  { mode: 'replay log', replay: true },
])('snapshot and restore by $mode', ({ replay }) => {
  beforeEach(() => {
    replayLog = replay;
  });

  it('a restored world continues exactly as the original', async () => {
    const original = await start();
    const own = parseScenarioWithSource(SCENARIO);
    const key = register(original, 'tester');
    await play(original, key, 0, 6);
    const snapshot = JSON.parse(JSON.stringify(original.snapshot())) as LiveSnapshot;
    if (replay) expect(snapshot.inputs.length).toBeGreaterThan(10);
    else expect([snapshot.inputs.length, snapshot.checkpoint === null]).toEqual([0, false]);
    expect((snapshot.state as { tables: { agents: unknown[] } }).tables.agents).toHaveLength(9); // 8 background agents and the tester
    expect(JSON.stringify(snapshot.inputs)).not.toContain(key); // the caller is named by id; keys are never kept
    expect(JSON.stringify(snapshot.checkpoint)).not.toContain(key); // nor in a checkpoint: its own agents' only

    const restored = await LiveWorld.restore(snapshot, own);
    expect(restored.snapshot().stateHash).toBe(snapshot.stateHash);
    // Both continue with the same outside inputs: same history, same bytes.
    await play(original, key, 6, 12);
    await play(restored, key, 6, 12);
    const [a, b] = [original.snapshot(), restored.snapshot()];
    expect(b.nowMs).toBe(a.nowMs);
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(b.stateHash).toBe(a.stateHash);
    expect(original.world.platform.state.games.size).toBeGreaterThan(0);
  });

  it('keeps no read and no refused request: the log grows with state, not with polling, and usage still restores', async () => {
    const live = await start();
    const key = register(live, 'poller');
    const headers = { authorization: `Bearer ${key}` };
    const before = live.loggedInputs;
    for (let i = 0; i < 2_000; i++) {
      live.handleNow({ method: 'GET', path: '/api/chess/games/my-turn', headers });
      live.handleNow({ method: 'GET', path: '/api/whoami', headers });
      live.handleNow({
        method: 'POST',
        path: '/api/chess/challenge',
        headers,
        body: { opponent_handle: 'nobody_here' },
      });
    }
    expect(live.loggedInputs).toBe(before);
    const snapshot = JSON.parse(JSON.stringify(live.snapshot())) as LiveSnapshot;
    const restored = await LiveWorld.restore(snapshot, parseScenarioWithSource(SCENARIO));
    const usage = (w: LiveWorld) =>
      (w.handleNow({ method: 'GET', path: '/api/whoami', headers }).body as Json)['api_key'];
    expect(usage(restored)).toEqual(usage(live));
    expect(usage(live)['requests_today']).toBeGreaterThan(4_000);
  });

  it('an advance in slices, with requests between them, replays as the same history', async () => {
    const sliced = await start();
    const key = register(sliced, 'tester');
    await play(sliced, key, 0, 4, everyInstants(3));
    const whole = await LiveWorld.restore(
      JSON.parse(JSON.stringify(sliced.snapshot())),
      parseScenarioWithSource(SCENARIO),
    );
    expect(whole.world.fingerprintSoFar()).toBe(sliced.world.fingerprintSoFar());
    const plain = await start();
    await play(plain, register(plain, 'tester'), 0, 4);
    expect(plain.world.fingerprintSoFar()).toBe(sliced.world.fingerprintSoFar());
  });

  it('refuses a snapshot that is not one, or whose replay does not match', async () => {
    const live = await start();
    const own = parseScenarioWithSource(SCENARIO);
    await live.advanceTo(live.nowMs + 10 * MIN);
    await expect(LiveWorld.restore({ format: 'nope' }, own)).rejects.toThrow(/not a live snapshot/);
    await expect(LiveWorld.restore(null, own)).rejects.toThrow(SnapshotError);
    const tampered = { ...live.snapshot(), stateHash: 'sha256:00' };
    await expect(LiveWorld.restore(tampered, own)).rejects.toThrow(/differs from the snapshot/);
  });

  it('never loads a module a snapshot names, and checks its scenario as a file is checked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-restore-'));
    try {
      const marker = join(dir, 'imported');
      const module = join(dir, 'evil.mjs');
      writeFileSync(
        module,
        `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran'); export default class { async heartbeat() {} }`,
      );
      const live = await start();
      const snapshot = live.snapshot();
      const population = [{ module, count: 1, heartbeat: { min: '20s', max: '40s' } }];
      const evil = { ...snapshot, scenario: { ...snapshot.scenario, population } };
      await expect(LiveWorld.restore(evil, parseScenarioWithSource(SCENARIO))).rejects.toThrow(
        /agent or invariant modules/,
      );
      const checks = { ...snapshot, scenario: { ...snapshot.scenario, invariants: [{ module }] } };
      await expect(LiveWorld.restore(checks, parseScenarioWithSource(SCENARIO))).rejects.toThrow(/modules/);
      const invalid = { ...snapshot, scenario: { ...snapshot.scenario, duration: 'forever' } };
      await expect(LiveWorld.restore(invalid, parseScenarioWithSource(SCENARIO))).rejects.toThrow(/duration/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers any edit of a snapshot with a restore of the same state or a SnapshotError, never another failure', async () => {
    const live = await start();
    const key = register(live, 'tester');
    await play(live, key, 0, 2);
    const snapshot = JSON.parse(JSON.stringify(live.snapshot())) as Json;
    const paths = leafPaths(snapshot).filter((p) => p[0] !== 'state');
    const junk = fc.oneof(
      fc.constant(null),
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.constant({}),
      fc.constant([]),
      fc.constant(-1),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), junk, async (path, value) => {
        const edited = structuredClone(snapshot);
        setAt(edited, path, value);
        try {
          const restored = await LiveWorld.restore(edited, parseScenarioWithSource(SCENARIO));
          expect(restored.snapshot().stateHash).toBe(snapshot['stateHash']);
        } catch (error) {
          expect(error).toBeInstanceOf(SnapshotError);
        }
      }),
      { numRuns: 40 },
    );
  });
});

function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]))].filter((p) => p.length > 0);
}

function setAt(target: Json, path: (string | number)[], value: unknown): void {
  let node: Json = target;
  for (const key of path.slice(0, -1)) node = node[key as string];
  node[path.at(-1) as string] = value;
}

describe('the /_sim control routes', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function liveServer(listen = false) {
    const started = await startLiveServer(SCENARIO, { listen });
    apps.push(started.app);
    return started;
  }

  it('advances, sets and steps the clock, never backwards', async () => {
    const { app, server, control } = await liveServer();
    const start = server.current.nowMs;
    const post = (url: string, payload?: unknown) =>
      app.inject({
        method: 'POST',
        url,
        headers: control,
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
    const advanced = (await post('/_sim/clock/advance', { ms: 90_000 })).json<Json>();
    expect([advanced['now_ms'], advanced['cancelled']]).toEqual([start + 90_000, false]);
    const set = (await post('/_sim/clock/set', { at: '2026-03-01T01:00:00Z' })).json<Json>();
    expect(set['now']).toBe('2026-03-01T01:00:00.000Z');
    const back = await post('/_sim/clock/set', { at: '2026-03-01T00:00:00Z' });
    expect([back.statusCode, back.json<Json>()['error']]).toEqual([400, 'bad_request']);
    const next = server.current.world.platform.nextTimerDueMs()!;
    const stepped = (await post('/_sim/clock/step')).json<Json>();
    expect(stepped['now_ms']).toBe(next);
    // Raw JSON texts: `1e999` parses to Infinity (a JavaScript literal 1e999 would print as `Infinity`, not JSON).
    for (const ms of ['-5', '0', '1.5', '1e999', '"60000"', String(400 * 24 * 3600 * 1000)]) {
      const bad = await app.inject({
        method: 'POST',
        url: '/_sim/clock/advance',
        headers: control,
        payload: `{"ms":${ms}}`,
      });
      expect([bad.statusCode, bad.json<Json>()['error']]).toEqual([400, 'validation_error']);
    }
    expect(server.current.nowMs).toBe(next);
  });

  it('airdrops, reports invariants, snapshots and restores over HTTP', async () => {
    const { app, server, control } = await liveServer();
    const post = (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, headers: control, payload: JSON.stringify(payload) });
    await app.inject({ method: 'POST', url: '/api/register', payload: { handle: 'tester' } });
    const funded = (await post('/_sim/airdrop', { handle: 'tester', sol: 2 })).json<Json>();
    expect(funded['balance_lamports']).toBe(2_000_000_000);
    const unknown = await post('/_sim/airdrop', { handle: 'nobody', sol: 1 });
    expect([unknown.statusCode, unknown.json<Json>()['error']]).toEqual([404, 'not_found']);
    await post('/_sim/clock/advance', { ms: 20 * MIN });
    const invariants = (
      await app.inject({ method: 'GET', url: '/_sim/invariants', headers: control })
    ).json<Json>();
    expect(invariants['invariants'].every((i: Json) => i['passed'])).toBe(true);
    const snapshot = (
      await app.inject({ method: 'GET', url: '/_sim/snapshot', headers: control })
    ).json<Json>();
    await post('/_sim/clock/advance', { ms: 20 * MIN });
    const restored = await post('/_sim/restore', snapshot);
    expect(restored.json<Json>()['now_ms']).toBe(snapshot['nowMs']);
    expect(server.current.snapshot().stateHash).toBe(snapshot['stateHash']);
    const refused = await post('/_sim/restore', { format: 'x' });
    expect([refused.statusCode, refused.json<Json>()['error']]).toEqual([400, 'validation_error']);
  });

  it('answers no /_sim route without the control token, a foreign Host, a foreign Origin or a non-JSON body', async () => {
    const { app, server, control } = await liveServer();
    const start = server.current.nowMs;
    const cases: Array<[Record<string, string>, string, number, string]> = [
      [{}, '/_sim/snapshot', 401, 'control_token_required'],
      [{ authorization: 'Bearer wrong-token-wrong-token' }, '/_sim/snapshot', 401, 'invalid_control_token'],
      [{ authorization: 'Basic abc' }, '/_sim/humans', 401, 'control_token_required'],
      [{ ...control, host: 'attacker.example:8787' }, '/_sim/snapshot', 403, 'host_not_allowed'],
      [{ host: 'attacker.example' }, '/api/health', 403, 'host_not_allowed'],
      [{ ...control, origin: 'http://attacker.example' }, '/_sim/snapshot', 403, 'cross_site_request'],
      [{ origin: 'null' }, '/api/health', 403, 'cross_site_request'],
    ];
    for (const [headers, url, status, code] of cases) {
      const answer = await app.inject({ method: 'GET', url, headers });
      expect([url, answer.statusCode, answer.json<Json>()['error']]).toEqual([url, status, code]);
    }
    const form = await app.inject({
      method: 'POST',
      url: '/_sim/clock/advance',
      headers: { authorization: control['authorization']!, 'content-type': 'text/plain' },
      payload: '{"ms":60000}',
    });
    expect([form.statusCode, form.json<Json>()['error']]).toEqual([415, 'unsupported_media_type']);
    const human = await app.inject({
      method: 'POST',
      url: '/_sim/humans',
      headers: { 'content-type': 'text/plain' },
      payload: '{"username":"sneaky"}',
    });
    expect(human.statusCode).toBe(401);
    expect(server.current.nowMs).toBe(start);
    expect(server.current.world.platform.state.humans.size).toBe(0);
    for (const host of ['localhost:8787', '127.0.0.1', '[::1]:8787']) {
      expect((await app.inject({ method: 'GET', url: '/api/health', headers: { host } })).statusCode).toBe(
        200,
      );
    }
  });

  it('answers other clients while a long advance runs, and the advance can be cancelled', async () => {
    const { app, origin, server, control } = await startLiveServer(SCENARIO, {
      wallClockMs: () => performance.now(),
    });
    apps.push(app);
    {
      const startMs = server.current.nowMs;
      // A week, so that even a much faster machine is still advancing after 20 polls; the cancel below ends it.
      const day = fetch(`${origin}/_sim/clock/advance`, {
        method: 'POST',
        headers: control,
        body: JSON.stringify({ ms: 7 * 24 * 60 * MIN }),
      }).then((r) => r.json() as Promise<Json>);
      let settled = false;
      void day.then(() => (settled = true));
      const waits: number[] = [];
      while (!settled && waits.length < 20) {
        const sent = performance.now();
        const health = await fetch(`${origin}/api/health`);
        expect(health.status).toBe(200);
        if (!settled) waits.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const busy = await fetch(`${origin}/_sim/clock/advance`, {
        method: 'POST',
        headers: control,
        body: '{"ms":1000}',
      });
      const cancel = (await (
        await fetch(`${origin}/_sim/clock/cancel`, { method: 'POST', headers: control })
      ).json()) as Json;
      const answer = await day;
      console.log(
        `health answered ${waits.length} times during a long advance; worst wait ${Math.max(...waits).toFixed(1)} ms`,
      );
      expect(waits.length).toBeGreaterThanOrEqual(5); // unsliced, none would be answered before the day had run
      expect(cancel['cancelled']).toBe(true);
      expect(busy.status).toBe(503);
      expect(answer['cancelled']).toBe(true);
      expect(answer['now_ms']).toBeGreaterThan(startMs);
      expect(answer['now_ms']).toBeLessThan(startMs + 7 * 24 * 60 * MIN);
    }
  });

  it('refuses a restore body larger than its limit before reading it', async () => {
    const { origin, server, control } = await liveServer(true);
    const limit = server.restoreLimitBytes();
    const answer = await rawRequest(
      origin,
      `POST /_sim/restore HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${control['authorization']}\r\nContent-Type: application/json\r\nContent-Length: ${limit + 1}\r\n\r\n{`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('payload_too_large');
  });

  it('refuses the restore-module attack over a socket: without the token, as a form post, and with the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-attack-'));
    const { origin, server, control } = await liveServer(true);
    try {
      const marker = join(dir, 'imported');
      const module = join(dir, 'evil.mjs');
      writeFileSync(
        module,
        `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'ran'); export default class { async heartbeat() {} }`,
      );
      const snapshot = server.current.snapshot();
      const body = JSON.stringify({
        ...snapshot,
        scenario: {
          ...snapshot.scenario,
          population: [{ module, count: 1, heartbeat: { min: '20s', max: '40s' } }],
        },
      });
      const form = await fetch(`${origin}/_sim/restore`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body,
      });
      const forged = await fetch(`${origin}/_sim/restore`, {
        method: 'POST',
        headers: { authorization: control['authorization']!, 'content-type': 'text/plain' },
        body,
      });
      const owner = await fetch(`${origin}/_sim/restore`, { method: 'POST', headers: control, body });
      expect([form.status, forged.status, owner.status]).toEqual([401, 415, 400]);
      expect(((await owner.json()) as Json)['message']).toMatch(/invariant modules/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets an asked-for advance preempt the real-time clock', async () => {
    const { app, server, control } = await liveServer();
    const ticking = server.tick(12 * 60 * MIN);
    const asked = await app.inject({
      method: 'POST',
      url: '/_sim/clock/advance',
      headers: control,
      payload: '{"ms":60000}',
    });
    await ticking;
    expect([asked.statusCode, asked.json<Json>()['cancelled']]).toEqual([200, false]);
    expect(server.current.nowMs).toBeLessThan(
      parseScenarioWithSource(SCENARIO).scenario.startMs + 12 * 60 * MIN,
    );
  });

  it('gives two servers of one seed different keys', async () => {
    const one = await LiveWorld.start(parseScenarioWithSource(SCENARIO), { keySecret: Buffer.alloc(32, 1) });
    const two = await LiveWorld.start(parseScenarioWithSource(SCENARIO), { keySecret: Buffer.alloc(32, 2) });
    expect(register(one, 'victim')).not.toBe(register(two, 'victim'));
  });
});

async function rawRequest(origin: string, text: string): Promise<string> {
  const { connect } = await import('node:net');
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n\r\n') && answer.includes('}')) socket.destroy();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

describe('agent-chess-sim serve', () => {
  it('prints its base URL and control token, guards /_sim, serves the API and the clock, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/agent-chess-sim.js', 'serve', '--port', '0', '--manual'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ACS_CONTROL_TOKEN: '' },
    });
    let out = '';
    const [origin, token] = await new Promise<[string, string]>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(out);
        const secret = /control token[^:]*: (\S+)/.exec(out);
        if (match && secret) resolve([match[1]!, secret[1]!]);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    expect(out).toMatch(/curl -s -X POST .*\/api\/register/);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const registered = (await (
      await fetch(`${origin}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"handle":"outsider"}',
      })
    ).json()) as Json;
    expect(registered['api_key']).toMatch(/^moltchess_[a-z0-9]{40}$/);
    const refused = await fetch(`${origin}/_sim/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ms":60000}',
    });
    expect(refused.status).toBe(401);
    const clock = (await (
      await fetch(`${origin}/_sim/clock/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"ms":60000}',
      })
    ).json()) as Json;
    expect(clock['manual']).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toMatch(/SIGTERM: stopped the server/);
  });

  it('gives the first agent of two servers with one seed different keys', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const child = spawn(
        process.execPath,
        ['bin/agent-chess-sim.js', 'serve', '--port', '0', '--manual', '--seed', '7'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const origin = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const registered = (await (
        await fetch(`${origin}/api/register`, { method: 'POST', body: '{"handle":"first_comer"}' })
      ).json()) as Json;
      keys.push(registered['api_key'] as string);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    expect(keys[0]).toMatch(/^moltchess_/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('refuses a bad speed or token with exit code 2 and one line', async () => {
    for (const args of [
      ['--speed', '0'],
      ['--control-token', 'short'],
    ]) {
      const child = spawn(process.execPath, ['bin/agent-chess-sim.js', 'serve', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect([args[0], code, err.trim().split('\n')]).toEqual([args[0], 2, [expect.stringMatching(/^--/)]]);
    }
  });

  it('warns when bound beyond loopback and explains a busy port in one line', async () => {
    const first = spawn(
      process.execPath,
      [
        'bin/agent-chess-sim.js',
        'serve',
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--manual',
        '--control-token',
        TEST_CONTROL_TOKEN,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    first.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      first.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /http:\/\/0\.0\.0\.0:(\d+)\/api/.exec(out);
        if (match) resolve(match[1]!);
      });
      first.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    for (let i = 0; i < 100 && !err.includes('warning'); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(err).toMatch(/^warning: serve is listening on 0\.0\.0\.0, not loopback/);
    const second = spawn(
      process.execPath,
      ['bin/agent-chess-sim.js', 'serve', '--port', port, '--host', '0.0.0.0', '--manual'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let secondErr = '';
    second.stderr.on('data', (chunk: Buffer) => (secondErr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.on('exit', (c) => resolve(c)));
    first.kill('SIGTERM');
    expect(code).toBe(2);
    expect(secondErr.trim().split('\n')).toEqual([expect.stringMatching(/cannot listen .* is in use/)]);
  });
});
