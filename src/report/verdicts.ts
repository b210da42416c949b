import { matchElo } from '../rules/chess/match-elo.js';
import { poolRatings, type PoolGame } from '../rules/chess/pool-rating.js';
import type { GameResult } from '../rules/chess/game.js';
import type { EndReason, Game } from '../platform/state.js';
import type { RunOutcome, SimAgent } from '../sim/world.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { findAgent } from '../platform/identity/identity.js';
import { crashedLine } from './faults-section.js';
import { agentNames, playerName } from './agent-names.js';

/**
 * A verdict for each agent and each population group: how it scored, against whom, its performance against
 * the field as an Elo difference with a 95% interval (src/rules/chess/match-elo.ts, the project's one score
 * interval), its pool rating (every agent rated jointly from every finished game between agents,
 * src/rules/chess/pool-rating.ts), games lost on time, requests refused by code, and its busiest day
 * against the daily quota. A group's performance is against the field only: games between two of its
 * members say nothing about the group against the others (its totals still count them).
 * Only agent accounts get a verdict (humans play no chess). Games that did not finish count nowhere.
 *
 * `tallyVerdicts` is the arithmetic on plain records (the tests feed it hand-made games); `buildVerdicts`
 * reads those records from a run.
 */

/** Wins, draws and losses; `games` is their sum. */
export interface Tally {
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** Elo difference against the field and its 95% interval; null where it is undefined (no games, an open bound). */
export interface Performance {
  elo_diff: number | null;
  low: number | null;
  high: number | null;
}

/** A pool rating (Bradley–Terry–Davidson, weak prior) with its 95% interval, in Elo around the pool's centre. */
export interface PoolRating {
  elo: number;
  low: number;
  high: number;
}

export interface VsRow extends Tally {
  /** The opponent's persona, or its engine level (`sf-3`). */
  opponent: string;
  score: number | null;
}

export interface AgentVerdict extends Tally {
  handle: string;
  /** The agent's name everywhere (src/report/agent-names.ts): `sf-2` rather than `engine_0001`, the handle where names are shared. */
  name: string;
  persona: string;
  group: string;
  score: number | null;
  elo_start: number;
  elo_final: number;
  performance: Performance;
  /** null with no game against another agent. */
  pool: PoolRating | null;
  vs: VsRow[];
  timeouts: number;
  refused: Record<string, number>;
  requests_max_per_day: number;
  requests_limit: number;
  /** "crashed at <virtual time>, <error>" when the agent's own code threw (a module agent, or any agent under a fault profile: src/sim/world.ts); absent otherwise. */
  crashed?: string;
}

export interface GroupVerdict extends Tally {
  group: string;
  persona: string;
  agents: number;
  score: number | null;
  /** Games against agents of other groups only, and their score. */
  field: Tally & { score: number | null };
  /** Of `field`: the group against the others. */
  performance: Performance;
  vs: VsRow[];
}

export interface Verdicts {
  agents: AgentVerdict[];
  groups: GroupVerdict[];
}

/** One agent account, as the verdict arithmetic needs it. */
export interface VerdictPlayer {
  id: string;
  handle: string;
  persona: string;
  group: string;
  /** How opponents name this player in their `vs` rows: its player name (src/report/agent-names.ts). */
  opponentName: string;
  /** How tables name the agent itself (src/report/agent-names.ts); its handle when left out. */
  name?: string;
  eloStart: number;
  eloFinal: number;
  refused: ReadonlyMap<string, number>;
  requestsMaxPerDay: number;
}

/** A finished game, as the verdict arithmetic needs it. */
export interface VerdictGame {
  whiteId: string;
  blackId: string;
  result: GameResult;
  reason: EndReason;
}

/** Elo is shown to a tenth, a score to four decimals: enough to read, and no float noise in the report. */
const ELO_DECIMALS = 1;
const SCORE_DECIMALS = 4;

export function buildVerdicts(scenario: Scenario, outcome: RunOutcome): Verdicts {
  const agents = outcome.agents.filter((sim) => sim.account === 'agent');
  const names = agentNames(agents);
  const players = agents.map((sim) => ({
    ...verdictPlayer(sim, outcome, scenario.ruleset.elo.initial),
    name: names.get(sim.handle)!,
  }));
  const games: VerdictGame[] = [];
  for (const g of outcome.platform.state.games.values())
    if (g.status === 'completed') games.push(finishedGame(g));
  const verdicts = tallyVerdicts(players, games, scenario.ruleset.api.requestsPerDay);
  for (const verdict of verdicts.agents) {
    const crashed = crashedLine(outcome, verdict.handle);
    if (crashed !== null) verdict.crashed = crashed;
  }
  return verdicts;
}

function verdictPlayer(sim: SimAgent, outcome: RunOutcome, eloStart: number): VerdictPlayer {
  const agent = findAgent(outcome.platform, sim.handle)!;
  const requests = outcome.requests.byAgent.get(sim.handle);
  return {
    id: agent.id,
    handle: sim.handle,
    persona: sim.persona,
    group: outcome.agentGroups[sim.index] ?? '?',
    opponentName: opponentName(sim),
    eloStart,
    eloFinal: agent.elo,
    refused: requests?.byCode ?? new Map(),
    requestsMaxPerDay: requests?.maxPerDay ?? 0,
  };
}

/**
 * The kind of opponent, by the one naming rule (src/report/agent-names.ts): an engine by its level
 * (`sf-3`; its persona alone would lump every strength together), a UCI engine by its binary.
 */
export function opponentName(sim: SimAgent): string {
  return playerName(sim.persona, sim.impl);
}

function finishedGame(g: Game): VerdictGame {
  return { whiteId: g.whiteId, blackId: g.blackId, result: g.end!.result, reason: g.end!.reason };
}

export function tallyVerdicts(
  players: readonly VerdictPlayer[],
  games: readonly VerdictGame[],
  requestsLimit: number,
): Verdicts {
  const byId = new Map(players.map((p) => [p.id, p]));
  const tallies = new Map(
    players.map((p) => [
      p.id,
      { total: emptyTally(), field: emptyTally(), vs: new Map<string, Tally>(), timeouts: 0 },
    ]),
  );
  for (const game of games) {
    for (const side of ['white', 'black'] as const) {
      const [selfId, otherId] =
        side === 'white' ? [game.whiteId, game.blackId] : [game.blackId, game.whiteId];
      const own = tallies.get(selfId);
      const other = byId.get(otherId);
      if (!own || !other) continue;
      const outcome = outcomeFor(game.result, side);
      add(own.total, outcome);
      if (other.group !== byId.get(selfId)!.group) add(own.field, outcome);
      add(getOrAdd(own.vs, other.opponentName), outcome);
      if (outcome === 'loss' && game.reason === 'timeout') own.timeouts++;
    }
  }
  const pool = poolOf(players, games, byId);
  const agents = players.map((p): AgentVerdict => {
    const t = tallies.get(p.id)!;
    return {
      handle: p.handle,
      name: p.name ?? p.handle,
      persona: p.persona,
      group: p.group,
      ...withScore(t.total),
      elo_start: p.eloStart,
      elo_final: p.eloFinal,
      performance: performanceOf(t.total),
      pool: t.total.games > 0 ? (pool.get(p.id) ?? null) : null,
      vs: vsRows(t.vs),
      timeouts: t.timeouts,
      refused: sortedRecord(p.refused),
      requests_max_per_day: p.requestsMaxPerDay,
      requests_limit: requestsLimit,
    };
  });
  agents.sort((a, b) => byText(a.handle, b.handle));
  return { agents, groups: groupVerdicts(players, tallies) };
}

/** Every agent rated jointly over the finished games between agents, in the players' order. */
function poolOf(
  players: readonly VerdictPlayer[],
  games: readonly VerdictGame[],
  byId: ReadonlyMap<string, VerdictPlayer>,
): Map<string, PoolRating> {
  const scores = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 } as const;
  const rated: PoolGame[] = games
    .filter((g) => byId.has(g.whiteId) && byId.has(g.blackId))
    .map((g) => ({ white: g.whiteId, black: g.blackId, score: scores[g.result] }));
  const fit = poolRatings(
    players.map((p) => p.id),
    rated,
  );
  const out = new Map<string, PoolRating>();
  for (const [id, r] of fit.ratings)
    out.set(id, {
      elo: round(r.rating, ELO_DECIMALS),
      low: round(r.low, ELO_DECIMALS),
      high: round(r.high, ELO_DECIMALS),
    });
  return out;
}

