import { isAbsolute, relative, resolve } from 'node:path';
import { stringify } from 'yaml';
import { toIso } from '../kernel/clock.js';
import { parseScenarioWithSource, ScenarioError, type Scenario } from './scenario/scenario.js';
import { isRecord } from './scenario/scenario-fields.js';
import { World } from './world.js';

/**
 * Shrinking a failing run: from a scenario and seed that break an invariant, a greedy delta-debugging
 * search for a smaller scenario that still breaks the same one. Each candidate is the current best with
 * one thing taken away (a group, half a group, one agent, a ruleset override, a persona option), run as a
 * normal deterministic run that stops at the invariant's first violation. A candidate is kept when it
 * still fails and fails after fewer events; the search restarts from it, and ends when no candidate is
 * kept or the run budget is spent. The minimal scenario's duration is then cut to the first failure.
 *
 * The search works on the scenario's source record (what the YAML file says), so the result is a file a
 * person can read and replay with `run`.
 */
type Source = Record<string, unknown>;

export interface ShrinkOptions {
  /** The invariant to keep broken; the first one the original run breaks when not given. */
  invariant?: string;
  /** Candidate runs at most (each a full deterministic run up to its first failure or its window). */
  maxRuns?: number;
  onProgress?: (line: string) => void;
}

export interface RunSize {
  agents: number;
  durationMs: number;
  /** Events up to and including the first violation of the invariant. */
  eventsToFailure: number;
  failedAtMs: number;
}

export interface ShrinkResult {
  invariant: string;
  message: string;
  original: RunSize;
  minimal: RunSize;
  /** The minimal scenario's source record (duration cut to the failure), ready to write as YAML. */
  minimalSource: Source;
  runs: number;
  kept: string[];
}

export class ShrinkError extends Error {}

/** `--invariant` names none of the run's invariants: bad input (the CLI's exit 2), not a run that holds. */
export class UnknownInvariantError extends ShrinkError {
  constructor(wanted: string, known: readonly string[]) {
    super(`no invariant named ${wanted}; the known invariants are ${known.join(', ')}`);
  }
}

const DEFAULT_MAX_RUNS = 150;
/** A candidate runs at most this many times as long as the current best took to fail (plus a margin), so a candidate that no longer fails costs little. */
const WINDOW_FACTOR = 4;
const WINDOW_MARGIN_MS = 10 * 60_000;

interface Trial {
  size: RunSize;
  message: string;
}

export async function shrinkScenario(
  text: string,
  sourceName: string,
  seed: string | undefined,
  baseDir: string | undefined,
  options: ShrinkOptions = {},
): Promise<ShrinkResult> {
  const say = options.onProgress ?? (() => undefined);
  const loaded = parseScenarioWithSource(text, sourceName, seed, baseDir);
  const { invariant, trial: first } = await originalFailure(loaded.scenario, options.invariant);
  say(`original: ${describeSize(first.size)}; breaks ${invariant}: ${first.message}`);
  const search = { best: loaded.source, bestTrial: first, runs: 1, kept: [] as string[] };
  const maxRuns = options.maxRuns ?? DEFAULT_MAX_RUNS;
  for (let improved = true; improved && search.runs < maxRuns;) {
    improved = false;
    for (const candidate of candidates(search.best)) {
      if (search.runs >= maxRuns) break;
      search.runs++;
      const trial = await tryCandidate(candidate.source, invariant, search.bestTrial.size, baseDir);
      // Every candidate takes something away, so one that fails no later is simpler: kept, and the search ends.
      const keep = trial !== undefined && trial.size.eventsToFailure <= search.bestTrial.size.eventsToFailure;
      say(
        `run ${search.runs}/${maxRuns}: ${candidate.change}: ${trial ? `fails after ${trial.size.eventsToFailure} events` : 'no longer fails'}${keep ? ' (kept)' : ''}`,
      );
      if (!keep) continue;
      Object.assign(search, { best: candidate.source, bestTrial: trial });
      search.kept.push(candidate.change);
      improved = true;
      break;
    }
  }
  // Cut at the whole second after the failure: a duration a person reads easily, and the failure stays inside it.
  const cutMs =
    Math.max(1, Math.ceil((search.bestTrial.size.failedAtMs - loaded.scenario.startMs + 1) / 1000)) * 1000;
  const minimalSource = { ...search.best, duration: formatDuration(cutMs) };
  const minimal = { ...search.bestTrial.size, durationMs: cutMs };
  return {
    invariant,
    message: search.bestTrial.message,
    original: first.size,
    minimal,
    minimalSource,
    runs: search.runs,
    kept: search.kept,
  };
}

