import type { RunContext } from './junit.js';
import type { Report } from './report.js';
import { markdownTable, verdictSections } from './verdict-table.js';
import { invariantStatus, statusCounts } from '../sim/invariants/exercised.js';

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
    `${report.passed ? '**Passed**' : '**FAILED**'}: ${invariantCounts(report)}${crossCheckFailed ? '; the ledger cross-check failed' : ''}.`,
    `${report.counts.agents} agents, ${report.counts.games_completed} of ${report.counts.games_started} games finished, ${report.counts.moves} moves, ${report.requests.total} requests (${report.requests.rejected} refused). Fingerprint \`${report.fingerprint}\`.`,
    '',
    ...verdictBlock(report),
    '### Invariants',
    '',
    ...markdownTable({
      title: '',
      header: ['invariant', 'result', 'checks'],
      rows: report.invariants.map(invariantRow),
    }),
    ...(context.crossCheck ? ['', `Ledger cross-check: ${inline(context.crossCheck.line)}`] : []),
    '',
    `Replay: \`${context.replay}\``,
  ];
  return `${lines.join('\n')}\n`;
}

function verdictBlock(report: Report): string[] {
  if (report.verdicts.agents.length === 0) return [];
  return verdictSections(report.verdicts).flatMap((section) => [
    `### Verdicts: ${section.title}`,
    '',
    ...markdownTable(section),
    '',
  ]);
}

/** "14 invariants: 9 held, 5 not exercised", then why a required one failed the run. */
function invariantCounts(report: Report): string {
  const counts = `${report.invariants.length} invariants: ${statusCounts(report.invariants.map(invariantStatus))}`;
  return [counts, ...report.required_not_exercised.map((r) => r.message)].join('; ');
}

function invariantRow(inv: Report['invariants'][number]): string[] {
  if (inv.passed && inv.checks > 0) return [inv.name, 'ok', String(inv.checks)];
  if (inv.passed) return [inv.name, inv.required ? '**not exercised** (required)' : 'not exercised', '0'];
  const first = inv.violations[0]?.message ?? '';
  return [inv.name, `**FAILED** ${inv.violationCount} time(s): ${inline(first)}`, String(inv.checks)];
}

/** One line of Markdown: no line breaks, and no backticks that would open code spans. */
function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/`/g, "'");
}
