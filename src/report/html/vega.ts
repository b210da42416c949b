import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * Vega-Lite specs rendered to static SVG strings on the server, synchronously.
 *
 * `View.toSVG()` is async only because a view may load data; every spec here carries its data inline, so
 * one synchronous `run()` evaluates the whole dataflow and the headless SVG string renderer can draw the
 * scenegraph at once. That keeps `writeRunReport` synchronous. The sizes mirror vega-view's own
 * `renderHeadless` (view size plus padding, origin plus padding); a unit test checks that the output equals
 * `toSVG()` byte for byte.
 */
interface ViewInternals {
  _viewWidth: number;
  _viewHeight: number;
  _origin: [number, number];
}

/** Shared look: system sans-serif (nothing to download), light grid, no frame. */
export const CHART_CONFIG = {
  font: 'sans-serif',
  background: 'white',
  view: { stroke: null },
  axis: {
    gridColor: '#eeeeee',
    labelColor: '#444444',
    titleColor: '#222222',
    domainColor: '#888888',
    tickColor: '#888888',
  },
  legend: { labelLimit: 220 },
  // Per-mark ARIA labels (one per bar or point) would be most of a chart's bytes; axes and legends keep theirs.
  mark: { aria: false },
  title: { anchor: 'start', fontSize: 13, fontWeight: 'normal', color: '#222222' },
} as const;

export function renderVegaLite(spec: TopLevelSpec, idPrefix: string): string {
  const withConfig = { ...spec, config: { ...CHART_CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec;
  const view = new vega.View(vega.parse(compile(withConfig).spec), { renderer: 'none' });
  view.run();
  const svg = drawSvg(view);
  view.finalize();
  return inlineSvg(svg, idPrefix);
}

function drawSvg(view: vega.View): string {
  const inner = view as unknown as ViewInternals;
  const pad = view.padding() as { left: number; right: number; top: number; bottom: number };
  // vega's typings describe the DOM renderers only; the headless SVG string renderer has the same contract.
  const Renderer = (vega as unknown as { SVGStringRenderer: new (loader: unknown) => SvgStringRenderer })
    .SVGStringRenderer;
  const renderer = new Renderer(view.loader());
  const width = Math.max(0, inner._viewWidth + pad.left + pad.right);
  const height = Math.max(0, inner._viewHeight + pad.top + pad.bottom);
  renderer
    .initialize(null, width, height, [pad.left + inner._origin[0], pad.top + inner._origin[1]])
    .background(view.background());
  renderer.render((view.scenegraph() as unknown as { root: unknown }).root);
  return renderer.svg();
}

interface SvgStringRenderer {
  initialize(el: null, width: number, height: number, origin: [number, number]): SvgStringRenderer;
  background(color: string): SvgStringRenderer;
  render(scene: unknown): SvgStringRenderer;
  svg(): string;
}

/**
 * Ready to sit inside HTML: the namespace declarations go (the HTML parser knows `<svg>`, and the file then
 * names no outside address), and any ids vega made (clip paths, gradients: from a process-wide counter) get
 * a per-chart prefix, so two charts never share an id and the bytes do not depend on what rendered before.
 */
export function inlineSvg(svg: string, idPrefix: string): string {
  const ids = new Map<string, string>();
  for (const match of svg.matchAll(/\bid="([^"]+)"/g)) ids.set(match[1]!, `${idPrefix}-${ids.size + 1}`);
  let out = svg.replace(/ xmlns(:xlink)?="[^"]*"/g, '');
  for (const [from, to] of ids)
    out = out
      .split(`id="${from}"`)
      .join(`id="${to}"`)
      .split(`url(#${from})`)
      .join(`url(#${to})`)
      .split(`href="#${from}"`)
      .join(`href="#${to}"`);
  return out;
}
