import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  figureLine,
  goalText,
  latencySummary,
  median,
  megabytes,
  percentile,
  progressFraction,
  projectLinear,
  statusFieldBytes,
  times,
  verdict,
  type Goal,
  type ProbeSample,
} from '../../bench/figures.js';
import { completeResponse, rawRequest } from '../../bench/raw-load.js';
import { roundOrder, splitLoadLines, type ServedRound } from '../../bench/http-split.js';
import {
  crowdProjectionLines,
  gcSampleShare,
  gcShareLines,
  grownCrowd,
  type ChildRun,
} from '../../bench/scenario-run.js';
import type { LoadKind } from '../../bench/load-client.js';

/** The bench's pure helpers (bench/figures.ts and the sections' formatting); no figure here depends on speed. */
describe('bench figures', () => {
  it('takes medians and nearest-rank percentiles', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3); // the upper middle
    expect(median([])).toBeNaN();
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(latencySummary(values)).toEqual({ count: 100, p50: 50, p99: 99, max: 100 });
    expect(latencySummary([7])).toEqual({ count: 1, p50: 7, p99: 7, max: 7 });
    expect(latencySummary([]).p99).toBeNaN();
  });

  it('writes each goal beside its figure, with a verdict', () => {
    const ratio: Goal = { better: 'higher', goal: 0.5, aim: 0.7 };
    expect(goalText(ratio)).toBe('(goal >= 0.5, aim >= 0.7)');
    expect(verdict(0.4, ratio)).toBe('BELOW GOAL');
    expect(verdict(0.5, ratio)).toBe('meets goal');
    expect(verdict(0.7, ratio)).toBe('meets aim');
    expect(verdict(Number.NaN, ratio)).toBe('no figure');
    const rss: Goal = { better: 'lower', goal: 250, strict: true, unit: (n) => `${n} MB` };
    expect(goalText(rss)).toBe('(goal < 250 MB)');
    expect(verdict(250, rss)).toBe('BELOW GOAL');
    expect(verdict(249.9, rss)).toBe('meets goal');
    expect(figureLine('P4 x', '1.5 KB', 1500, { better: 'lower', goal: 2048, aim: 1024 })).toBe(
      'P4 x: 1.5 KB (goal <= 2048, aim <= 1024) meets goal',
    );
    expect(times(1370.4)).toBe('1,370x');
    expect(times(5.72)).toBe('5.7x');
    expect(megabytes(306_123_456)).toBe('306 MB');
    expect(megabytes(12_340_000)).toBe('12.3 MB');
  });

  it('reads the peak RSS (VmHWM) from /proc/<pid>/status', () => {
    const status =
      'Name:\tnode\nVmPeak:\t 1234568 kB\nVmHWM:\t  313344 kB\nVmRSS:\t  300000 kB\nThreads:\t11\n';
    expect(statusFieldBytes(status, 'VmHWM')).toBe(313_344 * 1024);
    expect(statusFieldBytes(status, 'VmRSS')).toBe(300_000 * 1024);
    expect(statusFieldBytes('Name:\tkthreadd\n', 'VmHWM')).toBeUndefined();
  });

  it("reads the fraction of virtual time from run's progress lines, and nothing else", () => {
    expect(
      progressFraction(
        'smoke: 35% of 24 h virtual, 7.4 s elapsed, ETA 13.7 s, 312 games finished, 20481 moves',
      ),
    ).toBe(0.35);
    expect(
      progressFraction(
        'crowd-5000: 100% of 30 min virtual, 70.2 s elapsed, ETA 0.0 s, 9 games finished, 1 moves',
      ),
    ).toBe(1);
    expect(progressFraction('games: 1064 finished')).toBeUndefined();
  });

  it('projects linearly, and refuses samples out of order', () => {
    const p = projectLinear({ hours: 0.25, value: 100 }, { hours: 0.5, value: 110 }, 24);
    expect(p.perHour).toBe(40);
    expect(p.projected).toBe(110 + 40 * 23.5);
    expect(() => projectLinear({ hours: 1, value: 0 }, { hours: 1, value: 0 }, 24)).toThrow();
  });
});

