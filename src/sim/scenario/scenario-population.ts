import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { solToLamports } from '../../kernel/money.js';
import { RENT_EXEMPT_MINIMUM } from '../../escrow/ledger.js';
import {
  ACCOUNT_KINDS,
  HUMAN_PERSONAS,
  PERSONAS,
  STRENGTH_PERSONAS,
  type AccountKind,
} from '../../../agents/registry.js';
import type { EloSpread } from '../../../agents/engines/strength.js';
import type { PersonaFactory } from '../../../agents/persona.js';
import {
  apportion,
  defaultMedianMs,
  HEARTBEAT_DISTRIBUTIONS,
  type HeartbeatDistribution,
  type HeartbeatPeriodSpec,
} from './population.js';
import { checkDuration, checkKnownFields, isRecord } from './scenario-fields.js';

/**
 * The `population:` list of a scenario. Each entry is either an explicit group (a registered `persona:` or
 * a `module:` file, a count, a heartbeat) or a `mix:` (a total split among persona shares by largest
 * remainder, one heartbeat distribution, an Elo spread for the engine agents), which expands here into
 * plain groups. Every problem names its field.
 */
export interface PopulationGroup {
  /** Where the group is written in the file (`population[2]`, `population[0].mix.personas.random`), for errors. */
  label: string;
  /** A registered persona's name; for a module group, the module path as written. */
  persona: string;
  /** A bring-your-own module (`module: ./my-agent.js`), resolved against `baseDir`; the world loads it before any event. */
  module?: { path: string; baseDir: string };
  /**
   * An agent kind handed over in code by a caller that builds its scenario in memory (compare's duel
   * harness), never read from a file; the world checks its options and guards its steps as a module's.
   */
  harness?: PersonaFactory;
  /** `agent` registers through /api/register; `human` creates human accounts through /_sim/humans. */
  account: AccountKind;
  count: number;
  heartbeatMinMs: number;
  heartbeatMaxMs: number;
  /**
   * Absent: every heartbeat delay is drawn uniformly from [min, max]. Present: each agent draws its own period
   * from this distribution once, within [min, max], and polls at that period give or take PERIOD_JITTER.
   */
  heartbeatPeriod?: HeartbeatPeriodSpec;
  /** Lamports minted into each agent's wallet when it registers (0 = none). */
  airdropLamports: number;
  options: Record<string, unknown>;
  /** Engine groups only: each agent's `level` comes from this Elo spread (`levelsFor` in agents/engines/strength.ts). */
  strength?: EloSpread;
}

const GROUP_FIELDS = ['persona', 'module', 'account', 'count', 'heartbeat', 'airdrop', 'options', 'strength'];
const MIX_FIELDS = ['total', 'personas', 'heartbeat', 'elo', 'options', 'airdrop'];
const HEARTBEAT_FIELDS = ['min', 'max', 'distribution', 'median'];
/** A run of more agents than this is refused rather than left to exhaust memory. */
export const MAX_AGENTS = 100_000;
/** Mix shares are fractions of the total; they must add up to 1 within this (float sums such as 0.1 + 0.2). */
const SHARE_SUM_TOLERANCE = 1e-6;
const DEFAULT_HEARTBEAT = { minMs: 30_000, maxMs: 60_000 };

/** `baseDir` (the scenario file's directory) resolves relative module paths. */
export function checkPopulation(value: unknown, problems: string[], baseDir?: string): PopulationGroup[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push(
      'population: must be a non-empty list of groups (persona, count, heartbeat) or mixes (mix: { total, personas })',
    );
    return [];
  }
  const groups = value.flatMap((entry, i) => {
    const path = `population[${i}]`;
    return isRecord(entry) && 'mix' in entry
      ? checkMixEntry(entry, path, problems)
      : [checkGroup(entry, path, problems, baseDir)];
  });
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  if (total > MAX_AGENTS)
    problems.push(`population: ${total} agents is more than the ${MAX_AGENTS} a run supports`);
  return groups;
}

