import { availableParallelism } from 'node:os';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { DEFAULT_QUEUE_NAME } from '../sweep/queue/queue-name.js';
import { QueueSetupError, redisConnection } from '../sweep/queue/redis-url.js';
import { packageVersion } from '../sweep/version.js';
import { positiveDuration, UsageError } from '../sweep/run-options.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface WorkerArgs {
  queue: string;
  /** Kebab-case options reach the handler camel-cased; typed optional, as yargs' types cannot see that. */
  queueName?: string;
  concurrency?: number;
  lock: string;
  stalledInterval?: string;
  maxStalled?: number;
  idleExit?: string;
}

const MAX_CONCURRENCY = 256;
/** BullMQ's own defaults for the lock and the stalled check; a dead worker's seed is taken again within about a minute. */
const DEFAULT_LOCK = '30s';
const DEFAULT_STALLED_INTERVAL = '30s';
/** Two recoveries: a seed survives two dead workers, and a seed that kills every worker it meets stops on the third. */
const DEFAULT_MAX_STALLED = 2;

export const workerCommand = {
  ...COMMAND_SUMMARIES.worker,
  builder: (y: Argv) =>
    y
      .option('queue', {
        type: 'string',
        demandOption: true,
        describe: 'redis://HOST:PORT of the queue `sweep --queue` fills',
      })
      .option('queue-name', { type: 'string', default: DEFAULT_QUEUE_NAME, describe: 'the BullMQ queue' })
      .option('concurrency', {
        type: 'number',
        describe: 'seeds at once, one worker thread each (default: the CPU count)',
      })
      .option('lock', {
        type: 'string',
        default: DEFAULT_LOCK,
        describe:
          "a running seed's lock; when this worker dies, another takes its seed once the lock expires",
      })
      .option('stalled-interval', {
        type: 'string',
        default: DEFAULT_STALLED_INTERVAL,
        describe: "how often this worker looks for dead workers' seeds",
      })
      .option('max-stalled', {
        type: 'number',
        default: DEFAULT_MAX_STALLED,
        describe: 'how often one seed may be taken back from a dead worker before it is reported lost',
      })
      .option('idle-exit', {
        type: 'string',
        describe: 'exit after this long with no seed to run (default: run until stopped)',
      })
      .example('$0 worker --queue redis://127.0.0.1:6379', 'serve the default queue with one thread per CPU'),
  handler: async (args: ArgumentsCamelCase<WorkerArgs>) => {
    process.exitCode = await worker(args);
  },
};

/** Exit codes: 0 stopped or idle, 1 lost Redis, 2 bad arguments or Redis unreachable at the start. */
async function worker(args: WorkerArgs): Promise<number> {
  let options;
  try {
    options = checkArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof QueueSetupError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stdout.write(
      `stopping: seeds running here go back to the queue once their ${args.lock} lock expires, and another worker runs them\n`,
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const { serveQueue } = await import('../sweep/queue/queue-worker.js'); // BullMQ loads only for this command
    const finished = await serveQueue({ ...options, signal: controller.signal, log });
    log(`worker done: ${finished} seed(s) finished here`);
    return 0;
  } catch (error) {
    if (!(error instanceof QueueSetupError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return controller.signal.aborted ? 0 : error.message.startsWith('lost') ? 1 : 2;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function checkArgs(args: WorkerArgs) {
  redisConnection(args.queue);
  const concurrency = args.concurrency ?? availableParallelism();
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
    throw new UsageError(
      `--concurrency: must be an integer from 1 to ${MAX_CONCURRENCY}, got ${args.concurrency}`,
    );
  const maxStalled = args.maxStalled ?? DEFAULT_MAX_STALLED;
  if (!Number.isInteger(maxStalled) || maxStalled < 0)
    throw new UsageError(`--max-stalled: must be a non-negative integer, got ${maxStalled}`);
  return {
    url: args.queue,
    queueName: args.queueName ?? DEFAULT_QUEUE_NAME,
    concurrency,
    version: packageVersion(),
    lockMs: positiveDuration(args.lock, '--lock'),
    stalledMs: positiveDuration(args.stalledInterval ?? DEFAULT_STALLED_INTERVAL, '--stalled-interval'),
    maxStalled,
    ...(args.idleExit === undefined ? {} : { idleExitMs: positiveDuration(args.idleExit, '--idle-exit') }),
  };
}
