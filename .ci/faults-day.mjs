#!/usr/bin/env node
/**
 * Issue 29's "done when": `serve --faults faults/light.yaml` keeps the shipped fetch agent
 * (agents/examples/fetch-agent.mjs) playing for a virtual day with no crash. Starts `serve --manual` with the
 * light profile (its latency waited in wall time, as a user meets it), runs the fetch agent against it and
 * moves the clock STEP_MS after each of its heartbeats until a virtual day has passed. Fails (exit 1, one
 * line saying why) unless the agent ran every heartbeat and exited 0, made moves all day long (in the
 * first and the last quarter), finished games, and met faults of several kinds. Run by .ci/run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const DAY_MS = 24 * 3_600_000;
/** Under the 5-minute turn limit, so a heartbeat per step can answer every move in time. */
const STEP_MS = 4 * 60_000;
const BEATS = DAY_MS / STEP_MS;
const START = '2026-05-01T00:00:00Z';
const LIMIT_MS = 15 * 60_000;

const dir = mkdtempSync(join(tmpdir(), 'acs-faults-day-'));
const readyFile = join(dir, 'ready.json');
const serve = spawn(
  process.execPath,
  ['bin/agent-chess-sim.js', 'serve', '--manual', '--port', '0', '--seed', '29', '--start', START].concat([
    '--faults',
    'faults/light.yaml',
    '--ready-file',
    readyFile,
  ]),
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
let serveErr = '';
serve.stderr.on('data', (chunk) => (serveErr += chunk.toString()));
const stopServe = () => serve.exitCode === null && serve.kill('SIGTERM');
const timer = setTimeout(() => fail(`no result within ${LIMIT_MS / 60_000} minutes`), LIMIT_MS);

function fail(why) {
  process.stderr.write(`faults-day: ${why}\n`);
  stopServe();
  process.exit(1);
}

async function ready() {
  for (let i = 0; i < 600; i++) {
    if (existsSync(readyFile)) return JSON.parse(readFileSync(readyFile, 'utf8'));
    if (serve.exitCode !== null) fail(`serve exited ${serve.exitCode}: ${serveErr.trim()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  fail('serve wrote no ready file within 60 s');
}

const { api, url, control_token: token } = await ready();
const control = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const sim = async (method, path, body) =>
  (
    await fetch(`${url}${path}`, {
      method,
      headers: control,
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
  ).json();

const agent = spawn(process.execPath, ['agents/examples/fetch-agent.mjs'], {
  env: {
    ...process.env,
    BASE_URL: api,
    HANDLE: 'fetch_day',
    SEED: '3',
    HEARTBEAT_MS: '5',
    MAX_HEARTBEATS: String(BEATS),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const lines = [];
let agentErr = '';
let stepping = Promise.resolve();
agent.stderr.on('data', (chunk) => (agentErr += chunk.toString()));
createInterface({ input: agent.stdout }).on('line', (line) => {
  lines.push(line);
  // After every heartbeat, failed or not, the clock moves on: the day passes whatever the agent met.
  if (/^heartbeat \d+[: ]/.test(line))
    stepping = stepping.then(() => sim('POST', '/_sim/clock/advance', { ms: STEP_MS }));
});
const code = await new Promise((resolve) => agent.on('close', resolve));
await stepping;
const faults = await sim('GET', '/_sim/faults');
const clock = await sim('GET', '/_sim/clock');
const profile = (await (await fetch(`${api}/agents/fetch_day`)).json()).profile ?? {};
clearTimeout(timer);
stopServe();

const beats = lines.filter((l) => /^heartbeat \d+: /.test(l));
const failed = lines.filter((l) => /^heartbeat \d+ failed: /.test(l));
const moves = beats.map((l) => Number(/\bmoves (\d+)/.exec(l)?.[1] ?? 0));
const movedIn = (from, to) => moves.slice(from, to).reduce((a, b) => a + b, 0);
const quarter = Math.floor(BEATS / 4);
const done = lines.at(-1) ?? '';
const games = profile.chess_games_played ?? 0;
const kinds = Object.keys(faults.met_by_kind ?? {});
const elapsedMs = (clock.now_ms ?? 0) - Date.parse(START);

if (code !== 0) fail(`the fetch agent exited ${code}: ${agentErr.trim() || lines.slice(-3).join(' | ')}`);
if (beats.length + failed.length !== BEATS)
  fail(`${beats.length + failed.length} of ${BEATS} heartbeats reported`);
if (elapsedMs < DAY_MS) fail(`the clock moved ${elapsedMs} ms, less than a day`);
if (movedIn(0, quarter) === 0 || movedIn(BEATS - quarter, BEATS) === 0)
  fail(
    `no move in the first or the last quarter of the day (${movedIn(0, quarter)}, ${movedIn(BEATS - quarter, BEATS)})`,
  );
if (games < 2) fail(`only ${games} games finished in the day`);
if (kinds.length < 3) fail(`faults of only ${kinds.length} kinds met: ${JSON.stringify(faults.met_by_kind)}`);
console.log(
  `faults-day: the fetch agent played a virtual day under faults/light.yaml: ${BEATS} heartbeats (${failed.length} failed and recovered), ${movedIn(0, BEATS)} moves, ${games} games finished (W/L/D ${profile.chess_wins}/${profile.chess_losses}/${profile.chess_draws}); faults met ${JSON.stringify(faults.met_by_kind)}; last line: ${done}`,
);
