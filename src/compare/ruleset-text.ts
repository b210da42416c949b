import { mdCell, mdCode, mdText } from '../report/markdown.js';
import type { MetricRow, RulesetCompare } from './ruleset-compare.js';

/**
 * compare.md and the console table of a ruleset compare. A headline first (how many metrics changed beyond
 * noise, and which), the correction named, then the changed and moving rows from the largest standardised
 * effect down, the unchanged ones folded into one line, and the seed-count warning. Counts read per virtual
 * day, money in SOL; compare.json keeps the per-run figures to six decimals.
 */
const MS_PER_DAY = 86_400_000;
const LAMPORTS_PER_SOL = 1e9;

/** The headline: "3 of 41 metrics changed beyond noise: a +12%, b -40%, c 0 -> 4/day". */
export function headline(c: RulesetCompare): string {
  const flagged = c.metrics.filter((r) => r.differs);
  const of = `${flagged.length} of ${c.family.tested} metrics changed beyond noise`;
  if (flagged.length === 0) return `${of}.`;
  const named = flagged.map((r) => `${r.metric} ${changeText(c, r)}`);
  return `${of}: ${named.join(', ')}.`;
}

/** The correction, named with its family and alpha, and what the intervals are. */
export function familyLine(c: RulesetCompare): string {
  const f = c.family;
  return `${f.correction} over ${f.tested} metrics, family-wise alpha ${f.alpha}; each interval is drawn at its row's Holm level, so it leaves 0 out exactly when the row is flagged.`;
}

/** The unchanged rows on one line. */
export function unchangedLine(c: RulesetCompare): string | null {
  const same = c.metrics.filter((r) => r.unchanged);
  if (same.length === 0) return null;
  return `${same.length} unchanged (identical on every seed): ${same.map((r) => r.metric).join(', ')}.`;
}

/**
 * The seed-count warning: rows not flagged that moved by at least 0.2 sd while the seeds are fewer than a
 * test with 80% power at Holm's strictest level needs for that effect.
 */
export function warningLines(c: RulesetCompare): string[] {
  const lines: string[] = [];
  if (c.underpowered.length > 0) {
    const more = c.underpowered.length - WARN_NAMES;
    const named = c.underpowered
      .slice(0, WARN_NAMES)
      .map(
        (u) =>
          `${u.metric} (${u.effect === null ? 'same shift on every seed' : `${num(u.effect)} sd`}: ${seedsText(u.seeds_needed)} seeds)`,
      );
    lines.push(
      `warning: too few seeds for the effects seen (${c.counts.compared} run): these moved at least 0.2 sd without being flagged, and 80% power at Holm's strictest level would need: ${named.join(', ')}${more > 0 ? ` and ${more} more (compare.json: underpowered)` : ''}.`,
    );
  }
  return lines;
}

/** The warning names the largest effects only; compare.json lists every row. */
const WARN_NAMES = 5;

function seedsText(n: number): string {
  return n > 100_000 ? 'over 100000' : String(n);
}

/** How the units read. */
export function unitNote(c: RulesetCompare): string {
  return `Counts are per virtual day (the scenario runs ${hours(c.scenario.duration_ms)}), money in SOL, other figures per run.`;
}

function hours(ms: number): string {
  const h = ms / 3_600_000;
  return Number.isInteger(h) ? `${h} h` : `${num(h)} h`;
}

export function rulesetMarkdown(c: RulesetCompare): string {
  const [a, b] = c.sides;
  const rows = movingRows(c).map((r) => {
    const cells = rowCells(c, r);
    return `| ${cells.join(' | ')} | ${r.differs ? '**changed**' : ''} |`;
  });
  const unchanged = unchangedLine(c);
  return [
    `## agent-chess-sim compare: ${mdText(c.scenario.name)}, seeds ${c.seeds.spec}`,
    '',
    `**${headline(c)}**`,
    '',
    `Side a **${mdText(a!.name)}** (${sideSource(a!)}) against side b **${mdText(b!.name)}** (${sideSource(b!)}), scenario ${mdCode(c.scenario.file)}, agent-chess-sim ${c.version}.`,
    '',
    familyLine(c),
    unitNote(c),
    '',
    ...countLines(c).map(mdText),
    ...warningLines(c),
    '',
    `| ${tableHeader(mdCell(a!.name), mdCell(b!.name)).join(' | ')} | |`,
    `|---|---:|---:|---:|---:|---|---:|---:|---:|---|`,
    ...rows,
    '',
    ...(unchanged === null ? [] : [unchanged, '']),
    `Means over the seeds both sides ran to the end; ${c.interval}. Effect: |mean difference| / sd of the per-seed differences ("shift": the same difference on every seed). Detectable: the smallest mean difference these seeds find with 80% power at Holm's strictest level.`,
    '',
  ].join('\n');
}

function tableHeader(a: string, b: string): string[] {
  return ['metric', a, b, 'b − a', 'change', 'interval', 'effect', 'p (Holm)', 'detectable'];
}

