import { dirname } from 'node:path';
import { AgentModuleError, loadAgentModule } from '../../agents/adapters/byo.js';
import { writeAtomically } from '../sweep/outputs/write.js';
import { UsageError } from '../sweep/run-options.js';
import { formatSeedSpec, MAX_SEEDS, parseSeedSpec } from '../sweep/seeds.js';
import { packageVersion } from '../sweep/version.js';
import { agentHtml } from './agent-html.js';
import { MatchTally, planMatch, type MatchSetup, type PairPlan, type PairRecord } from './agent-match.js';
import type { DuelTask } from './duel.js';
import {
  agentCompareJson,
  agentMarkdown,
  buildAgentCompare,
  decisionLine,
  matchLines,
  pentanomialText,
} from './match-output.js';
import { parsePlayer, type PlayerSpec } from './players.js';
import { runOptions } from './ruleset-run.js';
import { DEFAULT_SPRT, parseSprtOption } from './sprt-option.js';

/**
 * `compare --agent A --agent B` as a library: the plan (players loaded, every option checked), the duel
 * worlds on the pool's threads with the SPRT deciding when to stop, the files and the closing lines. The
 * command parses its flags, calls these and prints.
 */
export interface AgentCompareOptions {
  agents: readonly string[];
  /** `--vs`, comma-separated, as written. */
  vs?: string;
  sprt?: string;
  maxPairs?: number;
  seeds?: string;
  workers?: number;
  out: string;
  timeout: string;
  /** Module words are resolved from here. */
  cwd: string;
}

export const DEFAULT_MAX_PAIRS = 500;

export interface AgentComparePlan {
  setup: MatchSetup;
  pairs: PairPlan[];
  tasks: DuelTask[];
  workers: number;
  seedTimeoutMs: number;
}

/** Loads the players and checks every option before anything runs; throws a one-line UsageError or SeedSpecError. */
export async function planAgentCompare(options: AgentCompareOptions): Promise<AgentComparePlan> {
  const setup = await matchSetup(options);
  const { workers, seedTimeoutMs } = runOptions(options);
  const { pairs, tasks } = planMatch(setup);
  return { setup, pairs, tasks, workers: Math.min(workers, tasks.length), seedTimeoutMs };
}

async function matchSetup(options: AgentCompareOptions): Promise<MatchSetup> {
  const [a, b] = await Promise.all(options.agents.map((word) => player(word, '--agent', options.cwd)));
  const vs =
    options.vs === undefined
      ? []
      : await Promise.all(options.vs.split(',').map((word) => player(word, '--vs', options.cwd)));
  const bounds = parseSprtOption(options.sprt ?? DEFAULT_SPRT);
  if (typeof bounds === 'string') throw new UsageError(bounds);
  const maxPairs = options.maxPairs ?? DEFAULT_MAX_PAIRS;
  if (!Number.isSafeInteger(maxPairs) || maxPairs < 1 || maxPairs > MAX_SEEDS)
    throw new UsageError(`--max-pairs: must be a whole number from 1 to ${MAX_SEEDS}`);
  const seeds =
    options.seeds === undefined
      ? Array.from({ length: maxPairs }, (_, i) => i + 1)
      : parseSeedSpec(options.seeds).slice(0, maxPairs);
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

/**
 * Plays the pairs on the pool until the SPRT decides or the pairs run out; `onPair` hears each pair as the
 * tally takes it, strictly in seed order.
 */
export async function runAgentCompare(
  plan: AgentComparePlan,
  hooks: { signal: AbortSignal; onPair: (record: PairRecord, tally: MatchTally) => void },
): Promise<MatchTally> {
  const tally = new MatchTally(plan.setup, plan.pairs, hooks.onPair);
  const { runDuelTasks } = await import('./run-tasks.js'); // piscina loads only when something runs
  await runDuelTasks(plan.tasks, {
    workers: plan.workers,
    seedTimeoutMs: plan.seedTimeoutMs,
    signal: hooks.signal,
    onResult: (index, result) => tally.accept(index, result),
    enough: () => tally.decided,
  });
  return tally;
}

/** Writes compare.json, compare.md, games.pgn and compare.html into `out`; the files written. */
export function writeAgentCompare(plan: AgentComparePlan, tally: MatchTally, out: string): string[] {
  const c = buildAgentCompare(packageVersion(), plan.setup, tally);
  const pgn = tally.pgn.join('\n');
  return writeAtomically(out, {
    'compare.json': agentCompareJson(c),
    'compare.md': agentMarkdown(c, plan.setup, tally),
    'games.pgn': pgn,
    'compare.html': agentHtml(c, pgn),
  });
}

/** The closing lines on stdout: the match lines, the decision, the pairs, the files, and why the exit is 4 when it is. */
export function agentSummaryLines(
  plan: AgentComparePlan,
  tally: MatchTally,
  files: readonly string[],
  seconds: number,
): string[] {
  const played = formatSeedSpec(tally.records.map((r) => r.seed));
  const lines = [
    '',
    ...matchLines(plan.setup, tally),
    decisionLine(tally),
    `pairs: ${tally.records.length} of ${plan.pairs.length} played (seeds ${played || 'none'}), ${tally.counted} counted; pentanomial (LL, LD, WL+DD, WD, WW) ${pentanomialText(tally)}`,
    `wrote ${files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
  if (agentExitCode(tally) === AGENT_EXIT.troubled)
    lines.push('exit 4: a duel world crashed, timed out or broke an invariant (see the pairs above)');
  return lines;
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
