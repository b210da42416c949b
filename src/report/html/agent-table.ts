import { agentAnchor, esc } from './html.js';

/**
 * The per-agent table at any population: every row is in the page (so every agent is reachable by search
 * and by `#agent=handle`), but only one page of rows is ever shown. The server marks rows past the first
 * page `hidden`, so the page's height does not grow with the population even before the script runs; the
 * script (AGENT_TABLE_SCRIPT, allowed by the page's CSP through its hash like the rest of the page's code)
 * pages, sorts and searches the rows and opens an agent's section from a deep link. Likewise only the
 * sections of the rows shown are shown, so a crowd's thousands of sections cost the browser no layout.
 */
export const AGENT_PAGE_ROWS = 25;

/** A cell: its text, and the number it sorts by when it is not sorted as text. */
export interface AgentCell {
  text: string;
  sortBy?: number;
  /** Raw HTML shown instead of the text (a link); the text is still what a search reads. */
  html?: string;
}

export interface AgentRow {
  handle: string;
  /** Lower-case words a search matches: name, handle, group. */
  find: string;
  cells: AgentCell[];
}

/** The link that opens an agent's row and section, wherever on the page it is (brackets, violations). */
export function agentLink(handle: string, label: string): string {
  return `<a href="#agent=${encodeURIComponent(handle)}">${esc(label)}</a>`;
}

export function agentTable(headers: string[], rows: AgentRow[]): string {
  const head = headers
    .map((h, i) => `<th><button type="button" class="sort" data-col="${i}">${esc(h)}</button></th>`)
    .join('');
  const body = rows.map((row, i) => agentRowHtml(row, i >= AGENT_PAGE_ROWS)).join('\n');
  const shown = Math.min(AGENT_PAGE_ROWS, rows.length);
  const bar = `<div class="table-bar"><label>search <input id="agent-search" type="search" placeholder="name, handle or group" autocomplete="off"></label>
<button type="button" id="agent-prev" disabled>‹ previous</button> <span id="agent-range">${rows.length === 0 ? 0 : 1}–${shown} of ${rows.length}</span> <button type="button" id="agent-next"${rows.length > AGENT_PAGE_ROWS ? '' : ' disabled'}>next ›</button></div>`;
  return `${bar}\n<table class="wide sortable" id="agent-table" data-page-rows="${AGENT_PAGE_ROWS}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function agentRowHtml(row: AgentRow, hidden: boolean): string {
  const cells = row.cells
    .map((c) => {
      const sort = c.sortBy === undefined || !Number.isFinite(c.sortBy) ? '' : ` data-v="${c.sortBy}"`;
      return `<td${sort}>${c.html ?? esc(c.text)}</td>`;
    })
    .join('');
  const attrs = `data-agent="${esc(row.handle)}" data-section="${agentAnchor(row.handle)}" data-find="${esc(row.find)}"`;
  return `<tr ${attrs}${hidden ? ' hidden' : ''}>${cells}</tr>`;
}

/**
 * The table's code, appended to the page's one module script. Searching filters the rows (and with them
 * the agent sections below the table); a header sorts by its column (numbers by their value, the rest as text; a
 * second click reverses); `#agent=handle` (or the section's own anchor, `#agent-handle`) shows exactly
 * that agent's row and opens its section.
 */
export const AGENT_TABLE_SCRIPT = String.raw`
const agentTable = document.getElementById('agent-table');
if (agentTable) {
  const pageRows = Number(agentTable.dataset.pageRows);
  const tbody = agentTable.tBodies[0];
  const rows = [...tbody.rows];
  const sections = [...document.querySelectorAll('details.agent')];
  const search = document.getElementById('agent-search');
  const range = document.getElementById('agent-range');
  const prev = document.getElementById('agent-prev');
  const next = document.getElementById('agent-next');
  const view = { page: 0, exact: null, col: -1, descending: false };

  const matches = () => {
    const needle = search.value.trim().toLowerCase();
    if (view.exact !== null) return rows.filter((r) => r.dataset.agent === view.exact);
    return needle ? rows.filter((r) => r.dataset.find.includes(needle)) : rows;
  };
  const render = () => {
    const found = matches();
    const pages = Math.max(1, Math.ceil(found.length / pageRows));
    view.page = Math.min(view.page, pages - 1);
    const first = view.page * pageRows;
    const shown = new Set(found.slice(first, first + pageRows));
    for (const row of rows) if (row.hidden === shown.has(row)) row.hidden = !shown.has(row);
    range.textContent = found.length === 0 ? 'no agent matches' : (first + 1) + '–' + (first + shown.size) + ' of ' + found.length;
    prev.disabled = view.page === 0;
    next.disabled = view.page >= pages - 1;
    const wanted = new Set([...shown].map((r) => r.dataset.section));
    for (const s of sections) if (s.hidden === wanted.has(s.id)) s.hidden = !wanted.has(s.id);
  };
  const sortKey = (row, col) => {
    const cell = row.cells[col];
    return cell.dataset.v !== undefined ? Number(cell.dataset.v) : cell.textContent.toLowerCase();
  };
  const sortBy = (col) => {
    view.descending = view.col === col ? !view.descending : false;
    view.col = col;
    const order = new Map(rows.map((r, i) => [r, i]));
    rows.sort((a, b) => {
      const x = sortKey(a, col);
      const y = sortKey(b, col);
      const c = x < y ? -1 : x > y ? 1 : order.get(a) - order.get(b);
      return view.descending && x !== y ? -c : c;
    });
    tbody.append(...rows);
    for (const th of agentTable.tHead.rows[0].cells) th.removeAttribute('aria-sort');
    agentTable.tHead.rows[0].cells[col].setAttribute('aria-sort', view.descending ? 'descending' : 'ascending');
    view.page = 0;
    render();
  };
  const followAgent = () => {
    const hash = decodeURIComponent(location.hash.slice(1));
    const byAnchor = hash.startsWith('agent-') ? rows.find((r) => r.dataset.section === hash) : undefined;
    if (!hash.startsWith('agent=') && !byAnchor) return;
    view.exact = byAnchor ? byAnchor.dataset.agent : hash.slice(6);
    search.value = view.exact;
    view.page = 0;
    render();
    const row = rows.find((r) => r.dataset.agent === view.exact);
    const section = row ? document.getElementById(row.dataset.section) : null;
    if (section) {
      section.open = true;
      section.scrollIntoView();
    } else {
      range.textContent = 'no agent ' + view.exact;
    }
  };
  search.addEventListener('input', () => {
    view.exact = null;
    view.page = 0;
    render();
  });
  prev.addEventListener('click', () => { view.page--; render(); });
  next.addEventListener('click', () => { view.page++; render(); });
  agentTable.tHead.addEventListener('click', (event) => {
    const button = event.target.closest('button.sort');
    if (button) sortBy(Number(button.dataset.col));
  });
  window.addEventListener('hashchange', followAgent);
  render();
  followAgent();
}
`;
