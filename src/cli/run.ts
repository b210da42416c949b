import type { ArgumentsCamelCase, Argv, Options } from 'yargs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScenarioError, type Scenario } from '../sim/scenario/scenario.js';
import { OutputError, OutputStage } from '../report/write.js';
import { EventLogWriter } from '../report/event-log.js';
import { EnginePool } from '../../agents/engines/pool.js';
import {
  argumentProblem,
  DEFAULT_GAMES,
  DEFAULT_VS,
  planRun,
  shellWord,
  worldOptions,
  type RunOptions,
  type RunPlan,
} from '../sim/run-plan.js';
import { PlannedRun } from '../lib/run/planned-run.js';
import { failureLines, summaryLines } from '../lib/run/summary.js';
import { explainScenarioErrors } from './scenario-errors.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface RunArgs extends RunOptions {
  progress: boolean;
}

/** run's options, in the order --help lists them (data: the builder registers them at once). */
const RUN_OPTIONS = {
  seed: { type: 'string', describe: "override the scenario's seed" },
  out: { type: 'string', default: 'reports/latest', describe: 'folder for the report files' },
  progress: {
    type: 'boolean',
    default: true,
    describe: 'print progress to stderr (a bar on a terminal, a line every 5% or 10 s otherwise)',
  },
  'check-wire': {
    type: 'boolean',
    describe: 'check every answer against the route contracts (as CI does); the run fails if one leaves them',
  },
  'cross-check': {
    type: 'boolean',
    describe:
      'replay every ledger transfer through the real Solana runtime (litesvm) and compare balances; writes crosscheck.txt',
  },
  'require-exercised': {
    type: 'boolean',
    describe:
      "require every invariant to run at least one check (as the scenario's requireExercised does for named ones); one that runs none fails the run",
  },
  events: {
    type: 'string',
    describe:
      'also write the canonical event log (the text the fingerprint hashes) to this file, gzip-compressed when it ends .gz; compare two with agent-chess-sim diff',
  },
  agent: {
    type: 'string',
    describe: 'your in-process agent module (.mjs, .js, .ts): play it against --vs',
  },
  'agent-uci': {
    type: 'string',
    describe: 'a UCI engine binary to play against --vs instead of a module',
  },
  vs: {
    type: 'string',
    describe: `opponents for --agent: personas and engine levels, comma-separated (default ${DEFAULT_VS})`,
  },
  games: {
    type: 'number',
    describe: `how many games --agent should finish: the run ends then (default ${DEFAULT_GAMES})`,
  },
} satisfies Record<string, Options>;

export const runCommand = {
  ...COMMAND_SUMMARIES.run,
  builder: (y: Argv) =>
    y
      .positional('scenario', {
        type: 'string',
        describe: 'scenario YAML file, e.g. scenarios/smoke.yaml (not with --agent)',
      })
      .options(RUN_OPTIONS)
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

/** Exit codes: 0 no invariant broke (and every required one was exercised), 1 an invariant broke or a required one ran no check, 2 bad arguments, scenario or output folder, 130 interrupted (143 on SIGTERM). */
async function run(args: RunArgs): Promise<number> {
  const problem = argumentProblem(args);
  if (problem) return refuse(problem);
  let plan: RunPlan;
  let stage: OutputStage;
  let log: EventLogWriter | undefined;
  try {
    plan = planRun(args, process.cwd());
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

function refuse(message: string, prefix = 'agent-chess-sim run: '): number {
  process.stderr.write(`${prefix}${message}\n`);
  return 2;
}

// ---------------------------------------------------------------------------------------------------------
// the run itself: the library's PlannedRun, driven by the wall clock and the signals

/** 128 + SIGINT, as shells report a process stopped by Ctrl-C. */
const INTERRUPT_EXIT = 130;
/** Wall time per slice of the world: how soon Ctrl-C is noticed and the progress line refreshed. */
const SLICE_MS = 100;

async function runPlan(
  plan: RunPlan,
  stage: OutputStage,
  args: RunArgs,
  log?: EventLogWriter,
): Promise<number> {
  const started = performance.now(); // wall time for the human only; never written to the report
  const eventLog = log && { eventLog: (text: string) => log.write(text) };
  let progress: ProgressPrinter | undefined;
  const printScore = (line: string) => {
    progress?.clear();
    process.stdout.write(`${line}\n`);
  };
  const planned = new PlannedRun(plan, { ...worldOptions(args), ...eventLog }, printScore);
  progress = new ProgressPrinter(plan.scenario, args.progress, started, planned);
  const interrupt = new InterruptWatch();
  try {
    const reached = await explainScenarioErrors(() => planned.runInSlices(sliceHooks(interrupt, progress)));
    if (reached === undefined) return 2;
    progress.finish();
    if (!reached || interrupt.signal)
      return reportInterrupt(planned, plan.scenario, stage, started, interrupt.signal ?? 'SIGINT');
    const { outcome, context } = await planned.finish();
    log?.close(); // the outcome's fingerprint has flushed the last of the log
    EnginePool.closeShared(); // the world is over: its engines' memory is not needed for the report
    if (interrupt.signal) return reportInterrupt(planned, plan.scenario, stage, started, interrupt.signal);
    const { report, files } = planned.render(outcome, context);
    const written = stage.commit(files);
    if (planned.match) process.stdout.write(`${['', ...planned.match.finalLines(), ''].join('\n')}\n`);
    const lines = summaryLines(report, written, (performance.now() - started) / 1000);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (context.crossCheck) process.stdout.write(`${context.crossCheck.line}\n`);
    if (!outcome.failed) return 0;
    const replay = `${plan.replay} --out ${shellWord(args.out)}`;
    process.stderr.write(`${failureLines(report, replay).join('\n')}\n`);
    return 1;
  } finally {
    interrupt.stop();
    planned.close();
  }
}

/** Slices of about SLICE_MS of wall time; a stop at Ctrl-C; the progress line after each. */
function sliceHooks(interrupt: InterruptWatch, progress: ProgressPrinter) {
  return {
    startSlice: () => {
      const sliceEnd = performance.now() + SLICE_MS;
      return () => performance.now() >= sliceEnd;
    },
    stopped: () => interrupt.signal !== undefined,
    onProgress: (fraction: number) => progress.update(fraction),
  };
}

/**
 * Decision (docs/rules.md, Reports): an interrupted run writes nothing, and a report already in the output
 * folder, from an earlier complete run, is left as it was; the line says which.
 */
function reportInterrupt(
  planned: PlannedRun,
  scenario: Scenario,
  stage: OutputStage,
  started: number,
  signal: NodeJS.Signals,
): number {
  stage.discard();
  const fraction = planned.fractionOfTime;
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
// progress (wall time: the human's only)

/** Progress on stderr: a bar redrawn in place on a terminal; elsewhere (CI logs, pipes) a line every 5% of virtual time or 10 s. */
class ProgressPrinter {
  readonly #scenario: Scenario;
  /** The games finished and moves played so far. */
  readonly #played: { readonly games: number; readonly moves: number };
  readonly #enabled: boolean;
  readonly #tty: boolean;
  readonly #started: number;
  #nextStep = STEP;
  #lastLineAt: number;
  #fraction = 0;
  #barShown = false;

  constructor(
    scenario: Scenario,
    enabled: boolean,
    started: number,
    played: { readonly games: number; readonly moves: number },
  ) {
    this.#scenario = scenario;
    this.#played = played;
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
    return `${percent}, ${formatSeconds(elapsed)} elapsed, ${eta}, ${this.#played.games} games finished, ${this.#played.moves} moves`;
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
