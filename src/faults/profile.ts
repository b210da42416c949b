import { isRecord } from '../kernel/records.js';
import { parseDurationMs } from '../kernel/clock.js';

/**
 * A fault profile: the failures a real web service and the proxies in front of it throw at a client, as
 * data. Nothing in a profile names a file, a program or a module: kinds are a closed list, bodies are built
 * by the code from the kind (src/faults/bodies.ts), and every field is checked here with a one-line problem
 * naming it. The same profile is read from a scenario's `faults:`, from `serve --faults FILE` and from
 * `PUT /_sim/faults`.
 */
export interface FaultProfile {
  name: string;
  description: string;
  rules: FaultRule[];
}

/** Which requests a rule may touch; every part left out matches everything. */
export interface FaultScope {
  /** Route groups (`ROUTE_GROUPS`). */
  routes?: RouteGroup[];
  /** Agent handles (for instance only the agent under test). */
  agents?: string[];
  /** Virtual time since the run's start at which the rule starts (inclusive) and stops (exclusive). */
  fromMs?: number;
  untilMs?: number;
}

interface RuleBase {
  scope: FaultScope;
  /** The chance, per request in scope, that the rule fires (outage: always 1 inside its window). */
  rate: number;
}

export type FaultRule =
  | (RuleBase & { kind: 'latency'; medianMs: number; p99Ms: number })
  | (RuleBase & { kind: 'error'; statuses: ErrorStatus[] })
  | (RuleBase & { kind: 'reset' })
  | (RuleBase & { kind: 'hang'; timeoutMs: number })
  | (RuleBase & { kind: 'malformed'; form: 'truncated' | 'garbage' })
  | (RuleBase & { kind: 'burst429'; lengthMs: number; retryAfterMs: number })
  | (RuleBase & { kind: 'outage' })
  | (RuleBase & { kind: 'stale'; lagMs: number })
  | (RuleBase & { kind: 'lost' });

export type FaultKind = FaultRule['kind'];
export type ErrorStatus = 500 | 502 | 503 | 504;

export const FAULT_KINDS: readonly FaultKind[] = [
  'latency',
  'error',
  'reset',
  'hang',
  'malformed',
  'burst429',
  'outage',
  'stale',
  'lost',
];

/**
 * Route groups a scope names: the spec's endpoint groups (src/api/contract/define.ts GROUPS) in lower case,
 * plus two narrower ones an agent's life turns on: `move` (POST /api/chess/move) and `my-turn`.
 */
export const ROUTE_GROUPS = [
  'identity',
  'agents',
  'games',
  'challenges',
  'leaderboard',
  'tournaments',
  'social',
  'feed',
  'search',
  'humans',
  'system',
  'move',
  'my-turn',
] as const;
export type RouteGroup = (typeof ROUTE_GROUPS)[number];

const ERROR_STATUSES: readonly ErrorStatus[] = [500, 502, 503, 504];
const PROFILE_FIELDS = ['name', 'description', 'rules'];
const SCOPE_FIELDS = ['routes', 'agents', 'from', 'until'];
const MAX_RULES = 64;
const MAX_LIST = 64;
/** Each kind's own fields beside `kind`, `scope` and `rate`. */
const KIND_FIELDS: Record<FaultKind, readonly string[]> = {
  latency: ['median', 'p99'],
  error: ['statuses'],
  reset: [],
  hang: ['timeout'],
  malformed: ['form'],
  burst429: ['length', 'retryAfter'],
  outage: [],
  stale: ['lag'],
  lost: [],
};

export class FaultProfileError extends Error {
  readonly problems: string[];

  constructor(source: string, problems: string[]) {
    super(`${source}: invalid fault profile: ${problems.join('; ')}`);
    this.name = 'FaultProfileError';
    this.problems = problems;
  }
}

/** The profile that changes nothing: no rules. */
export const EMPTY_PROFILE: FaultProfile = Object.freeze({ name: 'none', description: '', rules: [] });