/**
 * The original run and the invariant to keep broken. With the invariant named, the run stops at its first
 * violation; otherwise it runs to the end (final checks included) to find the first invariant that breaks.
 */
async function originalFailure(
  scenario: Scenario,
  wanted: string | undefined,
): Promise<{ invariant: string; trial: Trial }> {
  if (wanted !== undefined) {
    const early = await runToFailure(scenario, wanted, scenario.durationMs);
    if ('unknown' in early) throw new UnknownInvariantError(wanted, early.unknown);
    if (early.trial)
      return {
        invariant: wanted,
        trial: { ...early.trial, size: { ...early.trial.size, durationMs: scenario.durationMs } },
      };
  }
  const outcome = await new World(scenario).run();
  const failing = outcome.invariants.filter((r) => !r.passed);
  if (wanted !== undefined && !outcome.invariants.some((r) => r.name === wanted))
    throw new UnknownInvariantError(
      wanted,
      outcome.invariants.map((r) => r.name),
    );
  const target = wanted === undefined ? failing[0] : failing.find((r) => r.name === wanted);
  if (!target)
    throw new ShrinkError(
      `seed ${scenario.seed} breaks ${wanted ?? 'no invariant'}${wanted ? ' not' : ''}: nothing to shrink`,
    );
  const violation = target.violations[0]!;
  const size = {
    agents: agentCount(scenario),
    durationMs: scenario.durationMs,
    eventsToFailure: violation.event + 1,
    failedAtMs: violation.t,
  };
  return { invariant: target.name, trial: { size, message: violation.message } };
}

/** Runs a candidate until the invariant first breaks (or its window ends); undefined when it does not break or is no valid scenario. */
async function tryCandidate(
  source: Source,
  invariant: string,
  best: RunSize,
  baseDir: string | undefined,
): Promise<Trial | undefined> {
  let scenario: Scenario;
  try {
    scenario = parseScenarioWithSource(JSON.stringify(source), 'candidate', undefined, baseDir).scenario;
  } catch (error) {
    if (error instanceof ScenarioError) return undefined;
    throw error;
  }
  const windowMs = Math.min(
    scenario.durationMs,
    WINDOW_FACTOR * (best.failedAtMs - scenario.startMs) + WINDOW_MARGIN_MS,
  );
  const run = await runToFailure(scenario, invariant, windowMs);
  return 'trial' in run ? run.trial : undefined;
}

/** A run for `windowMs` of virtual time that stops at the invariant's first violation. */
async function runToFailure(
  scenario: Scenario,
  invariant: string,
  windowMs: number,
): Promise<{ trial: Trial | undefined } | { unknown: string[] }> {
  const world = new World(scenario);
  await world.populate();
  if (!world.invariants.names.has(invariant)) return { unknown: [...world.invariants.names] };
  const endMs = scenario.startMs + windowMs;
  await world.runSlice(endMs, () => world.invariants.firstViolation(invariant) !== undefined);
  const violation = world.invariants.firstViolation(invariant) ?? finalViolation(world, invariant, endMs);
  if (!violation) return { trial: undefined };
  const size = {
    agents: agentCount(scenario),
    durationMs: windowMs,
    eventsToFailure: violation.event + 1,
    failedAtMs: violation.t,
  };
  return { trial: { size, message: violation.message } };
}

function finalViolation(world: World, invariant: string, endMs: number) {
  if (world.platform.nowMs < endMs) return undefined;
  return world.invariants.finish(endMs).find((r) => r.name === invariant)?.violations[0];
}

function agentCount(scenario: Scenario): number {
  return scenario.population.reduce((sum, group) => sum + group.count, 0);
}

interface Candidate {
  change: string;
  source: Source;
}

