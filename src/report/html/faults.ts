import { agentsHurt, faultsMet, type FaultsSection } from '../faults-section.js';
import { facts, note, section, table } from './html.js';

/** Rows of the agents table past this many are left out (a note says how many): a page of 100,000 agents stays readable. */
const MAX_ROWS = 200;

/**
 * report.html's Faults section (report.json `faults`): the profile, the faults met by kind, and the agents
 * a fault or a crash cost something, the crashed first. Empty (no section, no navigation entry) for a run
 * with no fault profile and no crash, so such pages keep their bytes.
 */
export function faultsParts(faults: FaultsSection | undefined): Array<[string, string, string]> {
  return faults ? [['faults', 'Faults', faultsSectionHtml(faults)]] : [];
}

export function faultsSectionHtml(faults: FaultsSection): string {
  const kinds = Object.entries(faults.met_by_kind);
  const overview = facts([
    ['profile', faults.profile ?? 'none (crashes only)'],
    ['faults met', kinds.reduce((sum, [, n]) => sum + n, 0)],
    ['agents that met one', faults.agents.filter((a) => faultsMet(a) > 0).length],
    ['agents crashed', faults.agents.filter((a) => a.crashed !== null).length],
  ]);
  const byKind = kinds.length > 0 ? table(['kind', 'met'], kinds) : '';
  const hurt = agentsHurt(faults).sort(
    (a, b) => Number(b.crashed !== null) - Number(a.crashed !== null) || (a.handle < b.handle ? -1 : 1),
  );
  const rows = hurt
    .slice(0, MAX_ROWS)
    .map((a) => [a.handle, faultsMet(a), a.retried, a.games_lost_while_faulted, a.crashed ?? '']);
  const agents =
    hurt.length === 0
      ? note('No agent crashed, retried a request or lost a game while a fault was active.')
      : table(
          ['agent', 'faults met', 'retried', 'games lost under a fault', 'crashed'],
          rows,
          '',
          rows.map((r) => (r[4] ? 'failed' : '')),
        );
  const more =
    hurt.length > MAX_ROWS
      ? note(`${hurt.length - MAX_ROWS} more agents are in report.json (faults.agents).`)
      : '';
  return section(
    'faults',
    'Faults',
    `<div class="grid"><div>${overview}</div><div>${byKind}</div></div>\n<h3>Agents a fault cost something</h3>\n${agents}${more}`,
  );
}
