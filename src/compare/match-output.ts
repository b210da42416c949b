import { prettyCanonicalJson } from '../kernel/canonical.js';
import { losPercent, scoreLine } from '../report/match-lines.js';
import { mdCell, mdFence, mdText } from '../report/markdown.js';
import { sprtLimits } from '../rules/chess/sprt.js';
import { formatSeedSpec } from '../sweep/seeds.js';
import type { MatchSetup, MatchTally, PairRecord } from './agent-match.js';
import { llrLine, pairDrawRatioPercent, pairElo, pairEloLine, pairLosPercent } from './match-stats.js';
import { round6 } from './paired.js';
import { COMPARE_FORMAT_VERSION } from './ruleset-compare.js';
import type { PlayerSpec } from './players.js';

/**
 * compare.json and compare.md of `compare --agent`. Built from the pairs the SPRT took (in seed order, up
 * to its decision), so the bytes depend on the arguments and the code only; a pair that finished after
 * the decision on another thread is not in them. Infinite Elo bounds are written as null.
 */
export type AgentCompare = ReturnType<typeof buildAgentCompare>;

export function buildAgentCompare(version: string, setup: MatchSetup, tally: MatchTally) {
  const { lower, upper } = sprtLimits(setup.bounds);
  const total = tally.games.wins + tally.games.draws + tally.games.losses;
  const counted = tally.counted > 0;
  const estimate = counted ? pairElo(tally.pairs) : null;
  const los = losPercent(tally.games);
  return {
    tool: 'agent-chess-sim' as const,
    version,
    kind: 'agents' as const,
    compare_version: COMPARE_FORMAT_VERSION,
    agents: { a: player(setup.a), b: player(setup.b) },
    vs: setup.vs.map(player),
    sprt: { ...setup.bounds, lower: round6(lower), upper: round6(upper) },
    seeds: { spec: formatSeedSpec(setup.seeds), count: setup.seeds.length },
    seeds_played: formatSeedSpec(tally.records.map((r) => r.seed)),
    decision: tally.state.decision === 'continue' ? null : tally.state.decision,
    llr: round6(tally.state.llr),
    pairs: {
      played: tally.records.length,
      counted: tally.counted,
      void: tally.records.length - tally.counted,
    },
    games: { ...tally.games, total },
    pentanomial: { ...tally.pairs },
    // Over pairs, as fastchess's pentanomial figures; not corrected for an early SPRT stop.
    elo: estimate && {
      elo: finite(estimate.elo),
      low: finite(estimate.low),
      high: finite(estimate.high),
      corrected_for_early_stop: false,
    },
    los_percent: counted ? round6(pairLosPercent(tally.pairs)) : null,
    draw_ratio: counted ? round6(pairDrawRatioPercent(tally.pairs) / 100) : null,
    per_game_as_cutechess: {
      los_percent: los === null ? null : round6(los),
      draw_ratio: total === 0 ? null : round6(tally.games.draws / total),
    },
    results: tally.records,
  };
}

export function agentCompareJson(c: AgentCompare): string {
  return prettyCanonicalJson(c);
}

function player(spec: PlayerSpec): { name: string; written: string } {
  return { name: spec.name, written: spec.written };
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? round6(x) : null;
}

/** The lines fastchess prints at the end of a match (and every few pairs): score, Elo, LLR. */
export function matchLines(setup: MatchSetup, tally: MatchTally): string[] {
  const { a, b } = setup;
  const total = tally.games.wins + tally.games.draws + tally.games.losses;
  const against = setup.vs.length > 0 ? ` (through ${setup.vs.map((o) => o.name).join(', ')})` : '';
  const score = scoreLine(a.name, `${b.name}${against}`, { ...tally.games, games: total });
  if (total === 0 || tally.counted === 0) return [score];
  const { lower, upper } = tally.state;
  return [
    score,
    pairEloLine(tally.pairs, tally.state.decision !== 'continue'),
    llrLine(tally.state.llr, lower, upper, setup.bounds.elo0, setup.bounds.elo1),
  ];
}

/** `H1 was accepted`, or what stopped the match without a decision. */
export function decisionLine(tally: MatchTally): string {
  if (tally.state.decision !== 'continue') return `${tally.state.decision} was accepted`;
  return `no decision after ${tally.records.length} pairs (the seeds given or --max-pairs ran out)`;
}

export function pentanomialText(tally: MatchTally): string {
  const p = tally.pairs;
  return `[${p.lossLoss}, ${p.lossDraw}, ${p.even}, ${p.winDraw}, ${p.winWin}]`;
}

export function agentMarkdown(c: AgentCompare, setup: MatchSetup, tally: MatchTally): string {
  const b = c.sprt;
  const decision =
    c.decision === null
      ? `no decision after ${c.pairs.played} pairs`
      : `**${c.decision} accepted** after ${c.pairs.played} pairs`;
  const through =
    c.vs.length > 0
      ? `, each against the same opponents (${mdText(c.vs.map((o) => o.name).join(', '))}) with the same seeds`
      : '';
  const lines = matchLines(setup, tally);
  return [
    `## agent-chess-sim compare: ${mdText(c.agents.a.name)} vs ${mdText(c.agents.b.name)}`,
    '',
    `SPRT elo0=${b.elo0}, elo1=${b.elo1}, alpha=${b.alpha}, beta=${b.beta}, model=${b.model ?? 'normalized'} over colour-swapped game pairs${through}: ${decision} (seeds ${c.seeds_played || 'none'}), agent-chess-sim ${c.version}.`,
    '',
    ...mdFence([...lines, decisionLine(tally)].map((line) => line.replace(/[\r\n]+/g, ' '))),
    '',
    `Pairs (LL, LD, WL+DD, WD, WW from ${mdText(c.agents.a.name)}'s side): ${pentanomialText(tally)}; ${c.pairs.counted} counted, ${c.pairs.void} void.`,
    '',
    '| seed | opponent | games (white-black result, ending) | score of a | note |',
    '|---:|---|---|---:|---|',
    ...c.results.map(pairRow),
    '',
  ].join('\n');
}

function pairRow(r: PairRecord): string {
  const games = r.games.map((g) => `${g.white}-${g.black} ${g.result} (${g.ending})`).join('; ');
  const score = r.scores ? String(r.scores[0] + r.scores[1]) : '';
  const note = [r.void ? `void: ${r.void}` : '', r.broken.length > 0 ? `broke ${r.broken.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  return `| ${r.seed} | ${mdCell(r.opponent ?? '')} | ${mdCell(games)} | ${score} | ${mdCell(note)} |`;
}
