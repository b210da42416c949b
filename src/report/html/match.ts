import { MATCH_HEADER, matchCells, matchHeadline, matchRows, type AgentMatch } from '../agent-match.js';
import { esc, note, section, table } from './html.js';

/**
 * `run --agent`'s match, the first section of its report.html: what the run was for, before the
 * population-wide sections. The same rows as summary.md and report.json's `match`.
 */
export function matchSection(m: AgentMatch): string {
  const rows = matchRows(m).map((r) => matchCells(r));
  const body = [
    `<p><strong>${esc(matchHeadline(m))}</strong></p>`,
    rows.length > 0 ? table(MATCH_HEADER, rows) : note('The agent finished no game.'),
    note(m.method),
  ].join('\n');
  return section('match', `Match: ${m.player}`, body);
}
