import type { TopLevelSpec } from 'vega-lite';
import { scriptlessPage } from '../../report/html/scriptless-page.js';
import { esc } from '../../report/html/html.js';
import { renderVegaLite } from '../../report/html/vega.js';
import { requiredNotExercised, type InvariantOutcome, type SeedResult } from '../seed-result.js';
import type { SweepResult } from '../sweep-result.js';

/**
 * sweep.html: the sweep at a glance, beside sweep.json and built only from it (the same SweepResult), so
 * its bytes are the same for one worker, many, merged shards and the queue. Failing seeds first with
 * their replay commands; an invariants × seeds grid (held / broke / not exercised; a broken cell links to
 * its seed's replay command); each headline metric's distribution over the seeds. No script: the page
 * needs none, and its Content-Security-Policy lets it load nothing from anywhere (styles are inline).
 */
export function sweepHtml(sweep: SweepResult): string {
  const title = `sweep ${sweep.scenario.name}, seeds ${sweep.seeds.spec}: agent-chess-sim`;
  const body = [headline(sweep), failingSeeds(sweep), invariantGrid(sweep), metricCharts(sweep)].join('\n');
  return page(title, body);
}

/** The metrics drawn, in this order, when the sweep has them: what a reader of a sweep asks first. */
const HEADLINE_METRICS = [
  'games_completed',
  'moves',
  'games_unfinished',
  'moves_per_game',
  'draws',
  'ending_timeout',
  'elo_spread',
  'requests_rejected',
  'rate_limited_429',
  'fee_lamports',
  'transfers',
  'posts',
  'invariant_violations',
];

function headline(sweep: SweepResult): string {
  const c = sweep.counts;
  const failing = c.seeds - c.passed;
  const badge = sweep.passed
    ? `<span class="badge pass">all ${c.seeds} seeds passed</span>`
    : `<a class="badge fail" href="#failing">${failing} of ${c.seeds} seeds failing</a>`;
  return `<h1>${esc(sweep.scenario.name)} <span class="muted">seeds ${esc(sweep.seeds.spec)}</span></h1>
<p>${badge} ${c.passed} passed, ${c.failed} broke an invariant, ${c.crashed} crashed, ${c.timed_out} timed out, ${c.lost} lost · scenario <code>${esc(sweep.scenario.file)}</code> (sha256 <code>${esc(sweep.scenario.sha256.slice(0, 12))}</code>) · agent-chess-sim ${esc(sweep.version)}</p>`;
}

