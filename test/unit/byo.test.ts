import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { AgentModuleError, loadAgentModule, ModulePersona } from '../../agents/adapters/byo.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World, type RunOutcome } from '../../src/sim/world.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/agents');

/** Loads a fixture by a path relative to the fixtures directory, as a scenario there would name it. */
const load = (path: string, options?: Record<string, unknown>) => loadAgentModule(path, FIXTURES, options);

/** The single-line message a failed load gives. */
async function failure(path: string, options?: Record<string, unknown>): Promise<string> {
  const error = await load(path, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${path} loaded, but should have failed`).toBeInstanceOf(AgentModuleError);
  const message = (error as AgentModuleError).message;
  expect(message).not.toContain('\n');
  expect(message.startsWith(`agent module ${path}: `)).toBe(true);
  return message;
}

/** A small world: four built-in random players, plus the groups under test (module paths resolve against the fixtures). */
function scenario(groups: string, duration = '2h'): string {
  return `
name: byo
seed: 17
start: 2026-04-01T00:00:00Z
duration: ${duration}
population:
  - persona: random
    count: 4
    heartbeat: { min: 20s, max: 40s }
    options: { maxGames: 2, seekChance: 0.7 }
${groups}`;
}

async function runScenario(groups: string, duration?: string): Promise<RunOutcome> {
  return new World(parseScenario(scenario(groups, duration), 'byo', undefined, FIXTURES)).run();
}

/** Moves on the platform's record made by `handle`. */
function movesBy(outcome: RunOutcome, handle: string): number {
  const id = [...outcome.platform.state.agents.values()].find((a) => a.handle === handle)!.id;
  let moves = 0;
  for (const game of outcome.platform.state.games.values()) {
    const white = game.whiteId === id;
    if (!white && game.blackId !== id) continue;
    moves += game.moves.filter((_, ply) => (ply % 2 === 0) === white).length;
  }
  return moves;
}

const RANDOM_MOVERS = `  - module: ./random-mover.mjs
    count: 2
    heartbeat: { min: 30s, max: 30s }
    options: { seekChance: 0.8 }
`;

describe('loading a bring-your-own agent module', () => {
  it('takes a PersonaFactory default export as it is, with its name, description and option checks', async () => {
    const factory = await load('random-mover.mjs');
    expect(factory.name).toBe('byo_random');
    expect(factory.description).toMatch(/random legal moves/);
    expect(factory.checkOptions({ seekChance: 0.3 })).toEqual([]);
    expect(factory.checkOptions({ seekChance: 3, speed: 1 })).toEqual([
      'speed: unknown option',
      'seekChance: must be a number from 0 to 1',
    ]);
    expect(factory.create({})).toBeInstanceOf(ModulePersona);
  });

  it('resolves the path against the base directory, and accepts an absolute path too', async () => {
    expect((await loadAgentModule('./agents/random-mover.mjs', join(ROOT, 'test/fixtures'))).name).toBe(
      'byo_random',
    );
    expect((await loadAgentModule(join(FIXTURES, 'random-mover.mjs'), '/nowhere')).name).toBe('byo_random');
  });

  it('takes a default class (TypeScript) or a plain create function (CommonJS), naming the factory after the file', async () => {
    const classAgent = await load('class-agent.ts');
    expect(classAgent.name).toBe('class_agent');
    expect(classAgent.description).toBe('agent module class-agent.ts');
    const persona = classAgent.create({ style: 'x' }) as ModulePersona;
    expect(persona.inner.constructor.name).toBe('ClassAgent');
    expect((persona.inner as unknown as { options: unknown }).options).toEqual({ style: 'x' });
    const idle = await load('create-function.cjs');
    expect(idle.name).toBe('create_function');
    expect(
      ((idle.create({ a: 1 }) as ModulePersona).inner as unknown as { options: unknown }).options,
    ).toEqual({ a: 1 });
    expect(idle.checkOptions({ anything: true })).toEqual([]);
  });

  it('a module group in a scenario plays real games beside the built-in personas; every invariant holds', async () => {
    const outcome = await runScenario(RANDOM_MOVERS);
    expect(outcome.failed).toBe(false);
    const movers = outcome.agents.filter((a) => a.persona === 'byo_random');
    expect(movers.map((a) => a.handle)).toEqual(['byo_random_0001', 'byo_random_0002']);
    for (const agent of movers) {
      expect(agent.impl).toBeInstanceOf(ModulePersona);
      expect(movesBy(outcome, agent.handle), agent.handle).toBeGreaterThan(10);
    }
    expect(
      [...outcome.platform.state.posts.values()].filter((p) =>
        p.content.includes('a module brought from outside'),
      ),
    ).toHaveLength(2);
    // The module draws only from ctx.rng, so the run is as reproducible as one of built-in personas.
    expect((await runScenario(RANDOM_MOVERS)).fingerprint).toBe(outcome.fingerprint);
  });

  it('a TypeScript class module plays too', async () => {
    const outcome = await runScenario(
      '  - module: ./class-agent.ts\n    count: 1\n    heartbeat: { min: 30s, max: 30s }\n',
      '1h',
    );
    expect(outcome.failed).toBe(false);
    const agent = outcome.agents.find((a) => a.persona === 'class_agent')!;
    expect(
      ((agent.impl as ModulePersona).inner as unknown as { heartbeats: number }).heartbeats,
    ).toBeGreaterThanOrEqual(119);
    expect(movesBy(outcome, agent.handle)).toBeGreaterThan(5);
  });
});

describe('a bad agent module gets one clear line naming its path and the fault', () => {
  const cases: Array<[string, RegExp, Record<string, unknown>?]> = [
    ['missing-agent.mjs', /: file not found \(looked for \/.*test\/fixtures\/agents\/missing-agent\.mjs\)$/],
    ['agent.py', /: unsupported file type "\.py" \(expected \.js, \.mjs, \.cjs, \.ts, \.mts\)$/],
    ['throws-on-import.mjs', /: import threw: TypeError: cannot start: AGENT_TOKEN is not set$/],
    ['syntax-error.mjs', /: import threw: .*syntax/i],
    [
      'no-default.mjs',
      /: no default export: it has only named exports \(create, name\); export default a PersonaFactory/,
    ],
    [
      'not-a-factory.mjs',
      /: the default export is the string "random", not a PersonaFactory or a create\(options\) function$/,
    ],
    [
      'single-persona.mjs',
      /: the default export is an object without create\(options\) \(one persona object would be shared by every agent: export its class instead\)/,
    ],
    [
      'no-heartbeat.mjs',
      /: the persona lacks heartbeat\(ctx\): create\(options\) returned an object with keys \[heartBeat\]$/,
      {},
    ],
    [
      'no-heartbeat-class.mjs',
      /: the persona lacks heartbeat\(ctx\): create\(options\) returned an object with keys \[\]$/,
      {},
    ],
    ['async-create.mjs', /: create\(options\) returned a Promise: it must return the persona itself/, {}],
    [
      'strict-options.mjs',
      /: checkOptions refused the options: speed: unknown option; depth: must be 1, 2 or 3$/,
      { depth: 7, speed: 2 },
    ],
    ['bad-check-result.mjs', /: checkOptions must return an array of strings, not the string "ok"$/, {}],
    [
      'bad-name.mjs',
      /: name must be 1-24 letters, digits, periods or underscores \(it prefixes agent handles\), not the string "my agent!"$/,
    ],
    ['create-throws.mjs', /: create\(options\) threw: RangeError: token option is required$/, {}],
  ];
  for (const [path, expected, options] of cases) {
    it(`${path}${options ? ` with options ${JSON.stringify(options)}` : ''}`, async () => {
      expect(await failure(path, options)).toMatch(expected);
    });
  }

  it('a directory is not a module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-byo-'));
    mkdirSync(join(dir, 'agent.js'));
    await expect(loadAgentModule('agent.js', dir)).rejects.toThrow(/^agent module agent\.js: not a file \(/);
    rmSync(dir, { recursive: true });
  });

  it('without options the probe is skipped; the same faults surface at create', async () => {
    const lazy = await load('no-heartbeat.mjs');
    expect(() => lazy.create({})).toThrow(
      /^agent module no-heartbeat\.mjs: the persona lacks heartbeat\(ctx\)/,
    );
    const needy = await load('create-throws.mjs');
    expect(() => needy.create({})).toThrow(
      /^agent module create-throws\.mjs: create\(options\) threw: RangeError: token option is required$/,
    );
    expect(needy.create({ token: 'x' })).toBeInstanceOf(ModulePersona);
  });

  it('a heartbeat that throws is recorded as the crash of that agent, naming the module; the run goes on (test/faults/crash.test.ts)', async () => {
    const outcome = await runScenario('  - module: ./heartbeat-throws.mjs\n    count: 1\n', '1h');
    expect(outcome.crashes.get('heartbeat_throws_0001')?.error).toMatch(
      /^AgentModuleError: agent module \.\/heartbeat-throws\.mjs: heartbeat of heartbeat_throws_0001 threw: lost my marbles$/,
    );
  });

  it('through a scenario, a bad module or refused options stop the run before any agent exists, naming the group', async () => {
    for (const [group, expected] of [
      [
        '  - module: ./no-heartbeat.mjs\n    count: 1\n',
        /population\[1\]\.module: agent module \.\/no-heartbeat\.mjs: the persona lacks heartbeat\(ctx\)/,
      ],
      [
        '  - module: ./strict-options.mjs\n    count: 1\n    options: { depth: 9 }\n',
        /population\[1\]\.module: agent module \.\/strict-options\.mjs: checkOptions refused the options: depth: must be 1, 2 or 3/,
      ],
    ] as const) {
      const world = new World(parseScenario(scenario(group), 'byo', undefined, FIXTURES));
      await expect(world.run()).rejects.toThrow(expected);
      expect(world.agents).toEqual([]);
    }
  });
});

describe('TypeScript agent modules under plain Node 20 (no TypeScript support of its own)', () => {
  /**
   * vitest imports .ts itself, so the fallback that registers agents/adapters/byo-typescript.mjs is exercised in a
   * child `node`: agents/adapters/byo.ts is transpiled into a scratch tree laid out like the source one, with this
   * project's node_modules linked in, and loads the TypeScript fixture there.
   */
  it('loads a .ts class that imports a sibling .ts by its .js name', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'acs-byo-node-'));
    mkdirSync(join(scratch, 'agents/adapters'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));
    const source = readFileSync(join(ROOT, 'agents/adapters/byo.ts'), 'utf8');
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(scratch, 'agents/adapters/byo.js'), js);
    writeFileSync(
      join(scratch, 'agents/adapters/byo-typescript.mjs'),
      readFileSync(join(ROOT, 'agents/adapters/byo-typescript.mjs')),
    );
    const script = `
      const { loadAgentModule } = await import(${JSON.stringify(join(scratch, 'agents/adapters/byo.js'))});
      const factory = await loadAgentModule('class-agent.ts', ${JSON.stringify(FIXTURES)}, { level: 1 });
      const persona = factory.create({});
      const broken = await loadAgentModule('syntax-error.mjs', ${JSON.stringify(FIXTURES)}).catch((e) => e.message);
      console.log(JSON.stringify({ name: factory.name, inner: persona.inner.constructor.name, broken }));`;
    let out: string;
    try {
      out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        cwd: resolve(scratch),
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true }); // removes the node_modules link, not what it points to
    }
    const result = JSON.parse(out.trim()) as { name: string; inner: string; broken: string };
    expect(result.name).toBe('class_agent');
    expect(result.inner).toBe('ClassAgent');
    expect(result.broken).toMatch(/^agent module syntax-error\.mjs: import threw: SyntaxError: /);
  });
});
