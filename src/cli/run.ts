import type { ArgumentsCamelCase, Argv } from 'yargs';
import { loadScenarioFile, ScenarioError } from '../sim/scenario.js';
import { runScenario } from '../sim/world.js';
import { writeRunReport } from '../report/write.js';
import { socialLines, type Report } from '../report/report.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeCrossCheck } from '../escrow/litesvm.js';

interface RunArgs {
  scenario: string;
  seed?: string;
  out: string;
  progress: boolean;
  crossCheck?: boolean;
}

export const runCommand = {
  command: 'run <scenario>',
  describe: 'Run a scenario on the virtual clock and write report.json and games.pgn',
  builder: (y: Argv) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario YAML file, e.g. scenarios/smoke.yaml' })
      .option('seed', { type: 'string', describe: "override the scenario's seed" })
      .option('out', { type: 'string', default: 'reports/latest', describe: 'directory for report.json and games.pgn' })
      .option('progress', { type: 'boolean', default: true, describe: 'print progress to stderr' })
      .option('cross-check', { type: 'boolean', describe: 'replay every ledger transfer through the real Solana runtime (litesvm) and compare balances; writes crosscheck.txt' })
      .example('$0 run scenarios/smoke.yaml --seed 7 --out reports/smoke', 'run the smoke scenario with seed 7'),
  handler: async (args: ArgumentsCamelCase<RunArgs>) => {
    process.exitCode = await run(args);
  },
};

/** Exit codes: 0 all invariants held, 1 an invariant broke, 2 the scenario is invalid. */
async function run(args: RunArgs): Promise<number> {
  let scenario;
  try {
    scenario = loadScenarioFile(args.scenario, args.seed);
  } catch (error) {
    if (error instanceof ScenarioError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const started = performance.now(); // wall time for the human only; never written to the report
  const progress = args.progress ? progressPrinter(scenario.name) : undefined;
  const outcome = await explainScenarioErrors(() => runScenario(scenario, progress, args.crossCheck === undefined ? {} : { crossCheck: args.crossCheck }));
  if (!outcome) return 2;
  if (args.progress) process.stderr.write('\n');
  const { report, files } = writeRunReport(args.out, scenario, outcome);
  printSummary(report, files, (performance.now() - started) / 1000);
  if (outcome.crossCheck) {
    // Kept out of report.json: a run with and without the cross-check must give the same report bytes.
    const line = describeCrossCheck(outcome.crossCheck);
    writeFileSync(join(args.out, 'crosscheck.txt'), `${line}\n`);
    process.stdout.write(`${line}\n`);
  }
  if (outcome.failed) {
    printReplay(args, scenario.seed, report);
    return 1;
  }
  return 0;
}

/**
 * A scenario whose agent modules fail to load is refused when the world populates, before any event: the
 * same one-line-per-problem message and exit code 2 as a bad scenario file.
 */
export async function explainScenarioErrors<T>(start: () => Promise<T>): Promise<T | undefined> {
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}

function progressPrinter(name: string) {
  let last = -1;
  return (fraction: number) => {
    const percent = Math.floor(fraction * 100);
    if (percent === last || !process.stderr.isTTY) return;
    last = percent;
    process.stderr.write(`\r${name}: ${percent}% of virtual time`);
  };
}

function printSummary(report: Report, files: string[], seconds: number): void {
  const c = report.counts;
  const endings = Object.entries(report.results_by_ending).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ');
  const lines = [
    `${report.scenario.name} (seed ${report.scenario.seed}): ${c.agents} agents, ${c.games_completed}/${c.games_started} games finished, ${c.moves} moves, ${report.requests.total} requests`,
    `endings: ${endings || 'none'}`,
    ...moneyLines(report),
    ...socialLines(report),
    `invariants: ${report.invariants.map((i) => `${i.name} ${i.passed ? 'ok' : `FAILED (${i.violationCount})`}`).join(', ')}`,
    `fingerprint: ${report.fingerprint}`,
    `wrote ${files.join(', ')} in ${seconds.toFixed(1)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printReplay(args: RunArgs, seed: string, report: Report): void {
  const failed = report.invariants.filter((i) => !i.passed);
  for (const inv of failed) {
    process.stderr.write(`invariant ${inv.name} broke ${inv.violationCount} time(s); first: ${inv.violations[0]?.message ?? '?'}\n`);
  }
  process.stderr.write(`seed: ${seed}\nreplay: npx agent-chess-sim run ${args.scenario} --seed ${seed} --out ${args.out}\n`);
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
