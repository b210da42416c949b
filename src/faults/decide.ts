import { CONTRACTS } from '../api/contract/index.js';
import { isControlRoute, type RouteContract } from '../api/contract/define.js';
import { bySpecificity, matchSegments, pathSegments, wirePath } from '../api/contract/paths.js';
import { Rng, type AleaState } from '../kernel/rng.js';
import { burstAnswer, errorAnswer, outageAnswer, type FaultAnswer } from './bodies.js';
import type { FaultKind, FaultProfile, FaultRule, RouteGroup } from './profile.js';

/**
 * Which fault, if any, one request meets: pure decision logic, apart from the transports that act on it
 * (src/faults/transport.ts in process, src/http/faults.ts over HTTP). Draws come from the stream
 * `faults/agent:<handle>` of the run's seed, one stream per agent, so the same seed and the same requests
 * give the same faults, and one agent's requests never shift another's faults. No existing stream is
 * touched: a run without a profile draws exactly what it drew before.
 */
export interface FaultRequest {
  /** The caller's handle (`anonymous` when the server cannot tell). */
  agent: string;
  method: string;
  path: string;
  /** Virtual time now (ms since the epoch) and the run's start: windows are measured from the start. */
  nowMs: number;
}

export type FaultOutcome =
  | { kind: 'pass' }
  /** An answer that never reached the application (error, outage, 429 burst). */
  | { kind: 'answer'; fault: 'error' | 'outage' | 'burst429'; answer: FaultAnswer }
  /** Not applied; the connection is reset before an answer. */
  | { kind: 'reset' }
  /** Not applied; no answer until the client gives up after `timeoutMs`. */
  | { kind: 'hang'; timeoutMs: number }
  /** Applied; the answer never arrives. */
  | { kind: 'lost' }
  /** Applied; the answer's JSON arrives broken. */
  | { kind: 'malformed'; form: 'truncated' | 'garbage' }
  /** A read answered from a replica up to `lagMs` behind. */
  | { kind: 'stale'; lagMs: number };

export interface FaultDecision {
  /** Virtual time the request spends in flight before its outcome (latency rules). */
  delayMs: number;
  outcome: FaultOutcome;
  /** The longest lag of the stale rules covering this read (0: none): its fresh answer is kept that long for a later stale read. */
  keepForStaleMs: number;
}

/** Besides the profile, all that decides the faults still to come: each agent's stream where it stands, and the 429 bursts running. */
export interface InjectorState {
  streams: Record<string, AleaState>;
  /** A burst of rule `rule` (its index in the profile) refusing `agent`'s requests until `untilMs` (virtual). */
  bursts: Array<{ rule: number; agent: string; untilMs: number }>;
}

const PASS: FaultOutcome = { kind: 'pass' };
/** Standard normal quantile at 0.99: a log-normal's p99 is median * exp(2.326 sigma). */
const Z99 = 2.326;

export class FaultInjector {
  #profile: FaultProfile;
  readonly #seed: string;
  readonly #startMs: number;
  readonly #streams = new Map<string, Rng>();
  /** When each (rule, agent) 429 burst ends. */
  readonly #burstUntil = new Map<string, number>();

  constructor(profile: FaultProfile, seed: string, startMs: number) {
    this.#profile = profile;
    this.#seed = seed;
    this.#startMs = startMs;
  }

  get profile(): FaultProfile {
    return this.#profile;
  }

  /** True when no rule can fire: the transports then pass requests straight through. */
  get empty(): boolean {
    return this.#profile.rules.length === 0;
  }

  /** A new profile from now on (`PUT /_sim/faults`); streams continue, bursts are forgotten. */
  replace(profile: FaultProfile): void {
    this.#profile = profile;
    this.#burstUntil.clear();
  }

