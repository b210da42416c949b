/**
 * P3 under the field's standard HTTP load generator (issue 32): autocannon, 500 connections, against a real
 * `serve` process (its background population playing on the real-time clock) and against bare fastify in a
 * process of its own, taking turns. The twin answers GET /api/chess/games/my-turn for an agent with a game
 * on its turn. The baseline answers the same request with the same bytes, doing what any my-turn must: the
 * bearer key checked by its SHA-256 digest, the twin's my-turn body serialized per request
 * (bare-fastify-child.ts); it leaves out the twin's own route table, validation, usage counting and game
 * lookup. Each round pairs the two, in an order that reverses every round; the ratio is the median over
 * rounds, the tail the worst request of any twin round.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type autocannonType from 'autocannon';
import { figureLine, median, type Goal } from './figures.js';
import { startServeProcess, type ServedProcess } from './serve-process.js';

const BARE = fileURLToPath(new URL('./bare-fastify-child.js', import.meta.url));
const CONNECTIONS = 500;
const MY_TURN = '/api/chess/games/my-turn';

const RATIO_GOAL: Goal = { better: 'higher', goal: 0.85 };
const TAIL_GOAL: Goal = { better: 'lower', goal: 250, strict: true, unit: (n) => `${n} ms` };

interface Round {
  rps: number;
  p99: number;
  max: number;
  /** The slowest answer but each connection's first (see `load`). */
  openMax: number;
  bad: number;
}

export async function runAutocannonBench(options: {
  seconds: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<void> {
  const { seconds, rounds, log } = options;
  const twin = await ServeProcess.start();
  let bare: ChildProcess | undefined;
  try {
    const { key, body } = await twin.agentWithGameOnItsTurn();
    const started = await startBare({ path: MY_TURN, key, body });
    bare = started.child;
    const headers = { authorization: `Bearer ${key}` };
    const targets = {
      twin: { url: `${twin.origin}${MY_TURN}`, headers },
      bare: { url: `${started.origin}${MY_TURN}`, headers },
    };
    await load(targets.twin.url, targets.twin.headers, 1); // warm-up: routes compiled, connections opened
    await load(targets.bare.url, targets.bare.headers, 1);
    const rows: { twin: Round; bare: Round }[] = [];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['bare', 'twin'] as const) : (['twin', 'bare'] as const);
      const row: Partial<Record<'twin' | 'bare', Round>> = {};
      for (const side of order) row[side] = await load(targets[side].url, targets[side].headers, seconds);
      rows.push(row as { twin: Round; bare: Round });
      log(
        `autocannon round ${round + 1}/${rounds} (${order.join(', ')}): bare ${describe(row.bare!)}; serve my-turn ${describe(row.twin!)}`,
      );
    }
    logSummary(log, rows, seconds);
  } finally {
    twin.stop();
    bare?.kill();
  }
}

function describe(r: Round): string {
  return `${Math.round(r.rps)} requests/s, p99 ${r.p99} ms, max ${r.max} ms (${r.openMax} ms but first answers)${r.bad ? `, ${r.bad} not 200` : ''}`;
}

function logSummary(
  log: (line: string) => void,
  rows: { twin: Round; bare: Round }[],
  seconds: number,
): void {
  const ratio = median(rows.map((r) => r.twin.rps / r.bare.rps));
  const worst = Math.max(...rows.map((r) => r.twin.max));
  const bareWorst = Math.max(...rows.map((r) => r.bare.max));
  const openWorst = (side: 'twin' | 'bare') => Math.max(...rows.map((r) => r[side].openMax));
  const bad = rows.reduce((sum, r) => sum + r.twin.bad + r.bare.bad, 0);
  log(
    `P3 under autocannon (${CONNECTIONS} connections, ${rows.length} rounds of ${seconds} s each side, real serve process with its population vs bare fastify in its own process checking the key by its digest and answering the same bytes):`,
  );
  log(
    `  ${figureLine('P3 serve my-turn/bare fastify requests/s (autocannon)', ratio.toFixed(3), ratio, RATIO_GOAL)}`,
  );
  log(`  ${figureLine('P3 slowest serve request (autocannon)', `${worst} ms`, worst, TAIL_GOAL)}`);
  log(
    `  for information: bare fastify's slowest request ${bareWorst} ms under the same load (each run opens its ${CONNECTIONS} connections anew, and Node's libuv accepts one a turn of the event loop: fastify's turns answer every request read, so under load the last connections wait seconds to be taken; serve answers in short turns, src/http/answer-turns.ts)`,
  );
  log(
    `  for information: the slowest answer on an open connection (each connection's first left out: autocannon's clock starts before its socket is open): serve ${openWorst('twin')} ms, bare fastify ${openWorst('bare')} ms`,
  );
  if (bad > 0)
    log(`  answers that were not 200 (errors, timeouts, non-2xx): ${bad}: the rounds are not clean`);
}

