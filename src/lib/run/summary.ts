import type { Report } from '../../report/report.js';
import { socialLines } from '../../report/report.js';
import { verdictLines } from '../../report/verdict-table.js';
import { invariantStatus, statusCounts } from '../../sim/invariants/exercised.js';

/** The lines `run` prints on stdout once its report is written. */
export function summaryLines(report: Report, files: string[], seconds: number): string[] {
  const c = report.counts;
  const endings = Object.entries(report.results_by_ending)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `${report.scenario.name} (seed ${report.scenario.seed}): ${c.agents} agents, ${c.games_completed}/${c.games_started} games finished, ${c.moves} moves, ${report.requests.total} requests`,
    `endings: ${endings || 'none'}`,
    ...moneyLines(report),
    ...socialLines(report),
    ...verdictLines(report.verdicts),
    invariantsLine(report),
    `fingerprint: ${report.fingerprint}`,
    `wrote ${files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
}

/** Each invariant with its checks; one that ran none reads "not exercised", in capitals when the scenario required it. */
export function invariantsLine(report: Report): string {
  const statuses = report.invariants.map(invariantStatus);
  const items = report.invariants.map((i, n) => {
    if (statuses[n] === 'broken') return `${i.name} FAILED (${i.violationCount})`;
    if (statuses[n] === 'held') return `${i.name} ok (${i.checks} checks)`;
    return `${i.name} ${i.required ? 'NOT EXERCISED (required)' : 'not exercised'} (0 checks)`;
  });
  return `invariants (${statusCounts(statuses)}): ${items.join(', ')}`;
}

/** What a failed run prints on stderr: each broken invariant's first violation, each required one that ran no check, the seed and the replay command. */
export function failureLines(report: Report, replay: string): string[] {
  const broken = report.invariants
    .filter((i) => !i.passed)
    .map(
      (inv) =>
        `invariant ${inv.name} broke ${inv.violationCount} time(s); first: ${inv.violations[0]?.message ?? '?'}`,
    );
  return [
    ...broken,
    ...report.required_not_exercised.map(({ message }) => message),
    `seed: ${report.scenario.seed}`,
    `replay: ${replay}`,
  ];
}

/** Money and tournaments, only when the run had any. */
function moneyLines(report: Report): string[] {
  const m = report.money;
  if (m.transfers === 0) return [];
  const lines = [
    `money: ${m.transfers} transfers (${m.transfers_retried} retries, ${m.transfers_in_flight_at_end} in flight at the end); escrows ${m.escrows.opened} opened, ${m.escrows.paid_out} paid out, ${m.escrows.refunded} refunded`,
  ];
  const t = report.tournaments;
  if (t.length > 0) {
    const done = t.filter((x) => x.status === 'completed').length;
    const cancelled = t.filter((x) => x.status === 'cancelled').length;
    lines.push(`tournaments: ${t.length} created, ${done} completed, ${cancelled} cancelled`);
  }
  return lines;
}
