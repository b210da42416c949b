/** A helper of the commands, not a command: the names and the text the help shows of each. */

export type CommandName =
  'run' | 'serve' | 'bench' | 'calibrate' | 'sweep' | 'merge' | 'worker' | 'shrink' | 'compare' | 'diff';

/**
 * Each command's usage line and one-line description, the one place they are written: the command modules
 * spread them into their yargs definitions, and the overview `--help` lists them without loading a module
 * (loading all ten cost the overview three seconds and 130 MB).
 */
export const COMMAND_SUMMARIES: Readonly<Record<CommandName, { command: string; describe: string }>> = {
  run: {
    command: 'run [scenario]',
    describe:
      'Run a scenario (or your agent against chosen opponents) on the virtual clock; write report.json, games.pgn, junit.xml and summary.md',
  },
  serve: {
    command: 'serve',
    describe: 'Serve the platform twin over HTTP, with simulated agents playing in the background',
  },
  bench: {
    command: 'bench',
    describe: "Measure the platform's random-game throughput as a ratio to a bare chessops loop",
  },
  calibrate: {
    command: 'calibrate',
    describe:
      'Measure the engine levels: mini-matches level vs level and vs random, written as an Elo ladder',
  },
  sweep: {
    command: 'sweep <scenario>',
    describe:
      'Run a scenario once per seed on a pool of worker threads (or a Redis queue) and write sweep.json, junit.xml and summary.md',
  },
  merge: {
    command: 'merge <dirs..>',
    describe:
      'Combine the shard.json of every shard of a sweep into the sweep.json, junit.xml and summary.md an unsharded sweep writes',
  },
  worker: {
    command: 'worker',
    describe: 'Run sweep seeds from a BullMQ queue in Redis (start any number, on any machines)',
  },
  shrink: {
    command: 'shrink <scenario>',
    describe:
      'Shrink a run that breaks an invariant to a minimal scenario that still breaks it (writes minimal.yaml)',
  },
  compare: {
    command: 'compare [scenario]',
    describe:
      'Compare two rulesets on the same seeds (a table of every metric with its 95% interval), or two agents in colour-swapped pairs until an SPRT decides',
  },
  diff: {
    command: 'diff <a> <b>',
    describe:
      'Compare two canonical event logs (written by run --events): the first event that differs, with its virtual time and context, then counts by event type',
  },
};
