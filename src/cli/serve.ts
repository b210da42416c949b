import { renameSync, writeFileSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv, Options } from 'yargs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ScenarioError, type Scenario, type ScenarioWithSource } from '../sim/scenario/scenario.js';
import { LiveWorld } from '../sim/live.js';
import {
  DEFAULT_SERVE_SCENARIO,
  loadServeScenario,
  RESEARCH_PRESETS,
  type ResearchPreset,
  type ServeChoices,
} from '../lib/serve-scenario.js';
import { QUOTA_POLICIES, type QuotaPolicy } from '../rules/daily-quota.js';
import { newKeySecret } from '../http/secrets.js';
import {
  argvTokenWarning,
  controlAuthHeader,
  controlTokenLine,
  dashboardLink,
  resolveControlToken,
  type ControlToken,
} from './control-token.js';
import type { LiveServer, SessionReportWriter } from '../http/live-server.js';
import { sessionReportWriter } from '../lib/session-report.js';
import { welcomeLines } from '../lib/serve-banner.js';
import { isLoopback, serveApp, urlHost } from '../lib/serve-app.js';
import { OutputError } from '../report/write.js';
import { MAX_SPEED } from '../api/contract/control.js';
import { loadFaultProfileFile } from '../faults/profile-file.js';
import { explainScenarioErrors } from './scenario-errors.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface ServeArgs {
  port: number;
  host: string;
  seed?: string;
  scenario?: string;
  speed: number;
  manual: boolean;
  log: boolean;
  controlToken?: string;
  controlTokenFile?: string;
  allowHost?: string[];
  allowOrigin?: string[];
  quota?: QuotaPolicy;
  research?: ResearchPreset;
  start?: string;
  readyFile?: string;
  faults?: string;
  out?: string;
}

// The scenario serve runs (its defaults, SERVE_RULESET, and the flags over them) is built in the library,
// which startTwin shares: src/lib/serve-scenario.ts; its banner and quota notices are src/lib/serve-banner.ts
// and src/lib/quota-notices.ts.

const TICK_MS = 50;

/** serve's options, in the order --help lists them (data: the builder registers them at once). */
const SERVE_OPTIONS = {
  port: { type: 'number', default: 8787, describe: 'TCP port (0 picks a free one)' },
  host: {
    type: 'string',
    default: '127.0.0.1',
    describe:
      'address to listen on (anything but loopback exposes the twin and its control plane to the network)',
  },
  seed: { type: 'string', describe: "override the scenario's seed" },
  scenario: {
    type: 'string',
    describe: 'the background population (default: scenarios/serve.yaml)',
  },
  speed: { type: 'number', default: 1, describe: 'virtual seconds per wall second' },
  manual: {
    type: 'boolean',
    default: false,
    describe: 'the clock moves only through POST /_sim/clock/advance, /set and /step',
  },
  log: {
    type: 'boolean',
    default: false,
    describe: 'log each request (API keys and tokens are redacted)',
  },
  'control-token': {
    type: 'string',
    describe:
      'the /_sim control token; visible to other users in ps, so prefer $ACS_CONTROL_TOKEN or --control-token-file (default: $ACS_CONTROL_TOKEN, else a random one printed at start)',
  },
  'control-token-file': {
    type: 'string',
    describe: 'read the /_sim control token from this file (one trailing newline ignored)',
  },
  'allow-host': {
    type: 'string',
    array: true,
    describe: 'a further host name the server answers to (Host header)',
  },
  'allow-origin': {
    type: 'string',
    array: true,
    describe: 'a web origin (http://host:port) whose pages may call the server',
  },
  quota: {
    type: 'string',
    choices: QUOTA_POLICIES,
    describe:
      "past the daily request quota (5000 per key, UTC day): warn answers with an x-quota-warning header and names the agent on the console, enforce refuses with 429 and Retry-After (as the real service may), off neither (default: the scenario's ruleset.api.quota, else warn)",
  },
  research: {
    type: 'string',
    choices: RESEARCH_PRESETS,
    describe:
      "onboarding before play: strict is the real service's (1 post, follow 10, like 10, or verify), spec one post (default: the scenario's ruleset.research, else strict)",
  },
  'ready-file': {
    type: 'string',
    describe:
      'once listening, write {"url","api","control_token","pid","now"} as JSON to this file (atomically: written beside it, then renamed), for a test harness in any language',
  },
  faults: {
    type: 'string',
    describe:
      'a fault profile (YAML, e.g. faults/light.yaml) that HTTP clients meet: latency, 5xx from a proxy, resets, hangs, broken JSON, 429 bursts, outages, stale reads, lost answers; GET/POST /_sim/faults reads or replaces it',
  },
  out: {
    type: 'string',
    describe:
      "write the session's report set here when the server stops (Ctrl-C, SIGTERM), as run --out does: report.json, games.pgn, report.html, junit.xml, summary.md, with verdicts for the agents registered over HTTP; POST /_sim/report writes it on demand",
  },
  start: {
    type: 'string',
    describe:
      "the virtual clock's start, UTC, e.g. 2026-01-01T00:00:00Z (default: the scenario's start, else the wall clock to the second)",
  },
} satisfies Record<string, Options>;

