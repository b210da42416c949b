import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { parseScenarioWithSource, ScenarioError } from '../sim/scenario/scenario.js';
import {
  describeSize,
  formatDuration,
  minimalYaml,
  shrinkScenario,
  ShrinkError,
  UnknownInvariantError,
  type ShrinkResult,
} from '../sim/shrink.js';
import { runScenario } from '../sim/world.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface ShrinkArgs {
  scenario: string;
  seed?: string;
  invariant?: string;
  out: string;
  maxRuns?: number;
  progress: boolean;
}

export const shrinkCommand = {
  ...COMMAND_SUMMARIES.shrink,
  builder: (y: Argv) =>
    y
      .positional('scenario', {
        type: 'string',
        demandOption: true,
        describe: 'the scenario YAML file of the failing run',
      })
      .option('seed', { type: 'string', describe: "the failing seed (default: the scenario's own)" })
      .option('invariant', {
        type: 'string',
        describe: 'the invariant to keep broken (default: the first one the run breaks)',
      })
      .option('out', {
        type: 'string',
        default: 'reports/shrink',
        describe: 'directory for minimal.yaml and shrink.md',
      })
      .option('max-runs', { type: 'number', default: 150, describe: 'candidate runs at most' })
      .option('progress', {
        type: 'boolean',
        default: true,
        describe: 'print a line per candidate run to stderr',
      })
      .example(
        '$0 shrink scenarios/smoke.yaml --seed 7 --invariant no_timeouts --out reports/shrink',
        'find a minimal scenario that still breaks no_timeouts',
      ),
  handler: async (args: ArgumentsCamelCase<ShrinkArgs>) => {
    process.exitCode = await shrink(args);
  },
};

/** Exit codes: 0 a minimal scenario was written, 1 nothing to shrink (no invariant broke), 2 bad arguments (an unknown --invariant too) or scenario. */
async function shrink(args: ShrinkArgs): Promise<number> {
  const problem = argumentProblem(args);
  if (problem) return refuse(problem);
  const text = readFileSync(args.scenario, 'utf8');
  const baseDir = dirname(resolve(args.scenario));
  const started = performance.now();
  let result: ShrinkResult;
  try {
    parseScenarioWithSource(text, args.scenario, args.seed, baseDir);
    const onProgress = args.progress
      ? (line: string) => process.stderr.write(`shrink: ${line}\n`)
      : undefined;
    result = await shrinkScenario(text, args.scenario, args.seed, baseDir, {
      ...(args.invariant ? { invariant: args.invariant } : {}),
      maxRuns: args.maxRuns ?? 150,
      ...(onProgress ? { onProgress } : {}),
    });
  } catch (error) {
    if (error instanceof ScenarioError) return refuse(error.message);
    if (error instanceof UnknownInvariantError) return refuse(`shrink: --invariant: ${error.message}`);
    if (error instanceof ShrinkError) {
      process.stderr.write(`shrink: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const files = await writeMinimal(args, result, baseDir);
  if (typeof files === 'string') return refuse(files);
  process.stdout.write(
    `${files.summary}\nwrote ${files.paths.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

function argumentProblem(args: ShrinkArgs): string | undefined {
  if (!existsSync(args.scenario) || !statSync(args.scenario).isFile())
    return `${args.scenario}: no such scenario file`;
  if (args.seed !== undefined && args.seed.trim() === '') return '--seed: must not be empty';
  const maxRuns = args.maxRuns ?? 150;
  if (!(Number.isInteger(maxRuns) && maxRuns >= 1 && maxRuns <= 10_000))
    return '--max-runs: an integer from 1 to 10000';
  if (existsSync(args.out) && !statSync(args.out).isDirectory())
    return `--out: ${args.out} is a file, not a directory`;
  return undefined;
}

function refuse(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}

/**
 * Replays the minimal scenario as `run` would, to confirm it breaks the same invariant, then writes
 * minimal.yaml and shrink.md into a fresh folder and moves them into place (nothing half-written is left).
 */
async function writeMinimal(
  args: ShrinkArgs,
  result: ShrinkResult,
  baseDir: string,
): Promise<{ paths: string[]; summary: string } | string> {
  const out = resolve(args.out);
  const staging = `${out}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const header = [
    `shrunk by: agent-chess-sim shrink ${args.scenario}${args.seed ? ` --seed ${args.seed}` : ''}`,
    `breaks ${result.invariant}: ${result.message}`,
  ];
  const yaml = minimalYaml(result, header, baseDir, out);
  const replayed = await runScenario(parseScenarioWithSource(yaml, 'minimal.yaml', undefined, out).scenario);
  const still = replayed.invariants.find((r) => r.name === result.invariant);
  if (!still || still.passed)
    return `shrink: the minimal scenario no longer breaks ${result.invariant} when replayed (a bug in shrink; the search log above shows the kept steps)`;
  const replay = `npx agent-chess-sim run ${join(args.out, 'minimal.yaml')} --out ${join(args.out, 'run')}`;
  const summary = summaryText(result, replayed.events, replay);
  writeFileSync(join(staging, 'minimal.yaml'), yaml);
  writeFileSync(join(staging, 'shrink.md'), summary);
  mkdirSync(out, { recursive: true });
  for (const name of ['minimal.yaml', 'shrink.md']) renameSync(join(staging, name), join(out, name));
  rmSync(staging, { recursive: true, force: true });
  return { paths: [join(args.out, 'minimal.yaml'), join(args.out, 'shrink.md')], summary };
}

function summaryText(result: ShrinkResult, replayEvents: number, replay: string): string {
  const { original: a, minimal: b } = result;
  const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(1)}x` : '-');
  return [
    `# shrink: ${result.invariant}`,
    '',
    `${result.message}`,
    '',
    '| | original | minimal | smaller by |',
    '|---|---|---|---|',
    `| agents | ${a.agents} | ${b.agents} | ${ratio(a.agents, b.agents)} |`,
    `| duration | ${formatDuration(a.durationMs)} | ${formatDuration(b.durationMs)} (cut at the failure) | ${ratio(a.durationMs, b.durationMs)} |`,
    `| events to the first failure | ${a.eventsToFailure} | ${b.eventsToFailure} | ${ratio(a.eventsToFailure, b.eventsToFailure)} |`,
    '',
    `The minimal scenario replays with ${replayEvents} events in all. ${result.runs} candidate runs; kept: ${result.kept.join('; ') || 'nothing'}.`,
    '',
    `original: ${describeSize(a)}`,
    `minimal: ${describeSize(b)}`,
    '',
    `replay: \`${replay}\``,
    '',
  ].join('\n');
}