/** Checks a parsed record; every problem is one line naming its field (under `field`). */
export function checkFaultProfile(raw: unknown, field: string, problems: string[]): FaultProfile {
  if (!isRecord(raw)) {
    problems.push(`${field}: must be a mapping with name, description and rules`);
    return EMPTY_PROFILE;
  }
  unknownFields(raw, PROFILE_FIELDS, field, problems);
  const name = raw['name'] ?? 'unnamed';
  if (typeof name !== 'string' || !/^[A-Za-z0-9_ .-]{1,64}$/.test(name))
    problems.push(`${field}.name: must be a short name (letters, digits, space, _ . -)`);
  const description = raw['description'] ?? '';
  if (typeof description !== 'string' || description.length > 2000)
    problems.push(`${field}.description: must be text of at most 2000 characters`);
  const list = raw['rules'] ?? [];
  if (!Array.isArray(list) || list.length > MAX_RULES) {
    problems.push(`${field}.rules: must be a list of at most ${MAX_RULES} rules`);
    return EMPTY_PROFILE;
  }
  const rules = list.map((r, i) => checkRule(r, `${field}.rules[${i}]`, problems));
  return {
    name: typeof name === 'string' ? name : 'unnamed',
    description: typeof description === 'string' ? description : '',
    rules,
  };
}

/** A profile from a record, or a `FaultProfileError` listing every problem. */
export function parseFaultProfile(raw: unknown, source: string): FaultProfile {
  const problems: string[] = [];
  const profile = checkFaultProfile(raw, 'faults', problems);
  if (problems.length > 0) throw new FaultProfileError(source, problems);
  return profile;
}

/**
 * A checked profile back in the form a person writes it (durations with a unit, defaults spelled out):
 * `GET /_sim/faults` shows it so, `POST /_sim/faults` takes it as it is, and a snapshot keeps it so.
 * `parseFaultProfile` of it gives the profile again.
 */
export function faultProfileSource(profile: FaultProfile): Record<string, unknown> {
  return { name: profile.name, description: profile.description, rules: profile.rules.map(ruleSource) };
}

function ruleSource(rule: FaultRule): Record<string, unknown> {
  const ms = (value: number) => `${value}ms`;
  const out: Record<string, unknown> = { kind: rule.kind };
  const s = rule.scope;
  const scope: Record<string, unknown> = {};
  if (s.routes !== undefined) scope['routes'] = [...s.routes];
  if (s.agents !== undefined) scope['agents'] = [...s.agents];
  if (s.fromMs !== undefined) scope['from'] = ms(s.fromMs);
  if (s.untilMs !== undefined) scope['until'] = ms(s.untilMs);
  if (Object.keys(scope).length > 0) out['scope'] = scope;
  if (rule.kind !== 'outage') out['rate'] = rule.rate;
  if (rule.kind === 'latency') Object.assign(out, { median: ms(rule.medianMs), p99: ms(rule.p99Ms) });
  else if (rule.kind === 'error') out['statuses'] = [...rule.statuses];
  else if (rule.kind === 'hang') out['timeout'] = ms(rule.timeoutMs);
  else if (rule.kind === 'malformed') out['form'] = rule.form;
  else if (rule.kind === 'burst429')
    Object.assign(out, { length: ms(rule.lengthMs), retryAfter: ms(rule.retryAfterMs) });
  else if (rule.kind === 'stale') out['lag'] = ms(rule.lagMs);
  return out;
}

function checkRule(raw: unknown, field: string, problems: string[]): FaultRule {
  const fallback: FaultRule = { kind: 'reset', scope: {}, rate: 0 };
  if (!isRecord(raw)) {
    problems.push(`${field}: must be a mapping with kind, scope and rate`);
    return fallback;
  }
  const kind = raw['kind'];
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    problems.push(`${field}.kind: must be one of ${FAULT_KINDS.join(', ')}`);
    return fallback;
  }
  const k = kind as FaultKind;
  unknownFields(raw, ['kind', 'scope', 'rate', ...KIND_FIELDS[k]], field, problems);
  const scope = checkScope(raw['scope'], `${field}.scope`, problems);
  const rate = checkRate(raw['rate'], k, `${field}.rate`, problems);
  if (k === 'outage' && (scope.fromMs === undefined || scope.untilMs === undefined))
    problems.push(`${field}.scope: an outage needs a window (from and until)`);
  return { ...kindFields(k, raw, field, problems), scope, rate } as FaultRule;
}

