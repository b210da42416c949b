import { existsSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { LEVELS } from '../../agents/engines/levels.js';
import { PERSONAS } from '../../agents/registry.js';
import { loadScenarioFile, parseScenario, ScenarioError, type Scenario } from './scenario/scenario.js';
import type { WorldOptions } from './world.js';

/**
 * What `run` plays, as a library: a scenario file, or an agent (a module or a UCI binary) against chosen
 * opponents in a scenario built in memory. The command parses its flags into RunOptions and calls these.
 */
export interface RunOptions {
  scenario?: string;
  seed?: string;
  out: string;
  crossCheck?: boolean;
  checkWire?: boolean;
  requireExercised?: boolean;
  agent?: string;
  agentUci?: string;
  vs?: string;
  games?: number;
  events?: string;
}

export const DEFAULT_VS = 'random,sf-3';
export const DEFAULT_GAMES = 20;
const MAX_GAMES = 10_000;

/** What `run` plays: a scenario, the command that replays it, and for `--agent` the match it scores. */
export interface RunPlan {
  scenario: Scenario;
  replay: string;
  /**
   * `run --agent`: the agent under test is the world's first agent; the run ends once it has finished
   * `games` games. Every agent is named by src/report/agent-names.ts.
   */
  match?: { games: number };
}

/** Checks the options alone, before the run starts: one line naming the option, or undefined. */
export function argumentProblem(options: RunOptions): string | undefined {
  const byAgent = options.agent !== undefined || options.agentUci !== undefined;
  if (options.seed !== undefined && options.seed.trim() === '')
    return "--seed: give a value, e.g. --seed 7 (or leave --seed out to use the scenario's)";
  if (options.out.trim() === '') return '--out: give a folder, e.g. --out reports/latest';
  if (options.events !== undefined && options.events.trim() === '')
    return '--events: give a file, e.g. --events reports/latest/events.jsonl.gz';
  if (options.agent !== undefined && options.agentUci !== undefined)
    return 'give --agent or --agent-uci, not both';
  if (byAgent && options.scenario !== undefined)
    return `give a scenario file or --agent, not both (got ${options.scenario})`;
  if (!byAgent && options.scenario === undefined)
    return 'name a scenario file (e.g. scenarios/smoke.yaml), or give --agent ./my-agent.mjs';
  if (!byAgent && (options.vs !== undefined || options.games !== undefined))
    return '--vs and --games go with --agent (or --agent-uci)';
  if (!byAgent) return undefined;
  return agentOptionsProblem(options);
}

/** The options of `run --agent` (or `--agent-uci`) alone. */
function agentOptionsProblem(options: RunOptions): string | undefined {
  if (options.agentUci !== undefined && options.agentUci.trim() === '')
    return '--agent-uci: give the engine binary, e.g. --agent-uci /usr/games/stockfish';
  if (
    options.games !== undefined &&
    !(Number.isSafeInteger(options.games) && options.games >= 1 && options.games <= MAX_GAMES)
  )
    return `--games: must be a whole number from 1 to ${MAX_GAMES}`;
  return (
    (options.vs === undefined ? undefined : opponentsProblem(options.vs)) ??
    (options.agent === undefined ? undefined : agentFileProblem(options.agent))
  );
}

function agentFileProblem(path: string): string | undefined {
  if (path.trim() === '') return '--agent: give your agent module, e.g. --agent ./my-agent.mjs';
  if (!existsSync(path)) return `--agent ${path}: no such file`;
  if (!statSync(path).isFile()) return `--agent ${path}: not a file`;
  return undefined;
}

/**
 * The plan of a run whose options passed argumentProblem; `cwd` resolves an agent module. Throws a
 * ScenarioError for a scenario (file, or one built for --agent) that does not check.
 */
export function planRun(options: RunOptions, cwd: string): RunPlan {
  const byAgent = options.agent !== undefined || options.agentUci !== undefined;
  const plan = byAgent ? agentPlan(options, cwd) : scenarioPlan(options);
  return options.requireExercised ? requireAllExercised(plan) : plan;
}

/** `--require-exercised`: every invariant the run checks must run at least one check; the replay command keeps the option. */
function requireAllExercised(plan: RunPlan): RunPlan {
  return {
    ...plan,
    scenario: { ...plan.scenario, requireExercised: 'all' },
    replay: `${plan.replay} --require-exercised`,
  };
}

function scenarioPlan(options: RunOptions): RunPlan {
  const scenario = loadScenarioFile(options.scenario!, options.seed);
  const crossCheck = options.crossCheck ? ' --cross-check' : '';
  return {
    scenario,
    replay: `npx agent-chess-sim run ${shellWord(options.scenario!)} --seed ${shellWord(scenario.seed)}${crossCheck}`,
  };
}

/** The world's options that `run`'s flags set. */
export function worldOptions(options: RunOptions): WorldOptions {
  const world: WorldOptions = {};
  if (options.crossCheck !== undefined) world.crossCheck = options.crossCheck;
  if (options.checkWire) world.checkWire = true;
  return world;
}

/** A word a POSIX shell reads back as itself. */
export function shellWord(text: string): string {
  return /^[\w./:,=@+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

// ---------------------------------------------------------------------------------------------------------
// run --agent: a scenario built in memory

/**
 * Personas that play chess against whoever challenges them and need no settings of their own: what `run
 * --vs` and `compare --agent`/`--vs` may name, beside the engine levels.
 */
export const OPPONENT_PERSONAS: readonly string[] = [...PERSONAS.keys()].filter(
  (name) => !['human', 'uci', 'engine'].includes(name),
);
/** The engine levels by name (sf-1 ... sf-8): an `engine` agent at that level. */
export const LEVEL_NAMES: readonly string[] = LEVELS.map((level) => level.name);

/** Heartbeats as the platform's skill tells real agents to poll (every 30-60 s). */
const AGENT_HEARTBEAT = { min: '30s', max: '60s' };
/** Opponents poll a little slower, so that over a whole virtual day they stay under the 5000-request quota and never lose on time for want of requests. */
const OPPONENT_HEARTBEAT = { min: '45s', max: '90s' };
/**
 * The most virtual time `run --agent` gives each game it asks for. The run ends at the first instant the
 * agent has finished `--games` games; this bound only stops an agent that rarely finishes one. Measured with
 * agents/examples/material-agent.mjs (2 games at a time) against random and sf-3: 51 games in 9.3 virtual
 * hours, about 11 minutes each, so an hour a game is 5 times that.
 */
const MAX_VIRTUAL_MS_PER_AGENT_GAME = 60 * 60_000;

function opponentsProblem(vs: string): string | undefined {
  const names = vs.split(',').map((n) => n.trim());
  if (names.some((n) => n === ''))
    return `--vs ${vs}: an empty name; write the opponents comma-separated, e.g. --vs ${DEFAULT_VS}`;
  const unknown = names.filter((n) => !OPPONENT_PERSONAS.includes(n) && !LEVEL_NAMES.includes(n));
  if (unknown.length === 0) return undefined;
  return `--vs: unknown opponent ${unknown.join(', ')} (personas: ${OPPONENT_PERSONAS.join(', ')}; engine levels: ${LEVEL_NAMES[0]} to ${LEVEL_NAMES.at(-1)})`;
}

function agentPlan(options: RunOptions, cwd: string): RunPlan {
  const opponents = [...new Set((options.vs ?? DEFAULT_VS).split(',').map((n) => n.trim()))];
  const games = options.games ?? DEFAULT_GAMES;
  const seed = options.seed ?? '20261121';
  const player =
    options.agent !== undefined
      ? basename(options.agent, extname(options.agent))
      : basename(options.agentUci!);
  const raw = {
    name: `${player} vs ${opponents.join(',')}`,
    seed,
    start: '2026-01-01T00:00:00Z',
    duration: `${games * (MAX_VIRTUAL_MS_PER_AGENT_GAME / 60_000)}m`,
    population: [agentGroup(options), ...opponents.map(opponentGroup)],
  };
  // Labels a reader recognises, in place of population[i]: in the verdicts, and in a module's load errors.
  const labels = [
    options.agent !== undefined ? '--agent' : '--agent-uci',
    ...opponents.map((name) => `--vs ${name}`),
  ];
  const parsed = parseWithLabels(JSON.stringify(raw), raw.name, labels, cwd);
  const population = parsed.population.map((group, i) => ({ ...group, label: labels[i]! }));
  const who =
    options.agent !== undefined
      ? `--agent ${shellWord(options.agent)}`
      : `--agent-uci ${shellWord(options.agentUci!)}`;
  const replay = `npx agent-chess-sim run ${who} --vs ${opponents.join(',')} --games ${games} --seed ${shellWord(seed)}`;
  // A module is named by its own factory once loaded; an engine binary by its file name rather than `uci`.
  return { scenario: { ...parsed, population }, replay, match: { games } };
}

/** parseScenario, with `population[i]` in its problems named by `labels[i]`. */
function parseWithLabels(text: string, source: string, labels: readonly string[], cwd: string): Scenario {
  try {
    return parseScenario(text, source, undefined, cwd);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    throw new ScenarioError(
      source,
      error.problems.map((p) =>
        p.replace(/^population\[(\d+)\]/, (_, i: string) => labels[Number(i)] ?? `population[${i}]`),
      ),
    );
  }
}

function agentGroup(options: RunOptions): Record<string, unknown> {
  if (options.agent !== undefined) return { module: options.agent, count: 1, heartbeat: AGENT_HEARTBEAT };
  return { persona: 'uci', count: 1, heartbeat: AGENT_HEARTBEAT, options: { path: options.agentUci } };
}

function opponentGroup(name: string): Record<string, unknown> {
  if (LEVEL_NAMES.includes(name))
    return { persona: 'engine', count: 1, heartbeat: OPPONENT_HEARTBEAT, options: { level: name } };
  return { persona: name, count: 1, heartbeat: OPPONENT_HEARTBEAT };
}