  /** The state a snapshot keeps, in a stable order (agents and bursts sorted). */
  state(): InjectorState {
    const streams: Record<string, AleaState> = {};
    for (const agent of [...this.#streams.keys()].sort()) streams[agent] = this.#streams.get(agent)!.state();
    const bursts = [...this.#burstUntil]
      .map(([key, untilMs]) => {
        const [rule, agent] = key.split('\u0000');
        return { rule: Number(rule), agent: agent!, untilMs };
      })
      .sort((a, b) => a.rule - b.rule || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
    return { streams, bursts };
  }

  /** Continues from a state taken with `state()` (a restore): the same requests then meet the same faults. */
  resume(state: InjectorState): void {
    this.#streams.clear();
    for (const [agent, at] of Object.entries(state.streams))
      this.#streams.set(agent, Rng.resume(this.#seed, streamPath(agent), at));
    this.#burstUntil.clear();
    for (const b of state.bursts) this.#burstUntil.set(`${b.rule}\u0000${b.agent}`, b.untilMs);
  }

  /** The fault this request meets, or undefined when the profile has no rule that applies to it. */
  decide(request: FaultRequest): FaultDecision | undefined {
    const rules = this.#profile.rules;
    if (rules.length === 0) return undefined;
    const groups = routeGroupsOf(request.method, request.path);
    if (groups === undefined) return undefined;
    const relMs = request.nowMs - this.#startMs;
    let delayMs = 0;
    let keepForStaleMs = 0;
    let applies = false;
    for (const [i, rule] of rules.entries()) {
      if (!inScope(rule, request.agent, groups, relMs)) continue;
      applies = true;
      if (rule.kind === 'stale' && request.method === 'GET')
        keepForStaleMs = Math.max(keepForStaleMs, rule.lagMs);
      const outcome = this.#fire(i, rule, request, relMs);
      if (outcome === undefined) continue;
      if (typeof outcome === 'number') delayMs += outcome;
      else return { delayMs, outcome, keepForStaleMs };
    }
    return applies ? { delayMs, outcome: PASS, keepForStaleMs } : undefined;
  }

  /** A rule's effect on this request: a delay (latency), an outcome, or undefined when it does not fire. */
  #fire(
    index: number,
    rule: FaultRule,
    request: FaultRequest,
    relMs: number,
  ): FaultOutcome | number | undefined {
    if (rule.kind === 'outage')
      return {
        kind: 'answer',
        fault: 'outage',
        answer: outageAnswer(secondsUntil(rule.scope.untilMs! - relMs)),
      };
    if (rule.kind === 'burst429') return this.#burst(index, rule, request);
    if (rule.kind === 'stale' && request.method !== 'GET') return undefined;
    const rng = this.#stream(request.agent);
    if (!rng.chance(rule.rate)) return undefined;
    switch (rule.kind) {
      case 'latency':
        return logNormalMs(rng, rule.medianMs, rule.p99Ms);
      case 'error':
        return { kind: 'answer', fault: 'error', answer: errorAnswer(rng.pick(rule.statuses)) };
      case 'hang':
        return { kind: 'hang', timeoutMs: rule.timeoutMs };
      case 'malformed':
        return { kind: 'malformed', form: rule.form };
      case 'stale':
        return { kind: 'stale', lagMs: rule.lagMs };
      default:
        return { kind: rule.kind };
    }
  }

  /** Inside a burst every request in scope is refused; outside, each may start one. */
  #burst(
    index: number,
    rule: Extract<FaultRule, { kind: 'burst429' }>,
    request: FaultRequest,
  ): FaultOutcome | undefined {
    const key = `${index}\u0000${request.agent}`;
    const until = this.#burstUntil.get(key);
    if (until === undefined || until <= request.nowMs) {
      if (!this.#stream(request.agent).chance(rule.rate)) return undefined;
      this.#burstUntil.set(key, request.nowMs + rule.lengthMs);
    }
    return { kind: 'answer', fault: 'burst429', answer: burstAnswer(secondsUntil(rule.retryAfterMs)) };
  }

  #stream(agent: string): Rng {
    let rng = this.#streams.get(agent);
    if (rng === undefined) {
      rng = new Rng(this.#seed, streamPath(agent));
      this.#streams.set(agent, rng);
    }
    return rng;
  }
}

/** The path of an agent's stream: `new Rng(seed).fork('faults').fork('agent:<handle>')`, named so a restore can resume it. */
function streamPath(agent: string): string {
  return `root/faults/agent:${agent}`;
}

/** The kind a decision's outcome is tallied under (a pass with a delay counts as latency). */
export function outcomeKind(decision: FaultDecision): FaultKind | undefined {
  const o = decision.outcome;
  if (o.kind === 'answer') return o.fault;
  if (o.kind === 'pass') return decision.delayMs > 0 ? 'latency' : undefined;
  return o.kind;
}

function inScope(rule: FaultRule, agent: string, groups: readonly RouteGroup[], relMs: number): boolean {
  const s = rule.scope;
  if (s.fromMs !== undefined && relMs < s.fromMs) return false;
  if (s.untilMs !== undefined && relMs >= s.untilMs) return false;
  if (s.agents !== undefined && !s.agents.includes(agent)) return false;
  return s.routes === undefined || s.routes.some((r) => groups.includes(r));
}

function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** A log-normal draw with the given median and 99th percentile, in whole milliseconds (Box-Muller). */
function logNormalMs(rng: Rng, medianMs: number, p99Ms: number): number {
  const sigma = medianMs > 0 ? Math.log(p99Ms / medianMs) / Z99 : 0;
  const u1 = 1 - rng.float();
  const u2 = rng.float();
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  return Math.round(medianMs * Math.exp(sigma * z));
}

interface CompiledRoute {
  method: string;
  segments: string[];
  groups: RouteGroup[];
}

/** The platform's routes (never the simulator's own controls), most specific first. */
const ROUTES: CompiledRoute[] = bySpecificity(
  CONTRACTS.filter((c) => !isControlRoute(c)).map((c) => ({
    method: c.method,
    segments: pathSegments(c.path),
    groups: groupsOf(c),
  })),
);

function groupsOf(contract: RouteContract): RouteGroup[] {
  const group = (contract.group === 'Human Profiles' ? 'humans' : contract.group.toLowerCase()) as RouteGroup;
  if (contract.path === '/api/chess/move') return [group, 'move'];
  if (contract.path === '/api/chess/games/my-turn') return [group, 'my-turn'];
  return [group];
}

/** The route groups of a request, or undefined for a path the platform does not serve (a control route, a typo). */
export function routeGroupsOf(method: string, rawPath: string): readonly RouteGroup[] | undefined {
  const segments = pathSegments(wirePath(rawPath).path);
  const upper = method.toUpperCase();
  for (const route of ROUTES)
    if (route.method === upper && matchSegments(route.segments, segments)) return route.groups;
  return undefined;
}
