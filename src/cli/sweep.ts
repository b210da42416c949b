import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv, Options } from 'yargs';
import { ScenarioStartError, SweepAborted } from '../sweep/aborted.js';
import { SeedPool } from '../sweep/pool/pool.js';
import { DEFAULT_QUEUE_NAME } from '../sweep/queue/queue-name.js';
import { QueueSetupError } from '../sweep/queue/redis-url.js';
import type { SeedResult } from '../sweep/seed-result.js';
import { SeedSpecError } from '../sweep/seeds.js';
import { DEFAULT_SEED_TIMEOUT, UsageError } from '../sweep/run-options.js';
import {
  checkSweepOptions,
  localThreads,
  type CheckedSweepOptions,
  type SweepOptions,
} from '../sweep/sweep-options.js';
import type { sweepSummaryLines, SweepPlan, SweepWritten } from '../sweep/sweep-plan.js';
import { SeedProgress } from './progress.js';
import { withStopSignal } from './stop-signal.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface SweepArgs extends SweepOptions {
  /** Kebab-case options reach the handler camel-cased; typed optional, as yargs' types cannot see that. */
  queueName?: string;
  progress: boolean;
}

/** sweep's options, in the order --help lists them (data: the builder registers them at once). */
const SWEEP_OPTIONS = {
  seeds: {
    type: 'string',
    demandOption: true,
    describe: 'seeds: ranges and lists, ascending, e.g. 1..1000 or 1,5,9 or 1..10,20',
  },
  workers: { type: 'number', describe: 'worker threads (default: the CPU count)' },
  out: {
    type: 'string',
    default: 'reports/sweep',
    describe: 'directory for sweep.json, junit.xml and summary.md (shard.json with --shard)',
  },
  shard: {
    type: 'string',
    describe: 'run only shard i of N (e.g. 2/4) and write shard.json for `merge`',
  },
  queue: {
    type: 'string',
    describe: 'run the seeds on a BullMQ queue at redis://HOST:PORT, on `worker` processes',
  },
  'queue-name': {
    type: 'string',
    default: DEFAULT_QUEUE_NAME,
    describe: 'the BullMQ queue (workers must name the same)',
  },
  timeout: {
    type: 'string',
    default: DEFAULT_SEED_TIMEOUT,
    describe: 'per-seed limit; a seed past it is reported timed_out',
  },
  'queue-wait': {
    type: 'string',
    describe: 'with --queue: report seeds lost when none finishes for this long (default: timeout + 5m)',
  },
  progress: {
    type: 'boolean',
    default: true,
    describe: 'print progress to stderr (a bar on a terminal)',
  },
} satisfies Record<string, Options>;

export const sweepCommand = {
  ...COMMAND_SUMMARIES.sweep,
  builder: (y: Argv) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario YAML file' })
      .options(SWEEP_OPTIONS)
      .example(
        '$0 sweep scenarios/smoke.yaml --seeds 1..100 --workers 2 --out reports/sweep',
        'seeds 1 to 100 on two threads',
      )
      .example(
        '$0 sweep scenarios/smoke.yaml --seeds 1..100 --shard 1/4 --out reports/shard-1',
        'the first of four shards; then `merge`',
      ),
  handler: async (args: ArgumentsCamelCase<SweepArgs>) => {
    process.exitCode = await sweep(args);
  },
};

/** Exit codes: 0 every seed passed, 1 a seed failed, 2 bad arguments or scenario (nothing written), 130 stopped. */
async function sweep(args: SweepArgs): Promise<number> {
  const pool = threadsStartedEarly(args);
  try {
    return await planAndRun(args, pool);
  } finally {
    await pool?.destroy();
  }
}

/**
 * A local sweep's pool, started before this thread loads and checks the scenario: its threads load the
 * world's code meanwhile, the longest part of a sweep's start (issue 32), and begin the start check and
 * the first seeds without waiting for the plan (SeedPool.startEarly). Only the options' light checks come first; undefined
 * when they refuse (planSweep then says why) or when the seeds run on a queue. Synchronous, with the pool's
 * module imported statically, so the threads start before the handler returns: yargs then formats the
 * command's help text on this thread (kept for a failure to print), up to a quarter of a second that the
 * threads' start now overlaps instead of waiting behind.
 */
