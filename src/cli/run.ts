import type { ArgumentsCamelCase, Argv } from 'yargs';
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { loadScenarioFile, parseScenario, ScenarioError, type Scenario } from '../sim/scenario/scenario.js';
import { World, type RunOutcome, type WorldOptions } from '../sim/world.js';
import { OutputError, OutputStage, renderRunReport, type RunContext } from '../report/write.js';
import { socialLines, type Report } from '../report/report.js';
import { verdictLines } from '../report/verdict-table.js';
import type { Tally } from '../report/verdicts.js';
import { agentNames } from '../report/agent-names.js';
import { buildAgentMatch, type AgentMatch } from '../report/agent-match.js';
import { eloLine, scoreLine } from '../report/match-lines.js';
import { describeCrossCheck } from '../escrow/litesvm.js';
import { EventLogWriter } from '../report/event-log.js';
import { findAgent } from '../platform/identity/identity.js';
import { PERSONAS } from '../../agents/registry.js';
import { invariantStatus, statusCounts } from '../sim/invariants/exercised.js';
import { LEVELS } from '../../agents/engines/levels.js';
import { EnginePool } from '../../agents/engines/pool.js';
import type { AgentCrash } from '../faults/run-faults.js';
import { toIso } from '../kernel/clock.js';
import { explainScenarioErrors } from './scenario-errors.js';

export interface RunArgs {
  scenario?: string;
  seed?: string;
  out: string;
  progress: boolean;
  crossCheck?: boolean;
  checkWire?: boolean;
  requireExercised?: boolean;
  agent?: string;
  agentUci?: string;
  vs?: string;
  games?: number;
  events?: string;
}

const DEFAULT_VS = 'random,sf-3';
const DEFAULT_GAMES = 20;
const MAX_GAMES = 10_000;

export const runCommand = {
  command: 'run [scenario]',
  describe:
    'Run a scenario (or your agent against chosen opponents) on the virtual clock; write report.json, games.pgn, junit.xml and summary.md',
  builder: (y: Argv) =>
    y
      .positional('scenario', {
        type: 'string',
        describe: 'scenario YAML file, e.g. scenarios/smoke.yaml (not with --agent)',
      })
      .option('seed', { type: 'string', describe: "override the scenario's seed" })
      .option('out', { type: 'string', default: 'reports/latest', describe: 'folder for the report files' })
      .option('progress', {
        type: 'boolean',
        default: true,
        describe: 'print progress to stderr (a bar on a terminal, a line every 5% or 10 s otherwise)',
      })
      .option('check-wire', {
        type: 'boolean',
        describe:
          'check every answer against the route contracts (as CI does); the run fails if one leaves them',
      })
      .option('cross-check', {
        type: 'boolean',
        describe:
          'replay every ledger transfer through the real Solana runtime (litesvm) and compare balances; writes crosscheck.txt',
      })
      .option('require-exercised', {
        type: 'boolean',
        describe:
          "require every invariant to run at least one check (as the scenario's requireExercised does for named ones); one that runs none fails the run",
      })
      .option('events', {
        type: 'string',
        describe:
          'also write the canonical event log (the text the fingerprint hashes) to this file, gzip-compressed when it ends .gz; compare two with agent-chess-sim diff',
      })
      .option('agent', {
        type: 'string',
        describe: 'your in-process agent module (.mjs, .js, .ts): play it against --vs',
      })
      .option('agent-uci', {
        type: 'string',
        describe: 'a UCI engine binary to play against --vs instead of a module',
      })
      .option('vs', {
        type: 'string',
        describe: `opponents for --agent: personas and engine levels, comma-separated (default ${DEFAULT_VS})`,
      })
      .option('games', {
        type: 'number',
        describe: `how many games --agent should finish: the run ends then (default ${DEFAULT_GAMES})`,
      })
      .example(
        '$0 run scenarios/smoke.yaml --seed 7 --out reports/smoke',
        'run the smoke scenario with seed 7',
      )
      .example(
        '$0 run --agent ./my-agent.mjs --vs random,sf-3,sf-5 --games 30',
        'score your agent against random and two engine levels',
      ),
  handler: async (args: ArgumentsCamelCase<RunArgs>) => {
    keepRunningWhenStdoutCloses();
    const code = await run(args);
    // An interrupted run may leave engine searches or UCI processes behind: stop now rather than wait for them.
    if (code >= INTERRUPT_EXIT) process.exit(code);
    process.exitCode = code;
  },
};

