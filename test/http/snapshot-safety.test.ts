import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { PERSONAS, HUMAN_PERSONAS } from '../../agents/registry.js';
import { UciEngine } from '../../agents/adapters/uci-engine.js';
import { EnginePool } from '../../agents/engines/pool.js';
import { WorkerEngine } from '../../agents/engines/worker-engine.js';
import { LiveWorld, SnapshotError, type LiveSnapshot } from '../../src/sim/live.js';
import { parseScenario, parseScenarioWithSource, ScenarioError } from '../../src/sim/scenario/scenario.js';
import {
  REFUSED_PERSONAS,
  RESTORABLE_PERSONAS,
  restorableScenarioProblem,
} from '../../src/sim/scenario/restorable-scenario.js';
import { startLiveServer } from '../helpers/live-server.js';

/**
 * A snapshot is data, never a command line (issue 25). A restore of a snapshot whose scenario is not the
 * server's own may name only what `restorable-scenario.ts` lists; these tests derive every persona and every
 * option from the code (so a new one fails here until it is classified) and watch the process's real
 * `child_process`, `worker_threads` and `fs` functions while snapshots are restored.
 */

const SCENARIO = `
name: safety
seed: 25
start: 2026-03-01T00:00:00Z
duration: 30d
population:
  - persona: random
    count: 4
    heartbeat: { min: 20s, max: 40s }
  - persona: replier
    count: 2
    heartbeat: { min: 60s, max: 90s }
`;
const HOUR = 60 * 60_000;
const SECRET = { keySecret: Buffer.alloc(32, 9) };
type Json = Record<string, any>;

// --- The spies: the builtins' own objects are patched and their ES module exports synced, so every
// module's `import { spawn } from 'node:child_process'` calls the wrapper (the controls below prove it).

interface Seen {
  spawns: string[];
  workers: string[];
  writes: string[];
}

const require = createRequire(import.meta.url);
const SPAWNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];
const FS_WRITERS = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'mkdir',
  'mkdirSync',
  'copyFile',
  'copyFileSync',
  'rename',
  'renameSync',
  'symlink',
  'symlinkSync',
];
const PROMISE_WRITERS = ['writeFile', 'appendFile', 'mkdir', 'copyFile', 'rename', 'symlink'];
const OPENERS = ['open', 'openSync'];

/** Calls `body` with every spawn, Worker and fs write recorded; the builtins are restored afterwards. */
async function watching<T>(body: () => Promise<T>): Promise<{ result: T | Error; seen: Seen }> {
  const seen: Seen = { spawns: [], workers: [], writes: [] };
  const undo: Array<() => void> = [];
  const wrap = (target: Record<string, any>, name: string, record: (args: unknown[]) => void) => {
    const original = target[name];
    target[name] = function (this: unknown, ...args: unknown[]) {
      record(args);
      return original.apply(this, args);
    };
    undo.push(() => (target[name] = original));
  };
  const childProcess = require('node:child_process') as Record<string, any>;
  for (const name of SPAWNERS)
    wrap(childProcess, name, (args) => seen.spawns.push(`${name} ${String(args[0])}`));
  const fs = require('node:fs') as Record<string, any>;
  for (const name of FS_WRITERS) wrap(fs, name, (args) => seen.writes.push(`${name} ${String(args[0])}`));
  for (const name of PROMISE_WRITERS)
    wrap(fs['promises'], name, (args) => seen.writes.push(`promises.${name} ${String(args[0])}`));
  const opensForWriting = (args: unknown[]) => typeof args[1] === 'string' && /[wa+]/.test(args[1]);
  for (const name of OPENERS)
    wrap(fs, name, (args) => opensForWriting(args) && seen.writes.push(`${name} ${String(args[0])}`));
  const threads = require('node:worker_threads') as Record<string, any>;
  const OriginalWorker = threads['Worker'];
  threads['Worker'] = class extends OriginalWorker {
    constructor(file: unknown, options?: unknown) {
      seen.workers.push(String(file));
      super(file, options);
    }
  };
  undo.push(() => (threads['Worker'] = OriginalWorker));
  syncBuiltinESMExports();
  try {
    return { result: await body(), seen };
  } catch (error) {
    return { result: error as Error, seen };
  } finally {
    for (const restore of undo.reverse()) restore();
    syncBuiltinESMExports();
  }
}

