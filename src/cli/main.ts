// First, so the heap's growth is bounded before any command allocates (see heap-growth.ts).
import './heap-growth.js';
import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { joinSignedValues } from './options.js';
import { COMMAND_SUMMARIES, commandNamed, loadCommand, type CommandName } from './command-table.js';

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
 * The commands this invocation registers: the named one's module when the first word names one (each
 * imports its whole part of the project, the bench's all of it); else every command by its usage line and
 * description only, which is all the overview `--help` and yargs' suggestion for a misspelt word read.
 */
async function commandsFor(args: readonly string[]): Promise<CommandModule[]> {
  const named = commandNamed(args);
  if (named !== undefined) return [await loadCommand(named)];
  return (Object.keys(COMMAND_SUMMARIES) as CommandName[]).map((name) => ({
    ...COMMAND_SUMMARIES[name],
    // Never reached: a first word naming this command loads its module instead.
    handler: () => usageFailure(`${name}: the command was not loaded`, undefined),
  }));
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
