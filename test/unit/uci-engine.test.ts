import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess as OracleChess } from 'chess.js';
import { afterAll, describe, expect, it } from 'vitest';
import { PERSONAS } from '../../agents/registry.js';
import { UciPersona, uciPersona } from '../../agents/personas/uci.js';
import {
  UciEngine,
  closeUciEngines,
  liveUciProcesses,
  readBestMove,
  type UciEngineConfig,
} from '../../agents/adapters/uci-engine.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';

/** Debian's stockfish (installed by .ci/run): on PATH, or where the package puts it. */
function findStockfish(): string {
  for (const dir of [...(process.env['PATH'] ?? '').split(':'), '/usr/games']) {
    try {
      accessSync(join(dir, 'stockfish'), constants.X_OK);
      return join(dir, 'stockfish');
    } catch {
      /* not here */
    }
  }
  throw new Error(
    'stockfish not found on PATH nor in /usr/games: .ci/run installs it (apt-get install stockfish)',
  );
}

const STOCKFISH = findStockfish();
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const MIDGAME = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8';
const dir = mkdtempSync(join(tmpdir(), 'uci-test-'));

/**
 * A fake engine: speaks just enough UCI, misbehaves as its mode says, and logs its pid and every line it
 * receives to `<dir>/<log>.log`, so tests can check what was sent and that the process is gone.
 */
const FAKE = join(dir, 'fake-engine.mjs');
writeFileSync(
  FAKE,
  `import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const [mode, log] = process.argv.slice(2);
const note = (text) => appendFileSync(log, text + '\\n');
const say = (text) => process.stdout.write(text + '\\n');
note('pid ' + process.pid);
createInterface({ input: process.stdin }).on('line', (line) => {
  note(line);
  const command = line.trim().split(' ')[0];
  if (command === 'uci') {
    if (mode === 'crash-on-uci') process.exit(3);
    if (mode === 'silent') return;
    say('id name fake'); say('option name Threads type spin default 2 min 1 max 8'); say('uciok');
  } else if (command === 'isready') say('readyok');
  else if (command === 'go') {
    if (mode === 'hang-on-go') return;
    if (mode === 'crash-on-go') process.exit(4);
    if (mode === 'crash-first' && !existsSync(log + '.crashed')) { writeFileSync(log + '.crashed', ''); process.exit(5); }
    if (mode === 'illegal') return say('bestmove e2e5');
    if (mode === 'garbage') return say('bestmove banana');
    if (mode === 'flood') return process.stdout.write('x'.repeat(200000));
    say('info depth 1 score cp 20 pv e2e4'); say('bestmove e2e4 ponder e7e5');
  }
});
`,
);

/**
 * Real-time allowances. A fake engine is a node process: spawning it and getting `uciok` back takes about
 * 0.1-0.3 s here, so an engine that is meant to answer gets a timeout far above that (a slow or busy machine
 * must not turn its failure into a timeout), and only the modes that hang get a short one.
 */
const ANSWERING_TIMEOUT_MS = 5_000;
/** A generous allowance for spawning a process and the run around it, on top of the engine's timeouts. */
const SPAWN_ALLOWANCE_MS = 1_000;
/**
 * The most a failing search may take, with a 3x margin: UciEngine settles within `timeoutMs` twice over (the
 * handshake, then the search), plus the spawn. Exceeding it means a timeout did not fire, not a slow machine.
 */
const settleLimitMs = (timeoutMs: number, searches = 1): number =>
  3 * (searches * (2 * timeoutMs) + SPAWN_ALLOWANCE_MS);

let logs = 0;
function fake(
  mode: string,
  timeoutMs = ANSWERING_TIMEOUT_MS,
  options: Record<string, string | number> = {},
): { config: UciEngineConfig; log: string } {
  const log = join(dir, `${mode}-${++logs}.log`);
  return { config: { path: process.execPath, args: [FAKE, mode, log], options, timeoutMs }, log };
}

/**
 * The pids the fake engine logged. On a busy machine a short timeout can kill the fake before node has even
 * started it far enough to log: then there is no log and no pid to look for (the kill itself is counted in
 * `stats.failures`, which the caller checks).
 */
function pidsIn(log: string): number[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('pid '))
    .map((l) => Number(l.slice(4)));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The kernel needs a moment to reap a killed child; give it a bounded one. */
