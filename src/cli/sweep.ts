import { randomUUID } from 'node:crypto';
import type { ArgumentsCamelCase, Argv, Options } from 'yargs';
import { ScenarioError } from '../sim/scenario/scenario.js';
import { ScenarioStartError, SweepAborted } from '../sweep/aborted.js';
import { DEFAULT_QUEUE_NAME } from '../sweep/queue/queue-name.js';
import { QueueSetupError } from '../sweep/queue/redis-url.js';
import type { SeedResult } from '../sweep/seed-result.js';
import { SeedSpecError } from '../sweep/seeds.js';
import { DEFAULT_SEED_TIMEOUT, UsageError } from '../sweep/run-options.js';
import {
  planSweep,
  runSweepSeeds,
  sweepSummaryLines,
  writeSweep,
  type SweepOptions,
  type SweepPlan,
} from '../sweep/sweep-plan.js';
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
  const plan = planOrExplain(args);
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
          : `${Math.min(plan.workers, plan.tasks.length)} worker thread(s)`,
      );
      return execute(plan, args, signal, progress);
    });
  } catch (error) {
    progress.end();
    return explainStop(error, plan, args, progress);
  }
  progress.end();
  return finish(plan, args, results, (performance.now() - started) / 1000);
}

/** The plan; undefined after the line (or lines) saying why not. */
function planOrExplain(args: SweepArgs): SweepPlan | undefined {
  try {
    return planSweep(args);
  } catch (error) {
    if (!(
      error instanceof UsageError ||
      error instanceof SeedSpecError ||
      error instanceof QueueSetupError ||
      error instanceof ScenarioError
    ))
      throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

/**
 * A sweep that stopped before its end: 130 at the user's stop, 2 when the scenario did not start (checked
 * beside the first seeds: see runSweepSeeds) or the queue could not be set up.
 */
function explainStop(error: unknown, plan: SweepPlan, args: SweepArgs, progress: SeedProgress): number {
  if (error instanceof SweepAborted) {
    const what = args.queue
      ? 'stopped collecting from the queue'
      : 'stopped the worker threads (their running seeds were abandoned)';
    process.stderr.write(
      `interrupted: ${what} after ${progress.done} of ${plan.tasks.length} seeds; nothing written\n`,
    );
    return 130;
  }
  if (
    error instanceof QueueSetupError ||
    error instanceof ScenarioError ||
    error instanceof ScenarioStartError
  ) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  throw error;
}

async function execute(plan: SweepPlan, args: SweepArgs, signal: AbortSignal, progress: SeedProgress) {
  return runSweepSeeds(plan, args, {
    signal,
    onResult: (result) => progress.record(result),
    onNotice: (line) => progress.notice(line),
    sweepId: randomUUID,
  });
}

async function finish(
  plan: SweepPlan,
  args: SweepArgs,
  results: SeedResult[],
  seconds: number,
): Promise<number> {
  const written = await writeSweep(plan, args.out, results);
  if (written.kind === 'shard') {
    const { shard, file, seeds, failed } = written;
    process.stdout.write(
      `shard ${shard.index}/${shard.count} of ${plan.identity.scenario.name} seeds ${plan.identity.seeds.spec}: ${seeds} seeds, ${failed} failing, in ${seconds.toFixed(1)} s\n` +
        `wrote ${file}; combine the shards with: npx agent-chess-sim merge DIR1 DIR2 ... --out DIR\n`,
    );
    return failed > 0 ? 1 : 0;
  }
  const lines = sweepSummaryLines(written.result, written.files, `${seconds.toFixed(1)} s`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return written.result.passed ? 0 : 1;
}
