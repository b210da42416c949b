import type { TopLevelSpec } from 'vega-lite';
import { renderVegaLite } from './vega.js';
import { hoursAt, round3, type BinRow, type TimeAxis } from './series.js';

/**
 * The report's charts as Vega-Lite specs, each rendered to one static SVG (see vega.ts). A chart with no
 * data renders as '' and its section says so in words instead.
 */
const WIDTH = 640;
const HEIGHT = 220;

export interface Chart {
  id: string;
  svg: string;
}

function chart(id: string, spec: Record<string, unknown>): Chart {
  return { id, svg: renderVegaLite({ width: WIDTH, height: HEIGHT, ...spec } as TopLevelSpec, id) };
}

function hoursX(axis: TimeAxis) {
  return {
    field: 'hour',
    type: 'quantitative',
    title: 'virtual hours since start',
    scale: { domain: [0, hoursAt(axis, axis.endMs)], nice: false },
  };
}

/**
 * Groups keep one colour in every chart: the domain is the sorted list of all groups. The legend sits under
 * the chart with no label limit, so a long group name (`engine (population[0].mix.engine)`) is shown whole
 * and groups that share a prefix can still be told apart; many groups take two columns.
 */
function groupColor(groups: readonly string[], stroke = false) {
  const legend = {
    orient: 'bottom',
    direction: 'vertical',
    columns: groups.length > 6 ? 2 : 1,
    labelLimit: 0,
    ...(stroke ? STROKE_LEGEND : {}),
  };
  return { field: 'group', type: 'nominal', title: 'group', scale: { domain: [...groups] }, legend };
}

const STROKE_LEGEND = { symbolType: 'stroke', symbolOpacity: 1, symbolStrokeWidth: 2 };

/** Elo gap shown around ratings that never moved, so the axis reads 1150..1250 rather than 1,200.000000. */
const FLAT_ELO_MARGIN = 50;

/** A y scale for ratings: fitted to the data, or a fixed band around a rating nobody left. */
export function eloScale(values: readonly number[]): Record<string, unknown> {
  const [min, max] = extent(values);
  if (max - min >= 1) return { zero: false };
  return { domain: [Math.floor(min) - FLAT_ELO_MARGIN, Math.ceil(max) + FLAT_ELO_MARGIN], nice: false };
}

function extent(values: readonly number[]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return values.length === 0 ? [0, 0] : [min, max];
}

/** At most this many histogram bars, however wide the data spreads. */
const MAX_BINS = 60;

/**
 * Histogram bins chosen from the data: the Freedman–Diaconis width (twice the interquartile range over the
 * cube root of the count), Sturges' rule when the middle half is one value, widened to at most MAX_BINS
 * bars and rounded to whole Elo; the bins start on a multiple of their width.
 */
export function histogramBins(values: readonly number[]): { step: number; extent: [number, number] } {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const [min, max] = extent(sorted);
  const span = max - min;
  const iqr = n > 0 ? sorted[Math.floor((n - 1) * 0.75)]! - sorted[Math.floor((n - 1) * 0.25)]! : 0;
  const width = iqr > 0 ? (2 * iqr) / Math.cbrt(n) : span / Math.ceil(Math.log2(Math.max(1, n)) + 1);
  // Bins start on a multiple of the step, so the range can need one bar more than span / step: widen till it fits.
  for (let step = Math.max(1, Math.ceil(Math.max(width, span / MAX_BINS))); ; step++) {
    const lo = Math.floor(min / step) * step;
    const hi = Math.max(lo + step, Math.ceil((max + 1) / step) * step);
    if ((hi - lo) / step <= MAX_BINS) return { step, extent: [lo, hi] };
  }
}

export interface GroupRatingRow {
  hour: number;
  group: string;
  mean: number;
  q1: number;
  q3: number;
}