/** `run ... | head`: a reader that stops reading must not crash the run with EPIPE; the report is still written. */
function keepRunningWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

/** What `run` plays: a scenario, and for `--agent` the match whose score lines it prints. */
interface Plan {
  scenario: Scenario;
  replay: string;
  /**
   * `run --agent`: the agent under test is the world's first agent; the run ends once it has finished
   * `games` games. Every agent is named by src/report/agent-names.ts.
   */
  match?: { games: number };
}

/** Exit codes: 0 no invariant broke (and every required one was exercised), 1 an invariant broke or a required one ran no check, 2 bad arguments, scenario or output folder, 130 interrupted (143 on SIGTERM). */
async function run(args: RunArgs): Promise<number> {
  const problem = argumentProblem(args);
  if (problem) return refuse(problem);
  let plan: Plan;
  let stage: OutputStage;
  let log: EventLogWriter | undefined;
  try {
    plan = args.agent !== undefined || args.agentUci !== undefined ? agentPlan(args) : scenarioPlan(args);
    if (args.requireExercised) plan = requireAllExercised(plan);
    stage = OutputStage.prepare(args.out);
  } catch (error) {
    if (error instanceof ScenarioError) return refuse(error.message, '');
    if (error instanceof OutputError) return refuse(error.message);
    throw error;
  }
  try {
    log = args.events === undefined ? undefined : new EventLogWriter(args.events);
  } catch (error) {
    stage.discard();
    return refuse(`--events ${args.events}: cannot write it (${(error as Error).message.split('\n')[0]})`);
  }
  try {
    return await runPlan(plan, stage, args, log);
  } finally {
    log?.discard();
    stage.discard();
  }
}

/** `--require-exercised`: every invariant the run checks must run at least one check; the replay command keeps the option. */
function requireAllExercised(plan: Plan): Plan {
  return {
    ...plan,
    scenario: { ...plan.scenario, requireExercised: 'all' },
    replay: `${plan.replay} --require-exercised`,
  };
}

function refuse(message: string, prefix = 'agent-chess-sim run: '): number {
  process.stderr.write(`${prefix}${message}\n`);
  return 2;
}

/** Checks the arguments alone, before the run starts: one line naming the option, or undefined. */
export function argumentProblem(args: RunArgs): string | undefined {
  const byAgent = args.agent !== undefined || args.agentUci !== undefined;
  if (args.seed !== undefined && args.seed.trim() === '')
    return "--seed: give a value, e.g. --seed 7 (or leave --seed out to use the scenario's)";
  if (args.out.trim() === '') return '--out: give a folder, e.g. --out reports/latest';
  if (args.events !== undefined && args.events.trim() === '')
    return '--events: give a file, e.g. --events reports/latest/events.jsonl.gz';
  if (args.agent !== undefined && args.agentUci !== undefined) return 'give --agent or --agent-uci, not both';
  if (byAgent && args.scenario !== undefined)
    return `give a scenario file or --agent, not both (got ${args.scenario})`;
  if (!byAgent && args.scenario === undefined)
    return 'name a scenario file (e.g. scenarios/smoke.yaml), or give --agent ./my-agent.mjs';
  if (!byAgent && (args.vs !== undefined || args.games !== undefined))
    return '--vs and --games go with --agent (or --agent-uci)';
  if (!byAgent) return undefined;
  if (args.agentUci !== undefined && args.agentUci.trim() === '')
    return '--agent-uci: give the engine binary, e.g. --agent-uci /usr/games/stockfish';
  if (
    args.games !== undefined &&
    !(Number.isSafeInteger(args.games) && args.games >= 1 && args.games <= MAX_GAMES)
  )
    return `--games: must be a whole number from 1 to ${MAX_GAMES}`;
  return (
    (args.vs === undefined ? undefined : opponentsProblem(args.vs)) ??
    (args.agent === undefined ? undefined : agentFileProblem(args.agent))
  );
}