async function expectGone(pids: number[]): Promise<void> {
  for (let i = 0; i < 50 && pids.some(isRunning); i++) await new Promise((r) => setTimeout(r, 20));
  expect(pids.filter(isRunning)).toEqual([]);
}

function oracleAccepts(fen: string, uci: string): boolean {
  try {
    new OracleChess(fen).move({
      from: uci.slice(0, 2),
      to: uci.slice(2, 4),
      ...(uci.length > 4 ? { promotion: uci[4] } : {}),
    });
    return true;
  } catch {
    return false;
  }
}

afterAll(async () => {
  closeUciEngines();
  expect(liveUciProcesses()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('reading bestmove', () => {
  it('takes a legal move (ignoring ponder), writes castling as e1g1, and refuses garbage and illegal moves', () => {
    expect(readBestMove(START, 'bestmove e2e4 ponder e7e5')).toEqual({ ok: true, uci: 'e2e4' });
    const castle = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    expect(readBestMove(castle, 'bestmove e1h1')).toEqual({ ok: true, uci: 'e1g1' });
    expect(readBestMove('8/P6k/8/8/8/8/8/K7 w - - 0 1', 'bestmove a7a8q')).toEqual({
      ok: true,
      uci: 'a7a8q',
    });
    for (const line of ['bestmove (none)', 'bestmove 0000', 'bestmove', 'bestmove e4', 'bestmove E2E4']) {
      expect(readBestMove(START, line)).toMatchObject({ ok: false, failure: 'garbage' });
    }
    expect(readBestMove(START, 'bestmove e2e5')).toMatchObject({ ok: false, failure: 'illegal' });
  });
});

describe('UciEngine against Debian stockfish', () => {
  const config: UciEngineConfig = { path: STOCKFISH, args: [], options: { Hash: 16 }, timeoutMs: 10_000 };

  it('handshakes and answers a legal move, and the same position twice gives the same move', async () => {
    const engine = new UciEngine(config);
    const first = await engine.bestMove(MIDGAME, { nodes: 20_000 });
    const again = await engine.bestMove(MIDGAME, { nodes: 20_000 });
    const opening = await engine.bestMove(START, { nodes: 5_000 });
    expect(first.ok && oracleAccepts(MIDGAME, first.uci)).toBe(true);
    expect(opening.ok && oracleAccepts(START, opening.uci)).toBe(true);
    expect(again).toEqual(first);
    // A fresh process (no shared hash, no history) agrees too: each search is independent.
    const other = new UciEngine(config);
    expect(await other.bestMove(MIDGAME, { nodes: 20_000 })).toEqual(first);
    expect(engine.stats).toMatchObject({ spawns: 1, searches: 3, moves: 3 });
    engine.close();
    other.close();
  });

  it('a searched line of play stays legal move after move', async () => {
    const engine = new UciEngine(config);
    const game = new OracleChess();
    for (let ply = 0; ply < 12 && !game.isGameOver(); ply++) {
      const answer = await engine.bestMove(game.fen(), { nodes: 2_000 });
      expect(answer.ok).toBe(true);
      if (answer.ok)
        game.move({
          from: answer.uci.slice(0, 2),
          to: answer.uci.slice(2, 4),
          ...(answer.uci[4] ? { promotion: answer.uci[4] } : {}),
        });
    }
    expect(game.history().length).toBeGreaterThanOrEqual(12);
    engine.close();
  });
});

describe('UciEngine with a misbehaving engine: no move, no hang, the process killed', () => {
  // The modes that answer (badly) get a timeout far above a spawn, so failing with their own failure (not
  // `timeout`) shows they did not wait for the timer. The two that hang get a short timeout, and the test
  // checks which step the timer cut off: the handshake (silent) or the search, after a handshake that
  // answered (hang-on-go, whose timeout leaves room for the spawn).
  const cases: Array<[mode: string, failure: string, timeoutMs: number, step?: 'handshake' | 'search']> = [
    ['crash-on-uci', 'exit', ANSWERING_TIMEOUT_MS],
    ['silent', 'timeout', 500, 'handshake'],
    ['crash-on-go', 'exit', ANSWERING_TIMEOUT_MS],
    ['hang-on-go', 'timeout', 1_500, 'search'],
    ['illegal', 'illegal', ANSWERING_TIMEOUT_MS],
    ['garbage', 'garbage', ANSWERING_TIMEOUT_MS],
    ['flood', 'garbage', ANSWERING_TIMEOUT_MS],
  ];
  for (const [mode, failure, timeoutMs, step] of cases) {
    it(`${mode}: fails with ${failure}${step ? ` when the ${step} times out` : ', before any timeout'}`, async () => {
      const { config, log } = fake(mode, timeoutMs);
      const engine = new UciEngine(config);
      const started = performance.now();
      const answer = await engine.bestMove(START, { nodes: 100 });
      const elapsed = performance.now() - started;
      expect(answer).toMatchObject({ ok: false, failure });
      expect(engine.stats.failures[failure as 'exit']).toBe(1);
      if (step) {
        expect(answer).toMatchObject({ detail: `no answer to the ${step} within ${timeoutMs} ms` });
        expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 20); // the timer fired, not something else
      }
      expect(elapsed).toBeLessThan(settleLimitMs(timeoutMs)); // no hang: only a timer that never fires gets here
      await expectGone(pidsIn(log));
    }, 60_000); // above settleLimitMs (at most 33 s), so the assertion, not vitest's limit, reports a slow timer
  }

  it('a binary that does not exist fails with spawn', async () => {
    const engine = new UciEngine({
      path: join(dir, 'no-such-engine'),
      args: [],
      options: {},
      timeoutMs: ANSWERING_TIMEOUT_MS,
    });
    expect(await engine.bestMove(START, { nodes: 100 })).toMatchObject({ ok: false, failure: 'spawn' });
  });

  it('after a failure the next search starts a fresh process, which answers', async () => {
    const { config, log } = fake('crash-first');
    const engine = new UciEngine(config);
    expect(await engine.bestMove(START, { nodes: 100 })).toMatchObject({ ok: false, failure: 'exit' });
    expect(await engine.bestMove(START, { nodes: 100 })).toEqual({ ok: true, uci: 'e2e4' });
    expect(engine.stats).toMatchObject({ spawns: 2, searches: 2, moves: 1 });
    expect(pidsIn(log)).toHaveLength(2);
    engine.close();
    await expectGone(pidsIn(log));
  });

  it('sends the options, Threads=1 unless given, and ucinewgame before every search; queued searches run one at a time', async () => {
    const { config, log } = fake('answer', ANSWERING_TIMEOUT_MS, { Hash: 16, 'Skill Style': 'calm' });
    const engine = new UciEngine(config);
    const answers = await Promise.all([
      engine.bestMove(START, { nodes: 100 }),
      engine.bestMove(START, { movetimeMs: 50 }),
    ]);
    expect(answers).toEqual([
      { ok: true, uci: 'e2e4' },
      { ok: true, uci: 'e2e4' },
    ]);
    const sent = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('pid '));
    expect(sent).toEqual([
      'uci',
      'setoption name Hash value 16',
      'setoption name Skill Style value calm',
      'setoption name Threads value 1',
      'isready',
      ...['ucinewgame', 'isready', `position fen ${START}`, 'go nodes 100'],
      ...['ucinewgame', 'isready', `position fen ${START}`, 'go movetime 50'],
    ]);
    engine.close();
    const { config: given, log: givenLog } = fake('answer', ANSWERING_TIMEOUT_MS, { threads: 3 });
    const other = new UciEngine(given);
    await other.bestMove(START, { nodes: 100 });
    expect(readFileSync(givenLog, 'utf8')).toContain('setoption name threads value 3');
    expect(readFileSync(givenLog, 'utf8')).not.toContain('Threads value 1');
    other.close();
    await expectGone([...pidsIn(log), ...pidsIn(givenLog)]);
  });
});

describe('uci persona options', () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /^path: required/],
    [{ path: join(dir, 'missing') }, /^path: no executable/],
    [{ path: STOCKFISH, args: 'x' }, /^args: must be a list of strings$/],
    [
      { path: STOCKFISH, options: { Hash: 'a\nquit' } },
      /^options\.Hash: must be a number or a one-line string$/,
    ],
    [{ path: STOCKFISH, nodes: 0 }, /^nodes: must be an integer/],
    [{ path: STOCKFISH, nodes: 10, movetimeMs: 10 }, /^movetimeMs: give nodes or movetimeMs, not both$/],
    [{ path: STOCKFISH, movetimeMs: 1000, timeoutMs: 1000 }, /^timeoutMs: must exceed movetimeMs$/],
    [{ path: STOCKFISH, thinkMinMs: 5000, thinkMaxMs: 1000 }, /^thinkMinMs: must not exceed thinkMaxMs$/],
    [{ path: STOCKFISH, thinkMaxMs: 400_000 }, /^thinkMaxMs: must be an integer from 0 to 299000$/],
    [{ path: STOCKFISH, level: 3 }, /^level: unknown option$/],
  ];
  for (const [options, problem] of bad) {
    it(`refuses ${JSON.stringify(options).replace(dir, '<tmp>')}, naming the option`, () => {
      const problems = uciPersona.checkOptions(options);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(problem);
    });
  }

  it('accepts a path (or a name on PATH) with the defaults, and a full set of options', () => {
    expect(uciPersona.checkOptions({ path: STOCKFISH })).toEqual([]);
    expect(uciPersona.checkOptions({ path: 'node' })).toEqual([]);
    const full = {
      path: process.execPath,
      args: [FAKE, 'answer'],
      options: { Hash: 16 },
      nodes: 500,
      timeoutMs: 2000,
      thinkMinMs: 0,
      thinkMaxMs: 10,
      maxGames: 2,
    };
    expect(uciPersona.checkOptions(full)).toEqual([]);
  });

  it('is registered under its name', () => {
    expect(PERSONAS.get('uci')).toBe(uciPersona);
  });
});