function groupVerdicts(
  players: readonly VerdictPlayer[],
  tallies: Map<string, { total: Tally; field: Tally; vs: Map<string, Tally> }>,
): GroupVerdict[] {
  const groups = new Map<
    string,
    { persona: string; agents: number; total: Tally; field: Tally; vs: Map<string, Tally> }
  >();
  for (const p of players) {
    const group = groups.get(p.group) ?? {
      persona: p.persona,
      agents: 0,
      total: emptyTally(),
      field: emptyTally(),
      vs: new Map<string, Tally>(),
    };
    groups.set(p.group, group);
    const own = tallies.get(p.id)!;
    group.agents++;
    merge(group.total, own.total);
    merge(group.field, own.field);
    for (const [opponent, tally] of own.vs) merge(getOrAdd(group.vs, opponent), tally);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => byText(a, b))
    .map(([label, g]) => ({
      group: label,
      persona: g.persona,
      agents: g.agents,
      ...withScore(g.total),
      field: withScore(g.field),
      performance: performanceOf(g.field),
      vs: vsRows(g.vs),
    }));
}

type GameOutcome = 'win' | 'draw' | 'loss';

function outcomeFor(result: GameResult, side: 'white' | 'black'): GameOutcome {
  if (result === '1/2-1/2') return 'draw';
  return (result === '1-0') === (side === 'white') ? 'win' : 'loss';
}

