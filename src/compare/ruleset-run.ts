import { readFileSync } from 'node:fs';
import { loadScenarioFileWithSource } from '../sim/scenario/scenario.js';
import { outDirProblem, writeAtomically } from '../sweep/outputs/write.js';
import { positiveDuration, UsageError, workerThreads } from '../sweep/run-options.js';
import type { SeedResult, SeedTask } from '../sweep/seed-result.js';
import { parseSeedSpec } from '../sweep/seeds.js';
import { packageVersion } from '../sweep/version.js';
import {
  buildRulesetCompare,
  compareJson,
  rulesetCompareIdentity,
  rulesetTasks,
  type RulesetCompare,
  type RulesetCompareIdentity,
} from './ruleset-compare.js';
import { checkGuards, parseGuards, type Guard, type GuardOutcome } from './ruleset-guard.js';
import { rulesetHtml } from './ruleset-html.js';
import { rulesetLines, rulesetMarkdown } from './ruleset-text.js';
import { rulesetSides, type RulesetSide } from './rulesets.js';

/**
 * `compare <scenario> --ruleset A --ruleset B` as a library: the plan (every option checked before anything
 * runs), the runs on the pool's threads, the files and the closing lines. The command parses its flags,
 * calls these and prints.
 */
export interface RulesetCompareOptions {
  scenario: string;
  rulesets: readonly string[];
  seeds: string;
  failIfChanged: readonly string[];
  workers?: number;
  out: string;
  timeout: string;
}

export interface RulesetComparePlan {
  identity: RulesetCompareIdentity;
  sides: RulesetSide[];
  seedCount: number;
  tasks: SeedTask[];
  guards: Guard[];
  workers: number;
  seedTimeoutMs: number;
}

/** Checks every option, the scenario and both ruleset files; throws a one-line error (UsageError, SeedSpecError, RulesetFileError, ScenarioError). */
export function planRulesetCompare(options: RulesetCompareOptions): RulesetComparePlan {
  const seeds = parseSeedSpec(options.seeds);
  const guards = parseGuards(options.failIfChanged);
  if (typeof guards === 'string') throw new UsageError(guards);
  const { workers, seedTimeoutMs } = runOptions(options);
  const file = options.scenario;
  const { scenario, source } = loadScenarioFileWithSource(file);
  const sides = rulesetSides(file, source, [...options.rulesets]);
  const identity = rulesetCompareIdentity(
    packageVersion(),
    { name: scenario.name, file, text: readFileSync(file, 'utf8'), durationMs: scenario.durationMs },
    sides,
    seeds,
  );
  const tasks = rulesetTasks(sides, file, seeds);
  return { identity, sides, seedCount: seeds.length, tasks, guards, workers, seedTimeoutMs };
}

/** The thread count, the per-run timeout and the output folder, checked as every comparison checks them. */
export function runOptions(options: { workers?: number; timeout: string; out: string }): {
  workers: number;
  seedTimeoutMs: number;
} {
  const workers = workerThreads(options.workers);
  const seedTimeoutMs = positiveDuration(options.timeout, '--timeout');
  const outProblem = outDirProblem(options.out);
  if (outProblem) throw new UsageError(outProblem);
  return { workers, seedTimeoutMs };
}

/** Every task on the pool; results in task order whatever order the threads finish in. */
export async function runRulesetCompare(
  plan: RulesetComparePlan,
  hooks: { signal: AbortSignal; onResult: (result: SeedResult) => void },
): Promise<SeedResult[]> {
  const { runSeedTasks } = await import('./run-tasks.js'); // piscina loads only when something runs
  const results = new Array<SeedResult>(plan.tasks.length);
  await runSeedTasks(plan.tasks, {
    workers: plan.workers,
    seedTimeoutMs: plan.seedTimeoutMs,
    signal: hooks.signal,
    onResult: (index, result) => {
      results[index] = result;
      hooks.onResult(result);
    },
  });
  return results;
}

export interface RulesetCompareWritten {
  compare: RulesetCompare;
  files: string[];
  guards: GuardOutcome[];
}

/** Writes compare.json, compare.md and compare.html into `out`, and checks the --fail-if-changed guards. */
export function writeRulesetCompare(
  plan: RulesetComparePlan,
  results: readonly SeedResult[],
  out: string,
): RulesetCompareWritten {
  const compare = buildRulesetCompare(plan.identity, results);
  const files = writeAtomically(out, {
    'compare.json': compareJson(compare),
    'compare.md': rulesetMarkdown(compare),
    'compare.html': rulesetHtml(compare),
  });
  return { compare, files, guards: checkGuards(compare, plan.guards) };
}

/** Failing runs printed at the end; compare.json lists them all. */
const MAX_PRINTED_FAILURES = 20;

/** The closing lines on stdout: the headline, the table, failing runs, the guards that could be checked, the files. */
export function rulesetSummaryLines(written: RulesetCompareWritten, seconds: number): string[] {
  const c = written.compare;
  const head = `compare ${c.scenario.name}, seeds ${c.seeds.spec}: ${c.sides[0]!.name} (a) vs ${c.sides[1]!.name} (b), mean per-seed difference b - a`;
  const failures = c.results.flatMap((p) =>
    (['a', 'b'] as const)
      .filter((s) => p[s].status !== 'passed')
      .map(
        (s) =>
          `${c.sides[s === 'a' ? 0 : 1]!.name} seed ${p.seed} ${p[s].status}${p[s].error ? `: ${p[s].error}` : ''}`,
      ),
  );
  return [
    head,
    ...rulesetLines(c),
    ...failures.slice(0, MAX_PRINTED_FAILURES),
    ...written.guards.filter((g) => g.status !== 'unknown').map((g) => g.line),
    `wrote ${written.files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
}

/** 2 for a guard naming no metric (bad input, found once the metrics exist), 1 for a tripped guard or a run that went wrong, else 0. */
export function rulesetExitCode(written: RulesetCompareWritten): number {
  const checked = written.guards;
  if (checked.some((g) => g.status === 'unknown')) return 2;
  return written.compare.passed && checked.every((g) => g.status === 'held') ? 0 : 1;
}