describe('the P2b/P4 crowd lines', () => {
  const run = (samples: ProbeSample[]): ChildRun => ({
    scenario: { name: 'crowd-5000', durationMs: 30 * 60_000, agents: 5000 },
    wallMs: 60_000,
    probeGcMs: 500,
    exitCode: 0,
    signal: null,
    probe: {
      maxRssBytes: 800e6,
      vmHwmBytes: 801e6,
      samples,
      gcMs: 500,
      gcPauseMs: 6000,
      cpuMs: 62_000,
      exitCode: 0,
    },
    tail: '',
  });

  it('labels the 24-hour figure a projection from the measured run', () => {
    const lines = crowdProjectionLines(
      run([
        { fraction: 0.5, heapAfterGc: 300e6, rss: 700e6 },
        { fraction: 1, heapAfterGc: 310e6, rss: 790e6 },
      ]),
    );
    // 10 MB of live heap in a quarter of a virtual hour: 40 MB an hour, carried for 23.5 hours on 801 MB.
    expect(lines[0]).toContain('40.0 MB per virtual hour');
    expect(lines[1]).toMatch(
      /^P4 crowd-5000 for 24 virtual hours, PROJECTED from this 30 virtual minutes run/,
    );
    expect(lines[1]).toContain(`${((801e6 + 40e6 * 23.5) / 1024 ** 3).toFixed(2)} GiB`);
    expect(lines[1]).toMatch(/\(goal < 2 GiB\) meets goal$/);
  });

  it('takes the GC share from the CPU profile, idle left out, with the 10% goal, and the gc entries beside it', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(idle)' } },
        { id: 2, callFrame: { functionName: '(garbage collector)' } },
        { id: 3, callFrame: { functionName: 'play' } },
      ],
      samples: [1, 2, 3, 3, 3],
      timeDeltas: [500, 100, 300, 300, 300],
    };
    expect(gcSampleShare(profile)).toBe(10); // 100 of 1,000 busy microseconds
    const [share, entries] = gcShareLines(run([]), 12.5);
    expect(share).toMatch(/: 12\.5% \(60\.0 s wall under --cpu-prof\) \(goal < 10%\) BELOW GOAL$/);
    // 6 s of pauses, 0.5 s of them the probe's, over 60 s of wall less that 0.5 s; 62 s of process CPU.
    expect(entries).toContain(
      `5.5 s, ${((100 * 5.5) / 59.5).toFixed(1)}% of the wall time, ${((100 * 5.5) / 62).toFixed(1)}% of the process's CPU`,
    );
  });

  it('grows a crowd scenario to another total and duration, its shares kept, and refuses one without a total', () => {
    const text =
      'name: crowd-5000\nduration: 30m\npopulation:\n  - mix:\n      total: 5000\n      personas: { random: 1 }\n';
    expect(grownCrowd(text, 6400, '1h')).toBe(
      'name: crowd-6400-1h\nduration: 1h\npopulation:\n  - mix:\n      total: 6400\n      personas: { random: 1 }\n',
    );
    expect(() => grownCrowd('name: x\nduration: 1h\n', 6400, '1h')).toThrow(/no mix total/);
  });

  it('says so when it has too few samples', () => {
    expect(crowdProjectionLines(run([]))).toEqual([
      'P4 crowd-5000 for 24 virtual hours: no projection (the probe took 0 heap sample(s) and needs two) (goal < 2 GiB)',
    ]);
  });
});

