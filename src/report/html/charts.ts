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

/** Groups keep one colour in every chart: the domain is the sorted list of all groups. */
function groupColor(groups: readonly string[], title = 'group') {
  return { field: 'group', type: 'nominal', title, scale: { domain: [...groups] } };
}

const STROKE_LEGEND = { symbolType: 'stroke', symbolOpacity: 1, symbolStrokeWidth: 2 };

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
  return chart('rating-groups', {
    title: 'Mean rating per group (band: middle half of the group)',
    data: { values: rows },
    layer: [
      // The layers share one legend, which takes its symbols from the first layer: the line, not the faint band.
      {
        mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
        encoding: {
          x,
          y: { field: 'mean', type: 'quantitative', title: 'Elo', scale: { zero: false } },
          color: { ...color, legend: STROKE_LEGEND },
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
      y: { field: 'elo', type: 'quantitative', title: 'Elo', scale: { zero: false } },
      color: { ...groupColor(groups), legend: STROKE_LEGEND },
      detail: { field: 'handle', type: 'nominal' },
    },
  });
}

export function ratingDistributionChart(
  rows: Array<{ elo: number; group: string }>,
  groups: readonly string[],
): Chart {
  return chart('rating-distribution', {
    title: 'Final ratings',
    data: { values: rows },
    mark: 'bar',
    encoding: {
      x: { field: 'elo', type: 'quantitative', bin: { maxbins: 30 }, title: 'Elo at the end' },
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
