/**
 * P3: the HTTP twin's my-turn route against a bare fastify JSON route, with the load generator in a child
 * process (bench/load-client.ts) so that the servers' event loop, here, carries nothing but the servers.
 * Both servers listen in this process for the whole section; only one is loaded at a time. Each round runs
 * the bare route, my-turn polls alone, and agents polling and moving in their games ("with movers"), in an
 * order that reverses every round so drift on a shared machine falls on both sides; each ratio pairs a round's
 * twin figure with the same round's bare one, and the figure is the median of the rounds.
 *
 * Profile the server side with `node --cpu-prof dist/bench/index.js` (BENCH_SECTIONS=http): the client is
 * forked without the parent's node flags, so the profile holds the servers and this file's waiting only.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { figureLine, median, type Goal } from './figures.js';
import { MY_TURN_SIZED_ANSWER, startBare, startTwin } from './http-load.js';
import type { FromClient, LoadKind, RoundReport, ToClient } from './load-client.js';

const CLIENT = fileURLToPath(new URL('./load-client.js', import.meta.url));

/** The forked load generator, one request in flight at a time. */
export class ClientProcess {
  readonly #child: ChildProcess;
  #waiting: { resolve: (m: FromClient) => void; reject: (e: Error) => void } | undefined;

  constructor() {
    // execArgv [] : not the parent's flags (a --cpu-prof of the servers must not profile the load too).
    this.#child = fork(CLIENT, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (message: FromClient) => {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      if (!waiting) return;
      if (message.type === 'error') waiting.reject(new Error(`load client: ${message.message}`));
      else waiting.resolve(message);
    });
    this.#child.on('exit', (code, signal) => {
      this.#waiting?.reject(new Error(`load client exited (${signal ?? code})`));
      this.#waiting = undefined;
    });
  }

  ask(message: ToClient): Promise<FromClient> {
    if (this.#waiting) throw new Error('load client: one request at a time');
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#child.send(message);
    });
  }

  async round(kind: LoadKind, seconds: number): Promise<RoundReport> {
    const answer = await this.ask({ type: 'round', kind, seconds });
    if (answer.type !== 'round') throw new Error(`load client: expected a round, got ${answer.type}`);
    return answer.report;
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || !this.#child.connected) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    this.#child.send({ type: 'close' } satisfies ToClient);
    await exited;
  }
}

export interface SplitLoadOptions {
  agents: number;
  seconds: number;
  rounds: number;
  seed: string;
  log: (line: string) => void;
}

const KINDS: LoadKind[] = ['bare', 'sized', 'my-turn', 'movers'];

/** A client's round report with the servers' CPU use over it (this process: the servers and nothing else). */
export interface ServedRound extends RoundReport {
  serverCpu: number;
}

/** Round `i`'s order: bare, sized, my-turn, movers, then reversed, and so on. */
export function roundOrder(round: number): LoadKind[] {
  return round % 2 === 0 ? [...KINDS] : [...KINDS].reverse();
}

export async function runSplitLoadBench(options: SplitLoadOptions): Promise<void> {
  const { agents, seconds, rounds, seed, log } = options;
  const twin = await startTwin(seed);
  const bare = await startBare();
  const client = new ClientProcess();
  try {
    await client.ask({ type: 'enrol', twinPort: twin.port, barePort: bare.port, agents, seed });
    // Warm-up: every route compiled, every pair in a game (my-turn then has games to show).
    for (const kind of KINDS) await client.round(kind, 1);
    const reports: Record<LoadKind, ServedRound>[] = [];
    for (let round = 0; round < rounds; round++) {
      const row = {} as Record<LoadKind, ServedRound>;
      for (const kind of roundOrder(round)) {
        const before = process.cpuUsage();
        const report = await client.round(kind, seconds);
        const used = process.cpuUsage(before);
        row[kind] = { ...report, serverCpu: (used.user + used.system) / 1000 / report.ms };
      }
      reports.push(row);
      const rps = (r: RoundReport) => Math.round((r.requests / r.ms) * 1000);
      log(
        `http round ${round + 1}/${rounds} (${roundOrder(round).join(', ')}): bare ${rps(row.bare)}, sized ${rps(row.sized)}, my-turn ${rps(row['my-turn'])}, with movers ${rps(row.movers)} requests/s`,
      );
    }
    for (const line of splitLoadLines(reports, { agents, seconds })) log(line);
  } finally {
    await client.close();
    await Promise.all([twin.app.close(), bare.app.close()]);
  }
}

