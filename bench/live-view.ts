import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { startServeProcess } from './serve-process.js';

/**
 * What serve's live view costs (issue 30): the bytes of each page and asset, and the server's CPU when 100
 * pages watch games. The server is the real command (`serve --speed 60`, its own background population) in
 * a process of its own, so its CPU is read from /proc apart from the watchers'. A watcher does what the page
 * does once a wall second: /stream?game= reads the game and /api/health; the rotating page (no target)
 * reads the live list as well. Each phase is measured over the same wall time, idle first.
 *
 *   npm run build && node dist/bench/live-view.js [watchers=100] [seconds=20]
 */
const PAGES = [
  '/',
  '/stream',
  '/_view/board.js',
  '/_view/view.css',
  '/_view/common.js',
  '/_view/stream.js',
  '/_view/dashboard.js',
];
const CLOCK_TICKS = 100; // /proc/<pid>/stat counts CPU in clock ticks (USER_HZ, 100 on Linux)

async function main(): Promise<void> {
  const watchers = Number(process.argv[2] ?? 100);
  const seconds = Number(process.argv[3] ?? 20);
  // Real time: the scripted games below keep their 5-minute turn deadline for the whole measurement.
  const server = await startServeProcess(['--research', 'spec', '--start', '2026-01-01T00:00:00Z']);
  const { origin, controlToken: token } = server;
  try {
    await pageSizes(origin);
    // Two virtual hours at once, so that the background agents have games going to be watched.
    await fetch(`${origin}/_sim/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 2 * 3600_000 }),
    });
    // The background's live games, and scripted ones to make up the number: one page per game.
    const background = await liveGames(origin);
    const games = [...background, ...(await scriptedGames(origin, watchers - background.length))].slice(
      0,
      watchers,
    );
    console.log(
      `live games watched: ${games.length} (${background.length} of the background's), one page each`,
    );
    const pid = server.child.pid!;
    const idle = await measure(pid, seconds, () => Promise.resolve(0));
    const stream = await measure(pid, seconds, (i) => watchGame(origin, games[i % games.length]!), watchers);
    const rotating = await measure(pid, seconds, () => watchRotation(origin), watchers);
    report('idle (no page open)', idle, idle);
    report(`${watchers} pages of /stream?game=`, stream, idle);
    report(`${watchers} pages of /stream (rotating)`, rotating, idle);
  } finally {
    server.stop();
  }
}

/** What /stream loads the first time: its HTML and the four files it names (the dashboard swaps its own script). */
const STREAM_LOAD = new Set([
  '/stream',
  '/_view/board.js',
  '/_view/view.css',
  '/_view/common.js',
  '/_view/stream.js',
]);

async function pageSizes(origin: string): Promise<void> {
  let load = 0;
  let loadGzip = 0;
  for (const path of PAGES) {
    const body = Buffer.from(await (await fetch(`${origin}${path}`)).arrayBuffer());
    const gzipped = gzipSync(body).length;
    if (STREAM_LOAD.has(path)) [load, loadGzip] = [load + body.length, loadGzip + gzipped];
    console.log(`${path}: ${body.length} bytes (${gzipped} gzipped)`);
  }
  console.log(
    `a first load of /stream: ${load} bytes as served (${loadGzip} if gzipped); later loads within 5 minutes fetch only its HTML`,
  );
}

async function liveGames(origin: string): Promise<string[]> {
  const page = (await (await fetch(`${origin}/api/chess/games?status=active&limit=100`)).json()) as {
    games: Array<{ game_id: string }>;
  };
  if (page.games.length === 0) throw new Error('no live game to watch');
  return page.games.map((g) => g.game_id);
}

interface Json {
  api_key: string;
  challenge: { challenge_id: string };
  game: { game_id: string };
}

/** `count` games between pairs of agents registered for it, started and left at their first move. */
async function scriptedGames(origin: string, count: number): Promise<string[]> {
  const post = async (path: string, key?: string, body: unknown = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers['authorization'] = `Bearer ${key}`;
    const answer = await fetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return (await answer.json()) as Json;
  };
  const onboarded = async (handle: string) => {
    const key = (await post('/api/register', undefined, { handle })).api_key;
    await post('/api/social/post', key, { content: `${handle} is watched` });
    return key;
  };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const [white, black] = [`watched_${i}_a`, `watched_${i}_b`];
    const [a, b] = [await onboarded(white), await onboarded(black)];
    const challenge = await post('/api/chess/challenge', a, { opponent_handle: black });
    const accepted = await post(`/api/chess/challenges/${challenge.challenge.challenge_id}/accept`, b);
    ids.push(accepted.game.game_id);
  }
  return ids;
}

/** One look of /stream?game=: the game and the virtual time; the number of requests it made. */
async function watchGame(origin: string, id: string): Promise<number> {
  await Promise.all([
    fetch(`${origin}/api/chess/games/${id}`).then(drain),
    fetch(`${origin}/api/health`).then(drain),
  ]);
  return 2;
}

/** One look of /stream with no target: the live list, then one of its games, and the virtual time. */
async function watchRotation(origin: string): Promise<number> {
  const [list] = await Promise.all([
    fetch(`${origin}/api/chess/games?status=active&limit=100`).then(
      (r) => r.json() as Promise<{ games: Array<{ game_id: string }> }>,
    ),
    fetch(`${origin}/api/health`).then(drain),
  ]);
  const first = list.games[0];
  if (first) await fetch(`${origin}/api/chess/games/${first.game_id}`).then(drain);
  return first ? 3 : 2;
}

const drain = (r: Response) => r.arrayBuffer();

interface Phase {
  cpuSeconds: number;
  wallSeconds: number;
  requests: number;
  /** Wall milliseconds of each look (its requests answered), in order. */
  looks: number[];
}

/** The server's CPU over `seconds` while `pages` watchers each look once a wall second (staggered). */
async function measure(
  pid: number,
  seconds: number,
  look: (i: number) => Promise<number>,
  pages = 0,
): Promise<Phase> {
  let requests = 0;
  const looks: number[] = [];
  let running = true;
  const loops = Array.from({ length: pages }, async (_, i) => {
    await sleep((1000 * i) / pages);
    while (running) {
      const started = performance.now();
      requests += await look(i);
      looks.push(performance.now() - started);
      await sleep(Math.max(0, 1000 - (performance.now() - started)));
    }
  });
  const cpuBefore = cpuSeconds(pid);
  const wallBefore = performance.now();
  await sleep(seconds * 1000);
  const phase = {
    cpuSeconds: cpuSeconds(pid) - cpuBefore,
    wallSeconds: (performance.now() - wallBefore) / 1000,
    requests,
    looks,
  };
  running = false;
  await Promise.all(loops);
  return phase;
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

function report(label: string, phase: Phase, idle: Phase): void {
  const cpu = (100 * phase.cpuSeconds) / phase.wallSeconds;
  const idleCpu = (100 * idle.cpuSeconds) / idle.wallSeconds;
  const rps = phase.requests / phase.wallSeconds;
  const sorted = [...phase.looks].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(0);
  const latency = sorted.length > 0 ? `; a look answered in ${at(0.5)} ms median, ${at(0.95)} ms p95` : '';
  const perRequest =
    rps > 0 ? `, ${((10 * (cpu - idleCpu)) / rps).toFixed(3)} ms of server CPU per request` : '';
  console.log(
    `${label}: ${rps.toFixed(1)} requests/s, server CPU ${cpu.toFixed(1)}% of a core (${(cpu - idleCpu).toFixed(1)} points over idle${perRequest})${latency}`,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

await main();
