import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/report.js';
import { headlineMetrics } from '../../src/sweep/outputs/metrics.js';
import { runSeedsLocally, SeedPool } from '../../src/sweep/pool/pool.js';
import { runSeed } from '../../src/sweep/run-seed.js';
import { buildSweep, sweepIdentity, sweepJson, type SweepResult } from '../../src/sweep/sweep-result.js';
import { sweepFiles } from '../../src/sweep/outputs/outputs.js';
import { packageVersion } from '../../src/sweep/version.js';
import { cli, FIXTURES, fixtureGroup, tempDir, waitFor, writeScenario } from './helpers.js';
import type { SweepArgs } from '../../src/cli/sweep.js';
import { checkScenarioStarts, planSweep } from '../../src/sweep/sweep-plan.js';

/**
 * The sweep, shard, merge and run commands end to end on a short scenario (4 random players, 1 virtual
 * hour), their processes run side by side to keep the file fast. The full smoke scenario's version of the
 * byte-identity checks runs in .ci/run.
 */
const read = (file: string) => readFileSync(file, 'utf8');
const sweepOf = (dir: string) => JSON.parse(read(join(dir, 'sweep.json'))) as SweepResult;

describe.concurrent('sweep, shards and merge', () => {
  it('1 worker, 2 workers and two merged shards write the same bytes, and seed N equals `run --seed N`', async () => {
    const dir = tempDir();
    const scenario = writeScenario(dir, 'tiny');
    const out = (name: string) => join(dir, name);
    const text = read(scenario);
    const identity = sweepIdentity(packageVersion(), { name: 'tiny', file: scenario, text }, [1, 2, 3, 4]);
    const tasks = [1, 2, 3, 4].map((seed) => ({ scenarioText: text, scenarioFile: scenario, seed }));
    // The shards and the single run as the user runs them; 1 and 2 workers in process (the pool's threads run the build in dist/).
    const [shard1, shard2, single, one, two] = await Promise.all([
      cli([
        'sweep',
        scenario,
        '--seeds',
        '1..4',
        '--shard',
        '1/2',
        '--workers',
        '1',
        '--out',
        out('s1'),
        '--no-progress',
      ]),
      cli([
        'sweep',
        scenario,
        '--seeds',
        '1..4',
        '--shard',
        '2/2',
        '--workers',
        '1',
        '--out',
        out('s2'),
        '--no-progress',
      ]),
      cli(['run', scenario, '--seed', '3', '--out', out('run3'), '--no-progress']),
      runSeedsLocally(tasks, { workers: 1, seedTimeoutMs: 60_000 }),
      runSeedsLocally(tasks, { workers: 2, seedTimeoutMs: 60_000 }),
    ]);
    for (const r of [shard1, shard2, single]) expect(r.code, r.stderr).toBe(0);
    const merged = await cli(['merge', out('s2'), out('s1'), '--out', out('merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(
      /^sweep tiny, seeds 1\.\.4: 4 passed, 0 broke an invariant, 0 crashed, 0 timed out, 0 lost \(merged 2 shards\)/,
    );

    const files = sweepFiles(buildSweep(identity, one));
    expect(sweepJson(buildSweep(identity, two))).toBe(files['sweep.json']);
    for (const [name, text] of Object.entries(files))
      expect(read(join(out('merged'), name)), name).toBe(text);

    const report = JSON.parse(read(join(out('run3'), 'report.json'))) as Report;
    const seed3 = sweepOf(out('merged')).results.find((r) => r.seed === 3)!;
    expect(seed3.fingerprint).toBe(report.fingerprint);
    expect(seed3.metrics).toEqual(headlineMetrics(report));
    expect(seed3.invariants.map((i) => [i.name, i.passed, i.checks])).toEqual(
      report.invariants.map((i) => [i.name, i.passed, i.checks]),
    );
  });

  it('a seed whose thread dies or that hangs is that seed failure, with its replay command; the others still pass', async () => {
    const dir = tempDir();
    const dying = writeScenario(dir, 'dying', fixtureGroup('faulty.mjs', '{ mode: exit, chance: 0.5 }'));
    const hanging = writeScenario(dir, 'hanging', fixtureGroup('faulty.mjs', '{ mode: hang, chance: 1 }'));
    const hangingText = read(hanging);
    // A thread stuck in a loop, in process: the pool stops it at the timeout (however slow the machine, the seed never ends).
    const [died, hung] = await Promise.all([
      cli(['sweep', dying, '--seeds', '1..3', '--workers', '2', '--out', join(dir, 'died'), '--no-progress']),
      runSeedsLocally([{ scenarioText: hangingText, scenarioFile: hanging, seed: 7 }], {
        workers: 1,
        seedTimeoutMs: 1000,
      }),
    ]);
    expect(died.code, died.stderr).toBe(1);
    const diedSweep = sweepOf(join(dir, 'died'));
    const statuses = diedSweep.results.map((r) => r.status);
    // the seeded draw makes seeds 1..3 a mix: the run's own determinism is tested elsewhere, this pins the outcome
    expect(new Set(statuses)).toEqual(new Set(['passed', 'crashed']));
    for (const f of diedSweep.failures) {
      expect(f.reason).toMatch(/^crashed: the worker thread died: /);
      expect(f.replay).toBe(
        `npx agent-chess-sim run ${dying} --seed ${f.seed} --out reports/dying-seed-${f.seed}`,
      );
      expect(died.stdout).toContain(`FAILED seed ${f.seed} (crashed)`);
      expect(died.stdout).toContain(`  replay: ${f.replay}`);
    }
    expect(read(join(dir, 'died', 'junit.xml'))).toMatch(
      /<error message="crashed: the worker thread died: [^"]*" type="crashed">replay: npx agent-chess-sim run /,
    );
    const hungSweep = buildSweep(
      sweepIdentity(packageVersion(), { name: 'hanging', file: hanging, text: hangingText }, [7]),
      hung,
    );
    expect(hungSweep.failures).toEqual([
      {
        seed: 7,
        status: 'timed_out',
        reason: 'timed out: no result within 1 s; the thread was stopped',
        replay: `npx agent-chess-sim run ${hanging} --seed 7 --out reports/hanging-seed-7`,
      },
    ]);
  });

  it('threads whose code cannot load crash every seed at once instead of letting each wait out its timeout', async () => {
    // A file URL, as the real entry is given (poolWorkerFile says why).
    const broken = pathToFileURL(join(FIXTURES, 'broken-worker.mjs')).href;
    const pool = new SeedPool({ threads: 2, filename: broken });
    const tasks = [1, 2, 3, 4, 5].map((seed) => ({ scenarioText: '', scenarioFile: 'x.yaml', seed }));
    try {
      const results = await runSeedsLocally(tasks, { workers: 2, seedTimeoutMs: 10 * 60_000, pool });
      expect(results.map((r) => r.status)).toEqual(['crashed', 'crashed', 'crashed', 'crashed', 'crashed']);
      for (const r of results)
        expect(r.error).toMatch(/^the worker thread(s failed| died): this worker cannot start$/);
    } finally {
      await pool.destroy();
    }
  });

  it('a run that throws is a crashed seed with the error line, not a crashed sweep; an agent that throws is only its own crash', async () => {
    const dir = tempDir();
    // The module's create() throws while the world is built: the run itself throws (a ScenarioError).
    const file = writeScenario(
      dir,
      'throws',
      fixtureGroup(join('..', '..', 'fixtures', 'agents', 'create-throws.mjs'), '{}'),
    );
    const result = await runSeed({ scenarioText: read(file), scenarioFile: file, seed: 5 });
    expect(result).toMatchObject({ seed: 5, status: 'crashed', fingerprint: null, metrics: null });
    expect(result.error).toBe('throws: invalid scenario');
    // A heartbeat that throws is recorded in that agent's verdict (src/sim/world.ts); the seed passes.
    const agentThrows = writeScenario(dir, 'agent-throws', fixtureGroup('faulty.mjs', '{ mode: throw }'));
    const passed = await runSeed({ scenarioText: read(agentThrows), scenarioFile: agentThrows, seed: 5 });
    expect(passed.status).toBe('passed');
  });

  it('Ctrl-C stops the worker threads, says so, and writes nothing', async () => {
    const dir = tempDir();
    const slow = writeScenario(
      dir,
      'slow',
      fixtureGroup('sleeper.mjs', '{ sleepMs: 200 }', '{ min: 60s, max: 60s }'),
    );
    let child: import('node:child_process').ChildProcess | undefined;
    let stderr = '';
    const done = cli(['sweep', slow, '--seeds', '1..4', '--workers', '1', '--out', join(dir, 'out')], {
      onSpawn: (c) => {
        child = c;
        c.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      },
    });
    await waitFor(() => stderr, /sweep slow: 4 seeds on 1 worker thread/, 20_000, 'the sweep to start');
    child!.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(
      /interrupted: stopped the worker threads \(their running seeds were abandoned\) after 0 of 4 seeds; nothing written\n$/,
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('refuses bad arguments with one line and exit 2, writing nothing', async () => {
    const dir = tempDir();
    const scenario = writeScenario(dir, 'tiny');
    const aFile = join(dir, 'a-file');
    writeFileSync(aFile, 'x');
    const out = join(dir, 'never');
    // What the CLI prints and exits with for a bad option (every refusal below takes the same path)...
    const descending = await cli(['sweep', scenario, '--seeds', '5..1', '--out', out]);
    expect([descending.code, descending.stdout, descending.stderr]).toEqual([
      2,
      '',
      '--seeds: 5..1 is descending; write 1..5\n',
    ]);
    expect(existsSync(out)).toBe(false);
    // ...and the other checks, made before anything runs (the seed, shard and duration parsers are unit-tested).
    const args = { scenario, seeds: '1..4', out, timeout: '30m', progress: false };
    expect(() => planSweep({ ...args, scenario: join(dir, 'missing.yaml') })).toThrow(
      /missing\.yaml: invalid scenario\n {2}- cannot read file/,
    );
    const refusals: Array<[Partial<SweepArgs>, string]> = [
      [{ workers: 0 }, '--workers: must be an integer from 1 to 256, got 0'],
      [
        { queue: 'redis://127.0.0.1:1', workers: 2 },
        '--workers: with --queue the worker processes choose their threads (worker --concurrency N)',
      ],
      [{ queue: 'http://x:1' }, '--queue: "http://x:1" is not a redis:// or rediss:// URL'],
      [{ timeout: 'soon' }, '--timeout: "soon" is not a positive duration such as 90s, 30m or 2h'],
      [{ queueWait: '0s' }, '--queue-wait: "0s" is not a positive duration such as 90s, 30m or 2h'],
      [{ shard: '0/2' }, '--shard: "0/2" is not i/N with 1 <= i <= N (e.g. --shard 2/4)'],
      [{ out: aFile }, `--out: ${aFile} exists and is not a directory`],
    ];
    for (const [bad, message] of refusals)
      expect(() => planSweep({ ...args, ...bad }), message).toThrow(message);
    expect(planSweep({ ...args, shard: '2/3' }).tasks.map((t) => t.seed)).toEqual([2]);
    // An agent module that cannot load is the scenario's fault, found before any seed runs (as `run` finds it).
    const badModule = writeScenario(
      dir,
      'bad-module',
      fixtureGroup('../../fixtures/agents/no-default.mjs', '{}'),
    );
    await expect(checkScenarioStarts(planSweep({ ...args, scenario: badModule }).scenario)).rejects.toThrow(
      /population\[1\]\.module: agent module .*no-default\.mjs: no default export/,
    );
    // The CLI checks it on the pool's first free thread beside the first seeds: exit 2, its lines and no
    // seed's (the seeds, which fail too, report nothing), and nothing written.
    const refused = await cli(['sweep', badModule, '--seeds', '1..4', '--workers', '2', '--out', out]);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(
      /^sweep bad-module: 4 seeds on 2 worker thread\(s\)\nbad-module: invalid scenario\n {2}- population\[1\]\.module: agent module .*no-default\.mjs: no default export[^\n]*\n$/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
