import { esc, facts, section, table } from '../report/html/html.js';
import type { RulesetCompare } from './ruleset-compare.js';
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
 * compare.html: the ruleset compare as one small self-contained page (the report's HTML helpers, its own
 * few styles, no script, and a Content-Security-Policy that loads nothing). report.html's page shell
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
        metrics,
        unchanged === null ? '' : paragraphs([unchanged]),
        paragraphs([`${c.interval}.`], 'note'),
      ].join('\n'),
    ),
  ].join('\n');
  return page(title, body);
}

function sideText(side: RulesetCompare['sides'][number]): string {
  return side.overrides === null
    ? `${side.name}: the scenario's own ruleset`
    : `${side.name}: ${side.file} ${JSON.stringify(side.overrides)}`;
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<style>${CSS}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
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
`;
