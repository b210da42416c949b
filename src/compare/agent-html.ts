import type { TopLevelSpec } from 'vega-lite';
import { pairsLlr, type PairCounts } from '../rules/chess/sprt.js';
import { esc, facts, note, section, table, type Cell } from '../report/html/html.js';
import { pagePieces } from '../report/html/page.js';
import { renderVegaLite } from '../report/html/vega.js';
import { PAGE_SCRIPT, VIEWER_MARKUP, viewerAssets } from '../report/html/viewer.js';
import type { AgentCompare } from './match-output.js';

/**
 * compare.html of `compare --agent`: the SPRT's log-likelihood ratio after each counted pair between its
 * two bounds (as fastchess and OpenBench show it moving), A's running score over the pairs, each pair's
 * result, and the duel games in report.html's viewer (the same page shell: one inline script allowed by
 * its hash, nothing loaded). Built from compare.json's model and games.pgn only.
 */
export function agentHtml(c: AgentCompare, pgn: string): string {
  const title = `compare ${c.agents.a.name} vs ${c.agents.b.name}: agent-chess-sim`;
  const points = pairHistory(c);
  const body = [
    `<h1>${esc(c.agents.a.name)} vs ${esc(c.agents.b.name)}</h1>`,
    `<p><strong>${esc(verdict(c))}</strong></p>`,
    about(c),
    section('sprt', 'The SPRT over the pairs', [llrChart(c, points), scoreChart(c, points)].join('\n')),
    section('pairs', 'Pairs', pairsTable(c)),
    section('games', 'Games', `${note('Every duel game, in seed order.')}\n${VIEWER_MARKUP}`),
  ].join('\n');
  const assets = viewerAssets();
  return [
    ...pagePieces({
      title,
      nav: [
        ['sprt', 'SPRT'],
        ['pairs', 'Pairs'],
        ['games', 'Games'],
      ],
      body,
      viewerCss: assets.css,
      script: `${assets.script}\n${PAGE_SCRIPT}`,
      pgn,
    }),
  ].join('');
}

function verdict(c: AgentCompare): string {
  const decided = c.decision === null ? 'no decision' : `${c.decision} accepted`;
  return `${decided} after ${c.pairs.played} pairs (${c.pairs.counted} counted): LLR ${c.llr} in [${c.sprt.lower}, ${c.sprt.upper}]`;
}

function about(c: AgentCompare): string {
  const elo = c.elo ? `${c.elo.elo ?? '—'} [${c.elo.low ?? '—'}, ${c.elo.high ?? '—'}]` : '—';
  return facts([
    ['SPRT', `elo0 ${c.sprt.elo0}, elo1 ${c.sprt.elo1}, alpha ${c.sprt.alpha}, beta ${c.sprt.beta}`],
    ['games (W / D / L of a)', `${c.games.wins} / ${c.games.draws} / ${c.games.losses}`],
    ['Elo of a over pairs (95 %)', elo],
    ['seeds played', c.seeds_played || 'none'],
    ['agent-chess-sim', c.version],
  ]);
}

interface PairPoint {
  pair: number;
  llr: number;
  score: number;
}

/** The LLR and A's mean score after each counted pair, recomputed in seed order as the match took them. */
export function pairHistory(c: AgentCompare): PairPoint[] {
  const counts: PairCounts = { lossLoss: 0, lossDraw: 0, even: 0, winDraw: 0, winWin: 0 };
  const keys = ['lossLoss', 'lossDraw', 'even', 'winDraw', 'winWin'] as const;
  const points: PairPoint[] = [];
  let scored = 0;
  for (const record of c.results) {
    if (!record.scores) continue;
    const total = record.scores[0] + record.scores[1];
    counts[keys[total * 2]!]++;
    scored += total;
    const pair = points.length + 1;
    const llr = Math.round(pairsLlr(counts, c.sprt) * 1e4) / 1e4;
    points.push({ pair, llr, score: Math.round((scored / (2 * pair)) * 1e4) / 1e4 });
  }
  return points;
}

function llrChart(c: AgentCompare, points: readonly PairPoint[]): string {
  if (points.length === 0) return note('No pair counted, so the SPRT never moved.');
  return overPairsChart('llr', points, {
    height: 220,
    title:
      'Log-likelihood ratio after each counted pair (H1 is accepted at the upper dashed bound, H0 at the lower)',
    rules: [c.sprt.upper, c.sprt.lower],
    color: '#1565c0',
    y: { field: 'llr', type: 'quantitative', title: 'LLR' },
  });
}

function scoreChart(c: AgentCompare, points: readonly PairPoint[]): string {
  if (points.length === 0) return '';
  return overPairsChart('score', points, {
    height: 160,
    title: `${c.agents.a.name}'s score over the pairs so far (0.5: even)`,
    rules: [0.5],
    color: '#2e7d32',
    y: { field: 'score', type: 'quantitative', title: 'score', scale: { domain: [0, 1] } },
  });
}

interface OverPairs {
  height: number;
  title: string;
  /** Dashed reference lines (the SPRT's bounds, an even score). */
  rules: readonly number[];
  color: string;
  y: Record<string, unknown>;
}

/** A line over the counted pairs with dashed reference lines: the LLR's and the score's charts. */
function overPairsChart(name: string, points: readonly PairPoint[], chart: OverPairs): string {
  const spec = {
    width: 640,
    height: chart.height,
    title: chart.title,
    layer: [
      {
        data: { values: chart.rules.map((value) => ({ value })) },
        mark: { type: 'rule', strokeDash: [5, 3], color: '#888' },
        encoding: { y: { field: 'value', type: 'quantitative' } },
      },
      {
        data: { values: points },
        mark: { type: 'line', point: true, color: chart.color },
        encoding: {
          x: {
            field: 'pair',
            type: 'quantitative',
            title: 'counted pairs',
            axis: { tickMinStep: 1, format: 'd' },
          },
          y: chart.y,
        },
      },
    ],
  } as unknown as TopLevelSpec;
  return `<figure class="chart">${renderVegaLite(spec, name)}</figure>`;
}

function pairsTable(c: AgentCompare): string {
  const rows = c.results.map((r): Cell[] => [
    r.seed,
    r.opponent ?? '—',
    r.games.map((g) => `${g.white} - ${g.black} ${g.result} (${g.ending})`).join('; '),
    r.scores ? r.scores[0] + r.scores[1] : '—',
    [r.void ?? '', r.broken.length ? `broke ${r.broken.join(', ')}` : ''].filter(Boolean).join('; '),
  ]);
  return table(
    ['seed', 'opponent', 'games (white - black, result, ending)', 'score of a (of 2)', 'note'],
    rows,
  );
}