const SIZED_BYTES = Buffer.byteLength(JSON.stringify(MY_TURN_SIZED_ANSWER));

const P3_RATIO: Goal = { better: 'higher', goal: 0.8, aim: 0.9 };
/** "No multi-second tail": every request of every round answered in under 2 s (aim: under 1 s). */
const P3_TAIL: Goal = { better: 'lower', goal: 2000, aim: 1000, strict: true, unit: (n) => `${n} ms` };

/** The section's summary lines from its rounds (pure: test/unit/bench-figures.test.ts). */
export function splitLoadLines(
  rows: Record<LoadKind, ServedRound>[],
  info: { agents: number; seconds: number },
): string[] {
  const rate = (r: ServedRound) => (r.requests / r.ms) * 1000;
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const of = (kind: LoadKind) => rows.map((row) => row[kind]);
  const describe = (kind: LoadKind, label: string) => {
    const rs = of(kind);
    const worst = Math.max(...rs.map((r) => r.latency.max));
    const extra =
      kind === 'movers'
        ? ` (${Math.round(median(rs.map((r) => (r.moves / r.ms) * 1000)))} moves/s, ${Math.round(median(rs.map((r) => (r.polls / r.ms) * 1000)))} my-turn polls/s)`
        : '';
    const cpu = (pick: (r: ServedRound) => number) => `${Math.round(median(rs.map(pick)) * 100)}%`;
    return `  ${label.padEnd(26)}: ${Math.round(median(rs.map(rate)))} requests/s${extra}; latency p50 ${ms(median(rs.map((r) => r.latency.p50)))}, p99 ${ms(median(rs.map((r) => r.latency.p99)))}, max ${ms(worst)} (worst round); CPU of a core: server ${cpu((r) => r.serverCpu)}, load ${cpu((r) => r.clientCpu)}`;
  };
  const ratioTo = (kind: LoadKind, base: LoadKind) =>
    median(rows.map((row) => rate(row[kind]) / rate(row[base])));
  const ratio = (kind: LoadKind) => ratioTo(kind, 'bare');
  // Server CPU microseconds per request (serverCpu is the share of a core over the round).
  const cpuPerRequest = (r: ServedRound) => (r.serverCpu * r.ms) / r.requests;
  const cpuRatio = (kind: LoadKind) =>
    median(rows.map((row) => cpuPerRequest(row.bare) / cpuPerRequest(row[kind])));
  const tail = (kind: LoadKind) => Math.max(...of(kind).map((r) => r.latency.max));
  const unexpected = new Map<string, number>();
  for (const row of rows)
    for (const kind of KINDS)
      for (const [key, n] of row[kind].unexpected) unexpected.set(key, (unexpected.get(key) ?? 0) + n);
  const odd = [...unexpected].map(([key, n]) => `${key} x${n}`).join(', ');
  const games = of('movers').reduce((sum, r) => sum + r.games, 0);
  return [
    `HTTP with the load from a separate process (${info.agents} agents on ${info.agents} keep-alive connections per server; median of ${rows.length} rounds of ${info.seconds} s, order reversed every round):`,
    describe('bare', 'bare fastify GET /bare'),
    describe('sized', 'bare, my-turn-sized answer'),
    describe('my-turn', 'twin GET my-turn'),
    describe('movers', 'twin with movers'),
    `  ${figureLine('P3 my-turn/bare requests/s', ratio('my-turn').toFixed(3), ratio('my-turn'), P3_RATIO)}`,
    `  my-turn/bare route answering ${SIZED_BYTES} bytes of my-turn's shape: ${ratioTo('my-turn', 'sized').toFixed(3)} (for information: the twin's own work, the answer's bytes set aside)`,
    `  P3 server CPU per request, bare/my-turn: ${cpuRatio('my-turn').toFixed(3)} (the same figure measured in CPU time, which a busy machine moves less than throughput)`,
    `  with movers/bare requests/s: ${ratio('movers').toFixed(3)} (for information: a third of these requests are moves, which play chess; P3's goals are on my-turn and on the tails)`,
    `  ${figureLine('P3 my-turn tail, no multi-second tail', `worst max ${ms(tail('my-turn'))} over ${rows.length} rounds`, tail('my-turn'), P3_TAIL)}`,
    `  ${figureLine('P3 with movers tail, no multi-second tail', `worst max ${ms(tail('movers'))} over ${rows.length} rounds`, tail('movers'), P3_TAIL)}`,
    `  games completed by movers: ${games}; unexpected answers: ${odd === '' ? 'none' : odd}`,
  ];
}
