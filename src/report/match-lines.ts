import { likelihoodOfSuperiority, matchElo } from '../rules/chess/match-elo.js';

export { erf } from '../rules/chess/match-elo.js';
import type { Tally } from './verdicts.js';

/**
 * Score lines in the form engine testers know from cutechess-cli, for `run --agent`:
 *
 *   Score of my_agent vs sf-3: 3 - 5 - 2 [0.400] 10
 *   Elo difference: -59.7 [-231.5, +105.6] (95%), LOS (per game, as cutechess): 24.0 %, DrawRatio: 20.0 %
 *
 * The score line is wins - losses - draws, the score (W + D/2)/N and the games. The Elo line is the one
 * score interval of the project (src/rules/chess/match-elo.ts: two virtual draws, Wilson's interval), the
 * same figures as the verdict tables; the interval is written out, never as "+/-" half its width: it is
 * asymmetric, and a half-width read as symmetric can seem to include 0 when the interval does not.
 * LOS (likelihood of superiority) is cutechess's per-game one: 0.5·(1 + erf((W - L) / sqrt(2(W + L))));
 * with no decisive game it is undefined (n/a). These games are not colour-swapped pairs, so there is no
 * pair-based figure here (`compare --agent` prints that).
 */
export function scoreLine(player: string, opponent: string, t: Tally): string {
  const score = t.games === 0 ? 0 : (t.wins + t.draws / 2) / t.games;
  return `Score of ${player} vs ${opponent}: ${t.wins} - ${t.losses} - ${t.draws} [${score.toFixed(3)}] ${t.games}`;
}

export function eloLine(t: Tally): string {
  if (t.games === 0) return 'Elo difference: n/a (no games)';
  const m = matchElo(t);
  const los = losPercent(t);
  const tail = `LOS (per game, as cutechess): ${los === null ? 'n/a' : `${los.toFixed(1)} %`}, DrawRatio: ${((100 * t.draws) / t.games).toFixed(1)} %`;
  return `Elo difference: ${eloIntervalText(m.estimate, m.low, m.high)}, ${tail}`;
}

/** `-59.7 [-231.5, +105.6] (95%)`: the estimate and its interval, to a tenth. */
export function eloIntervalText(estimate: number, low: number, high: number): string {
  return `${signedTenth(estimate)} [${signedTenth(low)}, ${signedTenth(high)}] (95%)`;
}

function signedTenth(x: number): string {
  const text = x.toFixed(1);
  return x > 0 && text !== '0.0' ? `+${text}` : text === '-0.0' ? '0.0' : text;
}

/** The chance, in percent, that the player is the stronger, from its decisive games; null without any. */
export function losPercent(t: Pick<Tally, 'wins' | 'losses'>): number | null {
  const decisive = t.wins + t.losses;
  if (decisive === 0) return null;
  return 100 * likelihoodOfSuperiority(t.wins, t.losses);
}