function checkGroup(
  raw: unknown,
  path: string,
  problems: string[],
  baseDir: string | undefined,
): PopulationGroup {
  const group: PopulationGroup = {
    label: path,
    persona: '',
    account: 'agent',
    count: 0,
    ...heartbeatFields(DEFAULT_HEARTBEAT),
    airdropLamports: 0,
    options: {},
  };
  if (!isRecord(raw)) {
    problems.push(`${path}: must be a mapping with persona (or module), count and heartbeat`);
    return group;
  }
  checkKnownFields(raw, GROUP_FIELDS, path, problems);
  const source = checkSource(raw, path, problems, baseDir);
  group.persona = source.persona;
  if (source.module) group.module = source.module;
  group.account = checkAccount(raw['account'], group.persona, path, problems);
  if (!(Number.isSafeInteger(raw['count']) && (raw['count'] as number) > 0))
    problems.push(`${path}.count: must be a positive integer`);
  group.count = Number.isSafeInteger(raw['count']) ? (raw['count'] as number) : 0;
  Object.assign(group, heartbeatFields(checkHeartbeat(raw['heartbeat'], `${path}.heartbeat`, problems)));
  group.airdropLamports = checkAirdrop(
    raw['airdrop'],
    `${path}.airdrop`,
    group.account === 'human',
    problems,
  );
  if (raw['options'] !== undefined && !isRecord(raw['options']))
    problems.push(`${path}.options: must be a mapping`);
  group.options = isRecord(raw['options']) ? raw['options'] : {};
  // A module's own checkOptions runs when the world loads it (import is asynchronous; this loader is not).
  if (!source.module) problems.push(...checkPersonaOptions(group.persona, group.options, `${path}.options`));
  const strength = checkStrength(raw['strength'], `${path}.strength`, group.persona, group.options, problems);
  if (strength) group.strength = strength;
  return group;
}

/** Exactly one of `persona:` (a registered name) or `module:` (a file that exists). */
function checkSource(
  raw: Record<string, unknown>,
  path: string,
  problems: string[],
  baseDir: string | undefined,
): Pick<PopulationGroup, 'persona' | 'module'> {
  if (raw['module'] === undefined) {
    if (typeof raw['persona'] !== 'string' || !PERSONAS.has(raw['persona'])) {
      problems.push(
        `${path}.persona: must be one of ${[...PERSONAS.keys()].join(', ')} (or give module: ./path/to/agent.js)`,
      );
    }
    return { persona: String(raw['persona']) };
  }
  if (raw['persona'] !== undefined) problems.push(`${path}: give persona or module, not both`);
  const written = raw['module'];
  const module = checkModulePath(
    written,
    `${path}.module`,
    'an agent module, e.g. ./agents/my-agent.js',
    problems,
    baseDir,
  );
  return module
    ? { persona: module.path, module }
    : { persona: typeof written === 'string' ? written : JSON.stringify(written) };
}

/**
 * A `module:` path as written in a scenario (an agent's or an invariant's), resolved against the scenario
 * file's directory; undefined, with the problem recorded, when it is not a string or names no file.
 */
export function checkModulePath(
  written: unknown,
  field: string,
  what: string,
  problems: string[],
  baseDir: string | undefined,
): { path: string; baseDir: string } | undefined {
  if (typeof written !== 'string' || written.length === 0) {
    problems.push(`${field}: must be a path to ${what}`);
    return undefined;
  }
  if (!isAbsolute(written) && baseDir === undefined) {
    problems.push(
      `${field}: a relative path needs the scenario's directory: load the scenario from its file, or give an absolute path`,
    );
    return undefined;
  }
  const dir = baseDir ?? dirname(written);
  const file = resolve(dir, written);
  if (!existsSync(file)) {
    problems.push(`${field}: no file at ${file}`);
    return undefined;
  }
  return { path: written, baseDir: dir };
}

/** A group's account kind must match its persona: the human persona plays human accounts, every other persona (and module) agents. */
function checkAccount(raw: unknown, persona: string, path: string, problems: string[]): AccountKind {
  if (raw !== undefined && !ACCOUNT_KINDS.includes(raw as AccountKind)) {
    problems.push(`${path}.account: must be one of ${ACCOUNT_KINDS.join(', ')}`);
    return 'agent';
  }
  const account = (raw as AccountKind | undefined) ?? 'agent';
  const wantsHuman = HUMAN_PERSONAS.has(persona);
  if (account === 'human' && !wantsHuman)
    problems.push(`${path}.account: human accounts play only the ${[...HUMAN_PERSONAS].join(', ')} persona`);
  if (account === 'agent' && wantsHuman)
    problems.push(`${path}.account: the ${persona} persona plays a human account; set account: human`);
  return account;
}

function checkPersonaOptions(persona: string, options: Record<string, unknown>, path: string): string[] {
  const factory = PERSONAS.get(persona);
  return factory ? factory.checkOptions(options).map((p) => `${path}.${p}`) : [];
}

function checkAirdrop(raw: unknown, path: string, human: boolean, problems: string[]): number {
  if (raw === undefined) return 0;
  const lamports = typeof raw === 'number' ? solToLamports(raw) : undefined;
  if (lamports === undefined || lamports > 1_000_000_000_000)
    problems.push(`${path}: must be SOL from 0 to 1000 per agent, e.g. 5`);
  else if (lamports > 0 && lamports < RENT_EXEMPT_MINIMUM)
    problems.push(`${path}: below the rent-exempt minimum of ${RENT_EXEMPT_MINIMUM} lamports`);
  if (human && (lamports ?? 0) > 0) problems.push(`${path}: human accounts have no wallet`);
  return lamports ?? 0;
}