function emptyTally(): Tally {
  return { games: 0, wins: 0, draws: 0, losses: 0 };
}

function add(t: Tally, outcome: GameOutcome): void {
  t.games++;
  if (outcome === 'win') t.wins++;
  else if (outcome === 'draw') t.draws++;
  else t.losses++;
}

function merge(into: Tally, from: Tally): void {
  into.games += from.games;
  into.wins += from.wins;
  into.draws += from.draws;
  into.losses += from.losses;
}

function getOrAdd(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key);
  if (!t) map.set(key, (t = emptyTally()));
  return t;
}

/** (W + D/2) / games, or null before the first game. */
export function scoreOf(t: Tally): number | null {
  return t.games === 0 ? null : round((t.wins + t.draws / 2) / t.games, SCORE_DECIMALS);
}

function withScore(t: Tally): Tally & { score: number | null } {
  return { games: t.games, wins: t.wins, draws: t.draws, losses: t.losses, score: scoreOf(t) };
}

/**
 * The Elo of the tally against everyone it met, from the project's one score interval
 * (src/rules/chess/match-elo.ts): always finite with games; null only without any.
 */
export function performanceOf(t: Tally): Performance {
  if (t.games === 0) return { elo_diff: null, low: null, high: null };
  const m = matchElo(t);
  return { elo_diff: finiteOrNull(m.estimate), low: finiteOrNull(m.low), high: finiteOrNull(m.high) };
}

function vsRows(vs: Map<string, Tally>): VsRow[] {
  return [...vs.entries()]
    .sort(([a], [b]) => byText(a, b))
    .map(([opponent, t]) => ({ opponent, ...withScore(t) }));
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? round(x, ELO_DECIMALS) : null;
}

function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  // + 0 turns -0 into 0, so canonical JSON never writes "-0".
  return Math.round(x * f) / f + 0;
}

function sortedRecord(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => byText(a, b)));
}

/** Code-point order: the same on every machine and locale. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
