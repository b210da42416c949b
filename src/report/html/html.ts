/**
 * Small HTML helpers. Everything that came from the run (handles, names, messages) goes through `esc`;
 * numbers are formatted without the locale (toLocaleString would make the bytes depend on the machine).
 */
export function esc(text: unknown): string {
  const plain = String(text);
  // Most text (numbers, handles, labels) has nothing to escape: a crowd's page escapes millions of them.
  return SPECIAL.test(plain) ? plain.replace(SPECIALS, (c) => ENTITIES[c]!) : plain;
}

const SPECIAL = /[&<>"]/;
const SPECIALS = /[&<>"]/g;
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** A cell is raw HTML when given as `{ html }`, text otherwise. */
export type Cell = string | number | boolean | null | undefined | { html: string };

function cell(value: Cell): string {
  if (value !== null && typeof value === 'object') return value.html;
  if (value === null || value === undefined) return '';
  return esc(value);
}

/** `rowClasses[i]`, when given, marks row i (e.g. a broken invariant). */
export function table(headers: string[], rows: Cell[][], className = '', rowClasses: string[] = []): string {
  const head = `<tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const tr = (i: number) => (rowClasses[i] ? `<tr class="${esc(rowClasses[i])}">` : '<tr>');
  const body = rows
    .map((row, i) => `${tr(i)}${row.map((c) => `<td>${cell(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table${className ? ` class="${className}"` : ''}><thead>${head}</thead><tbody>\n${body}\n</tbody></table>`;
}

/** Label / value pairs as a two-column table. */
export function facts(pairs: Array<[string, Cell]>): string {
  return `<table class="facts"><tbody>${pairs.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${cell(v)}</td></tr>`).join('')}</tbody></table>`;
}

export function section(id: string, title: string, body: string): string {
  return `<section id="${esc(id)}">\n<h2>${esc(title)}</h2>\n${body}\n</section>`;
}

export function figure(svg: string, caption = ''): string {
  if (!svg) return '';
  return `<figure class="chart">${svg}${caption ? `<figcaption>${esc(caption)}</figcaption>` : ''}</figure>`;
}

export function note(text: string): string {
  return `<p class="note">${esc(text)}</p>`;
}

/** A rating difference or its bound: whole Elo with a sign; an infinite one as ±∞. */
export function eloDiff(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return n < 0 ? '-∞' : '+∞';
  const r = Math.round(n);
  return r > 0 ? `+${r}` : String(r);
}

export function fixed(value: unknown, digits: number): string {
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(digits) : '';
}

/** Ids for anchors: a handle keeps its letters, digits, `.` and `_` (the only ones a handle may hold). */
export function agentAnchor(handle: string): string {
  return `agent-${handle.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}