const NOTHING: Seen = { spawns: [], workers: [], writes: [] };

// --- What the code accepts, derived from it.

/** The option names a persona's code reads: its checkOptions and its constructor, given a recording proxy. */
function optionsReadBy(persona: string): string[] {
  const factory = PERSONAS.get(persona)!;
  const read = new Set<string>();
  const probe = new Proxy<Record<string, unknown>>(
    {},
    {
      get: (_target, key) => {
        if (typeof key === 'string') read.add(key);
        return undefined;
      },
      has: (_target, key) => {
        if (typeof key === 'string') read.add(key);
        return false;
      },
    },
  );
  factory.checkOptions(probe);
  factory.create(probe);
  return [...read].sort();
}

/** The field names a scenario check lists after an unknown field at `where` (its `expected one of ...`). */
function fieldsAcceptedAt(yaml: string, where: string): string[] {
  try {
    parseScenario(yaml);
  } catch (error) {
    const problems = (error as ScenarioError).problems;
    const line = problems.find((p) => p.startsWith(`${where}zzz: unknown field`));
    const list = line?.match(/expected one of (.*)\)$/)?.[1];
    if (list) return list.split(', ');
  }
  throw new Error(`no field list at ${where}`);
}

const BASE = `name: x\nseed: 1\nstart: 2026-03-01T00:00:00Z\nduration: 1h\n`;
const GROUP = '{ persona: random, count: 1, heartbeat: { min: 20s, max: 40s } }';

/** Every field a scenario file may hold, by where it is written, as the scenario checks list them. */
function scenarioFields(): Array<{ where: string; field: string; scenario: (value: unknown) => Json }> {
  const base = { name: 'x', seed: 1, start: '2026-03-01T00:00:00Z', duration: '1h' };
  const group = { persona: 'random', count: 1, heartbeat: { min: '20s', max: '40s' } };
  const mix = { total: 2, personas: { random: 1 } };
  const places: Array<[string, string, (field: string, value: unknown) => Json]> = [
    [`${BASE}population: [${GROUP}]\nzzz: 1\n`, '', (f, v) => ({ ...base, population: [group], [f]: v })],
    [
      `${BASE}population: [{ persona: random, count: 1, zzz: 1 }]\n`,
      'population[0].',
      (f, v) => ({ ...base, population: [{ ...group, [f]: v }] }),
    ],
    [
      `${BASE}population: [{ mix: { total: 2, personas: { random: 1 }, zzz: 1 } }]\n`,
      'population[0].mix.',
      (f, v) => ({ ...base, population: [{ mix: { ...mix, [f]: v } }] }),
    ],
    [
      `${BASE}population: [{ persona: random, count: 1, heartbeat: { min: 20s, max: 40s, zzz: 1 } }]\n`,
      'population[0].heartbeat.',
      (f, v) => ({ ...base, population: [{ ...group, heartbeat: { ...group.heartbeat, [f]: v } }] }),
    ],
    [
      `${BASE}population: [${GROUP}]\nescrow: { zzz: 1 }\n`,
      'escrow.',
      (f, v) => ({ ...base, population: [group], escrow: { [f]: v } }),
    ],
  ];
  return places.flatMap(([yaml, where, build]) =>
    fieldsAcceptedAt(yaml, where).map((field) => ({
      where,
      field,
      scenario: (value: unknown) => build(field, value),
    })),
  );
}

/** Values that name a program, a file, a module or a UCI option that writes one. */
function hostileValues(dir: string): unknown[] {
  const marker = join(dir, 'marker.txt');
  return [
    '/bin/sh',
    ['-c', `echo ran >> ${marker}`],
    { 'Debug Log File': join(dir, 'debug.log') },
    `file://${join(dir, 'evil.mjs')}`,
    '../../../etc/passwd',
  ];
}

