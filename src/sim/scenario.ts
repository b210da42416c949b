import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseDurationMs } from '../kernel/clock.js';
import { resolveRuleset, type Ruleset } from '../rules/ruleset.js';
import { solToLamports } from '../kernel/money.js';
import { RENT_EXEMPT_MINIMUM } from '../escrow/ledger.js';
import { checkNetwork, DEFAULT_NETWORK, type NetworkConditions } from '../escrow/network.js';
import { ACCOUNT_KINDS, HUMAN_PERSONAS, PERSONAS, type AccountKind } from '../../agents/registry.js';

/**
 * A scenario file: who plays, for how long, under which rules, from which seed. Raw YAML is parsed into a
 * plain record, then promoted to a checked `Scenario`; every problem names its field.
 */
export interface PopulationGroup {
  persona: string;
  /** `agent` registers through /api/register; `human` creates human accounts through /_sim/humans. */
  account: AccountKind;
  count: number;
  heartbeatMinMs: number;
  heartbeatMaxMs: number;
  /** Lamports minted into each agent's wallet when it registers (0 = none). */
  airdropLamports: number;
  options: Record<string, unknown>;
}

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
}

export class ScenarioError extends Error {
  readonly problems: string[];

  constructor(source: string, problems: string[]) {
    super(`${source}: invalid scenario\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ScenarioError';
    this.problems = problems;
  }
}

const TOP_LEVEL = ['name', 'seed', 'start', 'duration', 'ruleset', 'escrow', 'population', 'description'];
const GROUP_FIELDS = ['persona', 'account', 'count', 'heartbeat', 'airdrop', 'options'];
const ESCROW_FIELDS = ['latency', 'faultRate', 'crossCheck'];
/** A run of more agents than this is refused rather than left to exhaust memory. */
const MAX_AGENTS = 100_000;

export function loadScenarioFile(path: string, seedOverride?: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, [`cannot read file: ${(error as Error).message}`]);
  }
  return parseScenario(text, path, seedOverride);
}

export function parseScenario(text: string, source = 'scenario', seedOverride?: string): Scenario {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ScenarioError(source, [`not valid YAML: ${(error as Error).message.split('\n')[0]}`]);
  }
  const problems: string[] = [];
  const scenario = checkScenario(raw, problems, seedOverride);
  if (problems.length > 0 || !scenario) throw new ScenarioError(source, problems);
  return scenario;
}

function checkScenario(raw: unknown, problems: string[], seedOverride?: string): Scenario | undefined {
  if (!isRecord(raw)) {
    problems.push('the file must be a YAML mapping with name, seed, start, duration and population');
    return undefined;
  }
  for (const key of Object.keys(raw)) if (!TOP_LEVEL.includes(key)) problems.push(`${key}: unknown field (expected one of ${TOP_LEVEL.join(', ')})`);
  const name = typeof raw['name'] === 'string' && raw['name'].length > 0 ? raw['name'] : (problems.push('name: must be a non-empty string'), '');
  const seed = seedOverride ?? checkSeed(raw['seed'], problems);
  const startMs = checkStart(raw['start'], problems);
  const durationMs = checkDuration(raw['duration'], 'duration', problems);
  const { ruleset, errors } = resolveRuleset(raw['ruleset'] ?? {});
  problems.push(...errors);
  const { network, crossCheck } = checkEscrow(raw['escrow'], problems);
  const population = checkPopulation(raw['population'], problems);
  return { name, seed, startMs, durationMs, ruleset, network, crossCheck, population };
}

function checkEscrow(raw: unknown, problems: string[]): { network: NetworkConditions; crossCheck: boolean } {
  if (raw === undefined) return { network: DEFAULT_NETWORK, crossCheck: false };
  if (!isRecord(raw)) {
    problems.push('escrow: must be a mapping with latency, faultRate and crossCheck');
    return { network: DEFAULT_NETWORK, crossCheck: false };
  }
  for (const key of Object.keys(raw)) if (!ESCROW_FIELDS.includes(key)) problems.push(`escrow.${key}: unknown field (expected one of ${ESCROW_FIELDS.join(', ')})`);
  const latency = raw['latency'];
  let { latencyMinMs, latencyMaxMs } = DEFAULT_NETWORK;
  if (latency !== undefined) {
    if (!isRecord(latency)) problems.push('escrow.latency: must be a mapping with min and max, e.g. { min: 400ms, max: 3s }');
    else {
      latencyMinMs = checkDuration(latency['min'], 'escrow.latency.min', problems, true);
      latencyMaxMs = checkDuration(latency['max'], 'escrow.latency.max', problems, true);
    }
  }
  const faultRate = raw['faultRate'] ?? DEFAULT_NETWORK.faultRate;
  const network = { latencyMinMs, latencyMaxMs, faultRate: faultRate as number };
  problems.push(...checkNetwork(network).map((p) => `escrow.${p}`));
  if (raw['crossCheck'] !== undefined && typeof raw['crossCheck'] !== 'boolean') problems.push('escrow.crossCheck: must be true or false');
  return { network, crossCheck: raw['crossCheck'] === true };
}

function checkSeed(value: unknown, problems: string[]): string {
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && value.length > 0)) return String(value);
  problems.push('seed: must be an integer or a non-empty string');
  return '';
}

function checkStart(value: unknown, problems: string[]): number {
  const text = value instanceof Date ? value.toISOString() : value;
  const ms = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) problems.push('start: must be a UTC ISO 8601 time ending in Z, e.g. 2026-01-01T00:00:00Z');
  return Number.isNaN(ms) ? 0 : ms;
}

function checkDuration(value: unknown, field: string, problems: string[], zeroAllowed = false): number {
  const ms = typeof value === 'string' || typeof value === 'number' ? parseDurationMs(value) : undefined;
  if (ms === undefined || ms < 0 || (ms === 0 && !zeroAllowed)) problems.push(`${field}: must be a positive duration such as 500ms, 90s, 5m, 24h or 2d`);
  return ms ?? 0;
}

function checkPopulation(value: unknown, problems: string[]): PopulationGroup[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push('population: must be a non-empty list of groups (persona, count, heartbeat)');
    return [];
  }
  const groups = value.map((group, i) => checkGroup(group, `population[${i}]`, problems));
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  if (total > MAX_AGENTS) problems.push(`population: ${total} agents is more than the ${MAX_AGENTS} a run supports`);
  return groups;
}

function checkGroup(raw: unknown, path: string, problems: string[]): PopulationGroup {
  const group: PopulationGroup = { persona: '', account: 'agent', count: 0, heartbeatMinMs: 30_000, heartbeatMaxMs: 60_000, airdropLamports: 0, options: {} };
  if (!isRecord(raw)) {
    problems.push(`${path}: must be a mapping with persona, count and heartbeat`);
    return group;
  }
  for (const key of Object.keys(raw)) if (!GROUP_FIELDS.includes(key)) problems.push(`${path}.${key}: unknown field`);
  const factory = typeof raw['persona'] === 'string' ? PERSONAS.get(raw['persona']) : undefined;
  if (!factory) problems.push(`${path}.persona: must be one of ${[...PERSONAS.keys()].join(', ')}`);
  group.persona = String(raw['persona']);
  group.account = checkAccount(raw['account'], group.persona, path, problems);
  if (!(Number.isSafeInteger(raw['count']) && (raw['count'] as number) > 0)) problems.push(`${path}.count: must be a positive integer`);
  group.count = Number.isSafeInteger(raw['count']) ? (raw['count'] as number) : 0;
  checkHeartbeat(raw['heartbeat'], `${path}.heartbeat`, group, problems);
  if (raw['airdrop'] !== undefined) {
    const lamports = typeof raw['airdrop'] === 'number' ? solToLamports(raw['airdrop']) : undefined;
    if (lamports === undefined || lamports > 1_000_000_000_000) problems.push(`${path}.airdrop: must be SOL from 0 to 1000 per agent, e.g. 5`);
    else if (lamports > 0 && lamports < RENT_EXEMPT_MINIMUM) problems.push(`${path}.airdrop: below the rent-exempt minimum of ${RENT_EXEMPT_MINIMUM} lamports`);
    group.airdropLamports = lamports ?? 0;
    if (group.account === 'human' && group.airdropLamports > 0) problems.push(`${path}.airdrop: human accounts have no wallet`);
  }
  if (raw['options'] !== undefined && !isRecord(raw['options'])) problems.push(`${path}.options: must be a mapping`);
  group.options = isRecord(raw['options']) ? raw['options'] : {};
  if (factory) problems.push(...factory.checkOptions(group.options).map((p) => `${path}.options.${p}`));
  return group;
}

/** A group's account kind must match its persona: the human persona plays human accounts, every other persona agents. */
function checkAccount(raw: unknown, persona: string, path: string, problems: string[]): AccountKind {
  if (raw !== undefined && !ACCOUNT_KINDS.includes(raw as AccountKind)) {
    problems.push(`${path}.account: must be one of ${ACCOUNT_KINDS.join(', ')}`);
    return 'agent';
  }
  const account = (raw as AccountKind | undefined) ?? 'agent';
  const wantsHuman = HUMAN_PERSONAS.has(persona);
  if (account === 'human' && !wantsHuman) problems.push(`${path}.account: human accounts play only the ${[...HUMAN_PERSONAS].join(', ')} persona`);
  if (account === 'agent' && wantsHuman) problems.push(`${path}.account: the ${persona} persona plays a human account; set account: human`);
  return account;
}

function checkHeartbeat(raw: unknown, path: string, group: PopulationGroup, problems: string[]): void {
  if (raw === undefined) return;
  if (!isRecord(raw)) {
    problems.push(`${path}: must be a mapping with min and max, e.g. { min: 30s, max: 60s }`);
    return;
  }
  group.heartbeatMinMs = checkDuration(raw['min'], `${path}.min`, problems);
  group.heartbeatMaxMs = checkDuration(raw['max'], `${path}.max`, problems);
  if (group.heartbeatMaxMs < group.heartbeatMinMs) problems.push(`${path}: max must not be less than min`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
