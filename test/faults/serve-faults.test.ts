import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFaultProfileFile } from '../../src/faults/profile-file.js';
import { parseFaultProfile, type FaultProfile } from '../../src/faults/profile.js';
import { startLiveServer, type LiveTestServer } from '../helpers/live-server.js';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = fileURLToPath(new URL('agents/examples/fetch-agent.mjs', ROOT));
const profileFile = (name: string) => fileURLToPath(new URL(`faults/${name}.yaml`, ROOT));

const SCENARIO = `
name: serve-faults
seed: 29
start: 2026-05-01T00:00:00Z
duration: 30d
ruleset: { research: spec }
population:
  - { persona: random, count: 8, heartbeat: { min: 20s, max: 40s }, options: { maxGames: 2, seekChance: 0.6 } }
  - { persona: poster, count: 2, heartbeat: { min: 60s, max: 90s } }
`;

let live: LiveTestServer | undefined;
afterEach(async () => {
  await live?.app.close();
  live = undefined;
});

/** Latency is waited in wall time under serve: a fiftieth of it here, so a test stays fast. */
async function serve(faults?: FaultProfile): Promise<LiveTestServer> {
  live = await startLiveServer(SCENARIO, {
    ...(faults ? { faults } : {}),
    faultSleep: (ms) => new Promise((r) => setTimeout(r, ms / 50)),
  });
  return live;
}

function shipped(name: string): FaultProfile {
  const loaded = loadFaultProfileFile(profileFile(name));
  if (typeof loaded === 'string') throw new Error(loaded);
  return loaded;
}

async function register(origin: string, handle: string): Promise<string> {
  const answer = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handle }),
  });
  return ((await answer.json()) as { api_key: string }).api_key;
}

/** Runs the fetch agent for `beats` heartbeats, moving the manual clock `stepMs` after each. */
function runFetchAgent(
  server: LiveTestServer,
  beats: number,
  stepMs: number,
): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const child = spawn(process.execPath, [SCRIPT], {
    env: {
      ...process.env,
      BASE_URL: `${server.origin}/api`,
      HANDLE: 'fetch_faults',
      SEED: '3',
      HEARTBEAT_MS: '5',
      MAX_HEARTBEATS: String(beats),
    },
  });
  const lines: string[] = [];
  let stderr = '';
  let stepping = Promise.resolve<unknown>(undefined);
  const advance = () =>
    fetch(`${server.origin}/_sim/clock/advance`, {
      method: 'POST',
      headers: server.control,
      body: JSON.stringify({ ms: stepMs }),
    });
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    if (/^heartbeat \d+:/.test(line)) stepping = stepping.then(advance);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => void stepping.then(() => resolve({ code, lines, stderr })));
  });
}

async function faultsRoute(
  server: LiveTestServer,
): Promise<{ profile: { name: string }; met_by_kind: Record<string, number> }> {
  return (await fetch(`${server.origin}/_sim/faults`, { headers: server.control })).json() as never;
}