/**
 * autocannon is a dev dependency (the field's load generator, not the twin's): imported when this section
 * runs, so an install without dev dependencies still runs every other section.
 */
async function autocannon(): Promise<typeof autocannonType> {
  try {
    return (await import('autocannon')).default;
  } catch {
    throw new Error('the autocannon section needs the dev dependencies: npm ci (without --omit=dev)');
  }
}

/**
 * One run. autocannon times a connection's first request from before its own socket is open, so that answer
 * also holds the load generator's start of 500 connections (on this shared machine, 0.3-0.5 s at load 8-11,
 * for either server): the slowest answer on an open connection is kept beside the overall slowest.
 */
async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Round> {
  const run = (await autocannon())({ url, headers, connections: CONNECTIONS, duration: seconds });
  const answered = new WeakSet<object>();
  let openMax = 0;
  run.on('response', (client, _status, _bytes, ms) => {
    if (answered.has(client)) openMax = Math.max(openMax, Math.round(ms));
    else answered.add(client);
  });
  const result = await run;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    max: result.latency.max,
    openMax,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/** The baseline's process, told the path, the key it accepts and the body it answers. */
async function startBare(setup: {
  path: string;
  key: string;
  body: string;
}): Promise<{ child: ChildProcess; origin: string }> {
  const child = fork(BARE, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send(setup);
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return { child, origin: `http://127.0.0.1:${message.port}` };
}

/** A real serve process (bench/serve-process.ts) with no daily quota, so the load is not refused. */
class ServeProcess {
  private constructor(private readonly served: ServedProcess) {}

  static async start(): Promise<ServeProcess> {
    return new ServeProcess(await startServeProcess(['--quota', 'off', '--research', 'spec'], true));
  }

  get origin(): string {
    return this.served.origin;
  }

  /** Two agents registered over HTTP and in a game; the key of the one whose turn it is, and its my-turn answer. */
  async agentWithGameOnItsTurn(): Promise<{ key: string; body: string }> {
    const [a, b] = [await this.#enrol('ac_white'), await this.#enrol('ac_black')];
    const challenge = (await this.#send('POST', '/api/chess/challenge', a, {
      opponent_handle: 'ac_black',
    })) as {
      challenge: { challenge_id: string };
    };
    await this.#send('POST', `/api/chess/challenges/${challenge.challenge.challenge_id}/accept`, b);
    for (const key of [a, b]) {
      const turn = (await this.#send('GET', MY_TURN, key)) as { games: unknown[] };
      if (turn.games.length === 1) return { key, body: JSON.stringify(turn) };
    }
    throw new Error('neither agent has the game on its turn');
  }

  async #enrol(handle: string): Promise<string> {
    const { api_key } = (await this.#send('POST', '/api/register', undefined, { handle })) as {
      api_key: string;
    };
    await this.#send('POST', '/api/social/post', api_key, { content: `${handle} is here to play.` });
    return api_key;
  }

  async #send(method: string, path: string, key?: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers['authorization'] = `Bearer ${key}`;
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const answer = await fetch(`${this.origin}${path}`, init);
    const parsed = await answer.json();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(parsed)}`);
    return parsed;
  }

  stop(): void {
    this.served.stop();
  }
}
