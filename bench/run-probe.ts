/**
 * Preloaded into a child `agent-chess-sim run` by bench/scenario-run.ts (`node --import <this file> ...`),
 * it reports the child's memory to the bench in a JSON file (BENCH_PROBE_FILE) when the process exits:
 *
 * - peak RSS: `process.resourceUsage().maxRSS` (getrusage's ru_maxrss, in KiB) and, on Linux, VmHWM from
 *   /proc/self/status: the kernel's own high-water mark over the whole life of the process, its worker
 *   threads (the wasm engines) included. Read in the child's `exit` handler, so nothing is missed between
 *   polls and no race with the process vanishing, as a parent reading /proc/<pid>/status would have;
 * - when BENCH_PROBE_GC_AT lists fractions of virtual time (`0.5,1`), the live heap at each: at the first
 *   progress line at or past the fraction, two full collections and `heapUsed`. The collections' wall time
 *   is reported too, so the bench takes it off the run's wall time.
 *
 * Progress lines are `run`'s own on a pipe (`smoke: 35% of 24 h virtual, ...`), seen by wrapping
 * process.stderr.write; the line still goes out unchanged. Only the main thread installs anything.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';
import { progressFraction, statusFieldBytes, type ProbeSample } from './figures.js';

export interface ProbeReport {
  /** Peak resident set from getrusage, in bytes. */
  maxRssBytes: number;
  /** Peak resident set from /proc/self/status VmHWM, in bytes (Linux only). */
  vmHwmBytes: number | null;
  samples: ProbeSample[];
  /** Wall time spent in the probe's own collections, to subtract from the run's. */
  gcMs: number;
  /** The main thread's garbage-collection pauses over the run (V8's gc entries), the probe's own included. */
  gcPauseMs: number;
  /** The process's CPU time (user and system, every thread), at exit. */
  cpuMs: number;
  exitCode: number | string | undefined;
}

function install(file: string, gcAt: number[]): void {
  const samples: ProbeSample[] = [];
  let gcMs = 0;
  let gcPauseMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauseMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let gc: (() => void) | undefined;
  const pending = [...gcAt].sort((a, b) => a - b);
  if (pending.length > 0) {
    const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
    process.stderr.write = (chunk: unknown, ...rest: unknown[]): boolean => {
      if (typeof chunk === 'string') observe(chunk);
      return write(chunk, ...rest);
    };
  }

  function observe(text: string): void {
    for (const line of text.split('\n')) {
      const fraction = progressFraction(line);
      if (fraction === undefined || pending.length === 0 || fraction < pending[0]!) continue;
      while (pending.length > 0 && pending[0]! <= fraction) pending.shift();
      const start = performance.now();
      if (!gc) {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
      gc();
      gc();
      const { heapUsed, rss } = process.memoryUsage();
      gcMs += performance.now() - start;
      samples.push({ fraction, heapAfterGc: heapUsed, rss });
    }
  }

  process.on('exit', (code) => {
    let vmHwmBytes: number | null = null;
    try {
      vmHwmBytes = statusFieldBytes(readFileSync('/proc/self/status', 'utf8'), 'VmHWM') ?? null;
    } catch {
      // not Linux: getrusage alone
    }
    const report: ProbeReport = {
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      vmHwmBytes,
      samples,
      gcMs,
      gcPauseMs: gcPauseMs + pendingGcMs(gcObserver),
      cpuMs: cpuMs(process.cpuUsage()),
      exitCode: code,
    };
    writeFileSync(file, JSON.stringify(report));
  });
}

/** The gc entries not yet handed to the observer's callback (delivered asynchronously, so some wait at exit). */
function pendingGcMs(observer: PerformanceObserver): number {
  return observer.takeRecords().reduce((sum, entry) => sum + entry.duration, 0);
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

const file = process.env['BENCH_PROBE_FILE'];
if (isMainThread && file !== undefined && file !== '') {
  const gcAt = (process.env['BENCH_PROBE_GC_AT'] ?? '')
    .split(',')
    .filter((s) => s.trim() !== '')
    .map(Number);
  // Nothing the run starts inherits the probe's settings.
  delete process.env['BENCH_PROBE_FILE'];
  delete process.env['BENCH_PROBE_GC_AT'];
  install(file, gcAt);
}