describe('serve --faults (src/http/faults.ts) and /_sim/faults', () => {
  it('the shipped profiles load; a bad file is one line naming the field', () => {
    expect(['light', 'outage', 'hostile'].map((n) => shipped(n).name)).toEqual([
      'light',
      'outage',
      'hostile',
    ]);
    expect(shipped('outage').rules[0]).toMatchObject({
      kind: 'outage',
      scope: { fromMs: 3_600_000, untilMs: 4_800_000 },
    });
    expect(loadFaultProfileFile(fileURLToPath(new URL('package.json', ROOT)))).toMatch(
      /^--faults .*package\.json: invalid fault profile: faults\.\w+: unknown field/,
    );
  });

  it('/_sim/faults reads and replaces the profile with the control token only; a bad one is a validation_error naming the field', async () => {
    const server = await serve();
    expect((await fetch(`${server.origin}/_sim/faults`)).status).toBe(401);
    expect(await faultsRoute(server)).toMatchObject({
      success: true,
      profile: { name: 'none', rules: [] },
      met_by_kind: {},
    });
    const bad = await fetch(`${server.origin}/_sim/faults`, {
      method: 'POST',
      headers: server.control,
      body: JSON.stringify({ rules: [{ kind: 'error', statuses: [418] }] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: 'validation_error',
      message: 'faults.rules[0].statuses: must be a non-empty list of 500, 502, 503, 504',
    });
    const set = await fetch(`${server.origin}/_sim/faults`, {
      method: 'POST',
      headers: server.control,
      body: JSON.stringify({
        name: 'proxy',
        rules: [{ kind: 'error', statuses: [502], scope: { routes: ['leaderboard'] } }],
      }),
    });
    expect(set.status).toBe(200);
    const page = await fetch(`${server.origin}/api/chess/leaderboard`);
    expect(page.status).toBe(502);
    expect(page.headers.get('content-type')).toBe('text/html');
    expect(await page.text()).toContain('<center><h1>502 Bad Gateway</h1></center>');
    expect((await fetch(`${server.origin}/api/health`)).status).toBe(200); // another route group
    expect((await faultsRoute(server)).met_by_kind).toEqual({ error: 1 });
  });

  it('over HTTP a lost answer applies the move and drops the connection; the retry is refused not_your_turn', async () => {
    const server = await serve(
      parseFaultProfile({ name: 'lose-moves', rules: [{ kind: 'lost', scope: { routes: ['move'] } }] }, 't'),
    );
    const [white, black] = [
      await register(server.origin, 'lost_white'),
      await register(server.origin, 'lost_black'),
    ];
    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${server.origin}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    for (const key of [white, black]) await call(key, 'POST', '/social/post', { content: 'hello' });
    const challenge = (await (
      await call(white, 'POST', '/chess/challenge', { opponent_handle: 'lost_black' })
    ).json()) as any;
    const accepted = (await (
      await call(black, 'POST', `/chess/challenges/${challenge.challenge.challenge_id}/accept`)
    ).json()) as any;
    const gameId = accepted.game.game_id as string;
    const move = () => call(white, 'POST', '/chess/move', { game_id: gameId, move_san: 'e4' });
    await expect(move()).rejects.toThrow(/fetch failed/);
    const game = (await (await call(white, 'GET', `/chess/games/${gameId}`)).json()) as any;
    expect(game.move_count).toBe(1);
    server.server.httpFaults.replace(parseFaultProfile({ rules: [] }, 't'));
    const retry = await move();
    expect(retry.status).toBe(400);
    expect(await retry.json()).toMatchObject({ error: 'bad_request', reason: 'not_your_turn' });
  });

  it('the fetch agent keeps playing through the light profile: every heartbeat reported, moves made, faults met', async () => {
    const server = await serve(shipped('light'));
    const run = await runFetchAgent(server, 60, 30_000);
    expect(run.code, run.stderr + run.lines.slice(-5).join('\n')).toBe(0);
    expect(run.lines.filter((l) => /^heartbeat \d+: moves \d+/.test(l))).toHaveLength(60);
    const moves = Number(/^done: moves (\d+)/.exec(run.lines.at(-1) ?? '')?.[1]);
    expect(moves).toBeGreaterThan(10);
    const met = (await faultsRoute(server)).met_by_kind;
    expect(met['latency']).toBeGreaterThan(100);
  });

  it('the fetch agent lives through the outage profile: heartbeats in the window fail, and it plays again after', async () => {
    const server = await serve(shipped('outage'));
    const run = await runFetchAgent(server, 64, 90_000); // 96 virtual minutes: the window is 60-80
    expect(run.code, run.stderr + run.lines.slice(-5).join('\n')).toBe(0);
    const beats = run.lines.filter((l) => /^heartbeat \d+:/.test(l));
    expect(beats).toHaveLength(64);
    expect(beats.filter((l) => /requests failed/.test(l)).length).toBeGreaterThanOrEqual(10);
    const after = beats.slice(56).map((l) => Number(/moves (\d+)/.exec(l)?.[1]));
    expect(after.some((n) => n > 0)).toBe(true);
    expect((await faultsRoute(server)).met_by_kind['outage']).toBeGreaterThan(10);
  });
});
