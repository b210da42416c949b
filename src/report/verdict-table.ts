import type { AgentVerdict, GroupVerdict, Performance, Verdicts } from './verdicts.js';

/**
 * The verdicts as a compact table, for the console summary and summary.md: one row per group and per agent
 * (name, games, W/D/L, score, Elo against the field with its 95% interval, games lost on time). A run with
 * many agents shows every group but only the best and worst few agents, ranked by score.
 */

/** Up to this many agents, every one gets a row; beyond it, only the top and bottom few. */
export const ALL_AGENTS_UP_TO = 12;
export const TOP_AND_BOTTOM = 3;

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
  sections.push({ title, header: ['agent', 'vs', ...HEADER], rows: agents.map(agentRow) });
  return sections;
}

function agentSelection(agents: readonly AgentVerdict[]): { title: string; agents: AgentVerdict[] } {
  if (agents.length <= ALL_AGENTS_UP_TO) return { title: `agents (${agents.length})`, agents: [...agents] };
  const ranked = agents.filter((a) => a.games > 0).sort(byScoreDescending);
  const top = ranked.slice(0, TOP_AND_BOTTOM);
  const bottom = ranked.slice(Math.max(top.length, ranked.length - TOP_AND_BOTTOM));
  const idle = agents.length - ranked.length;
  const title = `agents: top ${top.length} and bottom ${bottom.length} of ${agents.length} by score${idle > 0 ? ` (${idle} played no game)` : ''}`;
  return { title, agents: [...top, ...bottom] };
}

/** Best score first; more games first among equals (the surer result); then handle, so ties list the same way every run. */
function byScoreDescending(a: AgentVerdict, b: AgentVerdict): number {
  return (b.score ?? 0) - (a.score ?? 0) || b.games - a.games || (a.handle < b.handle ? -1 : 1);
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

function agentRow(a: AgentVerdict): string[] {
  const opponents = a.vs.map((v) => v.opponent).join(',');
  return [
    a.handle,
    opponents || '-',
    String(a.games),
    wdl(a),
    percent(a.score),
    eloInterval(a.performance),
    String(a.timeouts),
  ];
}

function wdl(t: { wins: number; draws: number; losses: number }): string {
  return `${t.wins}/${t.draws}/${t.losses}`;
}

export function percent(score: number | null): string {
  return score === null ? '-' : `${(score * 100).toFixed(1)}%`;
}

/** `+88 [+12, +170]`; a perfect score has no finite difference: `+inf [+312, +inf]`. */
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