export const serveCommand = {
  ...COMMAND_SUMMARIES.serve,
  builder: (y: Argv) =>
    y
      .options(SERVE_OPTIONS)
      .example('$0 serve --port 8787 --speed 10', 'ten virtual seconds per second')
      .example('$0 serve --manual', 'step the clock yourself')
      .example(
        '$0 serve --quota enforce --research spec --start 2026-01-01T00:00:00Z',
        'refuse past the quota, one post unlocks play, a fixed start',
      ),
  handler: async (args: ArgumentsCamelCase<ServeArgs>) => {
    process.exitCode = await serve(args);
  },
};

async function serve(args: ServeArgs): Promise<number> {
  const token = resolveControlToken(args, process.env);
  const problem = argumentProblem(args) ?? (typeof token === 'string' ? token : undefined);
  if (problem || typeof token === 'string') {
    process.stderr.write(`${problem}\n`);
    return 2;
  }
  const served = await startServing(args, token);
  if (served === undefined) return 2;
  const { live, app, sessionReport } = served;
  const stopClock = runClock(live);
  const signal = await untilSignal();
  stopClock();
  live.cancel();
  await app.close();
  const stopped = `${signal}: stopped the server at virtual ${new Date(live.current.nowMs).toISOString()}`;
  if (!sessionReport) {
    process.stdout.write(
      `${stopped}; nothing was saved (GET /_sim/snapshot keeps a world; --out DIR keeps a report)\n`,
    );
    return 0;
  }
  return writeFinalReport(live, stopped);
}

/** The twin listening, its banner printed and its ready file written; undefined after the line saying why not. */
async function startServing(args: ServeArgs, token: ControlToken) {
  // Today's date comes from here only (src/cli/): a scenario with no start of its own begins now, to the second.
  const loaded = loadOrExplain(args.scenario ?? DEFAULT_SERVE_SCENARIO, args, Date.now());
  if (!loaded) return undefined;
  // Keys and the control token come from the OS, never from the seed: a copy of this server cannot guess them.
  const world = await explainScenarioErrors(() => LiveWorld.start(loaded, { keySecret: newKeySecret() }));
  if (!world) return undefined;
  const faults = args.faults === undefined ? undefined : loadFaultProfileFile(args.faults);
  if (typeof faults === 'string') {
    process.stderr.write(`${faults}\n`);
    return undefined;
  }
  const sessionReport = args.out === undefined ? undefined : reportWriterOrExplain(args.out, loaded.scenario);
  if (sessionReport === null) return undefined;
  const { live, app } = serveApp(world, {
    own: loaded,
    ...(faults ? { faults } : {}),
    ...(sessionReport ? { sessionReport } : {}),
    clock: { manual: args.manual, speed: args.speed },
    wallClockMs: () => performance.now(),
    guard: {
      controlToken: token.value,
      host: args.host,
      allowHost: args.allowHost ?? [],
      allowOrigin: args.allowOrigin ?? [],
    },
    log: args.log,
    onQuotaLine: (line) => process.stderr.write(`${line}\n`),
  });
  if (!(await listenOrExplain(app, args)) || !(await announce(args, token, loaded.scenario, live, app)))
    return undefined;
  return { live, app, sessionReport };
}

/** The banner, the ready file and the warnings, once listening; false (the server closed) when the ready file cannot be written. */
async function announce(
  args: ServeArgs,
  token: ControlToken,
  scenario: Scenario,
  live: LiveServer,
  app: FastifyInstance,
): Promise<boolean> {
  const { port } = app.server.address() as AddressInfo;
  const origin = `http://${urlHost(args.host)}:${port}`;
  printWelcome(origin, scenario, live, token);
  const ready = { origin, controlToken: token.value, nowMs: live.current.nowMs };
  if (args.readyFile && !readyFileWritten(args.readyFile, ready)) {
    await app.close();
    return false;
  }
  warnIfExposed(args.host);
  const argvWarning = argvTokenWarning(token);
  if (argvWarning) process.stderr.write(`${argvWarning}\n`);
  return true;
}

