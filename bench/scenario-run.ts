/**
 * P2 and P2b, and P4's crowd memory: one whole scenario run in a child process, exactly as a user runs it
 * (`agent-chess-sim run <scenario> --out <tmp>`, the bin's node flags included), timed by the wall clock from spawn to exit
 * (node's start-up, the report and its files included). The compression is the scenario's virtual duration
 * over that wall time. The child's peak RSS comes from bench/run-probe.ts, preloaded with `--import`: it
 * writes getrusage's maxRSS and /proc/self/status VmHWM to a file from the child's `exit` handler.
 *
 * One run each, not a median: the smoke takes some 20 s and crowd-5000 a minute or more, and this machine
 * is shared, so a figure here is one sample; the line says so.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenarioFile } from '../src/sim/scenario/scenario.js';
import type { ProbeReport } from './run-probe.js';
import { BIN_NODE_FLAGS, cliArgs } from './cli-process.js';
import {
  figureLine,
  GIB,
  goalText,
  gibibytes,
  megabytes,
  MB,
  projectLinear,
  times,
  type ProbeSample,
  type Goal,
} from './figures.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = new URL('./run-probe.js', import.meta.url).href;

export interface ChildRun {
  scenario: { name: string; durationMs: number; agents: number };
  wallMs: number;
  /** Wall time the probe spent collecting garbage (taken off `wallMs` for the compression). */
  probeGcMs: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  probe: ProbeReport | undefined;
  /** The last lines of the child's stderr and stdout, for a failed run's message. */
  tail: string;
}

