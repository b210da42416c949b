import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServeScenario, type ServeChoices } from '../../src/lib/serve-scenario.js';
import { withQuotaNotices } from '../../src/lib/quota-notices.js';
import { buildServer } from '../../src/http/server.js';
import { LiveServer } from '../../src/http/live-server.js';
import { LiveWorld } from '../../src/sim/live.js';
import { TEST_CONTROL_TOKEN } from '../helpers/live-server.js';

/**
 * `serve` as agent authors meet it (docs/rules.md: the quota rows under Social layer, Research phase
 * additions, HTTP server): past the daily quota it warns rather than refuses unless told, its onboarding
 * is the real service's strict one, and its clock starts at the wall-clock time unless `--start` or the
 * scenario names a start. Every request here is what a real client sends: a method, a path,
 * `Authorization: Bearer <key>` and a JSON body, over a socket (the day of polling through fastify's
 * injection, the same request without a socket each time).
 */
type Json = Record<string, any>;

const SERVE_YAML = fileURLToPath(new URL('../../scenarios/serve.yaml', import.meta.url));
const CONTROL = { authorization: `Bearer ${TEST_CONTROL_TOKEN}`, 'content-type': 'application/json' };
const DAY_MS = 86_400_000;
const MIDNIGHT = '2026-03-01T00:00:00Z';

/** A small population with no start and no ruleset of its own, so serve's defaults decide; `extra` adds YAML lines. */
function scenarioFile(extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'serve-defaults-'));
  const path = join(dir, 'small.yaml');
  writeFileSync(
    path,
    `name: small\nseed: 5\nduration: 3d\npopulation:\n  - persona: random\n    count: 2\n    heartbeat: { min: 20s, max: 40s }\n${extra}`,
  );
  return path;
}

interface Served {
  app: FastifyInstance;
  server: LiveServer;
  origin: string;
  /** What serve would print on its console about the quota. */
  notices: string[];
}

const running: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.close();
});

/** A manual-clock server built as `serve` builds it, from `loadServeScenario` and `withQuotaNotices`. */
async function serve(path: string, choices: ServeChoices, wallNowMs = Date.now()): Promise<Served> {
  const loaded = loadServeScenario(path, choices, wallNowMs);
  const server = new LiveServer(await LiveWorld.start(loaded, { keySecret: Buffer.alloc(32, 3) }), {
    clock: { manual: true, speed: 1 },
    own: loaded,
  });
  const notices: string[] = [];
  const app = buildServer(
    withQuotaNotices(server, (line) => notices.push(line)),
    { guard: { controlToken: TEST_CONTROL_TOKEN }, largeBodies: server.largeBodies() },
  );
  running.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, server, origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, notices };
}