/** One-step reductions of a source record, the largest first. */
function* candidates(source: Source): Generator<Candidate> {
  const population = Array.isArray(source['population']) ? (source['population'] as unknown[]) : [];
  if (population.length > 1) {
    for (let i = 0; i < population.length; i++)
      yield {
        change: `without population[${i}]`,
        source: { ...source, population: population.filter((_, j) => j !== i) },
      };
  }
  for (let i = 0; i < population.length; i++) yield* smallerCounts(source, population, i);
  yield* withoutKeys(source, 'ruleset', source['ruleset']);
  for (let i = 0; i < population.length; i++) {
    const group = population[i];
    if (isRecord(group) && isRecord(group['options']))
      yield* groupWithoutOptions(source, population, i, group);
  }
  for (const key of ['escrow', 'description']) {
    if (source[key] !== undefined) yield { change: `without ${key}`, source: without(source, key) };
  }
}

function* smallerCounts(source: Source, population: unknown[], i: number): Generator<Candidate> {
  const group = population[i];
  if (!isRecord(group)) return;
  const mix = isRecord(group['mix']) ? group['mix'] : undefined;
  const count = mix ? mix['total'] : group['count'];
  if (typeof count !== 'number' || count <= 1) return;
  const sizes = [...new Set([Math.floor(count / 2), count - 1])].filter((n) => n >= 1);
  for (const n of sizes) {
    const changed = mix ? { ...group, mix: { ...mix, total: n } } : { ...group, count: n };
    yield {
      change: `population[${i}] with ${n} agent${n === 1 ? '' : 's'} (was ${count})`,
      source: { ...source, population: population.map((g, j) => (j === i ? changed : g)) },
    };
  }
}

/** The whole mapping, then each of its keys, then each key one level down. */
function* withoutKeys(source: Source, key: string, value: unknown): Generator<Candidate> {
  if (!isRecord(value)) return;
  yield { change: `without ${key}`, source: without(source, key) };
  for (const inner of Object.keys(value)) {
    yield { change: `without ${key}.${inner}`, source: { ...source, [key]: without(value, inner) } };
    const nested = value[inner];
    if (!isRecord(nested)) continue;
    for (const leaf of Object.keys(nested))
      yield {
        change: `without ${key}.${inner}.${leaf}`,
        source: { ...source, [key]: { ...value, [inner]: without(nested, leaf) } },
      };
  }
}

function* groupWithoutOptions(
  source: Source,
  population: unknown[],
  i: number,
  group: Source,
): Generator<Candidate> {
  const options = group['options'] as Source;
  const replace = (changed: Source) => ({
    ...source,
    population: population.map((g, j) => (j === i ? changed : g)),
  });
  yield { change: `population[${i}] without options`, source: replace(without(group, 'options')) };
  for (const key of Object.keys(options))
    yield {
      change: `population[${i}] without options.${key}`,
      source: replace({ ...group, options: without(options, key) }),
    };
}

function without(record: Source, key: string): Source {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

export function describeSize(size: RunSize): string {
  return `${size.agents} agents, ${formatDuration(size.durationMs)}, first failure after ${size.eventsToFailure} events at ${toIso(size.failedAtMs)}`;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/**
 * The minimal scenario as YAML, with agent and invariant module paths rewritten relative to the folder it
 * is written to, so it replays from there.
 */
export function minimalYaml(
  result: ShrinkResult,
  header: string[],
  fromDir: string | undefined,
  toDir: string,
): string {
  const source = rebaseModules(result.minimalSource, fromDir, toDir);
  return `${header.map((line) => `# ${line}`).join('\n')}\n${stringify(source)}`;
}

function rebaseModules(source: Source, fromDir: string | undefined, toDir: string): Source {
  if (fromDir === undefined) return source;
  const move = (path: unknown) =>
    typeof path === 'string' && !isAbsolute(path) ? relativePath(toDir, resolve(fromDir, path)) : path;
  const population = (source['population'] as unknown[]).map((g) =>
    isRecord(g) && g['module'] !== undefined ? { ...g, module: move(g['module']) } : g,
  );
  const invariants = Array.isArray(source['invariants'])
    ? (source['invariants'] as unknown[]).map((i) => (isRecord(i) ? { ...i, module: move(i['module']) } : i))
    : undefined;
  return invariants ? { ...source, population, invariants } : { ...source, population };
}

function relativePath(from: string, to: string): string {
  const path = relative(from, to);
  return path.startsWith('.') ? path : `./${path}`;
}
