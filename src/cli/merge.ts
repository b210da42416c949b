import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { sweepFiles } from '../sweep/outputs/outputs.js';
import { MergeError, mergeShards, SHARD_FILE, type ShardInput } from '../sweep/shard.js';
import { outDirProblem, writeAtomically } from '../sweep/outputs/write.js';
import { sweepSummaryLines } from '../sweep/sweep-plan.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface MergeArgs {
  dirs: string[];
  out: string;
}

export const mergeCommand = {
  ...COMMAND_SUMMARIES.merge,
  builder: (y: Argv) =>
    y
      .positional('dirs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'the directories the shards wrote (each holds shard.json)',
      })
      .option('out', {
        type: 'string',
        default: 'reports/sweep',
        describe: 'directory for sweep.json, junit.xml and summary.md',
      })
      .example('$0 merge reports/shard-1 reports/shard-2 --out reports/sweep', 'merge two shards'),
  handler: (args: ArgumentsCamelCase<MergeArgs>) => {
    process.exitCode = merge(args);
  },
};

/** Exit codes: 0 every seed passed, 1 a seed failed, 2 the shards do not make one sweep (nothing written). */
function merge(args: MergeArgs): number {
  try {
    const outProblem = outDirProblem(args.out);
    if (outProblem) throw new MergeError(outProblem);
    const sweep = mergeShards(args.dirs.map(readShard));
    const files = writeAtomically(args.out, sweepFiles(sweep));
    const took = `merged ${args.dirs.length} shard${args.dirs.length === 1 ? '' : 's'}`;
    process.stdout.write(`${sweepSummaryLines(sweep, files, took).join('\n')}\n`);
    return sweep.passed ? 0 : 1;
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
}

function readShard(dir: string): ShardInput {
  const file = join(dir, SHARD_FILE);
  if (!existsSync(file))
    throw new MergeError(`merge: ${dir} has no ${SHARD_FILE} (did its sweep --shard run finish?)`);
  try {
    return { dir, data: JSON.parse(readFileSync(file, 'utf8')) as unknown };
  } catch (error) {
    throw new MergeError(`merge: ${file} is not readable JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}