/** Runs `scenarioPath` (absolute, or relative to the repository) to its end in a child; `gcAt` asks the probe for live-heap samples. */
export async function runScenarioChild(
  scenarioPath: string,
  gcAt: number[] = [],
  nodeFlags: string[] = [],
): Promise<ChildRun> {
  const path = isAbsolute(scenarioPath) ? scenarioPath : join(ROOT, scenarioPath);
  const scenario = loadScenarioFile(path);
  const agents = scenario.population.reduce((sum, group) => sum + group.count, 0);
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
  const probeFile = join(dir, 'probe.json');
  try {
    const start = performance.now();
    const args = cliArgs(['run', path, '--out', join(dir, 'out')], [...nodeFlags, '--import', PROBE]);
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, BENCH_PROBE_FILE: probeFile, BENCH_PROBE_GC_AT: gcAt.join(',') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-2000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
      (resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code, sig) => resolve([code, sig]));
      },
    );
    const wallMs = performance.now() - start;
    let probe: ProbeReport | undefined;
    try {
      probe = JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeReport;
    } catch {
      probe = undefined; // killed by a signal: no exit handler ran
    }
    return {
      scenario: { name: scenario.name, durationMs: scenario.durationMs, agents },
      wallMs,
      probeGcMs: probe?.gcMs ?? 0,
      exitCode,
      signal,
      probe,
      tail,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The peak RSS the probe saw: the larger of its two readings (they agree to a page or so on Linux). */
export function peakRss(probe: ProbeReport | undefined): number {
  if (!probe) return Number.NaN;
  return Math.max(probe.maxRssBytes, probe.vmHwmBytes ?? 0);
}

function virtualLabel(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 1
    ? `${Number(hours.toFixed(1))} virtual hours`
    : `${Math.round(ms / 60_000)} virtual minutes`;
}

function outcome(run: ChildRun): string {
  if (run.exitCode === 0) return '';
  return run.signal ? `; the run was killed by ${run.signal}` : `; the run exited ${run.exitCode}`;
}

/** The compression and peak-RSS lines of one child run. */
function compressionLines(
  label: string,
  run: ChildRun,
  goals: { ratio: [number, number]; rssMb?: number },
): string[] {
  const wall = run.wallMs - run.probeGcMs;
  const ratio = run.scenario.durationMs / wall;
  const gcNote =
    run.probeGcMs > 0 ? `, less ${(run.probeGcMs / 1000).toFixed(1)} s of the probe's heap samples` : '';
  const lines = [
    figureLine(
      `${label} ${run.scenario.name} (${run.scenario.agents} agents, ${virtualLabel(run.scenario.durationMs)}), virtual/wall, one run`,
      `${times(ratio)} (${(wall / 1000).toFixed(1)} s wall from spawn to exit${gcNote}${outcome(run)})`,
      ratio,
      {
        better: 'higher',
        goal: goals.ratio[0],
        aim: goals.ratio[1],
        unit: (n) => `${n.toLocaleString('en-US')}x`,
      },
    ),
  ];
  const rss = peakRss(run.probe);
  const how = run.probe
    ? `getrusage maxRSS ${megabytes(run.probe.maxRssBytes)}, VmHWM ${run.probe.vmHwmBytes === null ? 'n/a' : megabytes(run.probe.vmHwmBytes)}`
    : 'no probe report: the child died before its exit handler';
  if (goals.rssMb !== undefined)
    lines.push(
      figureLine(
        `${label} ${run.scenario.name} peak RSS of the child`,
        `${megabytes(rss)} (${how})`,
        rss / MB,
        {
          better: 'lower',
          goal: goals.rssMb,
          strict: true,
          unit: (n) => `${n} MB`,
        },
      ),
    );
  else lines.push(`${label} ${run.scenario.name} peak RSS of the child: ${megabytes(rss)} (${how})`);
  return lines;
}

/** P2: the smoke once, its compression (issue 32's goal >= 20,000x) and peak RSS (P4: goal < 250 MB). */
export async function runSmokeBench(options: {
  scenario: string;
  log: (line: string) => void;
}): Promise<void> {
  const { log } = options;
  log(`smoke compression (${options.scenario} once, in a child process):`);
  const run = await runScenarioChild(options.scenario);
  for (const line of compressionLines('P2', run, { ratio: [20_000, 20_000], rssMb: 250 })) log(`  ${line}`);
  if (run.exitCode !== 0)
    log(`  the run's last output: ${run.tail.trim().split('\n').slice(-3).join(' | ')}`);
}

/**
 * The fractions of virtual time at which the crowd run's live heap is sampled: at the first progress line at
 * or past each. Not 1: run's lines come at 5% steps summed in floating point, so its last step is a hair
 * over 1 and a 100% line is printed only when 10 s of wall time have passed since the last one.
 */
const CROWD_GC_AT = [0.5, 0.95];
const DAY_HOURS = 24;

/**
 * P2b and P4's crowd line: crowd-5000 once, its compression (issue 32's goal >= 150x) and peak RSS, and the
 * 24-virtual-hour memory as a projection (the run would take over half an hour): the live heap's growth
 * per virtual hour between half-time and the end, carried to 24 hours on top of the peak RSS measured.
 */
export async function runCrowdBench(options: {
  scenario: string;
  log: (line: string) => void;
}): Promise<void> {
  const { log } = options;
  log(
    `crowd compression and memory (${options.scenario} once, in a child process; live heap sampled at 50% and 95%):`,
  );
  const run = await runScenarioChild(options.scenario, CROWD_GC_AT);
  for (const line of compressionLines('P2b', run, { ratio: [150, 150] })) log(`  ${line}`);
  for (const line of crowdProjectionLines(run)) log(`  ${line}`);
  if (run.exitCode !== 0)
    log(`  the run's last output: ${run.tail.trim().split('\n').slice(-3).join(' | ')}`);
}

const GC_GOAL: Goal = { better: 'lower', goal: 10, strict: true, unit: (n) => `${n}%` };

/**
 * Issue 32's GC figure: crowd-5000's mix grown to 6,400 agents for one virtual hour, once in a child under
 * `--cpu-prof`, and the share of the main thread's samples V8 attributes to the garbage collector (what a
 * CPU profile shows, the method issue 32 measured with). The sum of V8's gc entries is printed beside it: it
 * counts each collection's pause but not the incremental marking done between, so it reads lower.
 */
export async function runGcBench(options: { scenario: string; log: (line: string) => void }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gc-'));
  try {
    const file = join(dir, 'crowd-6400.yaml');
    writeFileSync(file, grownCrowd(readFileSync(join(ROOT, options.scenario), 'utf8'), 6400, '1h'));
    const flags = BIN_NODE_FLAGS.length > 0 ? BIN_NODE_FLAGS.join(' ') : 'none';
    options.log(
      `GC share (crowd-5000 grown to 6,400 agents and one virtual hour, once, in a child process; the bin's node flags: ${flags}):`,
    );
    const run = await runScenarioChild(file, [], ['--cpu-prof', '--cpu-prof-dir', dir]);
    const profile = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    const share = profile
      ? gcSampleShare(JSON.parse(readFileSync(join(dir, profile), 'utf8')) as CpuProfile)
      : Number.NaN;
    for (const line of gcShareLines(run, share)) options.log(`  ${line}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A crowd scenario's text with its mix total, duration and name changed (the mix's shares kept). */
export function grownCrowd(text: string, total: number, duration: string): string {
  const grown = text
    .replace(/^name: .*$/m, `name: crowd-${total}-${duration}`)
    .replace(/^duration: .*$/m, `duration: ${duration}`)
    .replace(/^(\s+total: )\d+$/m, `$1${total}`);
  if (!grown.includes(`total: ${total}`)) throw new Error('the crowd scenario has no mix total to grow');
  return grown;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The garbage collector's share of a CPU profile's time, in percent, idle time left out. */
export function gcSampleShare(profile: CpuProfile): number {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  let gc = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const name = names.get(id);
    if (name === '(idle)') return;
    busy += profile.timeDeltas[i]!;
    if (name === '(garbage collector)') gc += profile.timeDeltas[i]!;
  });
  return (100 * gc) / busy;
}

export function gcShareLines(run: ChildRun, profileShare: number): string[] {
  const goalLine = figureLine(
    `GC share of the main thread's CPU profile, ${run.scenario.name} (${run.scenario.agents} agents)`,
    `${profileShare.toFixed(1)}% (${(run.wallMs / 1000).toFixed(1)} s wall under --cpu-prof${outcome(run)})`,
    profileShare,
    GC_GOAL,
  );
  if (!run.probe) return [goalLine, 'GC pauses: no probe report (the child died before its exit handler)'];
  const pauses = run.probe.gcPauseMs - run.probe.gcMs;
  return [
    goalLine,
    `for information, V8's gc entries (each collection's pause, not the incremental marking between): ${(pauses / 1000).toFixed(1)} s, ${((100 * pauses) / (run.wallMs - run.probe.gcMs)).toFixed(1)}% of the wall time, ${((100 * pauses) / run.probe.cpuMs).toFixed(1)}% of the process's CPU (every thread)`,
  ];
}

export function crowdProjectionLines(run: ChildRun): string[] {
  const hours = run.scenario.durationMs / 3_600_000;
  const samples: ProbeSample[] = run.probe?.samples ?? [];
  const first = samples[0];
  const last = samples.at(-1);
  const label = `P4 ${run.scenario.name} for ${DAY_HOURS} virtual hours`;
  const goal = { better: 'lower', goal: 2, strict: true, unit: (n: number) => `${n} GiB` } as const;
  if (!first || !last || last.fraction <= first.fraction)
    return [
      `${label}: no projection (the probe took ${samples.length} heap sample(s) and needs two) ${goalText(goal)}`,
    ];
  const at = (s: ProbeSample, value: number) => ({ hours: s.fraction * hours, value });
  const heap = projectLinear(at(first, first.heapAfterGc), at(last, last.heapAfterGc), DAY_HOURS);
  const peak = peakRss(run.probe);
  const projected = peak + heap.perHour * (DAY_HOURS - last.fraction * hours);
  return [
    `P4 ${run.scenario.name} live heap (two full collections): ${megabytes(first.heapAfterGc)} at ${Math.round(first.fraction * 100)}% of the run, ${megabytes(last.heapAfterGc)} at ${Math.round(last.fraction * 100)}%: ${megabytes(heap.perHour)} per virtual hour`,
    figureLine(
      `${label}, PROJECTED from this ${virtualLabel(run.scenario.durationMs)} run (not run: it would take over half an hour)`,
      `${gibibytes(projected)} = peak RSS ${megabytes(peak)} + ${megabytes(heap.perHour)} of live heap per virtual hour x ${(DAY_HOURS - last.fraction * hours).toFixed(1)} h, assuming linear growth`,
      projected / GIB,
      goal,
    ),
  ];
}
