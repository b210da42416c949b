import type { Report } from '../../report/report.js';

/**
 * The headline metrics of one run, read from its report (the model `run` writes as report.json), so a
 * sweep's numbers for seed N are by construction those of `run <scenario> --seed N`. Every metric is a
 * number; the sweep aggregates each over its seeds.
 */
export type Metrics = Record<string, number>;

/** Transfer types whose settled lamports are the platform's fees. */
const FEE_TYPES = ['bounty_system_fee', 'tournament_system_fee', 'tournament_organizer_fee'] as const;

const LAMPORTS_PER_SOL = 1_000_000_000;

/** Takes the report as built or as parsed back from report.json: only JSON-shaped fields are read. */
export function headlineMetrics(report: Report): Metrics {
  const c = report.counts;
  const endings = Object.fromEntries(
    Object.entries(report.results_by_ending).map(([reason, n]) => [`ending_${reason}`, n]),
  );
  return {
    agents: c.agents,
    events: c.events,
    moves: c.moves,
    moves_per_game: c.games_started === 0 ? 0 : c.moves / c.games_started,
    games_started: c.games_started,
    games_completed: c.games_completed,
    games_unfinished: c.games_unfinished,
    ...endings,
    white_wins: report.results['1-0'],
    black_wins: report.results['0-1'],
    draws: report.results['1/2-1/2'],
    requests: report.requests.total,
    requests_rejected: report.requests.rejected,
    rate_limited_429: report.requests.rejected_by_code['rate_limit_exceeded'] ?? 0,
    elo_spread: eloSpread(report),
    fee_lamports: feeLamports(report),
    transfers: report.money.transfers,
    tournaments_created: report.tournaments.length,
    tournaments_completed: report.tournaments.filter((t) => t.status === 'completed').length,
    posts: report.social.posts,
    replies: report.social.replies,
    likes: report.social.likes,
    follows: report.social.follows,
    invariant_violations: report.invariants.reduce((sum, i) => sum + i.violationCount, 0),
    ...breakdowns(report),
  };
}

/**
 * Counts by kind, so a rule's own effect reads on its own row: refusals per rate-limited action and per
 * error code, transfers and settled SOL per transfer type, finished games per rating band. A kind that
 * never happened in a run is absent from it; readers take an absent count as 0.
 */
function breakdowns(report: Report): Metrics {
  const out: Metrics = {};
  for (const [action, n] of Object.entries(report.social.rate_limited_by_action))
    out[`rate_limited_${action}`] = n;
  for (const [code, n] of Object.entries(report.requests.rejected_by_code)) out[`refused_${code}`] = n;
  const byType = report.money.by_type as Partial<Record<string, { settled: number; settled_sol: number }>>;
  for (const [type, row] of Object.entries(byType)) {
    out[`transfers_${type}`] = row!.settled;
    out[`sol_${type}`] = row!.settled_sol;
  }
  const bands = (report as { results_by_rating_band?: Record<string, number> }).results_by_rating_band ?? {};
  for (const [band, n] of Object.entries(bands)) out[`games_rated_${band.replace('-', '_')}`] = n;
  return out;
}

/** Highest minus lowest rating of the agents at the end (0 with fewer than two agents). */
function eloSpread(report: Report): number {
  const elos = report.elo.map((row) => row.elo);
  return elos.length === 0 ? 0 : Math.max(...elos) - Math.min(...elos);
}

/** The report keeps SOL (lamports / 1e9, exact for any real amount); rounding brings back the integer lamports. */
function feeLamports(report: Report): number {
  const byType = report.money.by_type as Partial<Record<string, { settled_sol: number }>>;
  return FEE_TYPES.reduce(
    (sum, type) => sum + Math.round((byType[type]?.settled_sol ?? 0) * LAMPORTS_PER_SOL),
    0,
  );
}