function agentFileProblem(path: string): string | undefined {
  if (path.trim() === '') return '--agent: give your agent module, e.g. --agent ./my-agent.mjs';
  if (!existsSync(path)) return `--agent ${path}: no such file`;
  if (!statSync(path).isFile()) return `--agent ${path}: not a file`;
  return undefined;
}

function scenarioPlan(args: RunArgs): Plan {
  const scenario = loadScenarioFile(args.scenario!, args.seed);
  const crossCheck = args.crossCheck ? ' --cross-check' : '';
  return {
    scenario,
    replay: `npx agent-chess-sim run ${shellWord(args.scenario!)} --seed ${shellWord(scenario.seed)}${crossCheck}`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// run --agent: a scenario built in memory

/** Opponent personas `--vs` may name: every chess-playing persona that needs no settings of its own. */
const OPPONENT_PERSONAS = [...PERSONAS.keys()].filter((name) => !['human', 'uci', 'engine'].includes(name));
const LEVEL_NAMES = LEVELS.map((level) => level.name);

/** Heartbeats as the platform's skill tells real agents to poll (every 30-60 s). */
const AGENT_HEARTBEAT = { min: '30s', max: '60s' };
/** Opponents poll a little slower, so that over a whole virtual day they stay under the 5000-request quota and never lose on time for want of requests. */
const OPPONENT_HEARTBEAT = { min: '45s', max: '90s' };
/**
 * The most virtual time `run --agent` gives each game it asks for. The run ends at the first instant the
 * agent has finished `--games` games; this bound only stops an agent that rarely finishes one. Measured with
 * agents/examples/material-agent.mjs (2 games at a time) against random and sf-3: 51 games in 9.3 virtual
 * hours, about 11 minutes each, so an hour a game is 5 times that.
 */
const MAX_VIRTUAL_MS_PER_AGENT_GAME = 60 * 60_000;

function opponentsProblem(vs: string): string | undefined {
  const names = vs.split(',').map((n) => n.trim());
  if (names.some((n) => n === ''))
    return `--vs ${vs}: an empty name; write the opponents comma-separated, e.g. --vs ${DEFAULT_VS}`;
  const unknown = names.filter((n) => !OPPONENT_PERSONAS.includes(n) && !LEVEL_NAMES.includes(n));
  if (unknown.length === 0) return undefined;
  return `--vs: unknown opponent ${unknown.join(', ')} (personas: ${OPPONENT_PERSONAS.join(', ')}; engine levels: ${LEVEL_NAMES[0]} to ${LEVEL_NAMES.at(-1)})`;
}

function agentPlan(args: RunArgs): Plan {
  const opponents = [...new Set((args.vs ?? DEFAULT_VS).split(',').map((n) => n.trim()))];
  const games = args.games ?? DEFAULT_GAMES;
  const seed = args.seed ?? '20261121';
  const player =
    args.agent !== undefined ? basename(args.agent, extname(args.agent)) : basename(args.agentUci!);
  const raw = {
    name: `${player} vs ${opponents.join(',')}`,
    seed,
    start: '2026-01-01T00:00:00Z',
    duration: `${games * (MAX_VIRTUAL_MS_PER_AGENT_GAME / 60_000)}m`,
    population: [agentGroup(args), ...opponents.map(opponentGroup)],
  };
  // Labels a reader recognises, in place of population[i]: in the verdicts, and in a module's load errors.
  const labels = [
    args.agent !== undefined ? '--agent' : '--agent-uci',
    ...opponents.map((name) => `--vs ${name}`),
  ];
  const parsed = parseWithLabels(JSON.stringify(raw), raw.name, labels);
  const population = parsed.population.map((group, i) => ({ ...group, label: labels[i]! }));
  const who =
    args.agent !== undefined
      ? `--agent ${shellWord(args.agent)}`
      : `--agent-uci ${shellWord(args.agentUci!)}`;
  const replay = `npx agent-chess-sim run ${who} --vs ${opponents.join(',')} --games ${games} --seed ${shellWord(seed)}`;
  // A module is named by its own factory once loaded; an engine binary by its file name rather than `uci`.
  return {
    scenario: { ...parsed, population },
    replay,
    match: { games },
  };
}

/** parseScenario, with `population[i]` in its problems named by `labels[i]`. */
function parseWithLabels(text: string, source: string, labels: readonly string[]): Scenario {
  try {
    return parseScenario(text, source, undefined, process.cwd());
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    throw new ScenarioError(
      source,
      error.problems.map((p) =>
        p.replace(/^population\[(\d+)\]/, (_, i: string) => labels[Number(i)] ?? `population[${i}]`),
      ),
    );
  }
}

function agentGroup(args: RunArgs): Record<string, unknown> {
  if (args.agent !== undefined) return { module: args.agent, count: 1, heartbeat: AGENT_HEARTBEAT };
  return { persona: 'uci', count: 1, heartbeat: AGENT_HEARTBEAT, options: { path: args.agentUci } };
}

function opponentGroup(name: string): Record<string, unknown> {
  if (LEVEL_NAMES.includes(name))
    return { persona: 'engine', count: 1, heartbeat: OPPONENT_HEARTBEAT, options: { level: name } };
  return { persona: name, count: 1, heartbeat: OPPONENT_HEARTBEAT };
}

/** A word a POSIX shell reads back as itself. */
function shellWord(text: string): string {
  return /^[\w./:,=@+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

// ---------------------------------------------------------------------------------------------------------
// the run itself

/** 128 + SIGINT, as shells report a process stopped by Ctrl-C. */
const INTERRUPT_EXIT = 130;
/** Wall time per slice of the world: how soon Ctrl-C is noticed and the progress line refreshed. */
const SLICE_MS = 100;

async function runPlan(plan: Plan, stage: OutputStage, args: RunArgs, log?: EventLogWriter): Promise<number> {
  const { scenario } = plan;
  const started = performance.now(); // wall time for the human only; never written to the report
  const eventLog = log && { eventLog: (text: string) => log.write(text) };
  const world = new World(scenario, { ...worldOptions(args), ...eventLog });
  const progress = new ProgressPrinter(scenario, args.progress, started);
  const match = plan.match ? new MatchScore(world, plan.match.games, progress) : undefined;
  world.platform.onEvent((event) => {
    if (event.type === 'move_played') progress.moves++;
    else if (event.type === 'game_ended') {
      progress.games++;
      match?.onGameEnded(event.whiteId, event.blackId, event.result);
    }
  });
  const interrupt = new InterruptWatch();
  try {
    const reached = await explainScenarioErrors(() =>
      runInSlices(world, scenario, progress, interrupt, match),
    );
    if (reached === undefined) return 2;
    progress.finish();
    if (!reached || interrupt.signal)
      return reportInterrupt(world, scenario, stage, started, interrupt.signal ?? 'SIGINT');
    const outcome = await world.run();
    log?.close(); // the outcome's fingerprint has flushed the last of the log
    EnginePool.closeShared(); // the world is over: its engines' memory is not needed for the report
    const context = runContext(plan, outcome, match?.toReport());
    if (interrupt.signal) return reportInterrupt(world, scenario, stage, started, interrupt.signal);
    const { report, files } = renderRunReport(scenario, outcome, context);
    const written = stage.commit(files);
    match?.printFinal();
    printSummary(report, written, (performance.now() - started) / 1000);
    if (context.crossCheck) process.stdout.write(`${context.crossCheck.line}\n`);
    if (!outcome.failed) return 0;
    printReplay(report, `${plan.replay} --out ${shellWord(args.out)}`);
    return 1;
  } finally {
    interrupt.stop();
  }
}

/**
 * Runs the world to the scenario's end in slices of about SLICE_MS of wall time, yielding to the event loop
 * between them so that Ctrl-C is heard. A world run in slices executes the same events in the same order
 * as in one call (World.runSlice), so slicing never changes a report. Returns false when interrupted.
 */
async function runInSlices(
  world: World,
  scenario: Scenario,
  progress: ProgressPrinter,
  interrupt: InterruptWatch,
  match?: MatchScore,
): Promise<boolean> {
  const endMs = scenario.startMs + scenario.durationMs;
  const fraction = () =>
    Math.max((world.platform.nowMs - scenario.startMs) / scenario.durationMs, match?.fractionDone ?? 0);
  for (;;) {
    const sliceEnd = performance.now() + SLICE_MS;
    const done = await world.runSlice(
      endMs,
      () => interrupt.signal !== undefined || match?.finished === true || performance.now() >= sliceEnd,
    );
    progress.update(fraction());
    if (done) return true;
    if (match?.finished) {
      endScenarioNow(world, scenario);
      return true;
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (interrupt.signal !== undefined) return false;
  }
}

/**
 * `run --agent` ends at the instant the agent finished its last game: the scenario (built in memory for
 * this run, and read by the world only when it ends) is cut there, so the report's end and duration say
 * how long the match took. The slice stopped between instants, so the same arguments end at the same one.
 */
function endScenarioNow(world: World, scenario: Scenario): void {
  scenario.durationMs = world.platform.nowMs - scenario.startMs;
}

function runContext(plan: Plan, outcome: RunOutcome, match: AgentMatch | undefined): RunContext {
  const withMatch = match ? { match } : {};
  if (!outcome.crossCheck) return { replay: plan.replay, ...withMatch };
  return {
    replay: plan.replay,
    crossCheck: { passed: outcome.crossCheck.passed, line: describeCrossCheck(outcome.crossCheck) },
    ...withMatch,
  };
}

/**
 * Decision (docs/rules.md, Reports): an interrupted run writes nothing, and a report already in the output
 * folder, from an earlier complete run, is left as it was; the line says which.
 */
function reportInterrupt(
  world: World,
  scenario: Scenario,
  stage: OutputStage,
  started: number,
  signal: NodeJS.Signals,
): number {
  stage.discard();
  const fraction = Math.min(1, (world.platform.nowMs - scenario.startMs) / scenario.durationMs);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const previous = existsSync(join(stage.dir, 'report.json'))
    ? `${stage.dir} still holds the previous run's report, untouched`
    : `${stage.dir} has no report`;
  process.stderr.write(
    `${signal}: stopped ${scenario.name} at ${Math.floor(fraction * 100)}% of its virtual time after ${seconds} s; wrote nothing (${previous})\n`,
  );
  return signal === 'SIGTERM' ? 143 : INTERRUPT_EXIT;
}

/** Ctrl-C (or a SIGTERM) asks the run to stop at the next slice; a second Ctrl-C stops at once. */
class InterruptWatch {
  signal: NodeJS.Signals | undefined;
  readonly #onSignal = (signal: NodeJS.Signals) => {
    if (this.signal !== undefined) process.exit(INTERRUPT_EXIT);
    this.signal = signal;
  };

  constructor() {
    process.on('SIGINT', this.#onSignal);
    process.on('SIGTERM', this.#onSignal);
  }

  stop(): void {
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}

// ---------------------------------------------------------------------------------------------------------
// progress and score lines (wall time: the human's only)

/** Progress on stderr: a bar redrawn in place on a terminal; elsewhere (CI logs, pipes) a line every 5% of virtual time or 10 s. */
class ProgressPrinter {
  games = 0;
  moves = 0;
  readonly #scenario: Scenario;
  readonly #enabled: boolean;
  readonly #tty: boolean;
  readonly #started: number;
  #nextStep = STEP;
  #lastLineAt: number;
  #fraction = 0;
  #barShown = false;

  constructor(scenario: Scenario, enabled: boolean, started: number) {
    this.#scenario = scenario;
    this.#enabled = enabled;
    this.#tty = process.stderr.isTTY === true;
    this.#started = started;
    this.#lastLineAt = started;
  }

  update(fraction: number): void {
    if (!this.#enabled) return;
    this.#fraction = Math.min(1, fraction);
    const now = performance.now();
    if (this.#tty) return this.#drawBar(now);
    if (this.#fraction < this.#nextStep && now - this.#lastLineAt < LINE_EVERY_MS) return;
    while (this.#nextStep <= this.#fraction) this.#nextStep += STEP;
    this.#lastLineAt = now;
    process.stderr.write(`${this.#scenario.name}: ${this.#status(now)}\n`);
  }

  /** Clears the bar so a line on stdout does not run into it (it is drawn again at the next update). */
  clear(): void {
    if (!this.#barShown) return;
    process.stderr.write('\r\x1b[K');
    this.#barShown = false;
  }

  finish(): void {
    this.clear();
  }

  #drawBar(now: number): void {
    const filled = Math.round(this.#fraction * BAR_WIDTH);
    process.stderr.write(
      `\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${this.#status(now)}`,
    );
    this.#barShown = true;
  }

  #status(now: number): string {
    const elapsed = (now - this.#started) / 1000;
    const eta =
      this.#fraction > 0
        ? `ETA ${formatSeconds((elapsed * (1 - this.#fraction)) / this.#fraction)}`
        : 'ETA ?';
    const percent = `${Math.floor(this.#fraction * 100)}% of ${formatVirtual(this.#scenario.durationMs)} virtual`;
    return `${percent}, ${formatSeconds(elapsed)} elapsed, ${eta}, ${this.games} games finished, ${this.moves} moves`;
  }
}

const STEP = 0.05;
const LINE_EVERY_MS = 10_000;
const BAR_WIDTH = 24;

function formatSeconds(s: number): string {
  return s < 90 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

function formatVirtual(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 1 ? `${Number(hours.toFixed(1))} h` : `${Math.round(ms / 60_000)} min`;
}

/** `run --agent`: cutechess-style score lines for the agent under test, one after each of its games. */
class MatchScore {
  readonly #world: World;
  readonly #target: number;
  readonly #progress: ProgressPrinter;
  readonly #byOpponent = new Map<string, Tally>();
  #names = new Map<string, string>();
  #played = 0;

  constructor(world: World, target: number, progress: ProgressPrinter) {
    this.#world = world;
    this.#target = target;
    this.#progress = progress;
  }

  /** The games are played, or the agent under test crashed (its code threw): it will play no more. */
  get finished(): boolean {
    return this.#played >= this.#target || this.#crash() !== undefined;
  }

  #crash(): AgentCrash | undefined {
    const first = this.#world.agents[0];
    return first === undefined ? undefined : this.#world.crashOf(first.handle);
  }

  get fractionDone(): number {
    return this.#played / this.#target;
  }

  get #player(): string {
    const first = this.#world.agents[0];
    return first === undefined ? 'agent' : this.#nameOfHandle(first.handle);
  }

  onGameEnded(whiteId: string, blackId: string, result: '1-0' | '0-1' | '1/2-1/2'): void {
    const me = this.#agentId();
    if (me === undefined || (whiteId !== me && blackId !== me)) return;
    const opponent = this.#nameOf(whiteId === me ? blackId : whiteId);
    const tally = this.#byOpponent.get(opponent) ?? { games: 0, wins: 0, draws: 0, losses: 0 };
    this.#byOpponent.set(opponent, tally);
    tally.games++;
    this.#played++;
    if (result === '1/2-1/2') tally.draws++;
    else if ((result === '1-0') === (whiteId === me)) tally.wins++;
    else tally.losses++;
    this.#progress.clear();
    process.stdout.write(`${scoreLine(this.#player, opponent, tally)}\n`);
  }

  /** Each opponent's score and Elo line, then the whole match's. */
  printFinal(): void {
    const total: Tally = { games: 0, wins: 0, draws: 0, losses: 0 };
    const lines: string[] = [];
    for (const [opponent, t] of [...this.#byOpponent.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      lines.push(scoreLine(this.#player, opponent, t), eloLine(t));
      total.games += t.games;
      total.wins += t.wins;
      total.draws += t.draws;
      total.losses += t.losses;
    }
    if (this.#byOpponent.size > 1) lines.push(scoreLine(this.#player, 'all', total), eloLine(total));
    const crash = this.#crash();
    if (crash !== undefined)
      lines.push(
        `${this.#player} crashed at ${toIso(crash.atMs)}, ${crash.error}: the match ends there, after ${this.#played} of the ${this.#target} games asked for`,
      );
    else if (!this.finished)
      lines.push(
        `${this.#player} finished ${this.#played} of the ${this.#target} games asked for in the virtual time allowed; its refusals and timeouts are in its verdict (report.json, verdicts.agents)`,
      );
    process.stdout.write(`${['', ...lines, ''].join('\n')}\n`);
  }

  /** The agent under test is the first agent the world registered (group 0, count 1). */
  #agentId(): string | undefined {
    const sim = this.#world.agents[0];
    return sim === undefined ? undefined : findAgent(this.#world.platform, sim.handle)?.id;
  }

  /** The match as report.json, summary.md and report.html keep it. */
  toReport(): AgentMatch {
    return buildAgentMatch(this.#player, this.#target, this.#byOpponent);
  }

  #nameOf(agentId: string): string {
    return this.#nameOfHandle(this.#world.platform.state.agents.get(agentId)!.handle);
  }

  /** By the one rule (src/report/agent-names.ts), worked out once the world has registered everyone. */
  #nameOfHandle(handle: string): string {
    if (this.#names.size === 0)
      this.#names = agentNames(this.#world.agents.filter((a) => a.account === 'agent'));
    return this.#names.get(handle) ?? handle;
  }
}

// ---------------------------------------------------------------------------------------------------------
// the summary

function printSummary(report: Report, files: string[], seconds: number): void {
  const c = report.counts;
  const endings = Object.entries(report.results_by_ending)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const lines = [
    `${report.scenario.name} (seed ${report.scenario.seed}): ${c.agents} agents, ${c.games_completed}/${c.games_started} games finished, ${c.moves} moves, ${report.requests.total} requests`,
    `endings: ${endings || 'none'}`,
    ...moneyLines(report),
    ...socialLines(report),
    ...verdictLines(report.verdicts),
    invariantsLine(report),
    `fingerprint: ${report.fingerprint}`,
    `wrote ${files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Each invariant with its checks; one that ran none reads "not exercised", in capitals when the scenario required it. */
function invariantsLine(report: Report): string {
  const statuses = report.invariants.map(invariantStatus);
  const items = report.invariants.map((i, n) => {
    if (statuses[n] === 'broken') return `${i.name} FAILED (${i.violationCount})`;
    if (statuses[n] === 'held') return `${i.name} ok (${i.checks} checks)`;
    return `${i.name} ${i.required ? 'NOT EXERCISED (required)' : 'not exercised'} (0 checks)`;
  });
  return `invariants (${statusCounts(statuses)}): ${items.join(', ')}`;
}

function printReplay(report: Report, replay: string): void {
  const failed = report.invariants.filter((i) => !i.passed);
  for (const inv of failed) {
    process.stderr.write(
      `invariant ${inv.name} broke ${inv.violationCount} time(s); first: ${inv.violations[0]?.message ?? '?'}\n`,
    );
  }
  for (const { message } of report.required_not_exercised) process.stderr.write(`${message}\n`);
  process.stderr.write(`seed: ${report.scenario.seed}\nreplay: ${replay}\n`);
}

/** Money and tournaments, only when the run had any. */
function moneyLines(report: Report): string[] {
  const m = report.money;
  if (m.transfers === 0) return [];
  const lines = [
    `money: ${m.transfers} transfers (${m.transfers_retried} retries, ${m.transfers_in_flight_at_end} in flight at the end); escrows ${m.escrows.opened} opened, ${m.escrows.paid_out} paid out, ${m.escrows.refunded} refunded`,
  ];
  const t = report.tournaments;
  if (t.length > 0) {
    const done = t.filter((x) => x.status === 'completed').length;
    const cancelled = t.filter((x) => x.status === 'cancelled').length;
    lines.push(`tournaments: ${t.length} created, ${done} completed, ${cancelled} cancelled`);
  }
  return lines;
}

function worldOptions(args: RunArgs): WorldOptions {
  const options: WorldOptions = {};
  if (args.crossCheck !== undefined) options.crossCheck = args.crossCheck;
  if (args.checkWire) options.checkWire = true;
  return options;
}
