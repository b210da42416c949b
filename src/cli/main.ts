// First, so the heap's growth is bounded before any command allocates (see heap-growth.ts).
import './heap-growth.js';
import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { joinSignedValues } from './options.js';
import { COMMAND_LOADERS, commandNamed, loadCommand, type CommandName } from './command-table.js';

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

/**
 * The command modules this invocation needs: only the named one when the first word names one (each
 * imports its whole part of the project, the bench's all of it), every one for the overview `--help` and
 * for a word that names none (so yargs can list and suggest them).
 */
async function commandsFor(args: readonly string[]): Promise<CommandModule[]> {
  const named = commandNamed(args);
  const names = named === undefined ? (Object.keys(COMMAND_LOADERS) as CommandName[]) : [named];
  return Promise.all(names.map(loadCommand));
}

/** The agent-chess-sim command line. Only this folder reads argv, env and the wall clock. */
const args = joinSignedValues(hideBin(process.argv));
let cli = yargs(args).scriptName('agent-chess-sim').usage('$0 <command> [options]');
for (const command of await commandsFor(args)) cli = cli.command(command);
await cli
  .demandCommand(1, 'Name a command; see --help.')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version()
  .epilogue('Docs: README.md and docs/rules.md')
  .fail(usageFailure)
  .parseAsync();