function snapshotWith(base: LiveSnapshot, scenario: Json, extraMs = 2 * HOUR): Json {
  // An advance after the start, so an accepted population would get to act (and spawn, if it could).
  const inputs = [...base.inputs, { kind: 'advance', toMs: base.nowMs + extraMs }];
  return { ...structuredClone(base), scenario, inputs };
}

/** The server's own scenario, parsed once. */
const OWN = parseScenarioWithSource(SCENARIO);
const restoreOnto = (snapshot: unknown) => LiveWorld.restore(snapshot, OWN);

let scratch: string;
let base: LiveSnapshot;

// A scratch directory for markers, and a snapshot of the server's own scenario to edit.
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'acs-safety-'));
  base = (await LiveWorld.start(parseScenarioWithSource(SCENARIO), SECRET)).snapshot();
});

describe('what a snapshot may name, derived from the code', () => {
  it('classifies every registered persona: restorable with an option table, or refused with a reason', () => {
    for (const name of PERSONAS.keys()) {
      expect([RESTORABLE_PERSONAS.has(name), REFUSED_PERSONAS.has(name)], name).toContain(true);
      expect(RESTORABLE_PERSONAS.has(name) && REFUSED_PERSONAS.has(name), name).toBe(false);
    }
    for (const name of [...RESTORABLE_PERSONAS.keys(), ...REFUSED_PERSONAS.keys()])
      expect(PERSONAS.has(name), name).toBe(true);
    expect(REFUSED_PERSONAS.get('uci')).toBe('names a program');
  });

  it("lists every option a restorable persona's code reads, and only options it accepts", () => {
    const sample = { number: 1, boolean: true, word: 'x', words: ['x'], numbers: [8] } as const;
    for (const [persona, table] of RESTORABLE_PERSONAS) {
      const read = optionsReadBy(persona);
      expect(read.length, persona).toBeGreaterThan(0);
      expect(Object.keys(table).sort(), persona).toEqual(expect.arrayContaining(read));
      for (const [option, kind] of Object.entries(table)) {
        const problems = PERSONAS.get(persona)!.checkOptions({ [option]: sample[kind] });
        expect(problems, `${persona}.${option}`).not.toContain(`${option}: unknown option`);
      }
    }
  });

  it('classifies every field the scenario checks accept: on the list, or refused as naming code', () => {
    const fields = scenarioFields();
    expect(fields.map((f) => `${f.where}${f.field}`)).toEqual(
      expect.arrayContaining(['population', 'population[0].options', 'population[0].mix.options']),
    );
    for (const { where, field, scenario } of fields) {
      const problem = restorableScenarioProblem(scenario('/bin/sh'));
      expect(problem ?? '', `${where}${field}`).not.toMatch(/not a field a snapshot may set/);
      if (field === 'module' || field === 'invariants')
        expect(problem, `${where}${field}`).toMatch(/agent or invariant modules load only from/);
    }
  });

  it('refuses a field off the list in one line naming it', () => {
    const scenario = { ...base.scenario, output: '/tmp/x' };
    expect(restorableScenarioProblem(scenario)).toBe(
      'scenario.output: not a field a snapshot may set (it may set name, description, seed, start, duration, ruleset, escrow, population, requireExercised, faults); start serve with this scenario (--scenario) to use it',
    );
    const option = {
      ...base.scenario,
      population: [{ persona: 'random', count: 1, options: { logFile: 'x' } }],
    };
    expect(restorableScenarioProblem(option)).toMatch(
      /^scenario\.population\[0\]\.options\.logFile: not a field a snapshot may set \(it may set maxGames, /,
    );
  });
});

describe('no snapshot reaches a spawn, a thread, an import or a file write', () => {
  it('the spies see a spawn, a thread and a write when one happens (a control)', async () => {
    const { seen } = await watching(async () => {
      const engine = new UciEngine({
        path: process.execPath,
        args: ['-e', 'process.exit(0)'],
        options: {},
        timeoutMs: 20_000,
      });
      const answer = await engine.bestMove('8/8/8/8/8/8/8/K6k w - - 0 1', { nodes: 1 });
      expect(answer.ok).toBe(false);
      const thread = await WorkerEngine.start(() => undefined);
      thread.terminate(new Error('control done'));
      writeFileSync(join(scratch, 'control.txt'), 'x');
    });
    expect(seen.spawns).toEqual([`spawn ${process.execPath}`]);
    expect(seen.workers).toHaveLength(1);
    expect(seen.workers[0]).toMatch(/engine-worker\.js$/);
    expect(seen.writes).toEqual([`writeFileSync ${join(scratch, 'control.txt')}`]);
  });

  it('refuses every option of every persona set to a path, a command line or a log-file option, touching nothing', async () => {
    let tried = 0;
    const { result, seen } = await watching(async () => {
      for (const persona of PERSONAS.keys()) {
        const account = HUMAN_PERSONAS.has(persona) ? 'human' : 'agent';
        for (const option of [...optionsReadBy(persona), 'logFile', 'path', 'args', 'options'])
          for (const value of hostileValues(scratch)) {
            const group = { persona, account, count: 2, heartbeat: { min: '20s', max: '40s' } };
            const groups = [{ ...group, options: { [option]: value } }];
            const mixOptions = [
              { mix: { total: 2, personas: { [persona]: 1 }, options: { [persona]: { [option]: value } } } },
            ];
            for (const population of [groups, mixOptions]) {
              tried++;
              const error = await restoreOnto(snapshotWith(base, { ...base.scenario, population })).then(
                () => new Error(`${persona}.${option} = ${JSON.stringify(value)} restored`),
                (e: Error) => e,
              );
              expect(error, `${persona}.${option}`).toBeInstanceOf(SnapshotError);
              expect(error.message, `${persona}.${option}`).toMatch(
                /^scenario\.population\[0\]\.\S+: [^\n]+$/,
              );
            }
          }
      }
    });
    expect(result).toBeUndefined();
    expect(tried).toBeGreaterThan(PERSONAS.size * 5);
    expect(seen).toEqual(NOTHING);
    expect(existsSync(join(scratch, 'marker.txt'))).toBe(false);
    expect(existsSync(join(scratch, 'debug.log'))).toBe(false);
  });

  it('restores a data-only snapshot with every restorable persona at work, spawning and writing nothing; threads only our engine file', async () => {
    const population = [...RESTORABLE_PERSONAS.keys()].map((persona) => ({
      persona,
      ...(HUMAN_PERSONAS.has(persona) ? { account: 'human' } : {}),
      count: persona === 'engine' ? 2 : 1,
      heartbeat: { min: '20s', max: '40s' },
      ...(persona === 'engine' ? { options: { level: 'sf-1', thinkMinMs: 1000, thinkMaxMs: 2000 } } : {}),
    }));
    const text = JSON.stringify({ ...parseScenarioWithSource(SCENARIO).source, population });
    const original = await LiveWorld.start(parseScenarioWithSource(text), SECRET);
    await original.advanceTo(original.nowMs + HOUR / 4);
    const snapshot = original.snapshot();
    EnginePool.closeShared(); // the restore must start its own engine threads, for the spy to see them
    // Restored from its checkpoint (no replay), then run on, so the engine agents search again under the spies.
    let restoredHash = '';
    const { result, seen } = await watching(async () => {
      const restored = await restoreOnto(snapshot);
      restoredHash = restored.snapshot().stateHash;
      await restored.advanceTo(restored.nowMs + HOUR / 4);
      return restored;
    });
    expect(snapshot.checkpoint).not.toBeNull();
    expect(result).toBeInstanceOf(LiveWorld);
    expect(restoredHash).toBe(snapshot.stateHash);
    expect(seen.spawns).toEqual([]);
    expect(seen.writes).toEqual([]);
    expect(seen.workers.length).toBeGreaterThan(0); // the engine agents played
    for (const file of seen.workers) expect(file).toMatch(/\/agents\/engines\/engine-worker\.js$/);
  });
});

describe('the attack over a socket, with the control token', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });

  async function attack(population: unknown[]) {
    const started = await startLiveServer(SCENARIO);
    apps.push(started.app);
    const { origin, control, server } = started;
    const before = server.current;
    const body = JSON.stringify(
      snapshotWith(server.current.snapshot(), { ...server.current.snapshot().scenario, population }),
    );
    const { result, seen } = await watching(async () => {
      const response = await fetch(`${origin}/_sim/restore`, { method: 'POST', headers: control, body });
      return { status: response.status, body: (await response.json()) as Json };
    });
    expect(server.current).toBe(before);
    return { answer: result as { status: number; body: Json }, seen };
  }

  const SHELL_LINE =
    "snapshot: scenario.population[0].persona: uci names a program; only the server's owner can start programs (start serve with --scenario)";

  it('refuses a uci population running /bin/sh: 400 naming the field, no marker, no spawn', async () => {
    const marker = join(scratch, 'marker.txt');
    const options = { path: '/bin/sh', args: ['-c', `echo ran >> ${marker}`] };
    const { answer, seen } = await attack([
      { persona: 'uci', count: 4, heartbeat: { min: '20s', max: '40s' }, options },
    ]);
    // What must not happen first, then the answer.
    expect(existsSync(marker)).toBe(false);
    expect(seen).toEqual(NOTHING);
    expect(answer.status).toBe(400);
    expect(answer.body['message']).toBe(SHELL_LINE);
    expect(answer.body['message']).not.toContain('\n');
  });

  it("refuses stockfish with the UCI option 'Debug Log File': 400, no log file, no spawn", async () => {
    const log = join(scratch, 'debug.log');
    const options = { path: 'stockfish', options: { 'Debug Log File': log } };
    const { answer, seen } = await attack([
      { persona: 'uci', count: 2, heartbeat: { min: '20s', max: '40s' }, options },
    ]);
    expect([answer.status, answer.body['message']]).toEqual([400, SHELL_LINE]);
    expect(existsSync(log)).toBe(false);
    expect(seen).toEqual(NOTHING);
  });

  it('refuses the same engine inside a mix, naming the mix share', async () => {
    const options = { uci: { path: '/bin/sh', args: ['-c', `echo ran >> ${join(scratch, 'marker.txt')}`] } };
    const { answer, seen } = await attack([{ mix: { total: 4, personas: { uci: 1 }, options } }]);
    expect([answer.status, answer.body['message']]).toEqual([
      400,
      "snapshot: scenario.population[0].mix.personas.uci: uci names a program; only the server's owner can start programs (start serve with --scenario)",
    ]);
    expect(seen).toEqual(NOTHING);
  });
});