/** Mean rating per group over time, with the band the middle half of the group spans. */
export function ratingByGroupChart(axis: TimeAxis, rows: GroupRatingRow[], groups: readonly string[]): Chart {
  const x = hoursX(axis);
  const color = groupColor(groups);
  const scale = eloScale(rows.flatMap((r) => [r.q1, r.q3, r.mean]));
  return chart('rating-groups', {
    title: 'Mean rating per group (band: middle half of the group)',
    data: { values: rows },
    layer: [
      // The layers share one legend, which takes its symbols from the first layer: the line, not the faint band.
      {
        mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
        encoding: {
          x,
          y: { field: 'mean', type: 'quantitative', title: 'Elo', scale, axis: { format: 'd' } },
          color: groupColor(groups, true),
        },
      },
      {
        mark: { type: 'area', fillOpacity: 0.18, interpolate: 'step-after' },
        encoding: { x, y: { field: 'q1', type: 'quantitative' }, y2: { field: 'q3' }, color },
      },
    ],
  });
}

export interface AgentRatingRow {
  hour: number;
  handle: string;
  group: string;
  elo: number;
}

export function ratingByAgentChart(
  axis: TimeAxis,
  rows: AgentRatingRow[],
  groups: readonly string[],
  title: string,
): Chart {
  return chart('rating-agents', {
    title,
    data: { values: rows },
    mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1, opacity: 0.55 },
    encoding: {
      x: hoursX(axis),
      y: {
        field: 'elo',
        type: 'quantitative',
        title: 'Elo',
        scale: eloScale(rows.map((r) => r.elo)),
        axis: { format: 'd' },
      },
      color: groupColor(groups, true),
      detail: { field: 'handle', type: 'nominal' },
    },
  });
}

export function ratingDistributionChart(
  rows: Array<{ elo: number; group: string }>,
  groups: readonly string[],
  title: string,
): Chart {
  return chart('rating-distribution', {
    title,
    data: { values: rows },
    mark: 'bar',
    encoding: {
      x: {
        field: 'elo',
        type: 'quantitative',
        bin: histogramBins(rows.map((r) => r.elo)),
        title: 'Elo at the end',
        axis: { format: 'd' },
      },
      y: { aggregate: 'count', type: 'quantitative', title: 'agents' },
      color: groupColor(groups),
    },
  });
}

export interface EndingRow {
  ending: string;
  result: string;
  games: number;
}

const RESULT_ORDER = ['white wins', 'black wins', 'draw'];

export function endingsChart(rows: EndingRow[]): Chart {
  return chart('endings', {
    title: 'How games ended',
    height: Math.max(60, 26 * new Set(rows.map((r) => r.ending)).size),
    data: { values: rows },
    mark: 'bar',
    encoding: {
      y: { field: 'ending', type: 'nominal', title: null, sort: '-x' },
      x: { field: 'games', type: 'quantitative', aggregate: 'sum', title: 'games' },
      color: {
        field: 'result',
        type: 'nominal',
        title: 'result',
        scale: { domain: RESULT_ORDER, range: ['#dddddd', '#333333', '#6b9bd1'] },
      },
    },
  });
}

/** Stacked bars per time bin (games by ending, SOL by money category, social actions by kind, 429s by limit). */
export function binnedChart(
  id: string,
  axis: TimeAxis,
  rows: BinRow[],
  labels: { title: string; value: string; kind: string },
): Chart {
  const binHours = round3(axis.binMs / 3_600_000);
  const values = rows.map((r) => ({ ...r, end: round3(r.hour + binHours) }));
  return chart(id, {
    title: labels.title,
    data: { values },
    mark: { type: 'bar', stroke: 'white', strokeWidth: 0.5 },
    encoding: {
      x: { ...hoursX(axis), bin: 'binned' },
      x2: { field: 'end' },
      y: { field: 'value', type: 'quantitative', aggregate: 'sum', title: labels.value },
      color: { field: 'kind', type: 'nominal', title: labels.kind },
    },
  });
}

/** Horizontal bars of named totals (money by transfer type, 429s by limit when their times were not kept). */
export function totalsChart(
  id: string,
  rows: Array<{ name: string; value: number }>,
  labels: { title: string; value: string },
): Chart {
  return chart(id, {
    title: labels.title,
    height: Math.max(40, 22 * rows.length),
    data: { values: rows },
    mark: 'bar',
    encoding: {
      y: { field: 'name', type: 'nominal', title: null, sort: '-x' },
      x: { field: 'value', type: 'quantitative', title: labels.value },
    },
  });
}
