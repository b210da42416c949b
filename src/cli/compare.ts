import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { AgentModuleError, loadAgentModule } from '../../agents/adapters/byo.js';
import { loadScenarioFileWithSource, ScenarioError } from '../sim/scenario/scenario.js';
import { SweepAborted } from '../sweep/aborted.js';
import type { SeedResult, SeedTask } from '../sweep/seed-result.js';
import { MAX_SEEDS, parseSeedSpec, SeedSpecError } from '../sweep/seeds.js';
import { packageVersion } from '../sweep/version.js';
import { outDirProblem, writeAtomically } from '../sweep/outputs/write.js';
import {
  MatchTally,
  planMatch,
  type MatchSetup,
  type PairPlan,
  type PairRecord,
} from '../compare/agent-match.js';
import {
  agentCompareJson,
  agentMarkdown,
  buildAgentCompare,
  decisionLine,
  matchLines,
  pentanomialText,
} from '../compare/match-output.js';
import { parsePlayer, type PlayerSpec } from '../compare/players.js';
import {
  buildRulesetCompare,
  compareJson,
  rulesetCompareIdentity,
  rulesetTasks,
  type RulesetCompareIdentity,
} from '../compare/ruleset-compare.js';
import { rulesetHtml } from '../compare/ruleset-html.js';
import { agentHtml } from '../compare/agent-html.js';
import { checkGuards, parseGuards, type Guard } from '../compare/ruleset-guard.js';
import { rulesetLines, rulesetMarkdown } from '../compare/ruleset-text.js';
import { RulesetFileError, rulesetSides } from '../compare/rulesets.js';
import { DEFAULT_SPRT, parseSprtOption, SPRT_HELP } from '../compare/sprt-option.js';
import { DEFAULT_SEED_TIMEOUT, positiveDuration, UsageError, workerThreads } from '../sweep/run-options.js';
import { SeedProgress } from './progress.js';

export interface CompareArgs {
  scenario?: string;
  ruleset?: string[];
  failIfChanged?: string[];
  seeds?: string;
  agent?: string[];
  vs?: string;
  sprt?: string;
  maxPairs?: number;
  workers?: number;
  out: string;
  timeout: string;
  progress: boolean;
}

const DEFAULT_MAX_PAIRS = 500;
/** Agent mode prints the Elo and LLR lines every this many pairs (fastchess's rating interval is 10 games). */
const LINES_EVERY_PAIRS = 10;

export const compareCommand = {
  command: 'compare [scenario]',
  describe:
    'Compare two rulesets on the same seeds (a table of every metric with its 95% interval), or two agents in colour-swapped pairs until an SPRT decides',
  builder: (y: Argv) =>
    y
      .positional('scenario', { type: 'string', describe: 'scenario YAML file (with --ruleset)' })
      .option('ruleset', {
        type: 'string',
        array: true,
        describe: 'a YAML file of ruleset overrides, or `default`; give two',
      })
      .option('fail-if-changed', {
        type: 'string',
        array: true,
        describe:
          'with --ruleset: METRIC:DIRECTION (increase, decrease or any); exit 1 when Holm flags that metric changed that way, e.g. moves_per_game:increase',
      })
      .option('seeds', {
        type: 'string',
        describe: 'seeds, e.g. 1..50 (with --agent: one pair per seed, default 1..--max-pairs)',
      })
      .option('agent', {
        type: 'string',
        array: true,
        describe: 'a persona, an engine level (sf-3) or a module path; give two',
      })
      .option('vs', {
        type: 'string',
        describe:
          'with --agent: compare A and B through these opponents (comma-separated) instead of head to head',
      })
      .option('sprt', { type: 'string', describe: SPRT_HELP })
      .option('max-pairs', {
        type: 'number',
        describe: `with --agent: stop after this many pairs without a decision (default ${DEFAULT_MAX_PAIRS})`,
      })
      .option('workers', { type: 'number', describe: 'worker threads (default: the CPU count)' })
      .option('out', {
        type: 'string',
        default: 'reports/compare',
        describe:
          'directory for compare.json, compare.md (and compare.html for rulesets, games.pgn of every duel game for agents)',
      })
      .option('timeout', {
        type: 'string',
        default: DEFAULT_SEED_TIMEOUT,
        describe: 'limit per run (per duel world with --agent)',
      })
      .option('progress', { type: 'boolean', default: true, describe: 'print progress to stderr' })
      .example(
        '$0 compare scenarios/smoke.yaml --ruleset default --ruleset fide-k.yaml --seeds 1..50',
        'the smoke scenario under its own and the FIDE K schedule',
      )
      .example(
        '$0 compare s.yaml --ruleset default --ruleset short.yaml --seeds 1..30 --fail-if-changed moves_per_game:increase',
        'exit 1 if the change lengthens games beyond noise (CI)',
      )
      .example(
        '$0 compare --agent greedy --agent random --sprt elo0=0,elo1=10,alpha=0.05,beta=0.05',
        'greedy against random until the SPRT decides',
      )
      .epilogue(
        'Exit codes with --agent: 0 H1 accepted (A is stronger by elo1), 1 H0 accepted, 3 no decision when the seeds or --max-pairs ran out, 4 a duel world crashed, timed out or broke an invariant. With --ruleset: 0 done, 1 a --fail-if-changed metric changed beyond noise the way it names, or a run broke an invariant or did not finish. Always: 2 bad arguments, 130 interrupted.',
      ),
  handler: async (args: ArgumentsCamelCase<CompareArgs>) => {
    process.exitCode = await compare(args);
  },
};

