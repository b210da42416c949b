import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveServer, TEST_CONTROL_TOKEN } from '../helpers/live-server.js';

const CONTROL = { authorization: `Bearer ${TEST_CONTROL_TOKEN}`, 'content-type': 'application/json' };

/**
 * The shipped example agent, agents/examples/fetch-agent.mjs, run as its users run it: a separate `node`
 * process that knows only a base URL. The test owns the manual clock and moves it 30 virtual seconds after
 * each heartbeat the agent reports, the way `serve --manual` is stepped by hand.
 */
const SCRIPT = fileURLToPath(new URL('../../agents/examples/fetch-agent.mjs', import.meta.url));
const HEARTBEATS = 40;

function scenario(research: 'spec' | 'strict'): string {
  return `
name: fetch-agent
seed: 23
start: 2026-05-01T00:00:00Z
duration: 30d
ruleset: { research: ${research} }
population:
  - persona: random
    count: 8
    heartbeat: { min: 20s, max: 40s }
    options: { maxGames: 2, seekChance: 0.6 }
  - persona: poster
    count: 2
    heartbeat: { min: 60s, max: 90s }
`;
}

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(research: 'spec' | 'strict'): Promise<string> {
  const started = await startLiveServer(scenario(research));
  app = started.app;
  return started.origin;
}

interface AgentRun {
  code: number | null;
  lines: string[];
  stderr: string;
}

/** Runs the example to completion; `onHeartbeat` is awaited in order for each heartbeat line it prints. */
function runAgent(
  env: Record<string, string>,
  onHeartbeat: () => Promise<unknown> = async () => undefined,
  script = SCRIPT,
): Promise<AgentRun> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, HEARTBEAT_MS: '20', MAX_HEARTBEATS: String(HEARTBEATS), ...env },
  });
  const lines: string[] = [];
  let stderr = '';
  let stepping = Promise.resolve<unknown>(undefined);
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    if (/^heartbeat \d+:/.test(line)) stepping = stepping.then(onHeartbeat);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => void stepping.then(() => resolve({ code, lines, stderr })));
  });
}

const advance = (origin: string) => () =>
  fetch(`${origin}/_sim/clock/advance`, {
    method: 'POST',
    headers: CONTROL,
    body: JSON.stringify({ ms: 30_000 }),
  });

async function json(origin: string, path: string): Promise<any> {
  return (await fetch(`${origin}/api${path}`)).json();
}

/** Moves the platform recorded for `handle`, counted from the public game records. */
async function movesPlayedBy(origin: string, handle: string): Promise<number> {
  const list = await json(origin, `/chess/games?player_handle=${handle}&limit=100`);
  let moves = 0;
  for (const summary of list.games) {
    const game = await json(origin, `/chess/games/${summary.game_id}`);
    const color = game.white_player.handle === handle ? 'white' : 'black';
    moves += game.moves.filter((m: { color: string }) => m.color === color).length;
  }
  return moves;
}

/** The agent's own tally, from its last line: `done: moves 12, accepted 2, ...; refusals: ...`. */
function summary(run: AgentRun): { totals: Record<string, number>; refusals: string } {
  const last = run.lines.at(-1) ?? '';
  const match = /^done: (.*); refusals: (.*)$/.exec(last);
  expect(match, `last line: ${last}\nstderr: ${run.stderr}`).not.toBeNull();
  const totals = Object.fromEntries(
    match![1]!.split(', ').map((pair) => [pair.split(' ')[0]!, Number(pair.split(' ')[1])]),
  );
  return { totals, refusals: match![2]! };
}

/** Refusals a busy world produces for anyone: a challenge taken a moment earlier, an open challenge already posted, a game just ended. */
const BUSY_WORLD = /^(challenge_not_open|too_many_open_challenges|bad_request) \d+$/;

describe('agents/examples/fetch-agent.mjs against serve --manual', () => {
  it('registers, posts, plays its games and exits by itself after MAX_HEARTBEATS', async () => {
    const origin = await serve('spec');
    const run = await runAgent(
      { BASE_URL: `${origin}/api`, HANDLE: 'fetch_tester', SEED: '5' },
      advance(origin),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines[0]).toMatch(/^registered fetch_tester; API key moltchess_\S+ \(shown once/);
    expect(run.lines).toContain('posted an introduction');
    expect(run.lines.filter((l) => /^heartbeat \d+: moves \d+/.test(l))).toHaveLength(HEARTBEATS);
    const { totals, refusals } = summary(run);
    expect(totals['moves']).toBeGreaterThan(10);
    expect(totals['accepted']! + totals['challenges']!).toBeGreaterThan(0);
    for (const refusal of refusals === 'none' ? [] : refusals.split(', '))
      expect(refusal).toMatch(BUSY_WORLD);

    const profile = (await json(origin, '/agents/fetch_tester')).profile;
    expect(profile.posts_count).toBe(1);
    expect(await movesPlayedBy(origin, 'fetch_tester')).toBe(totals['moves']);
    const invariants = (await (await fetch(`${origin}/_sim/invariants`, { headers: CONTROL })).json()) as {
      invariants: Array<{ name: string; passed: boolean }>;
    };
    expect(invariants.invariants.filter((i) => !i.passed)).toEqual([]);
  });

  it("completes the real service's stricter research phase (1 post, 10 follows, 10 likes) before playing", async () => {
    // The built-in random personas never follow or like, so under these rules only two fetch agents can play: each other.
    const origin = await serve('strict');
    const [first, second] = await Promise.all([
      runAgent({ BASE_URL: `${origin}/api`, HANDLE: 'fetch_a', SEED: '1' }, advance(origin)),
      runAgent({ BASE_URL: `${origin}/api`, HANDLE: 'fetch_b', SEED: '2' }),
    ]);
    for (const [handle, run] of [
      ['fetch_a', first],
      ['fetch_b', second],
    ] as const) {
      expect(run.code, run.stderr).toBe(0);
      const { totals } = summary(run);
      expect(totals['likes'], handle).toBe(10);
      expect(totals['follows'], handle).toBe(10);
      expect(totals['moves'], handle).toBeGreaterThan(5);
      const profile = (await json(origin, `/agents/${handle}`)).profile;
      expect(profile.following_count, handle).toBe(10);
    }
  });

  it('copied out of this project, where chess.js is not installed, it still signs in and posts, and stays out of games', async () => {
    const origin = await serve('spec');
    const dir = mkdtempSync(join(tmpdir(), 'acs-fetch-agent-'));
    copyFileSync(SCRIPT, join(dir, 'fetch-agent.mjs'));
    const run = await runAgent(
      { BASE_URL: `${origin}/api`, HANDLE: 'fetch_alone', MAX_HEARTBEATS: '3' },
      advance(origin),
      join(dir, 'fetch-agent.mjs'),
    );
    rmSync(dir, { recursive: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.lines[0]).toBe(
      'chess.js is not installed (npm i chess.js): signing in and posting only, no games',
    );
    expect(run.lines).toContain('posted an introduction');
    expect(summary(run).totals).toEqual({ moves: 0, accepted: 0, challenges: 0, likes: 0, follows: 0 });
    expect((await json(origin, '/chess/games?player_handle=fetch_alone')).total).toBe(0);
  });

  it('says how to sign in when the base URL is wrong, and exits 1', async () => {
    const run = await runAgent({ BASE_URL: 'http://127.0.0.1:9/api', HANDLE: 'nobody' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^cannot sign in at http:\/\/127\.0\.0\.1:9\/api: /);
  });
});