describe('uci agents in a run (every invariant holds)', () => {
  async function run(options: string, duration: string) {
    const world = new World(
      parseScenario(`
name: uci
seed: 6
start: 2026-03-01T00:00:00Z
duration: ${duration}
population:
  - persona: random
    count: 1
    heartbeat: { min: 20s, max: 40s }
    options: { maxGames: 1 }
  - persona: uci
    count: 1
    heartbeat: { min: 20s, max: 40s }
    options: ${options}
`),
    );
    const outcome = await world.run();
    expect(outcome.invariants.filter((i) => !i.passed).map((i) => i.name)).toEqual([]);
    expect(outcome.failed).toBe(false);
    const agent = world.agents.find((a) => a.persona === 'uci')!;
    const games = [...outcome.platform.state.games.values()].filter((g) => g.status === 'completed');
    const id = (handle: string) =>
      [...outcome.platform.state.agents.values()].find((a) => a.handle === handle)!.id;
    return { uci: agent.impl as UciPersona, games, id, fingerprint: outcome.fingerprint };
  }

  it('a stockfish agent plays a random agent: games complete, the engine wins, and a second run is identical', async () => {
    const options = `{ path: ${JSON.stringify(STOCKFISH)}, nodes: 2000, maxGames: 1, thinkMinMs: 1000, thinkMaxMs: 5000 }`;
    const { uci, games, id, fingerprint } = await run(options, '2h');
    expect(games.length).toBeGreaterThan(0);
    expect(uci.engineStats.moves).toBeGreaterThan(10);
    expect(Object.values(uci.engineStats.failures).every((n) => n === 0)).toBe(true);
    const me = id('uci_0001');
    const won = games.filter(
      (g) => g.end!.winner !== null && (g.end!.winner === 'white' ? g.whiteId : g.blackId) === me,
    );
    expect(won.some((g) => g.end!.reason === 'checkmate')).toBe(true);
    uci.engine.close();
    // Threads=1 and a node budget: the same binary replays the same history.
    const replay = await run(options, '2h');
    expect(replay.fingerprint).toBe(fingerprint);
    replay.uci.engine.close();
  });

  it('an agent whose engine hangs loses on time, and the run still ends', async () => {
    const { config } = fake('hang-on-go', 300);
    const started = performance.now();
    const { uci, games, id } = await run(
      `{ path: ${JSON.stringify(config.path)}, args: ${JSON.stringify(config.args)}, timeoutMs: 300, maxGames: 1 }`,
      '30m',
    );
    const elapsed = performance.now() - started;
    const me = id('uci_0001');
    const mine = games.filter((g) => g.whiteId === me || g.blackId === me);
    expect(mine.length).toBeGreaterThan(0);
    for (const game of mine) {
      expect(game.end!.reason).toBe('timeout');
      expect(game.end!.winner === 'white' ? game.whiteId : game.blackId).not.toBe(me);
    }
    expect(uci.engineStats.moves).toBe(0);
    expect(uci.engineStats.failures.timeout).toBe(uci.engineStats.searches);
    // The run waits for each search no longer than its timeouts: a generous bound per search, 3x over.
    expect(elapsed).toBeLessThan(settleLimitMs(300, uci.engineStats.searches));
    expect(liveUciProcesses()).toBe(0);
  }, 60_000);
});
