import { createHash } from 'node:crypto';
import { esc } from './html.js';

/**
 * The document around the sections: one file with everything inline. The Content-Security-Policy lets the
 * page load nothing at all from anywhere (`default-src 'none'`): its one script runs because its SHA-256 is
 * listed, styles are inline, and images and the viewer's font are data: URIs inside the stylesheet. A
 * report opened from a mail attachment or a CI artifact therefore shows the same thing offline and cannot
 * reach out.
 */
export interface PageParts {
  title: string;
  nav: Array<[string, string]>;
  body: string;
  viewerCss: string;
  /** The viewer bundle followed by the page's own code: one module script. */
  script: string;
  /** games.pgn, embedded once as a JSON string. */
  pgn: string;
}

/**
 * The page in pieces, in order, for writing one after another: games.pgn's JSON goes out in slices, so a
 * long run's page (games.pgn of some 60 MB inside it) is never one string in memory, nor is that JSON.
 */
export function* pagePieces(parts: PageParts): Generator<string> {
  const [beforePgn, afterPgn] = pageAround(parts);
  yield beforePgn;
  yield* jsonForScript(parts.pgn);
  yield afterPgn;
}

/** The page's text before and after games.pgn's JSON. */
function pageAround(parts: PageParts): [string, string] {
  const before = `${pageHead(parts)}<script type="application/json" id="pgn-data">`;
  const after = `</script>
<script type="module">${parts.script}</script>
</body>
</html>
`;
  return [before, after];
}

/** The page from its doctype to the main content's end. */
function pageHead(parts: PageParts): string {
  const scriptHash = createHash('sha256').update(parts.script).digest('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const nav = parts.nav.map(([id, label]) => `<a href="#${esc(id)}">${esc(label)}</a>`).join(' ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(parts.title)}</title>
<link rel="icon" href="data:,">
<style>${PAGE_CSS}</style>
<style>${parts.viewerCss}</style>
</head>
<body>
<nav class="top">${nav}</nav>
<main>
${parts.body}
</main>
`;
}

/** Characters of games.pgn escaped per slice; a slice never ends inside a surrogate pair. */
export const JSON_SLICE = 1 << 20;

/**
 * A string as JSON inside a script element, in slices: `<` escaped so no `</script>` (or `<!--`) in the
 * data can end it early. JSON escapes each character on its own, so the slices joined are the JSON of the
 * whole string.
 */
export function* jsonForScript(text: string, slice = JSON_SLICE): Generator<string> {
  yield '"';
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + slice);
    if (end < text.length && isPair(text.charCodeAt(end - 1), text.charCodeAt(end))) end++;
    yield JSON.stringify(text.slice(start, end))
      .slice(1, -1)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
    start = end;
  }
  yield '"';
}

/** A high surrogate then a low one: one character, which JSON writes as it is (a lone half it escapes). */
function isPair(high: number, low: number): boolean {
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

const PAGE_CSS = `
:root { --row: 84px; --gap: 14px; color-scheme: light; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; background: #fafafa; }
nav.top { position: sticky; top: 0; z-index: 10; background: #263238; padding: 6px 16px; }
nav.top a { color: #eceff1; margin-right: 14px; text-decoration: none; font-size: 13px; }
nav.top a:hover { text-decoration: underline; }
main { max-width: 1320px; margin: 0 auto; padding: 8px 20px 60px; }
h1 { font-size: 22px; margin: 16px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-top: 8px; border-top: 1px solid #ddd; }
h3 { font-size: 15px; margin: 18px 0 6px; }
h4 { font-size: 13px; margin: 12px 0 4px; color: #555; }
section { scroll-margin-top: 40px; }
a { color: #1565c0; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 600; color: white; }
.badge.pass { background: #2e7d32; } .badge.fail { background: #c62828; }
a.badge { text-decoration: none; }
.broke { border-left: 4px solid #c62828; padding: 2px 12px; margin: 8px 0; background: #fff5f5; }
.muted, .note { color: #666; }
.note { font-style: italic; }
table { border-collapse: collapse; margin: 6px 0 12px; font-size: 13px; background: white; }
th, td { border: 1px solid #e0e0e0; padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: #f0f0f0; }
table.facts th { background: #f7f7f7; font-weight: 600; }
td.num, th.num { text-align: right; }
tr.failed td { background: #ffebee; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 0 20px; }
figure.chart { margin: 10px 0 16px; overflow-x: auto; }
figure.chart svg { max-width: 100%; height: auto; }
figcaption { color: #666; font-size: 12px; }
details { margin: 4px 0; }
details > summary { cursor: pointer; }
details.agent { border: 1px solid #e0e0e0; background: white; padding: 4px 10px; scroll-margin-top: 40px; }
details.agent[open] { box-shadow: 0 1px 4px rgba(0,0,0,.12); }
.agent-pages { max-height: 700px; overflow-y: auto; }
.wide { width: 100%; }
.table-bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
table.sortable th { padding: 0; }
table.sortable th button.sort { all: unset; display: block; padding: 3px 8px; cursor: pointer; }
table.sortable th[aria-sort="ascending"] button.sort::after { content: " ▲"; }
table.sortable th[aria-sort="descending"] button.sort::after { content: " ▼"; }
.tournament { margin-bottom: 24px; }
.tournament > summary h3 { display: inline; }
.bracket { display: flex; overflow-x: auto; padding-bottom: 8px; }
.bracket .round { flex: 1 1 0; min-width: 150px; max-width: 240px; }
.bracket .round h4 { text-align: center; }
.bracket .cells { display: grid; grid-auto-flow: row; grid-template-columns: minmax(0, 1fr); }
.bracket .cell { position: relative; display: flex; align-items: center; padding: 0 var(--gap); }
.bracket .match { flex: 1; min-width: 0; border: 1px solid #bbb; background: white; font-size: 12px; position: relative; }
.bracket .slot { display: flex; gap: 6px; padding: 1px 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.bracket .slot + .slot { border-top: 1px solid #eee; }
.bracket .slot.won { font-weight: 700; }
.bracket .slot.lost a { color: #888; }
.bracket .slot.empty { color: #aaa; }
.bracket .seed { color: #999; min-width: 16px; text-align: right; }
.bracket .how { padding: 1px 6px; border-top: 1px dashed #ddd; font-size: 11px; line-height: 1.25; color: #555; }
.bracket .cell:not(.final)::after { content: ""; position: absolute; right: 0; width: var(--gap); border-right: 1px solid #999; }
.bracket .cell.upper:not(.final)::after { top: 50%; height: 50%; border-top: 1px solid #999; }
.bracket .cell.lower:not(.final)::after { top: 0; height: 50%; border-bottom: 1px solid #999; }
.bracket .cell.fed::before { content: ""; position: absolute; left: 0; top: 50%; width: var(--gap); border-top: 1px solid #999; }
.viewer-bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.viewer-bar select { max-width: 100%; min-width: 320px; }
#game-viewer { max-width: 760px; }
/* The viewer's board is a transparent checker pattern over the host's --board-color (lichess sets it per theme). */
#game-viewer .lpv { --board-color: #d6b08a; }
`;
