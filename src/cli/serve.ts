import { fileURLToPath } from 'node:url';
import { networkInterfaces } from 'node:os';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadScenarioFileWithSource, ScenarioError, type Scenario, type ScenarioWithSource } from '../sim/scenario.js';
import { LiveWorld } from '../sim/live.js';
import { buildServer } from '../http/server.js';
import { newControlToken, newKeySecret } from '../http/secrets.js';
import { LiveServer, registerSimControl } from '../http/sim-control.js';
import { explainScenarioErrors } from './run.js';

interface ServeArgs {
  port: number;
  host: string;
  seed?: string;
  scenario?: string;
  speed: number;
  manual: boolean;
  log: boolean;
  controlToken?: string;
  allowHost?: string[];
  allowOrigin?: string[];
}

const DEFAULT_SCENARIO = fileURLToPath(new URL('../../../scenarios/serve.yaml', import.meta.url));
const TICK_MS = 50;

export const serveCommand = {
  command: 'serve',
  describe: 'Serve the platform twin over HTTP, with simulated agents playing in the background',
  builder: (y: Argv) =>
    y
      .option('port', { type: 'number', default: 8787, describe: 'TCP port (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on (anything but loopback exposes the twin and its control plane to the network)' })
      .option('seed', { type: 'string', describe: "override the scenario's seed" })
      .option('scenario', { type: 'string', describe: 'the background population (default: scenarios/serve.yaml)' })
      .option('speed', { type: 'number', default: 1, describe: 'virtual seconds per wall second' })
      .option('manual', { type: 'boolean', default: false, describe: 'the clock moves only through POST /_sim/clock/advance, /set and /step' })
      .option('log', { type: 'boolean', default: false, describe: 'log each request (API keys and tokens are redacted)' })
      .option('control-token', { type: 'string', describe: 'the /_sim control token (default: $ACS_CONTROL_TOKEN, else a random one printed at start)' })
      .option('allow-host', { type: 'string', array: true, describe: 'a further host name the server answers to (Host header)' })
      .option('allow-origin', { type: 'string', array: true, describe: 'a web origin (http://host:port) whose pages may call the server' })
      .example('$0 serve --port 8787 --speed 10', 'ten virtual seconds per second')
      .example('$0 serve --manual', 'step the clock yourself'),
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    process.exitCode = await serve(args);
  },
};

async function serve(args: ServeArgs): Promise<number> {
  const problem = argumentProblem(args);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    return 2;
  }
  const loaded = loadOrExplain(args.scenario ?? DEFAULT_SCENARIO, args.seed);
  if (!loaded) return 2;
  // Keys and the control token come from the OS, never from the seed: a copy of this server cannot guess them.
  const world = await explainScenarioErrors(() => LiveWorld.start(loaded, { keySecret: newKeySecret() }));
  if (!world) return 2;
  const controlToken = args.controlToken ?? (process.env['ACS_CONTROL_TOKEN'] || undefined) ?? newControlToken();
  const live = new LiveServer(world, { clock: { manual: args.manual, speed: args.speed }, own: loaded, wallClockMs: () => performance.now() });
  const guard = { controlToken, allowedHosts: [args.host, ...(args.allowHost ?? []), ...wildcardHosts(args.host)], allowedOrigins: args.allowOrigin ?? [] };
  const app = buildServer(live, { logger: args.log, guard, virtualNowMs: () => live.current.nowMs, extend: (a) => registerSimControl(a, live) });
  const listening = await listenOrExplain(app, args);
  if (!listening) return 2;
  const { port } = app.server.address() as AddressInfo;
  printWelcome(`http://${urlHost(args.host)}:${port}`, loaded.scenario, live, controlToken);
  warnIfExposed(args.host);
  const stopClock = live.clock.manual ? () => undefined : runClock(live);
  const signal = await untilSignal();
  stopClock();
  live.cancel();
  await app.close();
  process.stdout.write(`${signal}: stopped the server at virtual ${new Date(live.current.nowMs).toISOString()}; nothing was saved (GET /_sim/snapshot keeps a world)\n`);
  return 0;
}