async function call(
  origin: string,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: Json }> {
  const headers: Record<string, string> = {};
  if (key) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

async function register(origin: string, handle: string): Promise<string> {
  const answer = await call(origin, 'POST', '/api/register', undefined, { handle });
  expectAccepted(answer);
  return answer.body['api_key'] as string;
}

/** A 2xx (the real service answers some creations 200 and others 201). */
function expectAccepted(answer: { status: number; body: Json }): void {
  expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

async function keyUsage(origin: string, key: string): Promise<Json> {
  const answer = await call(origin, 'GET', '/api/whoami', key);
  expect(answer.status).toBe(200);
  return answer.body['api_key'] as Json;
}

async function control(origin: string, method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: CONTROL,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Json;
}

describe('serve: the daily quota', () => {
  it('under its default, warn, answers a client polling every 5 s for a whole virtual day, with the warning header and whoami fields past 5000', async () => {
    const { app, server, origin, notices } = await serve(scenarioFile(), { start: MIDNIGHT });
    const key = await register(origin, 'poller');
    const startMs = server.current.nowMs;
    const statuses = new Map<number, number>();
    const warned: number[] = [];
    for (let i = 1; i <= DAY_MS / 5000; i++) {
      await server.current.advanceTo(startMs + (i - 1) * 5000); // one request every 5 s, the last at 23:59:55
      // Through fastify's request injection (the same bytes a client sends, without a socket each): a day is 17,280 requests.
      const answer = await app.inject({
        method: 'GET',
        url: '/api/chess/games/my-turn',
        headers: { host: '127.0.0.1', authorization: `Bearer ${key}` },
      });
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
      if (answer.headers['x-quota-warning'] !== undefined) warned.push(i);
      if (i === 5001)
        expect(answer.headers['x-quota-warning']).toMatch(/^daily request quota of 5000 passed; .*429/);
    }
    expect([...statuses]).toEqual([[200, 17_280]]);
    expect([warned.length, warned[0], warned.at(-1)]).toEqual([17_280 - 5000, 5001, 17_280]); // exactly the requests past the limit
    expect(await keyUsage(origin, key)).toMatchObject({
      requests_today: 17_281, // every poll and this whoami: it keeps counting past the figure
      requests_limit: 5000,
      quota_policy: 'warn',
      limit_reached: true,
    });
    expect(notices).toEqual([
      expect.stringMatching(/^quota: agent poller passed the daily request quota of 5000 on 2026-03-01 /),
    ]);
    await server.current.advanceTo(startMs + DAY_MS); // 00:00 UTC: a new day, a new count
    const nextDay = await call(origin, 'GET', '/api/chess/games/my-turn', key);
    expect([nextDay.status, nextDay.headers.get('x-quota-warning')]).toEqual([200, null]);
    expect(await keyUsage(origin, key)).toMatchObject({ requests_today: 2, limit_reached: false });
  });

  it('under --quota enforce refuses past the limit with 429 and Retry-After until 00:00 UTC', async () => {
    const { server, origin, notices } = await serve(
      scenarioFile('ruleset: { api: { requestsPerDay: 20 } }\n'),
      { start: '2026-03-01T18:00:00Z', quota: 'enforce' },
    );
    const key = await register(origin, 'eager');
    for (let i = 0; i < 20; i++)
      expect((await call(origin, 'GET', '/api/chess/games/my-turn', key)).status).toBe(200);
    const refused = await call(origin, 'GET', '/api/chess/games/my-turn', key);
    expect([refused.status, refused.body['error'], refused.body['action']]).toEqual([
      429,
      'rate_limit_exceeded',
      'requests',
    ]);
    expect(refused.headers.get('retry-after')).toBe(String(6 * 3600)); // six hours to midnight
    expect(refused.headers.get('x-quota-warning')).toBeNull();
    expect(await keyUsage(origin, key)).toMatchObject({
      requests_today: 20,
      requests_limit: 20,
      quota_policy: 'enforce',
      limit_reached: true,
    });
    expect(notices).toEqual([]);
    await server.current.advanceTo(Date.parse('2026-03-02T00:00:00Z'));
    expect((await call(origin, 'GET', '/api/chess/games/my-turn', key)).status).toBe(200);
  });

  it('under --quota off neither refuses nor warns, and the flag wins over the scenario', async () => {
    const { origin, notices } = await serve(
      scenarioFile('ruleset: { api: { requestsPerDay: 20, quota: enforce } }\n'),
      { start: MIDNIGHT, quota: 'off' },
    );
    const key = await register(origin, 'free');
    for (let i = 0; i < 40; i++) {
      const answer = await call(origin, 'GET', '/api/chess/games/my-turn', key);
      expect([
        answer.status,
        answer.headers.get('x-quota-warning'),
        answer.headers.get('retry-after'),
      ]).toEqual([200, null, null]);
    }
    expect(await keyUsage(origin, key)).toMatchObject({ requests_limit: 20, quota_policy: 'off' });
    expect(notices).toEqual([]);
  });

  it("keeps a scenario's own policy when no flag is given", async () => {
    const { origin } = await serve(scenarioFile('ruleset: { api: { quota: enforce } }\n'), {
      start: MIDNIGHT,
    });
    expect(await keyUsage(origin, await register(origin, 'ruled'))).toMatchObject({
      quota_policy: 'enforce',
      requests_limit: 5000,
    });
  });
});

describe('serve: onboarding', () => {
  it('asks what the real service asks: a challenge is refused after one post, allowed after 10 follows and 10 likes', async () => {
    const { server, origin } = await serve(SERVE_YAML, { start: MIDNIGHT });
    const key = await register(origin, 'newcomer');
    expectAccepted(await call(origin, 'POST', '/api/social/post', key, { content: 'hello from newcomer' }));
    const early = await call(origin, 'POST', '/api/chess/challenge', key, {});
    expect([early.status, early.body['error']]).toEqual([403, 'research_phase_incomplete']);
    expect(early.body['message']).toMatch(/10 more follow\(s\), 10 more like\(s\)/);
    const agents = ((await call(origin, 'GET', '/api/agents?limit=11')).body['agents'] as Json[]).filter(
      (agent) => agent['handle'] !== 'newcomer',
    );
    for (const agent of agents.slice(0, 10))
      expectAccepted(
        await call(origin, 'POST', '/api/social/follow', key, { target_handle: agent['handle'] }),
      );
    await server.current.advanceTo(server.current.nowMs + 60_000); // the background agents post in their first minute
    const posts = ((await call(origin, 'GET', '/api/feed?limit=20')).body['posts'] as Json[]).filter(
      (post) => post['author']['handle'] !== 'newcomer',
    );
    for (const post of posts.slice(0, 9))
      expectAccepted(await call(origin, 'POST', '/api/social/like', key, { post_id: post['post_id'] }));
    const nine = await call(origin, 'POST', '/api/chess/challenge', key, {});
    expect([nine.status, nine.body['message']]).toEqual([403, expect.stringMatching(/1 more like\(s\)/)]);
    expectAccepted(await call(origin, 'POST', '/api/social/like', key, { post_id: posts[9]!['post_id'] }));
    expectAccepted(await call(origin, 'POST', '/api/chess/challenge', key, {}));
  });

  it('relaxes to one post with --research spec', async () => {
    const { origin } = await serve(SERVE_YAML, { start: MIDNIGHT, research: 'spec' });
    const key = await register(origin, 'hasty');
    await call(origin, 'POST', '/api/social/post', key, { content: 'hello' });
    expectAccepted(await call(origin, 'POST', '/api/chess/challenge', key, {}));
  });
});

describe('serve: the clock and snapshots', () => {
  it("starts at --start, else at the scenario's own start, else at the wall clock to the second", () => {
    const wall = Date.UTC(2027, 4, 17, 13, 45, 12, 987);
    expect(loadServeScenario(SERVE_YAML, { start: '2026-02-03T04:05:06Z' }, wall).scenario.startMs).toBe(
      Date.UTC(2026, 1, 3, 4, 5, 6),
    );
    expect(loadServeScenario(scenarioFile('start: 2026-07-01T00:00:00Z\n'), {}, wall).scenario.startMs).toBe(
      Date.UTC(2026, 6, 1),
    );
    expect(loadServeScenario(SERVE_YAML, {}, wall).scenario.startMs).toBe(Date.UTC(2027, 4, 17, 13, 45, 12));
    const seeded = (seed: string) => loadServeScenario(SERVE_YAML, { seed }, wall).scenario;
    expect(seeded('7')).toMatchObject({ seed: '7', startMs: Date.UTC(2027, 4, 17, 13, 45, 12) }); // the seed decides the rest
  });

  it('refuses a --start that is not a UTC ISO time, naming start', () => {
    expect(() => loadServeScenario(SERVE_YAML, { start: 'tomorrow' }, Date.now())).toThrow(
      /start: must be a UTC ISO 8601 time/,
    );
  });

  it('carries the start, quota policy and onboarding in a snapshot: a server started elsewhen restores the exact world', async () => {
    const first = await serve(
      SERVE_YAML,
      { quota: 'off', research: 'spec' },
      Date.UTC(2027, 4, 17, 13, 45, 12, 345),
    );
    const key = await register(first.origin, 'keeper');
    await call(first.origin, 'POST', '/api/social/post', key, { content: 'kept' });
    await control(first.origin, 'POST', '/_sim/clock/advance', { ms: 90_000 });
    const snapshot = await control(first.origin, 'GET', '/_sim/snapshot');
    expect(snapshot['now']).toBe('2027-05-17T13:46:42.000Z');
    const second = await serve(SERVE_YAML, {}, Date.UTC(2028, 0, 1, 8));
    await control(second.origin, 'POST', '/_sim/restore', snapshot);
    expect((await control(second.origin, 'GET', '/_sim/clock'))['now']).toBe('2027-05-17T13:46:42.000Z');
    expect(await keyUsage(second.origin, key)).toMatchObject({ quota_policy: 'off' });
    expectAccepted(await call(second.origin, 'POST', '/api/chess/challenge', key, {})); // spec onboarding came back too
    const again = await control(second.origin, 'GET', '/_sim/snapshot');
    expect([again['scenario']['start'], again['scenario']['ruleset']]).toEqual([
      '2027-05-17T13:45:12Z',
      { research: 'spec', api: { quota: 'off' } },
    ]);
  });
});

/** Starts the built CLI; resolves with the child, its origin, its control token and what it printed so far. */
async function startCli(
  args: string[],
): Promise<{ child: ChildProcessWithoutNullStreams; origin: string; token: string; banner: string }> {
  const child = spawn(
    process.execPath,
    ['bin/agent-chess-sim.js', 'serve', '--port', '0', '--manual', ...args],
    { env: { ...process.env, ACS_CONTROL_TOKEN: '' } },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const origin = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(out)?.[1];
      const token = /control token[^:]*: (\S+)/.exec(out)?.[1];
      if (origin && token && out.includes('Ctrl-C')) resolve({ child, origin, token, banner: out });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

async function stopCli(child: ChildProcessWithoutNullStreams): Promise<void> {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function clockOf(origin: string, token: string): Promise<Json> {
  return (await (
    await fetch(`${origin}/_sim/clock`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as Json;
}

const hasCurl = spawnSync('curl', ['--version']).status === 0;

describe('agent-chess-sim serve (the command)', () => {
  it('documents --quota, --research and --start in --help', () => {
    const help = spawnSync(process.execPath, ['bin/agent-chess-sim.js', 'serve', '--help'], {
      encoding: 'utf8',
    }).stdout;
    expect(help).toMatch(/--quota\b[\s\S]*warn[\s\S]*enforce[\s\S]*off/);
    expect(help).toMatch(/--research\b[\s\S]*strict[\s\S]*spec/);
    expect(help).toMatch(/--start\b[\s\S]*wall clock/);
  });

  it('starts its clock at --start and applies --quota and --research', async () => {
    const { child, origin, token, banner } = await startCli([
      '--start',
      '2026-02-03T04:05:06Z',
      '--quota',
      'enforce',
      '--research',
      'spec',
    ]);
    try {
      expect(banner).toMatch(/virtual clock starts at 2026-02-03T04:05:06Z/);
      expect(banner).toMatch(/past it they are refused with 429/);
      expect((await clockOf(origin, token))['now']).toBe('2026-02-03T04:05:06.000Z');
      const key = await register(origin, 'flagged');
      expect(await keyUsage(origin, key)).toMatchObject({ quota_policy: 'enforce' });
      await call(origin, 'POST', '/api/social/post', key, { content: 'one post is enough here' });
      expectAccepted(await call(origin, 'POST', '/api/chess/challenge', key, {}));
    } finally {
      await stopCli(child);
    }
  });

  it.skipIf(!hasCurl)(
    'starts at the wall clock by default, and the first game its banner walks passes the strict onboarding',
    async () => {
      const before = Date.now();
      const { child, origin, token, banner } = await startCli([]);
      try {
        const now = Date.parse((await clockOf(origin, token))['now'] as string);
        expect(now % 1000).toBe(0);
        expect(Math.abs(now - before)).toBeLessThan(60_000);
        expect(banner).toContain(
          `virtual clock starts at ${new Date(now).toISOString().replace('.000Z', 'Z')}`,
        );
        expect(banner).toMatch(/the real service asks it \(1 post, follow 10, like 10, or verify/);
        expect(banner).toMatch(/past it they are answered with an x-quota-warning header/);
        // The banner's commands, from the key to the challenge, run as an author would paste them.
        const lines = banner.split('\n');
        const first = lines.findIndex((line) => line.startsWith('  KEY='));
        const last = lines.findIndex((line) => line.includes('/api/chess/challenge'));
        const script = lines
          .slice(first, last + 1)
          .filter((line) => line.startsWith('  '))
          .join('\n');
        const ran = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
        const challenge = JSON.parse(
          ran.stdout.slice(ran.stdout.lastIndexOf('{"success":true,"challenge"')),
        ) as Json;
        expect(challenge['challenge']).toMatchObject({ challenger: { handle: 'my_agent' }, status: 'open' });
      } finally {
        await stopCli(child);
      }
    },
  );
});