interface HeartbeatSpec {
  minMs: number;
  maxMs: number;
  period?: HeartbeatPeriodSpec;
}

function heartbeatFields(
  spec: HeartbeatSpec,
): Pick<PopulationGroup, 'heartbeatMinMs' | 'heartbeatMaxMs' | 'heartbeatPeriod'> {
  return {
    heartbeatMinMs: spec.minMs,
    heartbeatMaxMs: spec.maxMs,
    ...(spec.period ? { heartbeatPeriod: spec.period } : {}),
  };
}

/** `{ min, max }` (every beat uniform in the range), or with `distribution` a per-agent period (lognormal may give `median`). */
function checkHeartbeat(raw: unknown, path: string, problems: string[]): HeartbeatSpec {
  if (raw === undefined) return DEFAULT_HEARTBEAT;
  if (!isRecord(raw)) {
    problems.push(`${path}: must be a mapping with min and max, e.g. { min: 30s, max: 60s }`);
    return DEFAULT_HEARTBEAT;
  }
  checkKnownFields(raw, HEARTBEAT_FIELDS, path, problems);
  const minMs = checkDuration(raw['min'], `${path}.min`, problems);
  const maxMs = checkDuration(raw['max'], `${path}.max`, problems);
  if (maxMs < minMs) problems.push(`${path}: max must not be less than min`);
  if (raw['distribution'] === undefined) {
    if (raw['median'] !== undefined)
      problems.push(`${path}.median: only a lognormal distribution has a median`);
    return { minMs, maxMs };
  }
  if (!HEARTBEAT_DISTRIBUTIONS.includes(raw['distribution'] as HeartbeatDistribution)) {
    problems.push(`${path}.distribution: must be one of ${HEARTBEAT_DISTRIBUTIONS.join(', ')}`);
    return { minMs, maxMs };
  }
  const distribution = raw['distribution'] as HeartbeatDistribution;
  return {
    minMs,
    maxMs,
    period: {
      distribution,
      medianMs: checkMedian(raw['median'], distribution, minMs, maxMs, path, problems),
    },
  };
}

function checkMedian(
  raw: unknown,
  distribution: HeartbeatDistribution,
  minMs: number,
  maxMs: number,
  path: string,
  problems: string[],
): number {
  if (raw === undefined) return defaultMedianMs(minMs, maxMs);
  if (distribution !== 'lognormal')
    problems.push(`${path}.median: only a lognormal distribution has a median`);
  const medianMs = checkDuration(raw, `${path}.median`, problems);
  if (medianMs > 0 && (medianMs < minMs || medianMs > maxMs))
    problems.push(`${path}.median: must lie between min and max`);
  return medianMs;
}

/** `{ mean, sd }` in Elo, for a persona that takes a strength level (and then not also `options.level`). */
function checkStrength(
  raw: unknown,
  path: string,
  persona: string,
  options: Record<string, unknown>,
  problems: string[],
): EloSpread | undefined {
  if (raw === undefined) return undefined;
  const spread = checkEloSpread(raw, path, problems);
  if (!STRENGTH_PERSONAS.has(persona))
    problems.push(`${path}: only ${[...STRENGTH_PERSONAS].join(', ')} agents have a strength`);
  if (options['level'] !== undefined) problems.push(`${path}: picks each agent's level; drop options.level`);
  return spread;
}

function checkEloSpread(raw: unknown, path: string, problems: string[]): EloSpread | undefined {
  if (!isRecord(raw)) {
    problems.push(`${path}: must be a mapping with mean and sd in Elo, e.g. { mean: 1500, sd: 200 }`);
    return undefined;
  }
  checkKnownFields(raw, ['mean', 'sd'], path, problems);
  const { mean, sd } = raw;
  const before = problems.length;
  if (typeof mean !== 'number' || !Number.isFinite(mean) || mean < 0 || mean > 4000)
    problems.push(`${path}.mean: must be an Elo from 0 to 4000`);
  if (typeof sd !== 'number' || !Number.isFinite(sd) || sd < 0 || sd > 1000)
    problems.push(`${path}.sd: must be a number from 0 to 1000`);
  return problems.length === before ? { mean: mean as number, sd: sd as number } : undefined;
}

/**
 * `mix: { total, personas: { name: share }, heartbeat, elo, options: { name: {...} }, airdrop }` expands into
 * one group per persona in the order written, with largest-remainder counts that sum to `total`. A persona
 * whose share rounds to no agents gets no group.
 */
