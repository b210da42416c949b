import type { MetricRow, RulesetCompare } from './ruleset-compare.js';

/**
 * compare.md and the console table of a ruleset compare: per metric, each side's mean, the mean difference
 * b - a and its 95% interval, and `differs` where the interval leaves 0 out. Figures are printed to two
 * decimals (compare.json keeps six).
 */
export function rulesetMarkdown(c: RulesetCompare): string {
  const [a, b] = c.sides;
  const rows = c.metrics.map(
    (r) =>
      `| ${r.metric} | ${num(r.mean_a)} | ${num(r.mean_b)} | ${signed(r.mean_diff)} | ${interval(r)} | ${r.differs ? '**differs**' : ''} |`,
  );
  return [
    `## agent-chess-sim compare: ${c.scenario.name}, seeds ${c.seeds.spec}`,
    '',
    `Side a **${a!.name}** (${sideSource(a!)}) against side b **${b!.name}** (${sideSource(b!)}), scenario \`${c.scenario.file}\`, agent-chess-sim ${c.version}.`,
    '',
    ...countLines(c),
    '',
    `| metric | ${a!.name} | ${b!.name} | b − a | 95% interval | |`,
    '|---|---:|---:|---:|---|---|',
    ...rows,
    '',
    `Means over the seeds both sides ran to the end; ${c.interval}.`,
    '',
  ].join('\n');
}

/** The console's table: aligned columns, the same figures as compare.md. */
export function rulesetTable(c: RulesetCompare): string[] {
  const [a, b] = c.sides;
  const header = ['metric', a!.name, b!.name, 'b - a', '95% interval', ''];
  const body = c.metrics.map((r) => [
    r.metric,
    num(r.mean_a),
    num(r.mean_b),
    signed(r.mean_diff),
    interval(r),
    r.differs ? 'differs' : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i >= 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...body.map(line)];
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
  return `\`${side.file}\`: \`${JSON.stringify(side.overrides)}\``;
}

export function interval(r: MetricRow): string {
  return r.low === null || r.high === null ? 'n/a (one seed)' : `[${signed(r.low)}, ${signed(r.high)}]`;
}

/** Two decimals at most, trailing zeros dropped. */
export function num(x: number): string {
  return String(Number(x.toFixed(2)) + 0);
}

export function signed(x: number): string {
  const text = num(x);
  return x > 0 && text !== '0' ? `+${text}` : text;
}