function failingSeeds(sweep: SweepResult): string {
  if (sweep.failures.length === 0) return '';
  const rows = sweep.failures
    .map(
      (f) =>
        `<tr id="seed-${f.seed}" class="failed"><td class="num">${f.seed}</td><td>${esc(f.status.replace('_', ' '))}</td><td>${esc(f.reason)}</td><td><code>${esc(f.replay)}</code></td></tr>`,
    )
    .join('\n');
  return `<section id="failing"><h2>Failing seeds</h2>
<table class="wide"><thead><tr><th>seed</th><th>status</th><th>reason</th><th>replay</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}

type CellState = 'held' | 'broke' | 'not_exercised' | 'required' | 'unfinished';

const CELL: Record<CellState, { mark: string; title: string }> = {
  held: { mark: '✓', title: 'held' },
  broke: { mark: '✗', title: 'broke' },
  not_exercised: { mark: '○', title: 'not exercised (0 checks ran)' },
  required: { mark: '!', title: 'required but not exercised' },
  unfinished: { mark: '—', title: 'the run did not end' },
};

function cellState(r: SeedResult, i: InvariantOutcome | undefined): CellState {
  if (r.metrics === null || i === undefined) return 'unfinished';
  if (!i.passed) return 'broke';
  if (requiredNotExercised(i)) return 'required';
  return i.checks === 0 ? 'not_exercised' : 'held';
}

/**
 * One row per seed, one column per invariant; failing seeds first (as sweep.json's `failures` lists
 * them), the seeds that passed after them, folded, so the grid's height follows the failures, not the
 * number of seeds.
 */
function invariantGrid(sweep: SweepResult): string {
  const names = sweep.invariants.map((i) => i.name);
  if (names.length === 0) return '';
  const failing = new Set(sweep.failures.map((f) => f.seed));
  const head = `<thead><tr><th>seed</th>${names.map((n) => `<th class="inv"><span>${esc(n)}</span></th>`).join('')}</tr></thead>`;
  const tally = `<tfoot><tr><th title="seeds held / broke / not exercised">tally</th>${sweep.invariants
    .map((t) => `<td class="tally">${t.held} / ${t.broke} / ${t.not_exercised}</td>`)
    .join('')}</tr></tfoot>`;
  const grid = (results: SeedResult[]) =>
    `<table class="grid-table">${head}<tbody>\n${results.map((r) => gridRow(r, names, failing.has(r.seed))).join('\n')}\n</tbody>${tally}</table>`;
  const bad = sweep.results.filter((r) => failing.has(r.seed));
  const good = sweep.results.filter((r) => !failing.has(r.seed));
  const legend = Object.values(CELL)
    .map((c) => `<span class="legend">${c.mark} ${esc(c.title)}</span>`)
    .join(' ');
  const parts = [
    `<p class="muted">${legend}</p>`,
    bad.length ? grid(bad) : '',
    good.length
      ? `<details${bad.length ? '' : ' open'}><summary>${good.length} seed${good.length === 1 ? '' : 's'} that passed</summary>${grid(good)}</details>`
      : '',
  ];
  return `<section id="invariants"><h2>Invariants × seeds</h2>\n${parts.join('\n')}</section>`;
}

function gridRow(r: SeedResult, names: readonly string[], failing: boolean): string {
  const byName = new Map(r.invariants.map((i) => [i.name, i]));
  const cells = names.map((name) => {
    const state = cellState(r, byName.get(name));
    const { mark, title } = CELL[state];
    const detail = byName.get(name)?.first_violation;
    const tip = esc(detail && state === 'broke' ? `${title}: ${detail}` : title);
    const content = failing && state !== 'held' ? `<a href="#seed-${r.seed}">${mark}</a>` : mark;
    return `<td class="cell ${state}" title="${tip}">${content}</td>`;
  });
  const seed = failing ? `<a href="#seed-${r.seed}">${r.seed}</a>` : String(r.seed);
  return `<tr><th class="num">${seed}</th>${cells.join('')}</tr>`;
}

function metricCharts(sweep: SweepResult): string {
  const ended = sweep.results.filter((r) => r.metrics !== null);
  const names = HEADLINE_METRICS.filter((name) => sweep.aggregate[name] !== undefined);
  if (ended.length === 0 || names.length === 0) return '';
  const blocks = names.map((name) => {
    const s = sweep.aggregate[name]!;
    const values = ended.map((r) => ({ seed: r.seed, value: r.metrics![name] ?? 0 }));
    const stats = `n ${s.n} · mean ${s.mean} · sd ${s.sd} · min ${s.min} · p50 ${s.p50} · p90 ${s.p90} · max ${s.max}`;
    const chart =
      s.min === s.max
        ? `<p class="note">Every seed: ${s.min}.</p>`
        : `<figure class="chart">${histogram(name, values)}</figure>`;
    return `<div class="metric"><h3>${esc(name)}</h3><p class="muted">${esc(stats)}</p>${chart}</div>`;
  });
  return `<section id="metrics"><h2>Headline metrics over the seeds that ran to the end</h2>\n<div class="metrics">${blocks.join('\n')}</div></section>`;
}

function histogram(name: string, values: Array<{ seed: number; value: number }>): string {
  const integers = values.every((v) => Number.isInteger(v.value));
  const spec = {
    width: 340,
    height: 120,
    data: { values },
    mark: { type: 'bar', color: '#5c7fa3' },
    encoding: {
      x: {
        field: 'value',
        type: 'quantitative',
        // A count never gets a bar 0.4 wide or an axis reading 0.40: whole steps, whole labels.
        bin: binsFor(
          values.map((v) => v.value),
          integers,
        ),
        axis: integers ? { format: 'd', tickMinStep: 1 } : {},
        title: name,
      },
      y: { aggregate: 'count', type: 'quantitative', title: 'seeds' },
    },
  } as unknown as TopLevelSpec;
  return renderVegaLite(spec, `m-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`);
}

/** At most this many bars; a count spread over fewer values gets one bar per value. */
const MAX_BARS = 20;

function binsFor(values: readonly number[], integers: boolean): Record<string, unknown> {
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (integers && max - min < MAX_BARS) return { step: 1, extent: [min, max + 1] };
  return integers ? { maxbins: MAX_BARS, minstep: 1 } : { maxbins: MAX_BARS };
}

function page(title: string, body: string): string {
  return scriptlessPage(title, SWEEP_CSS, body);
}

const SWEEP_CSS = `
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #fafafa; }
main { max-width: 1320px; margin: 0 auto; padding: 8px 20px 60px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-top: 8px; border-top: 1px solid #ddd; }
h3 { font-size: 14px; margin: 10px 0 2px; }
a { color: #1565c0; }
.muted, .note { color: #666; } .note { font-style: italic; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 600; color: white; text-decoration: none; }
.badge.pass { background: #2e7d32; } .badge.fail { background: #c62828; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; background: white; }
th, td { border: 1px solid #e0e0e0; padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: #f0f0f0; }
.wide { width: 100%; }
td.num, th.num { text-align: right; }
tr.failed td { background: #ffebee; }
tr:target td { outline: 2px solid #c62828; }
th.inv { vertical-align: bottom; padding: 4px 2px; }
th.inv span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: 600; }
td.cell { text-align: center; padding: 2px 6px; }
td.cell a { text-decoration: none; color: inherit; }
td.held { color: #2e7d32; } td.broke, td.required { background: #ffcdd2; color: #b71c1c; font-weight: 700; }
td.not_exercised { color: #999; } td.unfinished { background: #eeeeee; color: #555; }
td.tally { font-size: 11px; white-space: nowrap; writing-mode: vertical-rl; transform: rotate(180deg); }
.legend { margin-right: 12px; }
.metrics { display: grid; grid-template-columns: repeat(auto-fill, minmax(400px, 1fr)); gap: 0 20px; }
figure.chart { margin: 4px 0 12px; } figure.chart svg { max-width: 100%; height: auto; }
details > summary { cursor: pointer; }
`;
