import { readFileSync } from 'node:fs';
import { loadScenarioFile, type Scenario } from '../sim/scenario/scenario.js';
import { loadOutputs, type OutputsModule } from './outputs/outputs-bundle.js';
import { writeAtomically } from './outputs/write.js';
import type { SeedPool } from './pool/pool.js';
import { DEFAULT_QUEUE_NAME } from './queue/queue-name.js';
import { seedFailed, type SeedResult, type SeedTask } from './seed-result.js';
import type { Shard } from './seeds.js';
import { checkSweepOptions, localThreads, type SweepOptions } from './sweep-options.js';
import { buildShard, SHARD_FILE, shardJson } from './shard.js';
import { buildSweep, sweepIdentity, type SweepIdentity, type SweepResult } from './sweep-result.js';
import { packageVersion } from './version.js';

export type { SweepOptions } from './sweep-options.js';

export interface SweepPlan {
  scenario: Scenario;
  identity: SweepIdentity;
  tasks: SeedTask[];
  shard: Shard | undefined;
  workers: number;
  seedTimeoutMs: number;
  queueWaitMs: number;
}

/** Checks every option and the scenario before anything runs; throws a one-line error (a ScenarioError has a line per problem). */
export function planSweep(options: SweepOptions): SweepPlan {
  const { seeds, mine, shard, workers, seedTimeoutMs, queueWaitMs } = checkSweepOptions(options);
  const scenario = loadScenarioFile(options.scenario); // checks the file as `run` does; one line per problem
  const text = readFileSync(options.scenario, 'utf8');
  const identity = sweepIdentity(
    packageVersion(),
    { name: scenario.name, file: options.scenario, text },
    seeds,
  );
  return {
    scenario,
    identity,
    tasks: mine.map((seed) => ({ scenarioText: text, scenarioFile: options.scenario, seed })),
    shard,
    workers,
    seedTimeoutMs,
    queueWaitMs,
  };
}

/**
 * Populates one world of the scenario on this thread (run-seed.ts says why); a local sweep leaves it to
 * its pool's first free thread instead, which loads the world's code for its seeds anyway.
 */
export async function checkScenarioStarts(scenario: Scenario): Promise<void> {
  const { checkScenarioStarts: populateOnce } = await import('./run-seed.js');
  await populateOnce(scenario);
}

export interface SweepRunHooks {
  /** The caller's stop (Ctrl-C): the sweep throws SweepAborted. */
  signal: AbortSignal;
  onResult: (result: SeedResult) => void;
  /** A queue producer's notices (workers lost, seeds given up). */
  onNotice: (line: string) => void;
  /** A queue sweep's id, fresh for each sweep (the caller draws it: nothing below the CLI is random). */
  sweepId: () => string;
}

/**
 * Runs the plan's seeds on worker threads, or on a BullMQ queue when `options.queue` names one, after
 * checking that the scenario starts: a refusal throws a ScenarioError (on this thread) or a
 * ScenarioStartError (on the pool's), and no result is kept.
 */
export async function runSweepSeeds(
  plan: SweepPlan,
  options: Pick<SweepOptions, 'queue' | 'queueName'> & {
    /** A local sweep's pool, already started (the caller destroys it); by default one is made and destroyed. */
    pool?: SeedPool;
  },
  hooks: SweepRunHooks,
): Promise<SeedResult[]> {
  if (plan.tasks.length === 0) {
    await checkScenarioStarts(plan.scenario);
    return [];
  }
  const onResult = prefetchingOutputs(plan, options.queue === undefined, hooks.onResult);
  // Loaded on use: piscina and BullMQ would otherwise slow the start of every command.
  if (options.queue === undefined) {
    const { runSeedsLocally } = await import('./pool/pool.js');
    const [first] = plan.tasks;
    return runSeedsLocally(plan.tasks, {
      workers: plan.workers,
      seedTimeoutMs: plan.seedTimeoutMs,
      signal: hooks.signal,
      onResult,
      pool: options.pool,
      startCheck: { scenarioText: first!.scenarioText, scenarioFile: first!.scenarioFile },
    });
  }
  // The queue's workers are other processes: the check is this thread's.
  await checkScenarioStarts(plan.scenario);
  const { runSeedsOnQueue } = await import('./queue/queue-producer.js');
  return runSeedsOnQueue(plan.tasks, {
    url: options.queue,
    queueName: options.queueName ?? DEFAULT_QUEUE_NAME,
    sweepId: hooks.sweepId(),
    version: plan.identity.version,
    seedTimeoutMs: plan.seedTimeoutMs,
    idleLimitMs: plan.queueWaitMs,
    signal: hooks.signal,
    onResult,
    onNotice: hooks.onNotice,
  });
}

