import type { CommandModule } from 'yargs';
import type { CommandName } from './command-summaries.js';

export { COMMAND_SUMMARIES, type CommandName } from './command-summaries.js';

/** Each command module types its own arguments; yargs registers any of them. */
type Loader = () => Promise<object>;

/**
 * Every command by its name, loaded on demand: importing all of them cost every invocation the start-up of
 * the largest (the bench imports the whole project). test/unit/cli-lazy.test.ts checks each name against
 * the `command` string of the module it loads (the overview help lists each once).
 */
export const COMMAND_LOADERS: Readonly<Record<CommandName, Loader>> = {
  // run's code is one bundled file when the build made it (run-bundle.ts).
  run: () => import('./run-bundle.js').then((m) => m.loadRunCommand()),
  serve: () => import('./serve.js').then((m) => m.serveCommand),
  bench: () => import('./bench.js').then((m) => m.benchCommand),
  calibrate: () => import('./calibrate.js').then((m) => m.calibrateCommand),
  sweep: () => import('./sweep.js').then((m) => m.sweepCommand),
  merge: () => import('./merge.js').then((m) => m.mergeCommand),
  worker: () => import('./worker.js').then((m) => m.workerCommand),
  shrink: () => import('./shrink.js').then((m) => m.shrinkCommand),
  compare: () => import('./compare.js').then((m) => m.compareCommand),
  diff: () => import('./diff.js').then((m) => m.diffCommand),
};

/** A command module as yargs registers it. */
export async function loadCommand(name: CommandName): Promise<CommandModule> {
  return (await COMMAND_LOADERS[name]()) as CommandModule;
}

/** The command the first word names (yargs reads the first non-option word as the command), if any. */
export function commandNamed(args: readonly string[]): CommandName | undefined {
  const first = args.find((arg) => !arg.startsWith('-'));
  return first !== undefined && Object.hasOwn(COMMAND_LOADERS, first) ? (first as CommandName) : undefined;
}
