import type { ArgumentsCamelCase, Argv, Options } from 'yargs';
import { ScenarioError } from '../sim/scenario/scenario.js';
import { SweepAborted } from '../sweep/aborted.js';
import { SeedSpecError } from '../sweep/seeds.js';
import { DEFAULT_SEED_TIMEOUT, UsageError } from '../sweep/run-options.js';
import type { MatchSetup, MatchTally, PairRecord } from '../compare/agent-match.js';
import { matchLines } from '../compare/match-output.js';
import {
  agentExitCode,
  agentSummaryLines,
  DEFAULT_MAX_PAIRS,
  planAgentCompare,
  runAgentCompare,
  writeAgentCompare,
} from '../compare/agent-run.js';
import {
  planRulesetCompare,
  rulesetExitCode,
  rulesetSummaryLines,
  runRulesetCompare,
  writeRulesetCompare,
} from '../compare/ruleset-run.js';
import { RulesetFileError } from '../compare/rulesets.js';
import { SPRT_HELP } from '../compare/sprt-option.js';
import { SeedProgress } from './progress.js';
import { withStopSignal } from './stop-signal.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

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

/** Agent mode prints the Elo and LLR lines every this many pairs (fastchess's rating interval is 10 games). */
const LINES_EVERY_PAIRS = 10;

/** compare's options, in the order --help lists them (data: the builder registers them at once). */
const COMPARE_OPTIONS = {
  ruleset: {
    type: 'string',
    array: true,
    describe: 'a YAML file of ruleset overrides, or `default`; give two',
  },
  'fail-if-changed': {
    type: 'string',
    array: true,
    describe:
      'with --ruleset: METRIC:DIRECTION (increase, decrease or any); exit 1 when Holm flags that metric changed that way, e.g. moves_per_game:increase',
  },
  seeds: {
    type: 'string',
    describe: 'seeds, e.g. 1..50 (with --agent: one pair per seed, default 1..--max-pairs)',
  },
  agent: {
    type: 'string',
    array: true,
    describe: 'a persona, an engine level (sf-3) or a module path; give two',
  },
  vs: {
    type: 'string',
    describe:
      'with --agent: compare A and B through these opponents (comma-separated) instead of head to head',
  },
  sprt: { type: 'string', describe: SPRT_HELP },
  'max-pairs': {
    type: 'number',
    describe: `with --agent: stop after this many pairs without a decision (default ${DEFAULT_MAX_PAIRS})`,
  },
  workers: { type: 'number', describe: 'worker threads (default: the CPU count)' },
  out: {
    type: 'string',
    default: 'reports/compare',
    describe:
      'directory for compare.json, compare.md (and compare.html for rulesets, games.pgn of every duel game for agents)',
  },
  timeout: {
    type: 'string',
    default: DEFAULT_SEED_TIMEOUT,
    describe: 'limit per run (per duel world with --agent)',
  },
  progress: { type: 'boolean', default: true, describe: 'print progress to stderr' },
} satisfies Record<string, Options>;

export const compareCommand = {
  ...COMMAND_SUMMARIES.compare,
  builder: (y: Argv) =>
    y
      .positional('scenario', { type: 'string', describe: 'scenario YAML file (with --ruleset)' })
      .options(COMPARE_OPTIONS)
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

// ---------------------------------------------------------------------------------------------------------
// rulesets

async function compareRulesets(args: CompareArgs): Promise<number> {
  const plan = planRulesetCompare({
    scenario: args.scenario!,
    rulesets: args.ruleset!,
    seeds: args.seeds!,
    failIfChanged: args.failIfChanged ?? [],
    ...(args.workers === undefined ? {} : { workers: args.workers }),
    out: args.out,
    timeout: args.timeout,
  });
  const started = performance.now(); // wall time for the human only; never written
  const [a, b] = plan.sides;
  const progress = new SeedProgress(
    `compare ${plan.identity.scenario.name}: ${a!.name} vs ${b!.name}`,
    'run',
    plan.tasks.length,
    args.progress,
  );
  // The stop handler is in place before the first line says the work started (see sweep.ts).
  const results = await withStopSignal((signal) => {
    progress.start(
      `${Math.min(plan.workers, plan.tasks.length)} worker thread(s) (${plan.seedCount} seeds x 2 rulesets)`,
    );
    return runRulesetCompare(plan, { signal, onResult: (result) => progress.record(result) });
  });
  progress.end();
  const written = writeRulesetCompare(plan, results, args.out);
  const lines = rulesetSummaryLines(written, (performance.now() - started) / 1000);
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const g of written.guards.filter((g) => g.status === 'unknown'))
    process.stderr.write(`agent-chess-sim compare: ${g.line}\n`);
  return rulesetExitCode(written);
}

// ---------------------------------------------------------------------------------------------------------
// agents

async function compareAgents(args: CompareArgs): Promise<number> {
  const plan = await planAgentCompare({
    agents: args.agent!,
    ...(args.vs === undefined ? {} : { vs: args.vs }),
    ...(args.sprt === undefined ? {} : { sprt: args.sprt }),
    ...(args.maxPairs === undefined ? {} : { maxPairs: args.maxPairs }),
    ...(args.seeds === undefined ? {} : { seeds: args.seeds }),
    ...(args.workers === undefined ? {} : { workers: args.workers }),
    out: args.out,
    timeout: args.timeout,
    cwd: process.cwd(),
  });
  const started = performance.now(); // wall time for the human only; never written
  const { setup } = plan;
  const tally = await withStopSignal((signal) => {
    if (args.progress)
      process.stderr.write(
        `compare ${setup.a.name} vs ${setup.b.name}: up to ${plan.pairs.length} pairs (${plan.tasks.length} duel worlds) on ${plan.workers} worker thread(s)\n`,
      );
    return runAgentCompare(plan, { signal, onPair: (record, t) => printPair(setup, record, t) });
  });
  const files = writeAgentCompare(plan, tally, args.out);
  const lines = agentSummaryLines(plan, tally, files, (performance.now() - started) / 1000);
  process.stdout.write(`${lines.join('\n')}\n`);
  return agentExitCode(tally);
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
