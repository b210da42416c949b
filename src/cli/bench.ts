import type { ArgumentsCamelCase, Argv } from 'yargs';
import { runBench } from '../../bench/index.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface BenchArgs {
  rounds: number;
  games: number;
}

export const benchCommand = {
  ...COMMAND_SUMMARIES.bench,
  builder: (y: Argv) =>
    y
      .option('rounds', { type: 'number', default: 5, describe: 'alternating rounds; figures are medians' })
      .option('games', { type: 'number', default: 100, describe: 'random games per loop per round' }),
  handler: async (args: ArgumentsCamelCase<BenchArgs>) => {
    await runBench({
      rounds: args.rounds,
      games: args.games,
      log: (line) => process.stdout.write(`${line}\n`),
    });
  },
};