describe("the owner's own scenario", () => {
  it("restores a snapshot of the server's own scenario even when it names uci and an agent module", async () => {
    const module = join(process.cwd(), 'test/fixtures/agents/random-mover.mjs');
    const text = `${SCENARIO}
  - persona: uci
    count: 1
    heartbeat: { min: 20s, max: 40s }
    options: { path: ${JSON.stringify(process.execPath)}, args: ['-e', 'process.exit(0)'] }
  - module: ${JSON.stringify(module)}
    count: 1
    heartbeat: { min: 20s, max: 40s }
`;
    const own = parseScenarioWithSource(text);
    const live = await LiveWorld.start(own, SECRET);
    const snapshot = JSON.parse(JSON.stringify(live.snapshot())) as LiveSnapshot;
    const restored = await LiveWorld.restore(snapshot, own);
    expect(restored.scenario).toBe(own.scenario);
    expect(restored.snapshot().stateHash).toBe(snapshot.stateHash);
    // The same snapshot restored by a server started with another scenario is refused at the first field off the list.
    await expect(restoreOnto(snapshot)).rejects.toThrow(
      /^scenario\.population\[2\]\.persona: uci names a program; only the server's owner can start programs/,
    );
  });
});

afterAll(() => {
  EnginePool.closeShared();
  rmSync(scratch, { recursive: true, force: true });
});
