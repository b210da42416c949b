import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './run.js';
import { benchCommand } from './bench.js';
import { serveCommand } from './serve.js';
import { calibrateCommand } from './calibrate.js';

/** The agent-chess-sim command line. Only this folder reads argv, env and the wall clock. */
await yargs(hideBin(process.argv))
  .scriptName('agent-chess-sim')
  .usage('$0 <command> [options]')
  .command(runCommand)
  .command(serveCommand)
  .command(benchCommand)
  .command(calibrateCommand)
  .demandCommand(1, 'Name a command; see --help.')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version()
  .epilogue('Docs: README.md and docs/rules.md')
  .parseAsync();
