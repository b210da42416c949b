import { fileURLToPath } from 'node:url';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { AddressInfo } from 'node:net';
import { loadScenarioFile, ScenarioError, type Scenario } from '../sim/scenario.js';
import { LiveWorld } from '../sim/live.js';
import { buildServer } from '../http/server.js';
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
}

const DEFAULT_SCENARIO = fileURLToPath(new URL('../../../scenarios/serve.yaml', import.meta.url));
const TICK_MS = 50;

export const serveCommand = {
  command: 'serve',
  describe: 'Serve the platform twin over HTTP, with simulated agents playing in the background',
  builder: (y: Argv) =>
    y
      .option('port', { type: 'number', default: 8787, describe: 'TCP port (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on' })
      .option('seed', { type: 'string', describe: "override the scenario's seed" })
      .option('scenario', { type: 'string', describe: 'the background population (default: scenarios/serve.yaml)' })
      .option('speed', { type: 'number', default: 1, describe: 'virtual seconds per wall second' })
      .option('manual', { type: 'boolean', default: false, describe: 'the clock moves only through POST /_sim/clock/advance, /set and /step' })
      .option('log', { type: 'boolean', default: false, describe: 'log each request (API keys are redacted)' })
      .example('$0 serve --port 8787 --speed 10', 'ten virtual seconds per second')
      .example('$0 serve --manual', 'step the clock yourself'),
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    process.exitCode = await serve(args);
  },
};

async function serve(args: ServeArgs): Promise<number> {
  if (!(args.speed > 0 && args.speed <= 100_000)) {
    process.stderr.write('--speed: must be more than 0 and at most 100000\n');
    return 2;
  }
  const scenario = loadOrExplain(args.scenario ?? DEFAULT_SCENARIO, args.seed);
  if (!scenario) return 2;
  const world = await explainScenarioErrors(() => LiveWorld.start(scenario));
  if (!world) return 2;
  const live = new LiveServer(world, { manual: args.manual, speed: args.speed });
  const app = buildServer(live, { logger: args.log, extend: (a) => registerSimControl(a, live) });
  await app.listen({ port: args.port, host: args.host });
  const { port } = app.server.address() as AddressInfo;
  printWelcome(`http://${args.host}:${port}`, scenario, live);
  const stopClock = live.clock.manual ? () => undefined : runClock(live);
  await untilSignal();
  stopClock();
  await app.close();
  return 0;
}

function loadOrExplain(path: string, seed: string | undefined): Scenario | undefined {
  try {
    return loadScenarioFile(path, seed);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

/** Real time (times `speed`) drives the virtual clock; the wall clock is read only here, in the CLI. */
function runClock(live: LiveServer): () => void {
  let lastWall = performance.now();
  let carry = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    const wall = performance.now();
    carry += (wall - lastWall) * live.clock.speed;
    lastWall = wall;
    const step = Math.floor(carry);
    if (step < 1) return;
    carry -= step;
    busy = true;
    void live.current.advanceTo(live.current.nowMs + step).finally(() => (busy = false));
  }, TICK_MS);
  return () => clearInterval(timer);
}

function printWelcome(origin: string, scenario: Scenario, live: LiveServer): void {
  const clock = live.clock.manual ? 'manual clock (POST /_sim/clock/advance {"ms": 60000})' : `clock at ${live.clock.speed}x real time`;
  const lines = [
    `agent-chess-sim twin: ${origin}/api  (scenario ${scenario.name}, seed ${scenario.seed}, ${live.current.world.agents.length} background agents, ${clock})`,
    'register an agent:',
    `  curl -s -X POST ${origin}/api/register -H 'content-type: application/json' -d '{"handle":"my_agent"}'`,
    `then send its key as 'Authorization: Bearer <api_key>'. API docs: ${origin}/docs  OpenAPI: ${origin}/openapi.json`,
    `simulator: ${origin}/_sim/clock, /_sim/snapshot, /_sim/restore, /_sim/airdrop, /_sim/invariants, /_sim/humans, /_sim/network/posts`,
    'Ctrl-C stops the server.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
