import type { AgentVerdict, Performance, PoolRating, Verdicts, VsRow } from '../verdicts.js';
import { AGENT_PAGE_ROWS, agentLink, agentTable, type AgentRow } from './agent-table.js';
import { agentAnchor, eloDiff, esc, facts, fixed, section, table, type Cell } from './html.js';

/**
 * The Elo difference and its 95 % interval. A null is undefined: no games at all, or a bound (or the
 * estimate itself, at a 0 % or 100 % score) at infinity, on the side the score points to.
 */
function perf(p: Performance | undefined, row: { games: number; score: number | null }): string {
  if (!p || row.games === 0) return '—';
  const sign = (row.score ?? 0.5) >= 0.5 ? 1 : -1;
  return `${eloDiff(p.elo_diff ?? sign * Infinity)} [${eloDiff(p.low ?? -Infinity)}, ${eloDiff(p.high ?? Infinity)}]`;
}

/** The pool rating and its 95 % interval; — for an agent with no game. */
function pool(p: PoolRating | null | undefined): string {
  return p ? `${eloDiff(p.elo)} [${eloDiff(p.low)}, ${eloDiff(p.high)}]` : '—';
}

/** A score as a share of the points: 0.585 -> 58.5 %. */
function score(value: number | null): string {
  return value === null ? '—' : `${fixed(value * 100, 1)} %`;
}

function wdl(row: { wins: number; draws: number; losses: number }): string {
  return `${row.wins} / ${row.draws} / ${row.losses}`;
}

function vsTable(rows: VsRow[]): string {
  if (rows.length === 0) return '<p class="note">No finished games.</p>';
  return table(
    ['against', 'games', 'W / D / L', 'score'],
    rows.map((r) => [r.opponent, r.games, wdl(r), score(r.score)]),
  );
}

export function groupVerdictsSection(v: Verdicts): string {
  const rows = v.groups.map((g): Cell[] => [
    g.group,
    g.persona,
    g.agents,
    g.games,
    wdl(g),
    score(g.score),
    g.field ? perf(g.performance, g.field) : perf(g.performance, g),
  ]);
  const summary = table(
    ['group', 'persona', 'agents', 'games', 'W / D / L', 'score', 'vs other groups (Elo, 95 %)'],
    rows,
  );
  const vs = v.groups
    .map(
      (g) =>
        `<details><summary>${esc(g.group)} against each kind of opponent</summary>${vsTable(g.vs)}</details>`,
    )
    .join('\n');
  return section('verdicts', 'Verdicts by group', `${summary}\n${vs}`);
}

/**
 * One table with a row per agent (paged, sortable and searchable: agent-table.ts), then a collapsible
 * section per agent (its "page"), opened from the table's links or `#agent=handle`.
 */
export function agentVerdictsSection(v: Verdicts): string {
  const rows = v.agents.map((a): AgentRow => ({
    handle: a.handle,
    find: `${a.name} ${a.handle} ${a.group}`.toLowerCase(),
    cells: [
      { text: a.name, html: agentLink(a.handle, a.name) },
      { text: a.group },
      { text: String(a.games), sortBy: a.games },
      { text: wdl(a), sortBy: a.wins },
      { text: score(a.score), sortBy: a.score ?? -1 },
      { text: `${a.elo_start} → ${a.elo_final}`, sortBy: a.elo_final },
      { text: perf(a.performance, a), sortBy: a.performance?.elo_diff ?? undefined },
      { text: pool(a.pool), sortBy: a.pool?.elo },
      { text: String(a.timeouts), sortBy: a.timeouts },
      { text: String(refusedTotal(a)), sortBy: refusedTotal(a) },
    ],
  }));
  const overview = agentTable(
    [
      'agent',
      'group',
      'games',
      'W / D / L',
      'score',
      'Elo',
      'performance (Elo, 95 %)',
      'pool rating (Elo, 95 %)',
      'timeouts',
      'refused',
    ],
    rows,
  );
  const pages = v.agents.map((a, i) => agentPage(a, i >= AGENT_PAGE_ROWS)).join('\n');
  return section('agents', 'Verdicts by agent', `${overview}\n<div class="agent-pages">\n${pages}\n</div>`);
}

function refusedTotal(a: AgentVerdict): number {
  return Object.values(a.refused ?? {}).reduce((sum, n) => sum + n, 0);
}

/** An agent's section; `hidden` past the table's first page, like its row (agent-table.ts). */
function agentPage(a: AgentVerdict, hidden: boolean): string {
  const refused = Object.entries(a.refused ?? {}).sort(([x], [y]) => (x < y ? -1 : 1));
  const summary = facts([
    ['persona / group', `${a.persona} / ${a.group}`],
    ['games (W / D / L)', `${a.games} (${wdl(a)})`],
    ['score', score(a.score)],
    ['Elo', `${a.elo_start} → ${a.elo_final}`],
    ['performance (Elo, 95 %)', perf(a.performance, a)],
    ['pool rating (Elo, 95 %)', pool(a.pool)],
    ['timeouts', a.timeouts],
    [
      'refused requests',
      refused.length === 0 ? 'none' : refused.map(([code, n]) => `${code} ${n}`).join(', '),
    ],
    ['requests on its busiest day', `${a.requests_max_per_day} of ${a.requests_limit}`],
    [
      'games in the viewer',
      { html: `<a href="#games=${encodeURIComponent(a.name)}">replay ${esc(a.name)}'s games</a>` },
    ],
  ]);
  const id = agentAnchor(a.handle);
  return `<details id="${id}" class="agent"${hidden ? ' hidden' : ''}><summary>${esc(a.name)} <span class="muted">${esc(a.group)}, ${a.elo_start} → ${a.elo_final}</span></summary>\n${summary}\n<h4>Against each kind of opponent</h4>\n${vsTable(a.vs)}\n</details>`;
}
