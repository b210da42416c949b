/**
 * The load generator of P3 (bench/http-split.ts), in a child process of its own (`fork` of the compiled
 * file), so that the servers under test do not share an event loop with the load. The bare route and
 * my-turn are driven over raw keep-alive sockets (bench/raw-load.ts: the cheapest client, so the servers are
 * what saturates), the agents "with movers" by bench/http-load.ts's loop (they read the answers, pick
 * moves, and challenge again) over raw-load.ts's RawClient. One round at a time as the parent asks; each answered with its counts,
 * a latency summary and the generator's own CPU use. Messages are node's IPC (JSON).
 */
import { pathToFileURL } from 'node:url';
import { latencySummary, type LatencySummary } from './figures.js';
import { getRequest, RawClient, rawRound, type RawRound } from './raw-load.js';
import { enrolAgents, runTwinRound, type LoadWorld, type RoundResult } from './http-load.js';

/**
 * What a round measures: the bare route, the bare route answering a my-turn answer's bytes, my-turn polls
 * alone, or agents polling and moving in their games.
 */
export type LoadKind = 'bare' | 'sized' | 'my-turn' | 'movers';

export type ToClient =
  | { type: 'enrol'; twinPort: number; barePort: number; agents: number; seed: string }
  | { type: 'round'; kind: LoadKind; seconds: number }
  | { type: 'close' };

export interface RoundReport {
  kind: LoadKind;
  ms: number;
  requests: number;
  moves: number;
  polls: number;
  games: number;
  latency: LatencySummary;
  /** `kind status error` -> count of non-200 answers; a healthy round has none. */
  unexpected: [string, number][];
  /** The load generator's CPU time over the round's wall time (1 = one core busy throughout). */
  clientCpu: number;
}

export type FromClient =
  { type: 'ready' } | { type: 'round'; report: RoundReport } | { type: 'error'; message: string };

function fromRecorder(kind: LoadKind, round: RoundResult, cpuMs: number): RoundReport {
  const r = round.recorder;
  return {
    kind,
    ms: round.ms,
    requests: r.requests(),
    moves: r.count('move'),
    polls: r.count('poll'),
    games: r.gamesCompleted,
    latency: latencySummary(r.all()),
    unexpected: [...r.unexpected],
    clientCpu: cpuMs / round.ms,
  };
}

function fromRaw(kind: LoadKind, round: RawRound, cpuMs: number): RoundReport {
  return {
    kind,
    ms: round.ms,
    requests: round.requests,
    moves: 0,
    polls: kind === 'my-turn' ? round.requests : 0,
    games: 0,
    latency: round.latency,
    unexpected: [...round.unexpected].map(([status, n]) => [`${kind} ${status}`, n]),
    clientCpu: cpuMs / round.ms,
  };
}

/** CPU time (user + system, ms) this process spends in `run`. */
async function withCpu<T>(run: () => Promise<T>): Promise<[T, number]> {
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  return [result, (used.user + used.system) / 1000];
}

async function measure(
  kind: LoadKind,
  seconds: number,
  clients: { twin: RawClient; bare: RawClient },
  world: LoadWorld,
  ports: { twin: number; bare: number },
): Promise<RoundReport> {
  if (kind === 'movers') {
    const [round, cpuMs] = await withCpu(() => runTwinRound(clients.twin, world, { seconds }));
    return fromRecorder(kind, round, cpuMs);
  }
  // One connection per agent, as in the twin rounds: the same concurrency on both servers.
  const requests = world.agents.map((agent) =>
    kind === 'bare'
      ? getRequest(ports.bare, '/bare')
      : kind === 'sized'
        ? getRequest(ports.bare, '/bare-sized')
        : getRequest(ports.twin, '/api/chess/games/my-turn', agent.apiKey),
  );
  const client = kind === 'bare' || kind === 'sized' ? clients.bare : clients.twin;
  const [round, cpuMs] = await withCpu(() => rawRound(client, requests, seconds));
  return fromRaw(kind, round, cpuMs);
}

function serve(): void {
  let clients: { twin: RawClient; bare: RawClient } | undefined;
  let ports: { twin: number; bare: number } | undefined;
  let world: LoadWorld | undefined;
  const send = (message: FromClient): void => {
    process.send!(message);
  };
  const handle = async (message: ToClient): Promise<void> => {
    if (message.type === 'close') {
      clients?.twin.close();
      clients?.bare.close();
      process.disconnect();
      return;
    }
    if (message.type === 'enrol') {
      clients = { twin: new RawClient(message.twinPort), bare: new RawClient(message.barePort) };
      ports = { twin: message.twinPort, bare: message.barePort };
      world = await enrolAgents(clients.twin, message.agents, message.seed);
      send({ type: 'ready' });
      return;
    }
    if (!clients || !world || !ports) throw new Error('load client: a round before enrol');
    const report = await measure(message.kind, message.seconds, clients, world, ports);
    send({ type: 'round', report });
  };
  process.on('message', (message: ToClient) => {
    handle(message).catch((error: unknown) =>
      send({
        type: 'error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    );
  });
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && process.send !== undefined) serve();
