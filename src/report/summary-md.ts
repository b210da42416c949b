import type { RunContext } from './junit.js';
import type { Report } from './report.js';
import { markdownTable, verdictSections, type TableSection } from './verdict-table.js';
import { mdCode, mdText } from './markdown.js';
import { MATCH_HEADER, matchCells, matchHeadline, matchRows } from './agent-match.js';
import { invariantStatus, statusCounts } from '../sim/invariants/exercised.js';
import { agentsHurt, faultsMet } from './faults-section.js';

/**
 * summary.md: the run in a few lines of Markdown for a CI step summary (`cat summary.md >>
 * "$GITHUB_STEP_SUMMARY"`): the outcome, the verdict tables, every invariant's result, and the replay
 * command when something broke. Built from the report alone, so a seed gives the same bytes.
 */
export function summaryMarkdown(report: Report, context: RunContext): string {
  const crossCheckFailed = context.crossCheck !== undefined && !context.crossCheck.passed;
  const lines = [
    `## agent-chess-sim: ${inline(report.scenario.name)} (seed ${inline(report.scenario.seed)})`,
    '',
    ...matchBlock(report),
    `${report.passed ? '**Passed**' : '**FAILED**'}: ${invariantCounts(report)}${crossCheckFailed ? '; the ledger cross-check failed' : ''}.`,
    `${report.counts.agents} agents, ${report.counts.games_completed} of ${report.counts.games_started} games finished, ${report.counts.moves} moves, ${report.requests.total} requests (${report.requests.rejected} refused). Fingerprint \`${report.fingerprint}\`.`,
    '',
    ...verdictBlock(report),
    ...faultsBlock(report),
    '### Invariants',
    '',
    ...markdownTable({
      title: '',
      header: ['invariant', 'result', 'checks'],
      rows: report.invariants.map(invariantRow),
    }),
    ...(context.crossCheck ? ['', `Ledger cross-check: ${inline(context.crossCheck.line)}`] : []),
    '',
    `Replay: ${mdCode(context.replay)}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `run --agent`: what the run was for, first. */
function matchBlock(report: Report): string[] {
  const m = report.match;
  if (!m) return [];
  const rows = matchRows(m).map(matchCells);
  return [
    `### Match: ${mdText(m.player)}`,
    '',
    `**${mdText(matchHeadline(m))}**`,
    '',
    ...(rows.length > 0
      ? markdownTable(escapedSection({ title: '', header: MATCH_HEADER, rows }))
      : ['The agent finished no game.']),
    '',
    mdText(m.method),
    '',
  ];
}

function verdictBlock(report: Report): string[] {
  if (report.verdicts.agents.length === 0) return [];
  return verdictSections(report.verdicts).flatMap((section) => [
    `### Verdicts: ${section.title}`,
    '',
    ...markdownTable(escapedSection(section)),
    '',
  ]);
}

/** The fault profile's section (report.json `faults`): what was met, then the agents it hurt. */
function faultsBlock(report: Report): string[] {
  const section = report.faults;
  if (!section) return [];
  const kinds = Object.entries(section.met_by_kind).map(([k, n]) => `${k} ${n}`);
  const rows = agentsHurt(section).map((a) => [
    a.handle,
    String(faultsMet(a)),
    String(a.retried),
    String(a.games_lost_while_faulted),
    a.crashed ?? '',
  ]);
  const header = ['agent', 'faults met', 'retried', 'games lost under a fault', 'crashed'];
  return [
    '### Faults',
    '',
    mdText(`Profile: ${section.profile ?? 'none'}. Faults met: ${kinds.join(', ') || 'none'}.`),
    '',
    ...(rows.length > 0 ? [...markdownTable(escapedSection({ title: '', header, rows })), ''] : []),
  ];
}

/** A verdict table's cells (handles, group and persona names come from the scenario) as inert text; markdownTable escapes the pipes. */
function escapedSection(section: TableSection): TableSection {
  return { ...section, header: section.header.map(mdText), rows: section.rows.map((row) => row.map(mdText)) };
}

/** "14 invariants: 9 held, 5 not exercised", then why a required one failed the run. */
function invariantCounts(report: Report): string {
  const counts = `${report.invariants.length} invariants: ${statusCounts(report.invariants.map(invariantStatus))}`;
  return [counts, ...report.required_not_exercised.map((r) => inline(r.message))].join('; ');
}

function invariantRow(inv: Report['invariants'][number]): string[] {
  const name = inline(inv.name);
  if (inv.passed && inv.checks > 0) return [name, 'ok', String(inv.checks)];
  if (inv.passed) return [name, inv.required ? '**not exercised** (required)' : 'not exercised', '0'];
  const first = inv.violations[0]?.message ?? '';
  return [name, `**FAILED** ${inv.violationCount} time(s): ${inline(first)}`, String(inv.checks)];
}

/** A string from the scenario or the run (names, messages) as one line of inert Markdown. */
function inline(text: string): string {
  return mdText(text);
}
