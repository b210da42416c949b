import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { resolveRuleset, type Ruleset } from '../../rules/ruleset.js';
import { checkNetwork, DEFAULT_NETWORK, type NetworkConditions } from '../../escrow/network.js';
import { checkPopulation, type PopulationGroup } from './scenario-population.js';
import { checkDuration, checkKnownFields, isRecord } from './scenario-fields.js';
import type { InvariantModuleSpec } from '../invariants/user-invariants.js';
import { checkInvariantList } from './scenario-invariants.js';
import { checkRequireExercised } from './require-exercised.js';
import type { RequiredInvariants } from '../invariants/exercised.js';
import { checkFaultProfile, type FaultProfile } from '../../faults/profile.js';

export type { PopulationGroup } from './scenario-population.js';

/**
 * A scenario file: who plays, for how long, under which rules, from which seed. Raw YAML is parsed into a
 * plain record, then promoted to a checked `Scenario`; every problem names its field.
 */
export interface Scenario {
  name: string;
  seed: string;
  startMs: number;
  durationMs: number;
  ruleset: Ruleset;
  /** The mock Solana network: settlement latency and the chance an attempt is lost. */
  network: NetworkConditions;
  /** Replay the run's ledger through litesvm at the end (also `run --cross-check`). */
  crossCheck: boolean;
  population: PopulationGroup[];
  /** The user's own invariant modules (`invariants: [{ module }]`), present only when the scenario names some. */
  invariants?: InvariantModuleSpec[];
  /**
   * Invariants that must run at least one check (`requireExercised: [names]` or `all`, or `run
   * --require-exercised`); one that runs none fails the run. Present only when something is required.
   */
  requireExercised?: RequiredInvariants;
  /** The faults the agents meet (src/faults/profile.ts); present only when the scenario sets `faults:`. */
  faults?: FaultProfile;
}

export class ScenarioError extends Error {
  readonly problems: string[];