function checkMixEntry(entry: Record<string, unknown>, path: string, problems: string[]): PopulationGroup[] {
  checkKnownFields(entry, ['mix'], path, problems);
  const mixPath = `${path}.mix`;
  const raw = entry['mix'];
  if (!isRecord(raw)) {
    problems.push(
      `${mixPath}: must be a mapping with total and personas, e.g. { total: 100, personas: { random: 0.7, poller: 0.3 } }`,
    );
    return [];
  }
  checkKnownFields(raw, MIX_FIELDS, mixPath, problems);
  const total = raw['total'];
  if (!(Number.isSafeInteger(total) && (total as number) > 0))
    problems.push(`${mixPath}.total: must be a positive integer`);
  const shares = checkShares(raw['personas'], `${mixPath}.personas`, problems);
  const heartbeat = heartbeatFields(checkHeartbeat(raw['heartbeat'], `${mixPath}.heartbeat`, problems));
  const options = checkMixOptions(raw['options'], `${mixPath}.options`, shares, problems);
  const elo =
    raw['elo'] === undefined
      ? undefined
      : checkMixElo(raw['elo'], `${mixPath}.elo`, shares, options, problems);
  const airdrop = checkAirdrop(raw['airdrop'], `${mixPath}.airdrop`, false, problems);
  if (!Number.isSafeInteger(total) || shares.length === 0) return [];
  const counts = apportion(
    total as number,
    shares.map(([, share]) => share),
  );
  return shares.flatMap(([persona], i): PopulationGroup[] => {
    if (counts[i] === 0) return [];
    const account: AccountKind = HUMAN_PERSONAS.has(persona) ? 'human' : 'agent';
    const group: PopulationGroup = {
      label: `${mixPath}.personas.${persona}`,
      persona,
      account,
      count: counts[i]!,
      ...heartbeat,
      airdropLamports: account === 'human' ? 0 : airdrop,
      options: options.get(persona) ?? {},
    };
    if (elo && STRENGTH_PERSONAS.has(persona)) group.strength = elo;
    return [group];
  });
}

/** `{ name: share }` in the order written: registered personas, positive shares that add up to 1. */
function checkShares(raw: unknown, path: string, problems: string[]): Array<[string, number]> {
  if (!isRecord(raw) || Object.keys(raw).length === 0) {
    problems.push(
      `${path}: must map persona names to shares of the total, e.g. { random: 0.7, poller: 0.3 }`,
    );
    return [];
  }
  const before = problems.length;
  for (const [persona, share] of Object.entries(raw)) {
    if (!PERSONAS.has(persona))
      problems.push(`${path}.${persona}: not a persona (one of ${[...PERSONAS.keys()].join(', ')})`);
    if (typeof share !== 'number' || !Number.isFinite(share) || share <= 0 || share > 1)
      problems.push(`${path}.${persona}: must be a share from 0 (exclusive) to 1`);
  }
  if (problems.length > before) return [];
  const sum = Object.values(raw).reduce((a: number, b) => a + (b as number), 0);
  if (Math.abs(sum - 1) > SHARE_SUM_TOLERANCE)
    problems.push(`${path}: shares must add up to 1, not ${Number(sum.toFixed(6))}`);
  return Object.entries(raw) as Array<[string, number]>;
}

/** `{ persona: { option: value } }`, each checked by that persona, which must be in the mix. */
function checkMixOptions(
  raw: unknown,
  path: string,
  shares: Array<[string, number]>,
  problems: string[],
): Map<string, Record<string, unknown>> {
  const options = new Map<string, Record<string, unknown>>();
  if (raw === undefined) return options;
  if (!isRecord(raw)) {
    problems.push(`${path}: must map persona names to their options, e.g. { random: { maxGames: 2 } }`);
    return options;
  }
  const inMix = new Set(shares.map(([persona]) => persona));
  for (const [persona, value] of Object.entries(raw)) {
    if (shares.length > 0 && !inMix.has(persona))
      problems.push(`${path}.${persona}: not a persona of this mix`);
    else if (!isRecord(value)) problems.push(`${path}.${persona}: must be a mapping of options`);
    else {
      problems.push(...checkPersonaOptions(persona, value, `${path}.${persona}`));
      options.set(persona, value);
    }
  }
  return options;
}

function checkMixElo(
  raw: unknown,
  path: string,
  shares: Array<[string, number]>,
  options: Map<string, Record<string, unknown>>,
  problems: string[],
): EloSpread | undefined {
  const spread = checkEloSpread(raw, path, problems);
  const levelled = shares.map(([persona]) => persona).filter((persona) => STRENGTH_PERSONAS.has(persona));
  if (shares.length > 0 && levelled.length === 0)
    problems.push(
      `${path}: sets the strength of ${[...STRENGTH_PERSONAS].join(', ')} agents, and this mix has none`,
    );
  for (const persona of levelled)
    if (options.get(persona)?.['level'] !== undefined)
      problems.push(`${path}: picks each ${persona} agent's level; drop options.${persona}.level`);
  return spread;
}
