/**
 * Pool ratings (ISSUE 26): every player of a run rated jointly from all its games, as pool raters
 * (BayesElo, Ordo) do, so a player's figure reflects whom it played and not only how much it scored.
 *
 * Model (Bradley–Terry with Davidson's draws): for ratings r_i, r_j in Elo and δ = (r_i - r_j)·ln(10)/400,
 *   P(i wins) ∝ e^(δ/2),  P(draw) ∝ ν,  P(j wins) ∝ e^(-δ/2),
 * ν ≥ 0 the draw parameter, fitted with the ratings. The estimate is the maximum of the posterior with
 * two weak priors (docs/rules.md):
 * - each rating is N(0, PRIOR_SD_ELO²): with two drawn games against an equal opponent (BayesElo's default
 *   prior) a rating gets about the same curvature, so 2 wins in 2 give a finite estimate and a wide interval;
 * - ν gets two virtual games between equals, one of them drawn (alone, they make ν = 2), so a run without a
 *   single draw, or of draws only, still has a finite ν.
 * The 95% interval of a rating is estimate ± 1.96/√(information), the information being the curvature of
 * the log-posterior in that rating with every other rating held at its estimate (the conditional, not the
 * marginal, interval: it reads as "against this field").
 *
 * Fitting is cyclic coordinate Newton, players in the order given, then ν, sweep after sweep until no
 * step exceeds TOLERANCE (or MAX_SWEEPS): each coordinate's log-posterior is concave, and steps are capped, so
 * it climbs; the same games in the same order give the same bits.
 */

export interface PoolGame {
  white: string;
  black: string;
  /** White's score: 1, 0.5 or 0. */
  score: 1 | 0.5 | 0;
}

export interface PoolEntry {
  /** Elo on the pool's scale (0 = the prior's centre, about the pool's average). */
  rating: number;
  low: number;
  high: number;
  games: number;
}

export interface PoolRatings {
  ratings: Map<string, PoolEntry>;
  /** Davidson's draw parameter ν (a draw between equals has probability ν / (2 + ν)). */
  drawParameter: number;
  sweeps: number;
}

/** The prior's standard deviation of a rating, in Elo (about two virtual draws' worth of information). */
export const PRIOR_SD_ELO = 300;
const C = Math.LN10 / 400;
const Z95 = 1.96;
const MAX_SWEEPS = 5000;
/** In natural units: 1e-7 is under a millionth of an Elo point, far below the tenth a report shows. */
const TOLERANCE = 1e-7;
/** The largest step one Newton update may take, in natural units (about 174 Elo). */
const MAX_STEP = 1;

interface Pairing {
  other: number;
  /** Counts from this player's side. */
  wins: number;
  draws: number;
  losses: number;
}

/** Rates `players` (every id that appears in a game must be among them) from `games`. */
export function poolRatings(players: readonly string[], games: readonly PoolGame[]): PoolRatings {
  const index = new Map(players.map((id, i) => [id, i]));
  if (index.size !== players.length) throw new RangeError('pool ratings need distinct player ids');
  const pairings = groupGames(players.length, games, index);
  const theta = new Float64Array(players.length);
  const prior = 1 / (PRIOR_SD_ELO * C) ** 2;
  let eta = Math.log(2);
  let sweeps = 0;
  for (; sweeps < MAX_SWEEPS; sweeps++) {
    let largest = 0;
    for (let i = 0; i < players.length; i++) {
      const { gradient, curvature } = ratingDerivatives(theta, i, pairings[i]!, Math.exp(eta), prior);
      const step = clamp(-gradient / curvature);
      theta[i] = theta[i]! + step;
      largest = Math.max(largest, Math.abs(step));
    }
    const { gradient, curvature } = drawDerivatives(theta, pairings, eta);
    const step = clamp(-gradient / curvature);
    eta += step;
    largest = Math.max(largest, Math.abs(step));
    if (largest < TOLERANCE) break;
  }
  const nu = Math.exp(eta);
  const ratings = new Map<string, PoolEntry>();
  players.forEach((id, i) => {
    const { curvature } = ratingDerivatives(theta, i, pairings[i]!, nu, prior);
    const margin = Z95 / Math.sqrt(-curvature) / C;
    const rating = theta[i]! / C;
    const played = pairings[i]!.reduce((sum, p) => sum + p.wins + p.draws + p.losses, 0);
    ratings.set(id, { rating, low: rating - margin, high: rating + margin, games: played });
  });
  return { ratings, drawParameter: nu, sweeps };
}