function kindFields(
  kind: FaultKind,
  raw: Record<string, unknown>,
  field: string,
  problems: string[],
): Record<string, unknown> {
  const duration = (key: string, fallback: string) =>
    checkDuration(raw[key] ?? fallback, `${field}.${key}`, problems);
  switch (kind) {
    case 'latency': {
      const medianMs = duration('median', '100ms');
      const p99Ms = duration('p99', '1s');
      if (p99Ms < medianMs) problems.push(`${field}.p99: must be at least the median`);
      return { kind, medianMs, p99Ms };
    }
    case 'error':
      return { kind, statuses: checkStatuses(raw['statuses'], `${field}.statuses`, problems) };
    case 'hang':
      return { kind, timeoutMs: duration('timeout', '30s') };
    case 'malformed': {
      const form = raw['form'] ?? 'truncated';
      if (form !== 'truncated' && form !== 'garbage')
        problems.push(`${field}.form: must be truncated or garbage`);
      return { kind, form };
    }
    case 'burst429':
      return { kind, lengthMs: duration('length', '30s'), retryAfterMs: duration('retryAfter', '5s') };
    case 'stale':
      return { kind, lagMs: duration('lag', '3s') };
    default:
      return { kind };
  }
}

function checkScope(raw: unknown, field: string, problems: string[]): FaultScope {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    problems.push(`${field}: must be a mapping with routes, agents, from and until`);
    return {};
  }
  unknownFields(raw, SCOPE_FIELDS, field, problems);
  const scope: FaultScope = {};
  if (raw['routes'] !== undefined) {
    const routes = checkWords(raw['routes'], `${field}.routes`, problems);
    for (const r of routes)
      if (!(ROUTE_GROUPS as readonly string[]).includes(r))
        problems.push(`${field}.routes: ${r} is not a route group (expected ${ROUTE_GROUPS.join(', ')})`);
    scope.routes = routes as RouteGroup[];
  }
  if (raw['agents'] !== undefined) scope.agents = checkWords(raw['agents'], `${field}.agents`, problems);
  if (raw['from'] !== undefined) scope.fromMs = checkDuration(raw['from'], `${field}.from`, problems, true);
  if (raw['until'] !== undefined) scope.untilMs = checkDuration(raw['until'], `${field}.until`, problems);
  if (scope.fromMs !== undefined && scope.untilMs && scope.untilMs <= scope.fromMs)
    problems.push(`${field}.until: must be later than from`);
  return scope;
}

function checkRate(raw: unknown, kind: FaultKind, field: string, problems: string[]): number {
  if (raw === undefined) return 1;
  if (kind === 'outage') {
    if (raw !== 1) problems.push(`${field}: an outage takes every request in its window; leave rate out`);
    return 1;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || raw > 1) {
    problems.push(`${field}: must be a number from 0 to 1 (the chance per request)`);
    return 0;
  }
  return raw;
}

function checkStatuses(raw: unknown, field: string, problems: string[]): ErrorStatus[] {
  const list = raw === undefined ? [502] : raw;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((s) => (ERROR_STATUSES as readonly unknown[]).includes(s))
  ) {
    problems.push(`${field}: must be a non-empty list of ${ERROR_STATUSES.join(', ')}`);
    return [502];
  }
  return list as ErrorStatus[];
}

function checkWords(raw: unknown, field: string, problems: string[]): string[] {
  if (
    !Array.isArray(raw) ||
    raw.length === 0 ||
    raw.length > MAX_LIST ||
    !raw.every((w) => typeof w === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(w))
  ) {
    problems.push(`${field}: must be a list of 1 to ${MAX_LIST} names (letters, digits, _ . -)`);
    return [];
  }
  return raw as string[];
}

function checkDuration(raw: unknown, field: string, problems: string[], zeroAllowed = false): number {
  const ms = typeof raw === 'string' && /[a-z]\s*$/.test(raw.trim()) ? parseDurationMs(raw) : undefined;
  if (ms === undefined || ms < 0 || (ms === 0 && !zeroAllowed)) {
    problems.push(`${field}: must be a duration with a unit, such as 250ms, 5s, 10m or 2h`);
    return 0;
  }
  return ms;
}

function unknownFields(
  raw: Record<string, unknown>,
  known: readonly string[],
  field: string,
  problems: string[],
): void {
  for (const key of Object.keys(raw))
    if (!known.includes(key))
      problems.push(`${field}.${key}: unknown field (expected one of ${known.join(', ')})`);
}
