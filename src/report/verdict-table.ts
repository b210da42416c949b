import type { AgentVerdict, GroupVerdict, Performance, PoolRating, Verdicts } from './verdicts.js';

/**
 * The verdicts as a compact table, for the console summary and summary.md: one row per group and per agent
 * (name, games, W/D/L, score, Elo against the field with its 95% interval, games lost on time; for agents,
 * the pool rating with its interval). Agents are ranked by pool rating, and only those with at least
 * MIN_RANKED_GAMES games: fewer leave the rating mostly prior, so they are listed after the ranked ones,
 * marked unranked, never in a "top 3". A run with many agents shows every group but only the best and
 * worst few ranked agents. A group's Elo is against the other groups only (games within it excluded).
 */

/** Up to this many agents, every one gets a row; beyond it, only the top and bottom few. */
export const ALL_AGENTS_UP_TO = 12;
export const TOP_AND_BOTTOM = 3;
/** An agent with fewer games than this is listed but not ranked. */
export const MIN_RANKED_GAMES = 10;

export interface TableSection {
  title: string;
  header: string[];
  rows: string[][];
}

const HEADER = ['games', 'W/D/L', 'score', 'Elo vs field [95%]', 'timeouts'];

export function verdictSections(verdicts: Verdicts): TableSection[] {
  const sections: TableSection[] = [];
  const showGroups = verdicts.groups.length > 1 && verdicts.groups.length < verdicts.agents.length;
  if (showGroups || verdicts.agents.length > ALL_AGENTS_UP_TO) {
    const timeouts = timeoutsByGroup(verdicts.agents);
    const rows = verdicts.groups.map((g) => groupRow(g, timeouts.get(g.group) ?? 0));
    sections.push({
      title: `groups (${verdicts.groups.length})`,
      header: ['group', 'persona', 'agents', ...HEADER],
      rows,
    });
  }
  const { title, agents } = agentSelection(verdicts.agents);
  sections.push({
    title,
    header: ['#', 'agent', 'vs', ...HEADER, 'pool Elo [95%]'],
    rows: agents.map(({ rank, agent }) => agentRow(rank, agent)),
  });
  return sections;
}

type Listed = { rank: number | null; agent: AgentVerdict };

function agentSelection(agents: readonly AgentVerdict[]): { title: string; agents: Listed[] } {
  const ranked = agents.filter((a) => a.games >= MIN_RANKED_GAMES).sort(byRatingDescending);
  const listed = ranked.map((agent, i): Listed => ({ rank: i + 1, agent }));
  const unranked = agents.filter((a) => a.games < MIN_RANKED_GAMES);
  const rule = `ranked by pool Elo, at least ${MIN_RANKED_GAMES} games to be ranked`;
  if (agents.length <= ALL_AGENTS_UP_TO) {
    const rest = [...unranked].sort(byRatingDescending).map((agent): Listed => ({ rank: null, agent }));
    return { title: `agents (${agents.length}; ${rule})`, agents: [...listed, ...rest] };
  }
  const top = listed.slice(0, TOP_AND_BOTTOM);
  const bottom = listed.slice(Math.max(top.length, listed.length - TOP_AND_BOTTOM));
  const few = unranked.length > 0 ? `; ${unranked.length} with fewer games not ranked` : '';
  const title = `agents: top ${top.length} and bottom ${bottom.length} of ${agents.length} (${rule}${few})`;
  return { title, agents: [...top, ...bottom] };
}

/** Best pool rating first; then more games (the surer result); then handle, so ties list the same way every run. */
function byRatingDescending(a: AgentVerdict, b: AgentVerdict): number {
  const rating = (v: AgentVerdict) => v.pool?.elo ?? -Infinity;
  return rating(b) - rating(a) || b.games - a.games || (a.handle < b.handle ? -1 : 1);
}

/** Groups carry no timeout count of their own in report.json: the agents' counts, summed here for the table. */
function timeoutsByGroup(agents: readonly AgentVerdict[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of agents) out.set(a.group, (out.get(a.group) ?? 0) + a.timeouts);
  return out;
}

function groupRow(g: GroupVerdict, timeouts: number): string[] {
  return [
    g.group,
    g.persona,
    String(g.agents),
    String(g.games),
    wdl(g),
    percent(g.score),
    eloInterval(g.performance),
    String(timeouts),
  ];
}

function agentRow(rank: number | null, a: AgentVerdict): string[] {
  const opponents = a.vs.map((v) => v.opponent).join(',');
  return [
    rank === null ? '-' : String(rank),
    a.name,
    opponents || '-',
    String(a.games),
    wdl(a),
    percent(a.score),
    eloInterval(a.performance),
    String(a.timeouts),
    poolInterval(a.pool),
  ];
}

/** `+120 [+40, +200]`, or `-` for an agent that played no game. */
export function poolInterval(p: PoolRating | null): string {
  return p === null ? '-' : `${signedElo(p.elo)} [${signedElo(p.low)}, ${signedElo(p.high)}]`;
}

function wdl(t: { wins: number; draws: number; losses: number }): string {
  return `${t.wins}/${t.draws}/${t.losses}`;
}

export function percent(score: number | null): string {
  return score === null ? '-' : `${(score * 100).toFixed(1)}%`;
}

/** `+88 [+12, +170]`; `-` without games. (Every interval is finite now; `inf` stays for old reports read back.) */
export function eloInterval(p: Performance): string {
  if (p.elo_diff === null && p.low === null && p.high === null) return '-';
  const diff = p.elo_diff ?? (p.low !== null ? Infinity : -Infinity);
  return `${signedElo(diff)} [${signedElo(p.low ?? -Infinity)}, ${signedElo(p.high ?? Infinity)}]`;
}

function signedElo(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
  const whole = Math.round(x);
  return whole > 0 ? `+${whole}` : String(whole === 0 ? 0 : whole);
}

/** Plain-text columns, padded; numbers right-aligned. */
export function textTable(section: TableSection): string[] {
  const rows = [section.header, ...section.rows];
  const widths = section.header.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const numeric = section.header.map((_, c) =>
    section.rows.every((r) => /^[-+\d./%\s[\],inf]*$/.test(r[c] ?? '')),
  );
  const line = (r: string[]) =>
    r
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  return [`${section.title}:`, ...rows.map((r) => `  ${line(r)}`)];
}

/** A GitHub-flavoured Markdown table; `|` inside a cell is escaped. */
export function markdownTable(section: TableSection): string[] {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    `| ${section.header.map(cell).join(' | ')} |`,
    `|${section.header.map(() => '---').join('|')}|`,
    ...section.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

export function verdictLines(verdicts: Verdicts): string[] {
  if (verdicts.agents.length === 0) return [];
  return verdictSections(verdicts).flatMap(textTable);
}
