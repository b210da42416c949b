/**
 * P6's start-up figures (issue 32): how long the overview `--help` takes, beside bare `node` started the same
 * way (the floor no command can go under), and the peak RSS of a command that writes no report: `diff` of two
 * small event logs. Each is the median of several runs in child processes, taken in turn.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { figureLine, median, megabytes, MB, type Goal } from './figures.js';
import type { ProbeReport } from './run-probe.js';
import { peakRss } from './scenario-run.js';
import { cliArgs } from './cli-process.js';

const PROBE = new URL('./run-probe.js', import.meta.url).href;
const HELP_GOAL: Goal = { better: 'lower', goal: 250, strict: true, unit: (n) => `${n} ms` };
const FLOOR_GOAL: Goal = { better: 'lower', goal: 80, strict: true, unit: (n) => `${n} MB` };

export function runStartupBench(options: { runs: number; log: (line: string) => void }): void {
  const { runs, log } = options;
  const node: number[] = [];
  const help: number[] = [];
  for (let i = 0; i < runs; i++) {
    node.push(wallMs(['-e', '']));
    help.push(wallMs(cliArgs(['--help'])));
  }
  const helpMs = median(help);
  log(
    `CLI start-up (median of ${runs} runs each, taken in turn; load average ${loadavg()[0]!.toFixed(2)} after):`,
  );
  log(`  ${figureLine('P6 overview --help', `${helpMs.toFixed(0)} ms`, helpMs, HELP_GOAL)}`);
  log(`  bare node -e '' at the same moments: ${median(node).toFixed(0)} ms (the floor of any command)`);
  const rss = diffPeakRss(runs);
  log(
    `  ${figureLine('P6 peak RSS of a command that writes no report (diff of two event logs)', megabytes(rss), rss / MB, FLOOR_GOAL)}`,
  );
}

function wallMs(args: string[]): number {
  const start = performance.now();
  const done = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (done.status !== 0) throw new Error(`node ${args.join(' ')} exited ${done.status}`);
  return performance.now() - start;
}

/** `diff` of two identical three-event logs, with bench/run-probe.ts reading the child's peak RSS at exit. */
function diffPeakRss(runs: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  try {
    const log = ['{"t":0,"type":"a"}', '{"t":1,"type":"b"}', '{"t":2,"type":"c"}', ''].join('\n');
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    writeFileSync(a, log);
    writeFileSync(b, log);
    const peaks: number[] = [];
    for (let i = 0; i < runs; i++) {
      const probeFile = join(dir, 'probe.json');
      const done = spawnSync(process.execPath, cliArgs(['diff', a, b], ['--import', PROBE]), {
        stdio: 'ignore',
        env: { ...process.env, BENCH_PROBE_FILE: probeFile },
      });
      if (done.status !== 0) throw new Error(`diff exited ${done.status}`);
      const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeReport;
      peaks.push(peakRss(probe));
    }
    return median(peaks);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
