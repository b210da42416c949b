import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/http/server.js';
import { LiveServer, registerSimControl } from '../../src/http/sim-control.js';
import { LiveWorld, type LiveSnapshot } from '../../src/sim/live.js';
import { parseScenario } from '../../src/sim/scenario.js';

/**
 * The live world behind `serve`: a clock that moves when told, requests from outside between the world's
 * own events, and snapshot/restore by replay that continues exactly as the original would.
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

function register(live: LiveWorld, handle: string): string {
  return (live.handle({ method: 'POST', path: '/api/register', body: { handle } }).body as Json)['api_key'] as string;
}

/** What an agent under test does from outside, every 7 virtual minutes: post, challenge, poll. */
async function play(live: LiveWorld, key: string, from: number, to: number): Promise<void> {
  const headers = { authorization: `Bearer ${key}` };
  for (let step = from; step < to; step++) {
    live.handle({ method: 'POST', path: '/api/social/post', headers, body: { content: `step ${step} @random_0001` } });
    live.handle({ method: 'POST', path: '/api/chess/challenge', headers, body: {} });
    live.handle({ method: 'GET', path: '/api/feed/unseen?limit=5', headers });
    await live.advanceTo(live.nowMs + 7 * MIN);
  }
}

describe('snapshot and restore', () => {
  it('a restored world continues exactly as the original', async () => {
    const original = await LiveWorld.start(parseScenario(SCENARIO));
    const key = register(original, 'tester');
    await play(original, key, 0, 6);
    const snapshot = JSON.parse(JSON.stringify(original.snapshot())) as LiveSnapshot;
    expect(snapshot.inputs.length).toBeGreaterThan(10);
    expect((snapshot.state as { agents: unknown[] }).agents).toHaveLength(9); // 8 background agents and the tester

    const restored = await LiveWorld.restore(snapshot);
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

  it('refuses a snapshot that is not one, or whose replay does not match', async () => {
    const live = await LiveWorld.start(parseScenario(SCENARIO));
    await live.advanceTo(live.nowMs + 10 * MIN);
    await expect(LiveWorld.restore({ format: 'nope' } as unknown as LiveSnapshot)).rejects.toThrow(/not a live snapshot/);
    const tampered = { ...live.snapshot(), stateHash: 'sha256:00' };
    await expect(LiveWorld.restore(tampered)).rejects.toThrow(/differs from the snapshot/);
  });
});

describe('the /_sim control routes', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function liveServer(): Promise<{ app: FastifyInstance; server: LiveServer }> {
    const server = new LiveServer(await LiveWorld.start(parseScenario(SCENARIO)), { manual: true, speed: 1 });
    const app = buildServer(server, { extend: (a) => registerSimControl(a, server) });
    apps.push(app);
    return { app, server };
  }

  it('advances, sets and steps the clock, never backwards', async () => {
    const { app, server } = await liveServer();
    const start = server.current.nowMs;
    const advanced = (await app.inject({ method: 'POST', url: '/_sim/clock/advance', payload: { ms: 90_000 } })).json() as Json;
    expect(advanced['now_ms']).toBe(start + 90_000);
    const set = (await app.inject({ method: 'POST', url: '/_sim/clock/set', payload: { at: '2026-03-01T01:00:00Z' } })).json() as Json;
    expect(set['now']).toBe('2026-03-01T01:00:00.000Z');
    const back = await app.inject({ method: 'POST', url: '/_sim/clock/set', payload: { at: '2026-03-01T00:00:00Z' } });
    expect([back.statusCode, (back.json() as Json)['error']]).toEqual([400, 'bad_request']);
    const next = server.current.world.platform.nextTimerDueMs()!;
    const stepped = (await app.inject({ method: 'POST', url: '/_sim/clock/step' })).json() as Json;
    expect(stepped['now_ms']).toBe(next);
    const bad = await app.inject({ method: 'POST', url: '/_sim/clock/advance', payload: { ms: -5 } });
    expect([bad.statusCode, (bad.json() as Json)['error']]).toEqual([400, 'validation_error']);
  });

  it('airdrops, reports invariants, snapshots and restores over HTTP', async () => {
    const { app, server } = await liveServer();
    await app.inject({ method: 'POST', url: '/api/register', payload: { handle: 'tester' } });
    const funded = (await app.inject({ method: 'POST', url: '/_sim/airdrop', payload: { handle: 'tester', sol: 2 } })).json() as Json;
    expect(funded['balance_lamports']).toBe(2_000_000_000);
    const unknown = await app.inject({ method: 'POST', url: '/_sim/airdrop', payload: { handle: 'nobody', sol: 1 } });
    expect([unknown.statusCode, (unknown.json() as Json)['error']]).toEqual([404, 'not_found']);
    await app.inject({ method: 'POST', url: '/_sim/clock/advance', payload: { ms: 20 * MIN } });
    const invariants = (await app.inject({ method: 'GET', url: '/_sim/invariants' })).json() as Json;
    expect(invariants['invariants'].every((i: Json) => i['passed'])).toBe(true);
    const snapshot = (await app.inject({ method: 'GET', url: '/_sim/snapshot' })).json() as Json;
    await app.inject({ method: 'POST', url: '/_sim/clock/advance', payload: { ms: 20 * MIN } });
    const restored = await app.inject({ method: 'POST', url: '/_sim/restore', payload: snapshot });
    expect((restored.json() as Json)['now_ms']).toBe(snapshot['nowMs']);
    expect(server.current.snapshot().stateHash).toBe(snapshot['stateHash']);
    const refused = await app.inject({ method: 'POST', url: '/_sim/restore', payload: { format: 'x' } });
    expect([refused.statusCode, (refused.json() as Json)['error']]).toEqual([400, 'validation_error']);
  });
});

describe('agent-chess-sim serve', () => {
  it('prints its base URL, serves the API and the clock, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/agent-chess-sim.js', 'serve', '--port', '0', '--manual'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const origin = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    expect(out).toMatch(/curl -s -X POST .*\/api\/register/);
    const registered = (await (await fetch(`${origin}/api/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"handle":"outsider"}' })).json()) as Json;
    expect(registered['api_key']).toMatch(/^moltchess_/);
    const clock = (await (await fetch(`${origin}/_sim/clock/advance`, { method: 'POST', body: '{"ms":60000}' })).json()) as Json;
    expect(clock['manual']).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a bad speed with exit code 2', async () => {
    const child = spawn(process.execPath, ['bin/agent-chess-sim.js', 'serve', '--speed', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(2);
  });
});
