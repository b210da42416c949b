// First, so the heap's growth is bounded before any command allocates (see heap-growth.ts).
import './heap-growth.js';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './run.js';
import { benchCommand } from './bench.js';
import { serveCommand } from './serve.js';
import { calibrateCommand } from './calibrate.js';
import { sweepCommand } from './sweep.js';
import { mergeCommand } from './merge.js';
import { workerCommand } from './worker.js';
import { shrinkCommand } from './shrink.js';
import { compareCommand } from './compare.js';
import { diffCommand } from './diff.js';
import { joinSignedValues } from './options.js';

/**
 * A usage mistake (unknown option, missing value, no command) is one line on stderr and exit 2, without the
 * whole help text. An error thrown by a command is not a usage mistake: it propagates as before.
 */
function usageFailure(message: string | undefined, error: Error | undefined): void {
  if (error) throw error;
  const hint = /--help/.test(message ?? '') ? '' : ' (see agent-chess-sim --help)';
  process.stderr.write(`agent-chess-sim: ${message ?? 'bad arguments'}${hint}\n`);
  process.exit(2);
}

/** The agent-chess-sim command line. Only this folder reads argv, env and the wall clock. */
await yargs(joinSignedValues(hideBin(process.argv)))
  .scriptName('agent-chess-sim')
  .usage('$0 <command> [options]')
  .command(runCommand)
  .command(serveCommand)
  .command(benchCommand)
  .command(calibrateCommand)
  .command(sweepCommand)
  .command(mergeCommand)
  .command(workerCommand)
  .command(shrinkCommand)
  .command(compareCommand)
  .command(diffCommand)
  .demandCommand(1, 'Name a command; see --help.')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version()
  .epilogue('Docs: README.md and docs/rules.md')
  .fail(usageFailure)
  .parseAsync();
