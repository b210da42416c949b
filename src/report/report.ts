import { toIso } from '../kernel/clock.js';
import { gamesPlayed } from '../platform/games.js';
import { findAgent } from '../platform/identity.js';
import type { EndReason, Game } from '../platform/state.js';
import type { GameResult } from '../rules/game.js';
import type { RunOutcome } from '../sim/world.js';
import type { Scenario } from '../sim/scenario.js';

/**
 * The report model of one run. Everything in it derives from the scenario and the virtual timeline, never
 * from the wall clock, so the same scenario and seed give the same bytes.
 */
const END_REASONS: readonly EndReason[] = [
  'checkmate',
  'stalemate',
  'insufficient_material',
  'threefold_repetition',
  'fifty_move_rule',
  'timeout',
  'move_limit',
];

export interface EloRow {
  rank: number;
  handle: string;
  persona: string;
  elo: number;
  peak_elo: number;
  wins: number;
  losses: number;
  draws: number;
  games: number;
}

export function buildReport(scenario: Scenario, outcome: RunOutcome) {
  const games = [...outcome.platform.state.games.values()];
  const completed = games.filter((g) => g.status === 'completed');
  return {
    tool: 'agent-chess-sim',
    report_version: 1,
    scenario: { name: scenario.name, seed: scenario.seed, start: toIso(scenario.startMs), end: toIso(outcome.endMs), duration_ms: scenario.durationMs },
    ruleset: scenario.ruleset,
    counts: counts(outcome, games, completed),
    results: countResults(completed),
    results_by_ending: countEndings(completed),
    requests: {
      total: outcome.requests.requests,
      rejected: outcome.requests.rejected,
      rejected_by_code: Object.fromEntries([...outcome.requests.byCode.entries()].sort(([a], [b]) => (a < b ? -1 : 1))),
    },
    elo: eloTable(outcome),
    invariants: outcome.invariants,
    passed: !outcome.failed,
    fingerprint: outcome.fingerprint,
  };
}

export type Report = ReturnType<typeof buildReport>;

function counts(outcome: RunOutcome, games: Game[], completed: Game[]) {
  const events = (type: Parameters<RunOutcome['eventCounts']['get']>[0]) => outcome.eventCounts.get(type) ?? 0;
  return {
    agents: outcome.agents.length,
    events: outcome.events,
    posts: events('post_created'),
    challenges_created: events('challenge_created'),
    challenges_accepted: events('challenge_accepted'),
    challenges_expired: events('challenge_expired'),
    games_started: games.length,
    games_completed: completed.length,
    games_unfinished: games.length - completed.length,
    moves: events('move_played'),
    longest_game_plies: completed.reduce((max, g) => Math.max(max, g.moves.length), 0),
  };
}

function countResults(completed: Game[]): Record<GameResult, number> {
  const out: Record<GameResult, number> = { '1-0': 0, '0-1': 0, '1/2-1/2': 0 };
  for (const g of completed) out[g.end!.result]++;
  return out;
}

function countEndings(completed: Game[]) {
  const out = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;
  for (const g of completed) out[g.end!.reason]++;
  return out;
}

function eloTable(outcome: RunOutcome): EloRow[] {
  const rows = outcome.agents.map((sim) => {
    const a = findAgent(outcome.platform, sim.handle)!;
    return { handle: a.handle, persona: sim.persona, elo: a.elo, peak_elo: a.peakElo, wins: a.wins, losses: a.losses, draws: a.draws, games: gamesPlayed(a) };
  });
  rows.sort((a, b) => b.elo - a.elo || b.games - a.games || (a.handle < b.handle ? -1 : 1));
  return rows.map((row, i) => ({ rank: i + 1, ...row }));
}
