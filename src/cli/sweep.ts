import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { loadScenarioFile, ScenarioError, type Scenario } from '../sim/scenario/scenario.js';
import { sweepFiles } from '../sweep/outputs/outputs.js';
import { SweepAborted } from '../sweep/aborted.js';
import { DEFAULT_QUEUE_NAME } from '../sweep/queue/queue-name.js';
import { QueueSetupError, redisConnection } from '../sweep/queue/redis-url.js';
import { seedFailed, type SeedResult, type SeedTask } from '../sweep/seed-result.js';
import { parseSeedSpec, parseShard, SeedSpecError, shardSeeds, type Shard } from '../sweep/seeds.js';
import { buildShard, SHARD_FILE, shardJson } from '../sweep/shard.js';
import { buildSweep, sweepIdentity, type SweepIdentity, type SweepResult } from '../sweep/sweep-result.js';
import { packageVersion } from '../sweep/version.js';
import { outDirProblem, writeAtomically } from '../sweep/outputs/write.js';
import { positiveDuration, UsageError, workerThreads } from './options.js';
import { SeedProgress } from './progress.js';

export interface SweepArgs {
  scenario: string;
  seeds: string;
  workers?: number;
  out: string;
  shard?: string;
  queue?: string;
  /** Kebab-case options reach the handler camel-cased; typed optional, as yargs' types cannot see that. */
  queueName?: string;
  timeout: string;
  queueWait?: string;
  progress: boolean;
}

/** 30 minutes: over 20 times the smoke scenario's 60-80 s per seed on a 2-core machine. */
export const DEFAULT_SEED_TIMEOUT = '30m';
/** Extra wait, past the seed timeout, before a queue sweep gives up on seeds no worker finished. */
const QUEUE_WAIT_MARGIN_MS = 5 * 60_000;
/** Failing seeds printed at the end; sweep.json and summary.md list them all. */
const MAX_PRINTED_FAILURES = 20;