/**
 * `onResult`, loading the outputs' code (loadSweepOutputs) once every seed left is running: a core is then
 * about to fall idle, so the load overlaps the last seeds instead of following them, and slows no thread's
 * start-up. (With one worker the main thread has the other core all along.) A queue's seeds run elsewhere:
 * it loads at once.
 */
function prefetchingOutputs(
  plan: SweepPlan,
  local: boolean,
  onResult: (result: SeedResult) => void,
): (result: SeedResult) => void {
  if (plan.shard) return onResult;
  const running = local ? localThreads(plan.workers, plan.tasks.length) : plan.tasks.length;
  // A failed load is met again, and reported, when writeSweep awaits the same promise. The load blocks this
  // thread (it compiles one file): it waits until the result's lane has handed its thread the next seed.
  const prefetch = () => setImmediate(() => void loadSweepOutputs().catch(() => undefined));
  let left = plan.tasks.length;
  if (left <= running) prefetch();
  return (result) => {
    if (--left === running) prefetch();
    onResult(result);
  };
}

/** What a finished sweep wrote: a shard's shard.json, or the whole sweep's files. */
export type SweepWritten =
  | { kind: 'shard'; shard: Shard; file: string; seeds: number; failed: number }
  | { kind: 'sweep'; result: SweepResult; files: string[] };

/**
 * The outputs' code (sweep.html draws its charts with Vega; outputs-bundle.ts), loaded on first call: a
 * sweep asks for it before its last seeds end (prefetchingOutputs), not at its start.
 */
let outputsModule: Promise<OutputsModule> | undefined;
export function loadSweepOutputs(): Promise<OutputsModule> {
  outputsModule ??= loadOutputs();
  return outputsModule;
}

/** Writes the sweep's outputs into `out` (shard.json for a shard; sweep.json, junit.xml, summary.md, sweep.html otherwise). */
export async function writeSweep(plan: SweepPlan, out: string, results: SeedResult[]): Promise<SweepWritten> {
  if (plan.shard) {
    const shard = buildShard(plan.identity, plan.shard, results);
    const [file] = writeAtomically(out, { [SHARD_FILE]: shardJson(shard) });
    const failed = shard.results.filter(seedFailed).length;
    return { kind: 'shard', shard: plan.shard, file: file!, seeds: shard.results.length, failed };
  }
  const result = buildSweep(plan.identity, results);
  const { sweepFiles } = await loadSweepOutputs();
  return { kind: 'sweep', result, files: writeAtomically(out, sweepFiles(result)) };
}

/** Failing seeds printed at the end; sweep.json and summary.md list them all. */
const MAX_PRINTED_FAILURES = 20;

/** The closing lines of a sweep or a merge: the tally, the failing seeds with their replay commands, the files. */
export function sweepSummaryLines(result: SweepResult, files: string[], took: string): string[] {
  const c = result.counts;
  const lines = [
    `sweep ${result.scenario.name}, seeds ${result.seeds.spec}: ${c.passed} passed, ${c.failed} broke an invariant, ${c.crashed} crashed, ${c.timed_out} timed out, ${c.lost} lost (${took})`,
  ];
  for (const f of result.failures.slice(0, MAX_PRINTED_FAILURES))
    lines.push(`FAILED seed ${f.seed} (${f.status}): ${f.reason}`, `  replay: ${f.replay}`);
  if (result.failures.length > MAX_PRINTED_FAILURES)
    lines.push(`and ${result.failures.length - MAX_PRINTED_FAILURES} more failing seeds in sweep.json`);
  lines.push(`wrote ${files.join(', ')}`);
  return lines;
}