function groupGames(n: number, games: readonly PoolGame[], index: Map<string, number>): Pairing[][] {
  const byPair: Array<Map<number, Pairing>> = Array.from({ length: n }, () => new Map<number, Pairing>());
  const side = (self: number, other: number): Pairing => {
    let p = byPair[self]!.get(other);
    if (!p) byPair[self]!.set(other, (p = { other, wins: 0, draws: 0, losses: 0 }));
    return p;
  };
  for (const g of games) {
    const w = index.get(g.white);
    const b = index.get(g.black);
    if (w === undefined || b === undefined) throw new RangeError(`a game names an unknown player`);
    if (w === b) throw new RangeError('a player cannot play itself');
    const [white, black] = [side(w, b), side(b, w)];
    if (g.score === 0.5) {
      white.draws++;
      black.draws++;
    } else {
      const [winner, loser] = g.score === 1 ? [white, black] : [black, white];
      winner.wins++;
      loser.losses++;
    }
  }
  // Opponents in index order: the sums run in one order whatever order the games came in.
  return byPair.map((m) => [...m.values()].sort((a, b) => a.other - b.other));
}

/** d/dθ_i and d²/dθ_i² of the log-posterior. */
function ratingDerivatives(
  theta: Float64Array,
  i: number,
  pairings: readonly Pairing[],
  nu: number,
  prior: number,
): { gradient: number; curvature: number } {
  let gradient = -prior * theta[i]!;
  let curvature = -prior;
  for (const p of pairings) {
    const e = Math.exp((theta[i]! - theta[p.other]!) / 2); // cosh and sinh of δ/2 from one exp
    const cosh = (e + 1 / e) / 2;
    const sinh = (e - 1 / e) / 2;
    const denominator = 2 * cosh + nu;
    const games = p.wins + p.draws + p.losses;
    // Each game: (score - 1/2) - sinh(δ/2) / (2cosh(δ/2) + ν); curvature -(1 + ν·cosh/2) / (2cosh + ν)².
    gradient += (p.wins - p.losses) / 2 - (games * sinh) / denominator;
    curvature -= (games * (1 + (nu * cosh) / 2)) / denominator ** 2;
  }
  return { gradient, curvature };
}

/** d/dη and d²/dη² of the log-posterior in η = ln ν, each game counted once (from its white side). */
function drawDerivatives(
  theta: Float64Array,
  pairings: readonly Pairing[][],
  eta: number,
): { gradient: number; curvature: number } {
  const nu = Math.exp(eta);
  // The prior: two virtual games between equals, one drawn.
  let gradient = 1 - (2 * nu) / (2 + nu);
  let curvature = (-2 * nu * 2) / (2 + nu) ** 2;
  pairings.forEach((list, i) => {
    for (const p of list) {
      if (p.other < i) continue; // the other side of the same games
      const e = Math.exp((theta[i]! - theta[p.other]!) / 2);
      const twoCosh = e + 1 / e;
      const games = p.wins + p.draws + p.losses;
      gradient += p.draws - (games * nu) / (twoCosh + nu);
      curvature -= (games * nu * twoCosh) / (twoCosh + nu) ** 2;
    }
  });
  return { gradient, curvature };
}

function clamp(step: number): number {
  return Math.max(-MAX_STEP, Math.min(MAX_STEP, step));
}