function argumentProblem(args: ServeArgs): string | undefined {
  if (!(args.speed > 0 && args.speed <= 100_000)) return '--speed: must be more than 0 and at most 100000';
  if (!(Number.isInteger(args.port) && args.port >= 0 && args.port <= 65535)) return '--port: must be an integer from 0 to 65535';
  const token = args.controlToken ?? (process.env['ACS_CONTROL_TOKEN'] || undefined);
  if (token !== undefined && !/^[A-Za-z0-9._~+/=-]{16,256}$/.test(token)) return '--control-token (or ACS_CONTROL_TOKEN): 16 to 256 characters of letters, digits and ._~+/=-';
  return undefined;
}

async function listenOrExplain(app: FastifyInstance, args: ServeArgs): Promise<boolean> {
  try {
    await app.listen({ port: args.port, host: args.host });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${args.port} is in use (try --port 0 for a free one)` : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? `no such address here: ${args.host}` : String((error as Error).message);
    process.stderr.write(`serve: cannot listen on ${args.host}:${args.port}: ${reason}\n`);
    await app.close();
    return false;
  }
}

function loadOrExplain(path: string, seed: string | undefined): ScenarioWithSource | undefined {
  try {
    return loadScenarioFileWithSource(path, seed);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

/**
 * Real time (times `speed`) drives the virtual clock; the wall clock is read only here, in the CLI. Each
 * step is an advance in slices (other clients are answered meanwhile); while one runs, time owed carries.
 */
function runClock(live: LiveServer): () => void {
  let lastWall = performance.now();
  let carry = 0;
  const timer = setInterval(() => {
    const wall = performance.now();
    carry += (wall - lastWall) * live.clock.speed;
    lastWall = wall;
    const step = Math.floor(carry);
    if (step < 1 || live.job) return;
    carry -= step;
    void live.tick(step);
  }, TICK_MS);
  return () => clearInterval(timer);
}

function printWelcome(origin: string, scenario: Scenario, live: LiveServer, controlToken: string): void {
  const clock = live.clock.manual ? 'manual clock' : `clock at ${live.clock.speed}x real time`;
  const sim = `curl -s ${origin}/_sim/clock -H 'authorization: Bearer ${controlToken}'`;
  const auth = `-H "authorization: Bearer $KEY"`;
  const json = `-H 'content-type: application/json'`;
  const lines = [
    `agent-chess-sim twin: ${origin}/api  (scenario ${scenario.name}, seed ${scenario.seed}, ${live.current.world.agents.length} background agents, ${clock})`,
    'register an agent, and keep its key:',
    `  KEY=$(curl -s -X POST ${origin}/api/register ${json} -d '{"handle":"my_agent"}' | sed -E 's/.*"api_key":"([^"]+)".*/\\1/')`,
    'a first game: post once (the research phase), open a challenge, wait for your turn, move:',
    `  curl -s -X POST ${origin}/api/social/post ${auth} ${json} -d '{"content":"hello from my_agent"}'`,
    `  curl -s -X POST ${origin}/api/chess/challenge ${auth} ${json} -d '{}'`,
    `  curl -s ${origin}/api/chess/games/my-turn ${auth}`,
    `  curl -s -X POST ${origin}/api/chess/move ${auth} ${json} -d '{"game_id":"<game_id from my-turn>","move_uci":"e2e4"}'`,
    live.clock.manual ? '' : `at ${live.clock.speed}x a background agent may take a minute to accept; --speed 60 runs a virtual minute per second.`,
    `API docs: ${origin}/docs  OpenAPI: ${origin}/openapi.json`,
    `simulator control token (keep it private; every /_sim route needs it): ${controlToken}`,
    `  ${sim}`,
    `  /_sim/clock/advance {"ms":60000}, /set, /step, /cancel; /_sim/snapshot, /_sim/restore, /_sim/airdrop, /_sim/invariants, /_sim/humans, /_sim/network/posts`,
    'Ctrl-C stops the server.',
  ];
  process.stdout.write(`${lines.filter((line) => line !== '').join('\n')}\n`);
}

/** Binding anything but loopback puts the API (keys are bearer tokens over plain HTTP) and the control plane on the network. */
function warnIfExposed(host: string): void {
  if (isLoopback(host)) return;
  process.stderr.write(
    `warning: serve is listening on ${host}, not loopback: anyone who can reach this machine can register agents, read the feed, ` +
      'and send API keys and the control token over plain HTTP where they can be read; the control plane (/_sim: clock, snapshots with every key secret, restore, airdrops) is protected only by the token\n',
  );
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** A wildcard bind answers on every interface: the machine's own addresses are then names of this server. */
function wildcardHosts(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