/**
 * Exit codes with --ruleset: 0 done, 1 a run broke an invariant or did not finish or a --fail-if-changed
 * guard tripped. With --agent: 0 H1 accepted, 1 H0 accepted, 3 no decision (the seeds or --max-pairs ran
 * out), 4 a duel world went wrong. Both: 2 bad arguments (nothing run or written, or a guard naming no
 * metric), 130 stopped.
 */
async function compare(args: CompareArgs): Promise<number> {
  try {
    const mode = checkMode(args);
    return mode === 'rulesets' ? await compareRulesets(args) : await compareAgents(args);
  } catch (error) {
    if (error instanceof UsageError || error instanceof SeedSpecError || error instanceof RulesetFileError)
      return refuse(error.message);
    if (error instanceof ScenarioError) return refuse(`${args.scenario}: ${error.problems.join('; ')}`);
    if (error instanceof SweepAborted) {
      process.stderr.write('interrupted: stopped the worker threads; nothing written\n');
      return 130;
    }
    throw error;
  }
}

function refuse(message: string): number {
  process.stderr.write(`agent-chess-sim compare: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  return 2;
}

function checkMode(args: CompareArgs): 'rulesets' | 'agents' {
  const agents = args.agent !== undefined;
  if (agents && args.ruleset !== undefined)
    throw new UsageError('give --ruleset (with a scenario) or --agent, not both');
  if (agents) {
    if (args.scenario !== undefined)
      throw new UsageError(`--agent plays its own duels: leave out the scenario (got ${args.scenario})`);
    if (args.agent!.length !== 2)
      throw new UsageError(
        `--agent: give exactly two (got ${args.agent!.length}), e.g. --agent greedy --agent random`,
      );
    return 'agents';
  }
  if (agents && args.failIfChanged !== undefined)
    throw new UsageError('--fail-if-changed goes with --ruleset');
  if (args.scenario === undefined)
    throw new UsageError('name a scenario with two --ruleset files, or give two --agent');
  for (const option of ['vs', 'sprt', 'maxPairs'] as const)
    if (args[option] !== undefined)
      throw new UsageError(`--${option === 'maxPairs' ? 'max-pairs' : option} goes with --agent`);
  if (args.ruleset?.length !== 2)
    throw new UsageError(
      `--ruleset: give exactly two (got ${args.ruleset?.length ?? 0}), e.g. --ruleset default --ruleset fide-k.yaml`,
    );
  if (args.seeds === undefined)
    throw new UsageError('--seeds: give the seeds to run under each ruleset, e.g. --seeds 1..50');
  return 'rulesets';
}

function commonOptions(args: CompareArgs): { workers: number; seedTimeoutMs: number } {
  const workers = workerThreads(args.workers);
  const seedTimeoutMs = positiveDuration(args.timeout, '--timeout');
  const outProblem = outDirProblem(args.out);
  if (outProblem) throw new UsageError(outProblem);
  return { workers, seedTimeoutMs };
}

// ---------------------------------------------------------------------------------------------------------
// rulesets

async function compareRulesets(args: CompareArgs): Promise<number> {
  const seeds = parseSeedSpec(args.seeds!);
  const guards = parseGuards(args.failIfChanged ?? []);
  if (typeof guards === 'string') throw new UsageError(guards);
  const options = commonOptions(args);
  const file = args.scenario!;
  const { scenario, source } = loadScenarioFileWithSource(file);
  const sides = rulesetSides(file, source, args.ruleset!);
  const identity = rulesetCompareIdentity(
    packageVersion(),
    { name: scenario.name, file, text: readFileSync(file, 'utf8'), durationMs: scenario.durationMs },
    sides,
    seeds,
  );
  const tasks = rulesetTasks(sides, file, seeds);
  const started = performance.now(); // wall time for the human only; never written
  const progress = new SeedProgress(
    `compare ${scenario.name}: ${sides[0]!.name} vs ${sides[1]!.name}`,
    'run',
    tasks.length,
    args.progress,
  );
  progress.start(
    `${Math.min(options.workers, tasks.length)} worker thread(s) (${seeds.length} seeds x 2 rulesets)`,
  );
  const results = await runAll(tasks, options, progress);
  return finishRulesets(identity, results, args, guards, (performance.now() - started) / 1000);
}

async function runAll(
  tasks: readonly SeedTask[],
  options: { workers: number; seedTimeoutMs: number },
  progress: SeedProgress,
): Promise<SeedResult[]> {
  const { runTasks } = await import('../compare/run-tasks.js'); // piscina loads only when something runs
  const results = new Array<SeedResult>(tasks.length);
  const onResult = (index: number, result: SeedResult) => {
    results[index] = result;
    progress.record(result);
  };
  await withStopSignal((signal) => runTasks(tasks, { ...options, signal, onResult }));
  progress.end();
  return results;
}

function finishRulesets(
  identity: RulesetCompareIdentity,
  results: SeedResult[],
  args: CompareArgs,
  guards: readonly Guard[],
  seconds: number,
): number {
  const c = buildRulesetCompare(identity, results);
  const files = writeAtomically(args.out, {
    'compare.json': compareJson(c),
    'compare.md': rulesetMarkdown(c),
    'compare.html': rulesetHtml(c),
  });
  const head = `compare ${c.scenario.name}, seeds ${c.seeds.spec}: ${c.sides[0]!.name} (a) vs ${c.sides[1]!.name} (b), mean per-seed difference b - a`;
  const failures = c.results.flatMap((p) =>
    (['a', 'b'] as const)
      .filter((s) => p[s].status !== 'passed')
      .map(
        (s) =>
          `${c.sides[s === 'a' ? 0 : 1]!.name} seed ${p.seed} ${p[s].status}${p[s].error ? `: ${p[s].error}` : ''}`,
      ),
  );
  const checked = checkGuards(c, guards);
  const lines = [
    head,
    ...rulesetLines(c),
    ...failures.slice(0, 20),
    ...checked.filter((g) => g.status !== 'unknown').map((g) => g.line),
    `wrote ${files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const g of checked.filter((g) => g.status === 'unknown'))
    process.stderr.write(`agent-chess-sim compare: ${g.line}\n`);
  return rulesetExitCode(c.passed, checked);
}

/** 2 for a guard naming no metric (bad input, found once the metrics exist), 1 for a tripped guard or a run that went wrong. */
function rulesetExitCode(passed: boolean, checked: ReturnType<typeof checkGuards>): number {
  if (checked.some((g) => g.status === 'unknown')) return 2;
  return passed && checked.every((g) => g.status === 'held') ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------------------
// agents

async function compareAgents(args: CompareArgs): Promise<number> {
  const setup = await planAgents(args);
  const options = commonOptions(args);
  const { pairs, tasks } = planMatch(setup);
  const started = performance.now(); // wall time for the human only; never written
  const tally = new MatchTally(setup, pairs, (record, t) => printPair(setup, record, t));
  const workers = Math.min(options.workers, tasks.length);
  if (args.progress)
    process.stderr.write(
      `compare ${setup.a.name} vs ${setup.b.name}: up to ${pairs.length} pairs (${tasks.length} duel worlds) on ${workers} worker thread(s)\n`,
    );
  const { runTasks } = await import('../compare/run-tasks.js');
  await withStopSignal((signal) =>
    runTasks(tasks, {
      ...options,
      signal,
      onResult: (i, r) => tally.accept(i, r),
      enough: () => tally.decided,
    }),
  );
  return finishAgents(setup, pairs, tally, args, (performance.now() - started) / 1000);
}

async function planAgents(args: CompareArgs): Promise<MatchSetup> {
  const cwd = process.cwd();
  const [a, b] = await Promise.all(args.agent!.map((word) => player(word, '--agent', cwd)));
  const vs =
    args.vs === undefined
      ? []
      : await Promise.all(args.vs.split(',').map((word) => player(word, '--vs', cwd)));
  const bounds = parseSprtOption(args.sprt ?? DEFAULT_SPRT);
  if (typeof bounds === 'string') throw new UsageError(bounds);
  const maxPairs = args.maxPairs ?? DEFAULT_MAX_PAIRS;
  if (!Number.isSafeInteger(maxPairs) || maxPairs < 1 || maxPairs > MAX_SEEDS)
    throw new UsageError(`--max-pairs: must be a whole number from 1 to ${MAX_SEEDS}`);
  const seeds =
    args.seeds === undefined
      ? Array.from({ length: maxPairs }, (_, i) => i + 1)
      : parseSeedSpec(args.seeds).slice(0, maxPairs);
  return { a: a!, b: b!, vs, bounds, seeds };
}

/** A player from the command line; a module is imported now, so a bad one is refused before anything runs. */
async function player(word: string, option: string, cwd: string): Promise<PlayerSpec> {
  const spec = parsePlayer(word, option, cwd);
  if (typeof spec === 'string') throw new UsageError(spec);
  if (spec.module === undefined) return spec;
  try {
    // Named as everywhere else (src/report/agent-names.ts): by the name the module declares, else its file stem.
    const factory = await loadAgentModule(spec.module, dirname(spec.module), {});
    return { ...spec, name: factory.name };
  } catch (error) {
    if (error instanceof AgentModuleError) throw new UsageError(`${option} ${word}: ${error.problem}`);
    throw error;
  }
}

/** A score line after every pair; the Elo and LLR lines every few pairs, as match runners print them. */
function printPair(setup: MatchSetup, record: PairRecord, tally: MatchTally): void {
  if (record.void !== null) process.stderr.write(`pair ${record.seed} void: ${record.void}\n`);
  for (const invariant of record.broken)
    process.stderr.write(`pair ${record.seed}: a duel world broke ${invariant}\n`);
  const lines = matchLines(setup, tally);
  const full = tally.decided || tally.records.length % LINES_EVERY_PAIRS === 0;
  process.stdout.write(`${(full ? lines : lines.slice(0, 1)).join('\n')}\n`);
}

function finishAgents(
  setup: MatchSetup,
  pairs: readonly PairPlan[],
  tally: MatchTally,
  args: CompareArgs,
  seconds: number,
): number {
  const c = buildAgentCompare(packageVersion(), setup, tally);
  const files = writeAtomically(args.out, {
    'compare.json': agentCompareJson(c),
    'compare.md': agentMarkdown(c, setup, tally),
    'games.pgn': tally.pgn.join('\n'),
    'compare.html': agentHtml(c, tally.pgn.join('\n')),
  });
  const lines = [
    '',
    ...matchLines(setup, tally),
    decisionLine(tally),
    `pairs: ${tally.records.length} of ${pairs.length} played (seeds ${c.seeds_played || 'none'}), ${tally.counted} counted; pentanomial (LL, LD, WL+DD, WD, WW) ${pentanomialText(tally)}`,
    `wrote ${files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
  const code = agentExitCode(tally);
  if (code === AGENT_EXIT.troubled)
    lines.push('exit 4: a duel world crashed, timed out or broke an invariant (see the pairs above)');
  process.stdout.write(`${lines.join('\n')}\n`);
  return code;
}

/** `compare --agent`'s exit codes, so that CI can gate on the SPRT's answer (2, bad arguments, is set earlier). */
export const AGENT_EXIT = { h1: 0, h0: 1, undecided: 3, troubled: 4 } as const;

/**
 * H1 accepted 0, H0 accepted 1, no decision when the pairs ran out 3; a duel world that crashed, timed out or
 * broke an invariant makes it 4 whatever the SPRT said, since the answer then rests on games that went wrong.
 */
export function agentExitCode(tally: MatchTally): number {
  if (tally.records.some((r) => r.void !== null || r.broken.length > 0)) return AGENT_EXIT.troubled;
  if (tally.state.decision === 'H1') return AGENT_EXIT.h1;
  if (tally.state.decision === 'H0') return AGENT_EXIT.h0;
  return AGENT_EXIT.undecided;
}

// ---------------------------------------------------------------------------------------------------------
// signals and progress (wall time: the human's only)

/** The first Ctrl-C (or SIGTERM) stops the runs; a second exits at once. */
async function withStopSignal<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