export const sweepCommand = {
  command: 'sweep <scenario>',
  describe:
    'Run a scenario once per seed on a pool of worker threads (or a Redis queue) and write sweep.json, junit.xml and summary.md',
  builder: (y: Argv) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario YAML file' })
      .option('seeds', {
        type: 'string',
        demandOption: true,
        describe: 'seeds: ranges and lists, ascending, e.g. 1..1000 or 1,5,9 or 1..10,20',
      })
      .option('workers', { type: 'number', describe: 'worker threads (default: the CPU count)' })
      .option('out', {
        type: 'string',
        default: 'reports/sweep',
        describe: 'directory for sweep.json, junit.xml and summary.md (shard.json with --shard)',
      })
      .option('shard', {
        type: 'string',
        describe: 'run only shard i of N (e.g. 2/4) and write shard.json for `merge`',
      })
      .option('queue', {
        type: 'string',
        describe: 'run the seeds on a BullMQ queue at redis://HOST:PORT, on `worker` processes',
      })
      .option('queue-name', {
        type: 'string',
        default: DEFAULT_QUEUE_NAME,
        describe: 'the BullMQ queue (workers must name the same)',
      })
      .option('timeout', {
        type: 'string',
        default: DEFAULT_SEED_TIMEOUT,
        describe: 'per-seed limit; a seed past it is reported timed_out',
      })
      .option('queue-wait', {
        type: 'string',
        describe: 'with --queue: report seeds lost when none finishes for this long (default: timeout + 5m)',
      })
      .option('progress', {
        type: 'boolean',
        default: true,
        describe: 'print progress to stderr (a bar on a terminal)',
      })
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

export interface SweepPlan {
  scenario: Scenario;
  identity: SweepIdentity;
  tasks: SeedTask[];
  shard: Shard | undefined;
  workers: number;
  seedTimeoutMs: number;
  queueWaitMs: number;
}

/** Exit codes: 0 every seed passed, 1 a seed failed, 2 bad arguments or scenario (nothing run or written), 130 stopped. */
async function sweep(args: SweepArgs): Promise<number> {
  let plan: SweepPlan;
  try {
    plan = planSweep(args);
    await checkScenarioStarts(plan.scenario);
  } catch (error) {
    if (!(
      error instanceof UsageError ||
      error instanceof SeedSpecError ||
      error instanceof QueueSetupError ||
      error instanceof ScenarioError
    ))
      throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const started = performance.now(); // wall time for the human only; never written
  const progress = new SeedProgress(
    `sweep ${plan.identity.scenario.name}`,
    'seed',
    plan.tasks.length,
    args.progress,
  );
  const queueName = args.queueName ?? DEFAULT_QUEUE_NAME;
  const stop = stopOnSignals();
  let results: SeedResult[];
  try {
    progress.start(
      args.queue
        ? `queue ${queueName} at ${args.queue}`
        : `${Math.min(plan.workers, plan.tasks.length)} worker thread(s)`,
    );
    results = await execute(plan, args, stop.signal, progress);
  } catch (error) {
    progress.end();
    if (error instanceof SweepAborted) {
      const what = args.queue
        ? 'stopped collecting from the queue'
        : 'stopped the worker threads (their running seeds were abandoned)';
      process.stderr.write(
        `interrupted: ${what} after ${progress.done} of ${plan.tasks.length} seeds; nothing written\n`,
      );
      return 130;
    }
    if (error instanceof QueueSetupError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    stop.dispose();
  }
  progress.end();
  return finish(plan, args, results, (performance.now() - started) / 1000);
}

/** Checks every argument and the scenario before anything runs; throws a one-line error (a ScenarioError has a line per problem). */
export function planSweep(args: SweepArgs): SweepPlan {
  const seeds = parseSeedSpec(args.seeds);
  const shard = args.shard === undefined ? undefined : parseShard(args.shard);
  const seedTimeoutMs = positiveDuration(args.timeout, '--timeout');
  const queueWaitMs =
    args.queueWait === undefined
      ? seedTimeoutMs + QUEUE_WAIT_MARGIN_MS
      : positiveDuration(args.queueWait, '--queue-wait');
  if (args.queue !== undefined) {
    redisConnection(args.queue);
    if (args.workers !== undefined)
      throw new UsageError(
        '--workers: with --queue the worker processes choose their threads (worker --concurrency N)',
      );
  }
  const workers = workerThreads(args.workers);
  const outProblem = outDirProblem(args.out);
  if (outProblem) throw new UsageError(outProblem);
  const scenario = loadScenarioFile(args.scenario); // checks the file as `run` does; one line per problem
  const text = readFileSync(args.scenario, 'utf8');
  const identity = sweepIdentity(packageVersion(), { name: scenario.name, file: args.scenario, text }, seeds);
  const mine = shard ? shardSeeds(seeds, shard) : seeds;
  return {
    scenario,
    identity,
    tasks: mine.map((seed) => ({ scenarioText: text, scenarioFile: args.scenario, seed })),
    shard,
    workers,
    seedTimeoutMs,
    queueWaitMs,
  };
}

/**
 * Populates one world of the scenario, as `run` does before its first event: an agent module that cannot
 * load, or options it refuses, is the scenario's fault (a ScenarioError, exit 2), not every seed's crash.
 */
export async function checkScenarioStarts(scenario: Scenario): Promise<void> {
  const { World } = await import('../sim/world.js');
  await new World(scenario).populate();
}

async function execute(
  plan: SweepPlan,
  args: SweepArgs,
  signal: AbortSignal,
  progress: SeedProgress,
): Promise<SeedResult[]> {
  const onResult = (result: SeedResult) => progress.record(result);
  if (plan.tasks.length === 0) return [];
  // Loaded on use: piscina and BullMQ would otherwise slow the start of every command.
  if (args.queue === undefined) {
    const { runSeedsLocally } = await import('../sweep/pool/pool.js');
    return runSeedsLocally(plan.tasks, {
      workers: plan.workers,
      seedTimeoutMs: plan.seedTimeoutMs,
      signal,
      onResult,
    });
  }
  const { runSeedsOnQueue } = await import('../sweep/queue/queue-producer.js');
  return runSeedsOnQueue(plan.tasks, {
    url: args.queue,
    queueName: args.queueName ?? DEFAULT_QUEUE_NAME,
    sweepId: randomUUID(),
    version: plan.identity.version,
    seedTimeoutMs: plan.seedTimeoutMs,
    idleLimitMs: plan.queueWaitMs,
    signal,
    onResult,
    onNotice: (line) => progress.notice(line),
  });
}

function finish(plan: SweepPlan, args: SweepArgs, results: SeedResult[], seconds: number): number {
  if (plan.shard) {
    const shard = buildShard(plan.identity, plan.shard, results);
    const [file] = writeAtomically(args.out, { [SHARD_FILE]: shardJson(shard) });
    const failed = shard.results.filter(seedFailed).length;
    process.stdout.write(
      `shard ${plan.shard.index}/${plan.shard.count} of ${plan.identity.scenario.name} seeds ${plan.identity.seeds.spec}: ${shard.results.length} seeds, ${failed} failing, in ${seconds.toFixed(1)} s\n` +
        `wrote ${file}; combine the shards with: npx agent-chess-sim merge DIR1 DIR2 ... --out DIR\n`,
    );
    return failed > 0 ? 1 : 0;
  }
  const result = buildSweep(plan.identity, results);
  const files = writeAtomically(args.out, sweepFiles(result));
  printSweepSummary(result, files, `${seconds.toFixed(1)} s`);
  return result.passed ? 0 : 1;
}

/** The closing lines of a sweep or a merge: the tally, the failing seeds with their replay commands, the files. */
export function printSweepSummary(result: SweepResult, files: string[], took: string): void {
  const c = result.counts;
  const lines = [
    `sweep ${result.scenario.name}, seeds ${result.seeds.spec}: ${c.passed} passed, ${c.failed} broke an invariant, ${c.crashed} crashed, ${c.timed_out} timed out, ${c.lost} lost (${took})`,
  ];
  for (const f of result.failures.slice(0, MAX_PRINTED_FAILURES))
    lines.push(`FAILED seed ${f.seed} (${f.status}): ${f.reason}`, `  replay: ${f.replay}`);
  if (result.failures.length > MAX_PRINTED_FAILURES)
    lines.push(`and ${result.failures.length - MAX_PRINTED_FAILURES} more failing seeds in sweep.json`);
  lines.push(`wrote ${files.join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The first Ctrl-C (or SIGTERM) stops the sweep cleanly; a second one exits at once. */
function stopOnSignals(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
