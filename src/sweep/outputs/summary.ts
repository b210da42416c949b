import { mdCell, mdCode, mdText, pipes } from '../../report/markdown.js';
import type { SweepResult } from '../sweep-result.js';

/** How many failing seeds the summary lists; sweep.json lists them all. */
const MAX_FAILURE_ROWS = 50;

/**
 * summary.md: the sweep in Markdown for a CI step summary (GitHub's $GITHUB_STEP_SUMMARY): the verdict,
 * the failing seeds with their replay commands, each invariant's tally and each metric's statistics.
 */
export function sweepSummary(sweep: SweepResult): string {
  return [...headline(sweep), ...failures(sweep), ...invariants(sweep), ...metrics(sweep)].join('\n');
}

function headline(sweep: SweepResult): string[] {
  const c = sweep.counts;
  const verdict = sweep.passed ? 'all passed' : `${c.seeds - c.passed} failing`;
  return [
    `## agent-chess-sim sweep: ${mdText(sweep.scenario.name)}, seeds ${mdText(sweep.seeds.spec)}`,
    '',
    `**${c.seeds} seeds, ${verdict}**: ${c.passed} passed, ${c.failed} broke an invariant, ${c.crashed} crashed, ${c.timed_out} timed out, ${c.lost} lost.`,
    `Scenario ${mdCode(sweep.scenario.file)} (sha256 ${mdCode(sweep.scenario.sha256.slice(0, 12))}), agent-chess-sim ${mdText(sweep.version)}.`,
    '',
  ];
}

function failures(sweep: SweepResult): string[] {
  if (sweep.failures.length === 0) return [];
  const rows = sweep.failures
    .slice(0, MAX_FAILURE_ROWS)
    .map((f) => `| ${f.seed} | ${f.status} | ${mdCell(f.reason)} | ${pipes(mdCode(f.replay))} |`);
  const more = sweep.failures.length - rows.length;
  return [
    '### Failing seeds',
    '',
    '| seed | status | reason | replay |',
    '|---:|---|---|---|',
    ...rows,
    ...(more > 0 ? ['', `and ${more} more in sweep.json.`] : []),
    '',
  ];
}

function invariants(sweep: SweepResult): string[] {
  if (sweep.invariants.length === 0) return [];
  return [
    '### Invariants',
    '',
    '| invariant | seeds held | seeds broke | seeds not exercised (0 checks) |',
    '|---|---:|---:|---:|',
    ...sweep.invariants.map((i) => `| ${mdCell(i.name)} | ${i.held} | ${i.broke} | ${i.not_exercised} |`),
    '',
  ];
}

function metrics(sweep: SweepResult): string[] {
  const entries = Object.entries(sweep.aggregate).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return [];
  const n = entries[0]![1].n;
  return [
    `### Metrics over the ${n} seed${n === 1 ? '' : 's'} that ran to the end`,
    '',
    '| metric | mean | sd | min | p50 | p90 | p95 | p99 | max |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...entries.map(
      ([name, s]) =>
        `| ${mdCell(name)} | ${s.mean} | ${s.sd} | ${s.min} | ${s.p50} | ${s.p90} | ${s.p95} | ${s.p99} | ${s.max} |`,
    ),
    '',
  ];
}
