import type { ArgumentsCamelCase, Argv } from 'yargs';
import { diffEventLogs, eventDiffText, EventLineError } from '../report/event-diff.js';
import { eventLogLines, EventLogError, findEventLog } from '../report/event-log.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface DiffArgs {
  a: string;
  b: string;
}

export const diffCommand = {
  ...COMMAND_SUMMARIES.diff,
  builder: (y: Argv) =>
    y
      .positional('a', {
        type: 'string',
        demandOption: true,
        describe:
          'an event log (.jsonl or .jsonl.gz), or a report folder holding events.jsonl.gz or events.jsonl',
      })
      .positional('b', { type: 'string', demandOption: true, describe: 'the other log or folder' })
      .example(
        '$0 run scenarios/smoke.yaml --seed 1 --out reports/s1 --events reports/s1/events.jsonl.gz',
        'a run that keeps its event log',
      )
      .example('$0 diff reports/s1 reports/s2', 'where the two runs first part')
      .epilogue(
        'Exit codes: 0 the logs are identical, 1 they differ, 2 bad input (no log, or a line that is not an event).',
      ),
  handler: async (args: ArgumentsCamelCase<DiffArgs>) => {
    process.exitCode = await diff(args);
  },
};

async function diff(args: DiffArgs): Promise<number> {
  try {
    const [a, b] = [findEventLog(args.a), findEventLog(args.b)];
    const d = await diffEventLogs(eventLogLines(a), eventLogLines(b));
    process.stdout.write(`${eventDiffText(d, { a, b }).join('\n')}\n`);
    return d.first === null ? 0 : 1;
  } catch (error) {
    if (error instanceof EventLogError || error instanceof EventLineError) return refuse(error.message);
    const e = error as NodeJS.ErrnoException;
    if (typeof e.code === 'string')
      return refuse(`cannot read the logs (${e.code}: ${e.message.split('\n')[0]})`);
    throw error;
  }
}

function refuse(message: string): number {
  process.stderr.write(`agent-chess-sim diff: ${message}\n`);
  return 2;
}
