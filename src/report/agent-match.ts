import { matchElo } from '../rules/chess/match-elo.js';
import { eloIntervalText, losPercent } from './match-lines.js';
import type { Tally } from './verdicts.js';

/**
 * `run --agent`'s match as report.json keeps it (`match`), summary.md opens with it and report.html shows
 * it first: the agent under test against each opponent and overall, with the same figures as its score
 * lines (src/report/match-lines.ts): the score, W/D/L, the Elo estimate with its 95% interval (the project's
 * one score interval, src/rules/chess/match-elo.ts), cutechess's per-game LOS and the draw ratio.
 * Opponents are named by the one rule of src/report/agent-names.ts.
 */
export interface MatchRow extends Tally {
  opponent: string;
  /** (W + D/2) / games; null without games. */
  score: number | null;
  /** Elo difference: the estimate and its 95% interval; null without games. */
  elo: { estimate: number; low: number; high: number } | null;
  /** Likelihood of superiority in percent, from the decisive games (cutechess's per-game figure); null without any. */
  los_percent: number | null;
  /** Draws / games in percent; null without games. */
  draw_ratio_percent: number | null;
}

export interface AgentMatch {
  player: string;
  games_asked: number;
  games_played: number;
  /** Per opponent, by name. */
  opponents: MatchRow[];
  overall: MatchRow;
  /** How the figures are computed, for a reader of report.json. */
  method: string;
}

const METHOD =
  'Elo: estimate and 95% interval from the score with two virtual draws (Wilson), as the verdict tables; LOS: per game, as cutechess (0.5 (1 + erf((W - L) / sqrt(2 (W + L))))); games are not colour-swapped pairs';

export function buildAgentMatch(
  player: string,
  gamesAsked: number,
  byOpponent: ReadonlyMap<string, Tally>,
): AgentMatch {
  const total: Tally = { games: 0, wins: 0, draws: 0, losses: 0 };
  const opponents = [...byOpponent.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([opponent, t]) => {
      total.games += t.games;
      total.wins += t.wins;
      total.draws += t.draws;
      total.losses += t.losses;
      return matchRow(opponent, t);
    });
  return {
    player,
    games_asked: gamesAsked,
    games_played: total.games,
    opponents,
    overall: matchRow('all', total),
    method: METHOD,
  };
}

function matchRow(opponent: string, t: Tally): MatchRow {
  const base = { opponent, games: t.games, wins: t.wins, draws: t.draws, losses: t.losses };
  if (t.games === 0) return { ...base, score: null, elo: null, los_percent: null, draw_ratio_percent: null };
  const m = matchElo(t);
  const los = losPercent(t);
  return {
    ...base,
    score: round(m.score, 4),
    elo: { estimate: round(m.estimate, 1), low: round(m.low, 1), high: round(m.high, 1) },
    los_percent: los === null ? null : round(los, 1),
    draw_ratio_percent: round((100 * t.draws) / t.games, 1),
  };
}

/** The rows to show: each opponent, then `all` when there is more than one. */
export function matchRows(m: AgentMatch): MatchRow[] {
  return m.opponents.length > 1 ? [...m.opponents, m.overall] : m.opponents;
}

/** One row's cells: opponent, games, W/D/L, score, Elo [95%], LOS, draws. */
export function matchCells(r: MatchRow): string[] {
  return [
    r.opponent,
    String(r.games),
    `${r.wins} / ${r.draws} / ${r.losses}`,
    r.score === null ? '-' : `${(100 * r.score).toFixed(1)} %`,
    r.elo === null ? '-' : eloIntervalText(r.elo.estimate, r.elo.low, r.elo.high),
    r.los_percent === null ? 'n/a' : `${r.los_percent.toFixed(1)} %`,
    r.draw_ratio_percent === null ? '-' : `${r.draw_ratio_percent.toFixed(1)} %`,
  ];
}

export const MATCH_HEADER = [
  'opponent',
  'games',
  'W / D / L',
  'score',
  'Elo [95%]',
  'LOS (per game)',
  'draws',
];

/** The headline: `my_agent played 20 of 20 games: 12 / 3 / 5, score 67.5 %`. */
export function matchHeadline(m: AgentMatch): string {
  const o = m.overall;
  const score = o.score === null ? '' : `, score ${(100 * o.score).toFixed(1)} %`;
  const short = m.games_played < m.games_asked ? ' (the virtual time allowed ran out)' : '';
  return `${m.player} played ${m.games_played} of the ${m.games_asked} games asked for${short}: W / D / L ${o.wins} / ${o.draws} / ${o.losses}${score}`;
}

function round(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f + 0;
}
