import { esc, facts, section, table } from '../report/html/html.js';
import { scriptlessPage } from '../report/html/scriptless-page.js';
import type { TopLevelSpec } from 'vega-lite';
import { renderVegaLite } from '../report/html/vega.js';
import type { MetricRow, RulesetCompare } from './ruleset-compare.js';
import {
  countLines,
  familyLine,
  headline,
  movingRows,
  rowCells,
  unchangedLine,
  unitNote,
  warningLines,
} from './ruleset-text.js';

/**
 * compare.html: the ruleset compare as one small self-contained page (the report's HTML helpers and chart
 * renderer, its own few styles, no script, and a Content-Security-Policy that loads nothing). report.html's page shell
 * carries the game viewer, which a table of means does not need. The same headline, rows and lines as
 * compare.md (src/compare/ruleset-text.ts).
 */
export function rulesetHtml(c: RulesetCompare): string {
  const [a, b] = c.sides;
  const title = `compare ${c.scenario.name}: ${a!.name} vs ${b!.name}`;
  const about = facts([
    ['scenario', c.scenario.file],
    ['seeds', c.seeds.spec],
    ['side a', sideText(a!)],
    ['side b', sideText(b!)],
    ['agent-chess-sim', c.version],
  ]);
  const moving = movingRows(c);
  const rows = moving.map((r) => [...rowCells(c, r), r.differs ? 'changed' : '']);
  const metrics = table(
    ['metric', a!.name, b!.name, 'b − a', 'change', 'interval', 'effect', 'p (Holm)', 'detectable', ''],
    rows,
    'metrics',
    moving.map((r) => (r.differs ? 'differs' : '')),
  );
  const unchanged = unchangedLine(c);
  const paragraphs = (lines: string[], cls = '') =>
    lines.map((line) => `<p${cls ? ` class="${cls}"` : ''}>${esc(line)}</p>`).join('\n');
  const body = [
    `<h1>${esc(title)}</h1>`,
    `<p class="headline">${esc(headline(c))}</p>`,
    about,
    paragraphs([familyLine(c), unitNote(c), ...countLines(c)]),
    paragraphs(warningLines(c), 'warning'),
    section(
      'metrics',
      'Metrics',
      [
        forestPlot(moving),
        metrics,
        unchanged === null ? '' : paragraphs([unchanged]),
        paragraphs([`${c.interval}.`], 'note'),
      ].join('\n'),
    ),
  ].join('\n');
  return page(title, body);
}

/** Metrics drawn in the forest plot at most: the table lists them all, in the same order. */
const MAX_FOREST_ROWS = 40;

/**
 * A forest plot: each moving metric's mean paired difference b − a and its interval (at the row's own
 * Holm-corrected level, as the table gives it), in percent of side a's mean so metrics of every unit
 * share one axis; flagged rows are red. A metric whose side-a mean is 0 has no percent and stays in the
 * table only.
 */
function forestPlot(rows: readonly MetricRow[]): string {
  const pct = (x: number, r: MetricRow) => Math.round((x / Math.abs(r.mean_a)) * 1000) / 10;
  const drawn = rows
    .filter((r) => r.mean_a !== 0)
    .slice(0, MAX_FOREST_ROWS)
    .map((r) => ({
      metric: r.metric,
      diff: pct(r.mean_diff, r),
      low: pct(r.low ?? r.mean_diff, r),
      high: pct(r.high ?? r.mean_diff, r),
      verdict: r.differs ? 'differs (Holm)' : 'within noise',
    }));
  if (drawn.length === 0) return '';
  const y = { field: 'metric', type: 'nominal', title: null, sort: drawn.map((d) => d.metric) };
  const color = {
    field: 'verdict',
    type: 'nominal',
    title: null,
    scale: { domain: ['differs (Holm)', 'within noise'], range: ['#c62828', '#546e7a'] },
    legend: { orient: 'bottom' },
  };
  const spec = {
    width: 520,
    height: Math.max(40, 20 * drawn.length),
    title: 'Mean paired difference b − a, % of a, with its interval',
    data: { values: drawn },
    layer: [
      // The no-change line, drawn once (its own one-row data, not once per metric).
      {
        data: { values: [{}] },
        mark: { type: 'rule', color: '#999', strokeDash: [4, 3] },
        encoding: { x: { datum: 0 } },
      },
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          y,
          x: { field: 'low', type: 'quantitative', title: 'b − a, % of a' },
          x2: { field: 'high' },
          color,
        },
      },
      {
        mark: { type: 'point', filled: true, size: 50 },
        encoding: { y, x: { field: 'diff', type: 'quantitative' }, color },
      },
    ],
  } as unknown as TopLevelSpec;
  return `<figure class="chart">${renderVegaLite(spec, 'forest')}</figure>`;
}

function sideText(side: RulesetCompare['sides'][number]): string {
  return side.overrides === null
    ? `${side.name}: the scenario's own ruleset`
    : `${side.name}: ${side.file} ${JSON.stringify(side.overrides)}`;
}

function page(title: string, body: string): string {
  return scriptlessPage(title, CSS, body);
}

const CSS = `
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #fafafa; }
main { max-width: 1000px; margin: 0 auto; padding: 8px 20px 60px; }
h1 { font-size: 22px; margin: 16px 0 8px; }
h2 { font-size: 18px; margin: 24px 0 8px; padding-top: 8px; border-top: 1px solid #ddd; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; background: white; }
th, td { border: 1px solid #e0e0e0; padding: 3px 8px; text-align: left; }
table.metrics td { white-space: nowrap; }
thead th { background: #f0f0f0; }
table.facts th { background: #f7f7f7; font-weight: 600; }
table.metrics td:nth-child(n+2):nth-child(-n+5), table.metrics td:nth-child(n+7):nth-child(-n+9) { text-align: right; font-variant-numeric: tabular-nums; }
.headline { font-size: 16px; font-weight: 600; }
.warning { background: #fdecea; border-left: 4px solid #c62828; padding: 4px 8px; }
tr.differs td { background: #fff8e1; font-weight: 600; }
.note { color: #666; font-style: italic; }
figure.chart { margin: 8px 0 12px; } figure.chart svg { max-width: 100%; height: auto; }
`;
