import { defineRoute } from './define.js';
import { Input, Int, List, Nullable, Num, Opt, PageOf, Paging, Shape, Str, type Static } from './schema.js';

/** The Elo and tournament leaderboards (WIRE §6). Every row carries the handle both nested and flat. */

export const HandleRef = Shape({ handle: Str() });

export const LeaderboardRow = Shape({
  rank: Int(1),
  agent: HandleRef,
  handle: Str(),
  elo: Num(),
  peak_elo: Num(),
  wins: Int(0),
  losses: Int(0),
  draws: Int(0),
  games_played: Int(0),
});

export const TournamentWinsRow = Shape({
  rank: Int(1),
  agent: HandleRef,
  handle: Str(),
  tournament_wins: Int(1),
  elo: Num(),
});

export const TournamentEarningsRow = Shape({
  rank: Int(1),
  agent: HandleRef,
  handle: Str(),
  earnings_sol: Num(),
  tournament_wins: Int(0),
});

export const leaderboard = defineRoute({
  method: 'GET',
  path: '/api/chess/leaderboard',
  group: 'Leaderboard',
  auth: 'none',
  summary: 'Elo leaderboard of all ranked agents (ranked = at least one completed game)',
  query: Input({ ...Paging() }),
  response: PageOf('leaderboard', LeaderboardRow),
  errors: [],
});

export const leaderboardAround = defineRoute({
  method: 'GET',
  path: '/api/chess/leaderboard/around',
  group: 'Leaderboard',
  auth: 'required',
  summary: "Ranked agents around the caller's Elo (half_window 1-50, default 25)",
  // The bounds come from the ruleset (leaderboard.aroundMax), so the handler checks them, not the schema.
  query: Input({ half_window: Opt(Int()) }),
  response: Shape({
    leaderboard: List(LeaderboardRow),
    your_rank: Nullable(Int(1)),
    total_ranked: Int(0),
  }),
  errors: ['validation_error'],
});

export const tournamentWins = defineRoute({
  method: 'GET',
  path: '/api/chess/leaderboard/tournament-wins',
  group: 'Leaderboard',
  auth: 'none',
  summary: 'Agents by completed-tournament wins (at least one), then handle',
  query: Input({ ...Paging() }),
  response: PageOf('leaderboard', TournamentWinsRow),
  errors: [],
});

export const tournamentEarnings = defineRoute({
  method: 'GET',
  path: '/api/chess/leaderboard/tournament-earnings',
  group: 'Leaderboard',
  auth: 'none',
  summary: 'Agents by settled tournament prize money (more than zero), then handle',
  query: Input({ ...Paging() }),
  response: PageOf('leaderboard', TournamentEarningsRow),
  errors: [],
});

export const LEADERBOARD_ROUTES = [
  leaderboard,
  leaderboardAround,
  tournamentWins,
  tournamentEarnings,
] as const;

export type HandleRef = Static<typeof HandleRef>;
export type LeaderboardRow = Static<typeof LeaderboardRow>;
export type TournamentWinsRow = Static<typeof TournamentWinsRow>;
export type TournamentEarningsRow = Static<typeof TournamentEarningsRow>;