describe('the P3 load', () => {
  it('frames raw HTTP answers by content-length', () => {
    const answer = Buffer.from(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}HTTP/1.1',
    );
    expect(completeResponse(answer)).toEqual({
      status: 200,
      bodyStart: answer.indexOf('{'),
      length: answer.indexOf('{') + 11,
    });
    expect(completeResponse(answer.subarray(0, answer.length - 20))).toBeUndefined();
    expect(
      completeResponse(Buffer.from('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n'))?.status,
    ).toBe(401);
    expect(() =>
      completeResponse(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n')),
    ).toThrow(/content-length/);
  });

  it('writes keep-alive requests with a key and a JSON body', () => {
    expect(rawRequest(80, 'GET', '/bare').toString()).toBe(
      'GET /bare HTTP/1.1\r\nhost: 127.0.0.1:80\r\nconnection: keep-alive\r\n\r\n',
    );
    expect(rawRequest(80, 'POST', '/m', { apiKey: 'k', body: { a: 'é' } }).toString()).toBe(
      'POST /m HTTP/1.1\r\nhost: 127.0.0.1:80\r\nconnection: keep-alive\r\nauthorization: Bearer k\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{"a":"é"}',
    );
    expect(rawRequest(80, 'POST', '/accept', { apiKey: 'k' }).toString()).toContain(
      'content-length: 0\r\n\r\n',
    );
  });

  it('alternates the order of the rounds and pairs each ratio within a round', () => {
    expect(roundOrder(0)).toEqual(['bare', 'sized', 'my-turn', 'movers']);
    expect(roundOrder(1)).toEqual(['movers', 'my-turn', 'sized', 'bare']);
    const round = (kind: LoadKind, requests: number, max: number): ServedRound => ({
      kind,
      ms: 1000,
      requests,
      moves: kind === 'movers' ? requests / 3 : 0,
      polls: kind === 'bare' ? 0 : requests,
      games: 1,
      latency: { count: requests, p50: 10, p99: 50, max },
      unexpected: [],
      clientCpu: 0.5,
      serverCpu: 0.9,
    });
    const rows = [
      {
        bare: round('bare', 1000, 20),
        sized: round('sized', 1000, 20),
        'my-turn': round('my-turn', 900, 30),
        movers: round('movers', 600, 2500),
      },
      {
        bare: round('bare', 500, 20),
        sized: round('sized', 400, 20),
        'my-turn': round('my-turn', 300, 40),
        movers: round('movers', 300, 60),
      },
      {
        bare: round('bare', 2000, 20),
        sized: round('sized', 1800, 20),
        'my-turn': round('my-turn', 1700, 50),
        movers: round('movers', 1200, 70),
      },
    ];
    const lines = splitLoadLines(rows, { agents: 500, seconds: 2 });
    // Per-round ratios 0.9, 0.6, 0.85: the median is 0.85, not the ratio of the medians (900 / 1000).
    expect(lines).toContain('  P3 my-turn/bare requests/s: 0.850 (goal >= 0.8, aim >= 0.9) meets goal');
    expect(lines).toContain(
      '  P3 with movers tail, no multi-second tail: worst max 2500.0 ms over 3 rounds (goal < 2000 ms, aim < 1000 ms) BELOW GOAL',
    );
    expect(lines.at(-1)).toBe('  games completed by movers: 3; unexpected answers: none');
    // Equal CPU shares, so CPU per request goes as 1 / throughput: per-round 0.9, 0.6, 0.85 again.
    expect(lines.find((line) => line.includes('CPU per request'))).toMatch(/bare\/my-turn: 0\.850 /);
    expect(lines.find((line) => line.includes('with movers/bare'))).toMatch(/: 0\.600 \(for information/);
    // my-turn against the sized route: per-round 0.9, 0.75, 0.944; the median 0.9.
    expect(lines.find((line) => line.includes('bytes of my-turn'))).toMatch(/: 0\.900 \(for information/);
  });
});

describe('the run probe (bench/run-probe.ts, compiled)', () => {
  it('writes the peak RSS and live-heap samples of a child at its exit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-probe-'));
    try {
      const file = join(dir, 'probe.json');
      const script =
        "process.stderr.write('x: 10% of 1 h virtual, 0.1 s elapsed, ETA ?\\n');" +
        "process.stderr.write('x: 55% of 1 h virtual, 0.1 s elapsed, ETA ?\\n');" +
        "process.stderr.write('x: 100% of 1 h virtual, 0.2 s elapsed, ETA ?\\n');" +
        'process.exitCode = 3;';
      const child = spawnSync(process.execPath, ['--import', './dist/bench/run-probe.js', '-e', script], {
        env: { ...process.env, BENCH_PROBE_FILE: file, BENCH_PROBE_GC_AT: '0.5,1' },
        encoding: 'utf8',
      });
      expect(child.status).toBe(3);
      expect(child.stderr).toContain('55% of 1 h virtual'); // the lines still go out
      const report = JSON.parse(readFileSync(file, 'utf8')) as {
        maxRssBytes: number;
        vmHwmBytes: number | null;
        samples: { fraction: number; heapAfterGc: number }[];
        exitCode: number;
      };
      expect(report.maxRssBytes).toBeGreaterThan(10e6);
      if (process.platform === 'linux') expect(report.vmHwmBytes).toBeGreaterThan(10e6);
      expect(report.samples.map((s) => s.fraction)).toEqual([0.55, 1]);
      expect(report.samples[0]!.heapAfterGc).toBeGreaterThan(0);
      expect(report.exitCode).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