function threadsStartedEarly(args: SweepArgs): SeedPool | undefined {
  if (args.queue !== undefined) return undefined;
  let checked: CheckedSweepOptions;
  try {
    checked = checkSweepOptions(args);
  } catch {
    return undefined;
  }
  if (checked.mine.length === 0) return undefined;
  const pool = new SeedPool({ threads: localThreads(checked.workers, checked.mine.length) });
  const scenarioText = textOf(args.scenario);
  // The plan reads the file again and checks it on this thread; an unreadable file is its to explain.
  if (scenarioText === undefined) return pool;
  const scenario = { scenarioText, scenarioFile: args.scenario };
  const tasks = checked.mine.map((seed) => ({ ...scenario, seed }));
  pool.startEarly(scenario, tasks, checked.seedTimeoutMs);
  return pool;
}

function textOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function planAndRun(args: SweepArgs, pool: SeedPool | undefined): Promise<number> {
  // Loaded here, not above: the scenario's code is most of what this thread loads (see threadsStartedEarly).
  const sweepPlan = await import('../sweep/sweep-plan.js');
  const plan = await planOrExplain(args, sweepPlan.planSweep);
  if (plan === undefined) return 2;
  const started = performance.now(); // wall time for the human only; never written
  const progress = new SeedProgress(
    `sweep ${plan.identity.scenario.name}`,
    'seed',
    plan.tasks.length,
    args.progress,
  );
  let results: SeedResult[];
  try {
    // The stop handler is in place before the first line says the sweep started: a Ctrl-C right after
    // that line is a clean stop (exit 130, nothing written), not the default death by signal.
    results = await withStopSignal((signal) => {
      progress.start(
        args.queue
          ? `queue ${args.queueName ?? DEFAULT_QUEUE_NAME} at ${args.queue}`
          : `${localThreads(plan.workers, plan.tasks.length)} worker thread(s)`,
      );
      return sweepPlan.runSweepSeeds(
        plan,
        { queue: args.queue, queueName: args.queueName, pool },
        {
          signal,
          onResult: (result) => progress.record(result),
          onNotice: (line) => progress.notice(line),
          sweepId: randomUUID,
        },
      );
    });
  } catch (error) {
    progress.end();
    return explainStop(error, plan, args, progress);
  }
  progress.end();
  const written = await sweepPlan.writeSweep(plan, args.out, results);
  return finish(plan, written, (performance.now() - started) / 1000, sweepPlan.sweepSummaryLines);
}

/** The plan; undefined after the line (or lines) saying why not. */
async function planOrExplain(
  args: SweepArgs,
  planSweep: (options: SweepOptions) => SweepPlan,
): Promise<SweepPlan | undefined> {
  try {
    return planSweep(args);
  } catch (error) {
    if (!(await isRefusal(error))) throw error;
    process.stderr.write(`${(error as Error).message}\n`);
    return undefined;
  }
}

/** A fault of the user's input: its message (a scenario's has a line per problem), exit 2, nothing written. */
async function isRefusal(error: unknown): Promise<boolean> {
  // Loaded by now (the plan loads the scenario); imported here so that the threads start first.
  const { ScenarioError } = await import('../sim/scenario/scenario.js');
  const refusals = [UsageError, SeedSpecError, QueueSetupError, ScenarioError, ScenarioStartError];
  return refusals.some((kind) => error instanceof kind);
}

/**
 * A sweep that stopped before its end: 130 at the user's stop, 2 when the scenario did not start (checked
 * beside the first seeds: see runSweepSeeds) or the queue could not be set up.
 */
async function explainStop(
  error: unknown,
  plan: SweepPlan,
  args: SweepArgs,
  progress: SeedProgress,
): Promise<number> {
  if (error instanceof SweepAborted) {
    const what = args.queue
      ? 'stopped collecting from the queue'
      : 'stopped the worker threads (their running seeds were abandoned)';
    process.stderr.write(
      `interrupted: ${what} after ${progress.done} of ${plan.tasks.length} seeds; nothing written\n`,
    );
    return 130;
  }
  if (!(await isRefusal(error))) throw error;
  process.stderr.write(`${(error as Error).message}\n`);
  return 2;
}

/** The closing lines on stdout; the exit code. */
function finish(
  plan: SweepPlan,
  written: SweepWritten,
  seconds: number,
  summaryLines: typeof sweepSummaryLines,
): number {
  if (written.kind === 'shard') {
    const { shard, file, seeds, failed } = written;
    process.stdout.write(
      `shard ${shard.index}/${shard.count} of ${plan.identity.scenario.name} seeds ${plan.identity.seeds.spec}: ${seeds} seeds, ${failed} failing, in ${seconds.toFixed(1)} s\n` +
        `wrote ${file}; combine the shards with: npx agent-chess-sim merge DIR1 DIR2 ... --out DIR\n`,
    );
    return failed > 0 ? 1 : 0;
  }
  const lines = summaryLines(written.result, written.files, `${seconds.toFixed(1)} s`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return written.result.passed ? 0 : 1;
}