  constructor(source: string, problems: string[]) {
    super(`${source}: invalid scenario\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ScenarioError';
    this.problems = problems;
  }
}

const TOP_LEVEL = [
  'name',
  'seed',
  'start',
  'duration',
  'ruleset',
  'escrow',
  'population',
  'invariants',
  'requireExercised',
  'faults',
  'description',
];
const ESCROW_FIELDS = ['latency', 'faultRate', 'crossCheck'];

export function loadScenarioFile(path: string, seedOverride?: string): Scenario {
  return parseScenario(readScenarioText(path), path, seedOverride, dirname(resolve(path)));
}

/** `baseDir` is the directory relative `module:` paths resolve against (the scenario file's, when loaded from one). */
export function parseScenario(
  text: string,
  source = 'scenario',
  seedOverride?: string,
  baseDir?: string,
): Scenario {
  return checkParsed(parseRaw(text, source), source, seedOverride, baseDir);
}

/**
 * A checked scenario together with the plain record it came from (as JSON data, the seed override written
 * in). A live snapshot carries the record rather than the checked scenario, so that a restore checks it
 * again exactly as a file is checked.
 */
export interface ScenarioWithSource {
  scenario: Scenario;
  source: Record<string, unknown>;
}

export function parseScenarioWithSource(
  text: string,
  source = 'scenario',
  seedOverride?: string,
  baseDir?: string,
): ScenarioWithSource {
  const raw = parseRaw(text, source);
  const scenario = checkParsed(raw, source, seedOverride, baseDir);
  const record = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  return { scenario, source: seedOverride === undefined ? record : { ...record, seed: seedOverride } };
}

export function loadScenarioFileWithSource(path: string, seedOverride?: string): ScenarioWithSource {
  return parseScenarioWithSource(readScenarioText(path), path, seedOverride, dirname(resolve(path)));
}

function readScenarioText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, [`cannot read file: ${(error as Error).message}`]);
  }
}

function parseRaw(text: string, source: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    throw new ScenarioError(source, [`not valid YAML: ${(error as Error).message.split('\n')[0]}`]);
  }
}

function checkParsed(
  raw: unknown,
  source: string,
  seedOverride: string | undefined,
  baseDir: string | undefined,
): Scenario {
  const problems: string[] = [];
  const scenario = checkScenario(raw, problems, seedOverride, baseDir);
  if (problems.length > 0 || !scenario) throw new ScenarioError(source, problems);
  return scenario;
}

function checkScenario(
  raw: unknown,
  problems: string[],
  seedOverride: string | undefined,
  baseDir: string | undefined,
): Scenario | undefined {
  if (!isRecord(raw)) {
    problems.push('the file must be a YAML mapping with name, seed, start, duration and population');
    return undefined;
  }
  checkKnownFields(raw, TOP_LEVEL, '', problems);
  const name = typeof raw['name'] === 'string' ? raw['name'] : '';
  if (name === '') problems.push('name: must be a non-empty string');
  const seed = seedOverride ?? checkSeed(raw['seed'], problems);
  const startMs = checkStart(raw['start'], problems);
  const durationMs = checkDuration(raw['duration'], 'duration', problems);
  const { ruleset, errors } = resolveRuleset(raw['ruleset'] ?? {});
  problems.push(...errors);
  const { network, crossCheck } = checkEscrow(raw['escrow'], problems);
  const population = checkPopulation(raw['population'], problems, baseDir);
  const invariants = checkInvariantList(raw['invariants'], problems, baseDir);
  const requireExercised = checkRequireExercised(raw['requireExercised'], invariants !== undefined, problems);
  const scenario: Scenario = { name, seed, startMs, durationMs, ruleset, network, crossCheck, population };
  if (invariants) scenario.invariants = invariants;
  if (requireExercised) scenario.requireExercised = requireExercised;
  if (raw['faults'] !== undefined) scenario.faults = checkFaultProfile(raw['faults'], 'faults', problems);
  return scenario;
}

function checkEscrow(raw: unknown, problems: string[]): { network: NetworkConditions; crossCheck: boolean } {
  if (raw === undefined) return { network: DEFAULT_NETWORK, crossCheck: false };
  if (!isRecord(raw)) {
    problems.push('escrow: must be a mapping with latency, faultRate and crossCheck');
    return { network: DEFAULT_NETWORK, crossCheck: false };
  }
  checkKnownFields(raw, ESCROW_FIELDS, 'escrow', problems);
  const latency = raw['latency'];
  let { latencyMinMs, latencyMaxMs } = DEFAULT_NETWORK;
  if (latency !== undefined) {
    if (!isRecord(latency))
      problems.push('escrow.latency: must be a mapping with min and max, e.g. { min: 400ms, max: 3s }');
    else {
      latencyMinMs = checkDuration(latency['min'], 'escrow.latency.min', problems, true);
      latencyMaxMs = checkDuration(latency['max'], 'escrow.latency.max', problems, true);
    }
  }
  const faultRate = raw['faultRate'] ?? DEFAULT_NETWORK.faultRate;
  const network = { latencyMinMs, latencyMaxMs, faultRate: faultRate as number };
  problems.push(...checkNetwork(network).map((p) => `escrow.${p}`));
  if (raw['crossCheck'] !== undefined && typeof raw['crossCheck'] !== 'boolean')
    problems.push('escrow.crossCheck: must be true or false');
  return { network, crossCheck: raw['crossCheck'] === true };
}

function checkSeed(value: unknown, problems: string[]): string {
  if (
    (typeof value === 'number' && Number.isSafeInteger(value)) ||
    (typeof value === 'string' && value.length > 0)
  )
    return String(value);
  problems.push('seed: must be an integer or a non-empty string');
  return '';
}

function checkStart(value: unknown, problems: string[]): number {
  const text = value instanceof Date ? value.toISOString() : value;
  const ms =
    typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/.test(text)
      ? Date.parse(text)
      : NaN;
  if (Number.isNaN(ms))
    problems.push('start: must be a UTC ISO 8601 time ending in Z, e.g. 2026-01-01T00:00:00Z');
  return Number.isNaN(ms) ? 0 : ms;
}