/** The --out writer, or null after one line saying why the folder cannot be written. */
function reportWriterOrExplain(dir: string, scenario: Scenario): SessionReportWriter | null {
  try {
    const replay = `a serve session of scenario ${scenario.name}, seed ${scenario.seed}: run does not replay its HTTP requests (GET /_sim/snapshot and POST /_sim/restore do)`;
    return sessionReportWriter(dir, replay);
  } catch (error) {
    if (!(error instanceof OutputError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return null;
  }
}

/** At stop: the job cancelled above ends at its next slice, then the report is written. A stop is not a failure: exit 0 either way, the report tells. */
async function writeFinalReport(live: LiveServer, stopped: string): Promise<number> {
  while (live.job) await new Promise((resolve) => setTimeout(resolve, 10));
  const written = await live.writeReport();
  process.stdout.write(
    `${stopped}; wrote ${written.files.join(', ')} (${written.agents} agents with a verdict${written.failed ? '; an invariant broke' : ''})\n`,
  );
  return 0;
}

function argumentProblem(args: ServeArgs): string | undefined {
  if (!(args.speed > 0 && args.speed <= MAX_SPEED))
    return `--speed: must be more than 0 and at most ${MAX_SPEED}`;
  if (!(Number.isInteger(args.port) && args.port >= 0 && args.port <= 65535))
    return '--port: must be an integer from 0 to 65535';
  return undefined;
}

async function listenOrExplain(app: FastifyInstance, args: ServeArgs): Promise<boolean> {
  try {
    await app.listen({ port: args.port, host: args.host });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${args.port} is in use (try --port 0 for a free one)`
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? `no such address here: ${args.host}`
          : String((error as Error).message);
    process.stderr.write(`serve: cannot listen on ${args.host}:${args.port}: ${reason}\n`);
    await app.close();
    return false;
  }
}

function loadOrExplain(
  path: string,
  choices: ServeChoices,
  wallNowMs: number,
): ScenarioWithSource | undefined {
  try {
    return loadServeScenario(path, choices, wallNowMs);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

/**
 * Real time (times `speed`) drives the virtual clock; the wall clock is read only here, in the CLI. Each
 * step is an advance in slices (other clients are answered meanwhile); while one runs, time owed carries.
 * While the clock is manual (--manual, or paused by /_sim/clock/pause) no time is owed, and the speed is
 * read at every step, so /_sim/clock/speed and /resume take effect at the next one.
 */
function runClock(live: LiveServer): () => void {
  let lastWall = performance.now();
  let carry = 0;
  const timer = setInterval(() => {
    const wall = performance.now();
    carry = live.clock.manual ? 0 : carry + (wall - lastWall) * live.clock.speed;
    lastWall = wall;
    const step = Math.floor(carry);
    if (step < 1 || live.job) return;
    carry -= step;
    void live.tick(step);
  }, TICK_MS);
  return () => clearInterval(timer);
}

/**
 * The machine-readable door for harnesses in other languages: where the twin listens, its control token and
 * this process's id. Written to a temporary name beside the file and renamed over it, so a reader polling for
 * the file never sees half of it; mode 0600, since it holds the token.
 */
function readyFileWritten(
  path: string,
  ready: { origin: string; controlToken: string; nowMs: number },
): boolean {
  const temporary = `${path}.${process.pid}.tmp`;
  const body = {
    url: ready.origin,
    api: `${ready.origin}/api`,
    control_token: ready.controlToken,
    pid: process.pid,
    now: new Date(ready.nowMs).toISOString(),
  };
  try {
    writeFileSync(temporary, `${JSON.stringify(body)}\n`, { mode: 0o600 });
    renameSync(temporary, path);
    return true;
  } catch (error) {
    process.stderr.write(`serve: cannot write --ready-file ${path}: ${(error as Error).message}\n`);
    return false;
  }
}

function printWelcome(origin: string, scenario: Scenario, live: LiveServer, token: ControlToken): void {
  const banner = {
    auth: controlAuthHeader(token),
    dashboard: dashboardLink(origin, token),
    line: controlTokenLine(token),
  };
  process.stdout.write(`${welcomeLines(origin, scenario, live, banner).join('\n')}\n`);
}

/** Binding anything but loopback puts the API (keys are bearer tokens over plain HTTP) and the control plane on the network. */
function warnIfExposed(host: string): void {
  if (isLoopback(host)) return;
  process.stderr.write(
    `warning: serve is listening on ${host}, not loopback: anyone who can reach this machine can register agents, read the feed, ` +
      'and send API keys and the control token over plain HTTP where they can be read; the control plane (/_sim: clock, snapshots with every key secret, restore, airdrops) is protected only by the token\n',
  );
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
