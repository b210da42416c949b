import { likelihoodOfSuperiority, matchElo } from '../rules/chess/match-elo.js';

export { erf } from '../rules/chess/match-elo.js';
import type { Tally } from './verdicts.js';

/**
 * Score lines in the form engine testers know from cutechess-cli, for `run --agent`:
 *
 *   Score of my_agent vs sf-3: 3 - 5 - 2 [0.400] 10
 *   Elo difference: -70.4 +/- 150.3, LOS: 18.2 %, DrawRatio: 20.0 %
 *
 * The score line is wins - losses - draws, the score (W + D/2)/N and the games. The Elo line uses
 * src/rules/chess/match-elo.ts: its 95% interval is asymmetric, so "+/-" is half its width, as cutechess prints;
 * when a bound is open (a perfect or zero score) the interval is written out instead.
 * LOS (likelihood of superiority) is cutechess's: 0.5·(1 + erf((W - L) / sqrt(2(W + L)))); with no decisive
 * game it is undefined (n/a).
 */
export function scoreLine(player: string, opponent: string, t: Tally): string {
  const score = t.games === 0 ? 0 : (t.wins + t.draws / 2) / t.games;
  return `Score of ${player} vs ${opponent}: ${t.wins} - ${t.losses} - ${t.draws} [${score.toFixed(3)}] ${t.games}`;
}

export function eloLine(t: Tally): string {
  if (t.games === 0) return 'Elo difference: n/a (no games)';
  const m = matchElo(t);
  const los = losPercent(t);
  const tail = `LOS: ${los === null ? 'n/a' : `${los.toFixed(1)} %`}, DrawRatio: ${((100 * t.draws) / t.games).toFixed(1)} %`;
  if (Number.isFinite(m.low) && Number.isFinite(m.high)) {
    return `Elo difference: ${m.elo.toFixed(1)} +/- ${((m.high - m.low) / 2).toFixed(1)}, ${tail}`;
  }
  return `Elo difference: ${elo(m.elo)} (95%: ${elo(m.low)} to ${elo(m.high)}), ${tail}`;
}

function elo(x: number): string {
  return Number.isFinite(x) ? x.toFixed(1) : x > 0 ? '+inf' : '-inf';
}

/** The chance, in percent, that the player is the stronger, from its decisive games; null without any. */
export function losPercent(t: Pick<Tally, 'wins' | 'losses'>): number | null {
  const decisive = t.wins + t.losses;
  if (decisive === 0) return null;
  return 100 * likelihoodOfSuperiority(t.wins, t.losses);
}