/** The console's table: the rows that moved, aligned, as in compare.md without the p and detectable columns. */
export function rulesetTable(c: RulesetCompare): string[] {
  const [a, b] = c.sides;
  const header = [...tableHeader(a!.name, b!.name).slice(0, 7), ''];
  const body = movingRows(c).map((r) => [...rowCells(c, r).slice(0, 7), r.differs ? 'changed' : '']);
  if (body.length === 0) return [];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === 5 || i === 7 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...body.map(line)];
}

/** The console's lines for a ruleset compare, headline first. */
export function rulesetLines(c: RulesetCompare): string[] {
  const unchanged = unchangedLine(c);
  return [
    headline(c),
    familyLine(c),
    unitNote(c),
    ...rulesetTable(c),
    ...(unchanged === null ? [] : [unchanged]),
    ...warningLines(c),
    ...countLines(c),
  ];
}

export function movingRows(c: RulesetCompare): MetricRow[] {
  return c.metrics.filter((r) => !r.unchanged);
}

/** metric, a, b, b − a, change, interval, effect, p (Holm), detectable: in the units people read. */
export function rowCells(c: RulesetCompare, r: MetricRow): string[] {
  const show = (x: number) => shown(c, r, x);
  return [
    r.metric,
    show(r.mean_a),
    show(r.mean_b),
    signed(scale(c, r, r.mean_diff)) + suffix(r),
    relativeText(r),
    interval(c, r),
    r.effect === null ? 'shift' : num(r.effect),
    r.p_holm === null ? 'n/a' : pText(r.p_holm),
    r.detectable === null ? 'n/a' : `±${num(scale(c, r, r.detectable))}`,
  ];
}

/** "+12.5%", or "0 → 4/day" when side a's mean is 0. */
function changeText(c: RulesetCompare, r: MetricRow): string {
  return r.relative_pct === null ? `${shown(c, r, r.mean_a)} → ${shown(c, r, r.mean_b)}` : relativeText(r);
}

function relativeText(r: MetricRow): string {
  if (r.relative_pct === null) return r.mean_b === 0 ? '0%' : 'new';
  return `${signed(r.relative_pct, 1)}%`;
}

function pText(p: number): string {
  if (p < 0.0001) return '<0.0001';
  return String(Number(p.toPrecision(2)));
}

/** A per-run figure in the row's display unit: per virtual day for counts, SOL for lamports. */
function scale(c: RulesetCompare, r: MetricRow, x: number): number {
  if (r.unit === 'count') return (x * MS_PER_DAY) / c.scenario.duration_ms;
  if (r.unit === 'sol' && r.metric.endsWith('_lamports')) return x / LAMPORTS_PER_SOL;
  return x;
}

function suffix(r: MetricRow): string {
  return r.unit === 'count' ? '/day' : r.unit === 'sol' ? ' SOL' : '';
}

function shown(c: RulesetCompare, r: MetricRow, x: number): string {
  return num(scale(c, r, x)) + suffix(r);
}

export function interval(c: RulesetCompare, r: MetricRow): string {
  if (r.low === null || r.high === null) return r.n < 2 ? 'n/a (one seed)' : 'n/a (no spread)';
  return `[${signed(scale(c, r, r.low))}, ${signed(scale(c, r, r.high))}]`;
}

/** The tallies under the headline: how many seeds compared, how many gave identical runs, and any run that did not pass. */
export function countLines(c: RulesetCompare): string[] {
  const k = c.counts;
  const lines = [
    `${k.compared} of ${k.seeds} seeds compared (both sides ran to the end); ${k.identical} gave identical runs on both sides (same event fingerprint).`,
  ];
  const [a, b] = c.sides;
  for (const [side, counts] of [
    [a!.name, k.a],
    [b!.name, k.b],
  ] as const) {
    const bad = counts.failed + counts.crashed + counts.timed_out + counts.lost;
    if (bad > 0)
      lines.push(
        `${side}: ${counts.failed} broke an invariant, ${counts.crashed} crashed, ${counts.timed_out} timed out.`,
      );
  }
  if (k.identical === k.seeds && k.seeds > 0)
    lines.push(
      'The two rulesets ran every seed identically: nothing in these runs reached a rule where they differ.',
    );
  return lines;
}

function sideSource(side: RulesetCompare['sides'][number]): string {
  if (side.overrides === null) return "the scenario's own ruleset";
  return `${mdCode(side.file)}: ${mdCode(JSON.stringify(side.overrides))}`;
}

/** Two decimals at most (`digits` if given), trailing zeros dropped; one past 10, none past 100. */
export function num(x: number, digits = 2): string {
  const size = Math.abs(x);
  const places = size >= 100 ? 0 : size >= 10 ? Math.min(1, digits) : digits;
  return String(Number(x.toFixed(places)) + 0);
}

export function signed(x: number, digits = 2): string {
  const text = num(x, digits);
  return x > 0 && text !== '0' ? `+${text}` : text;
}
