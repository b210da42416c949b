import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AnswerCache, cacheKey } from '../../agents/engines/cache.js';
import { chooseMove, levelByName, lineValue, LEVELS, type EngineLevel } from '../../agents/engines/levels.js';
import {
  EnginePool,
  isSearchablePosition,
  type SearchLine,
  type SearchResult,
} from '../../agents/engines/pool.js';
import { parseBestMove, parseInfoPv, PvCollector } from '../../agents/engines/uci-lines.js';
import { Rng } from '../../src/kernel/rng.js';
import { legalMoves, newBoard, toWireUci } from '../../src/rules/chess/chess.js';

/** Positions with something to think about: an opening, a middlegame with both castlings legal, an ending. */
const POSITIONS = [
  'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
  'r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 4 8',
  '8/5k2/8/3K4/8/8/4P3/8 w - - 0 1',
  'rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5',
] as const;
const MATE_IN_ONE = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1';
const CHECKMATED = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
const STALEMATE = '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1';

const pools: EnginePool[] = [];
function pool(size: number, cacheEntries?: number): EnginePool {
  const made = new EnginePool({ size, ...(cacheEntries !== undefined ? { cacheEntries } : {}) });
  pools.push(made);
  return made;
}
afterAll(() => {
  for (const p of pools) p.close();
});

function wireMoves(fen: string): Set<string> {
  const board = newBoard(fen);
  return new Set(legalMoves(board).map((m) => toWireUci(board, m)));
}

describe('UCI output parsing', () => {
  it('reads an info line with multipv, a centipawn score and a bound', () => {
    const info = parseInfoPv(
      'info depth 8 seldepth 11 multipv 3 score cp 43 upperbound nodes 20019 nps 1 time 2 pv c4e6 d7e6',
    );
    expect(info).toEqual({
      multipv: 3,
      depth: 8,
      scoreCp: 43,
      mate: null,
      bound: 'upper',
      pv: ['c4e6', 'd7e6'],
    });
  });

  it('reads mate scores of either sign, and an info line without multipv as line 1', () => {
    expect(parseInfoPv('info depth 3 score mate -2 pv e1e2')).toMatchObject({
      multipv: 1,
      mate: -2,
      scoreCp: null,
    });
    expect(parseInfoPv('info depth 5 multipv 1 score mate 1 lowerbound pv a1a8')).toMatchObject({
      mate: 1,
      bound: 'lower',
      pv: ['a1a8'],
    });
  });

  it('ignores info lines without a principal variation', () => {
    for (const line of [
      'info string NNUE disabled',
      'info depth 9 currmove e2e4 currmovenumber 1',
      'info depth 0 score mate 0',
      'info depth 4 pv',
      'readyok',
    ]) {
      expect(parseInfoPv(line), line).toBeUndefined();
    }
  });

  it('reads bestmove, with or without ponder, and (none) or 0000 as no move', () => {
    expect(parseBestMove('bestmove e7e5 ponder g1f3')).toEqual({ move: 'e7e5' });
    expect(parseBestMove('bestmove e1g1')).toEqual({ move: 'e1g1' });
    expect(parseBestMove('bestmove (none)')).toEqual({ move: null });
    expect(parseBestMove('bestmove 0000')).toEqual({ move: null });
    expect(parseBestMove('info depth 1 pv e2e4')).toBeUndefined();
  });

  it('answers with the last line of each multipv index, in index order, bestmove first', () => {
    const collector = new PvCollector();
    const output = [
      'info depth 1 multipv 1 score cp 10 pv e2e4',
      'info depth 1 multipv 2 score cp 5 pv d2d4',
      'info depth 2 multipv 2 score cp 30 pv c2c4',
      'info depth 2 multipv 1 score cp 20 pv g1f3',
      'info depth 1 multipv 3 score mate 4 pv b1c3',
    ];
    for (const line of output) expect(collector.push(line)).toBeUndefined();
    expect(collector.push('bestmove g1f3 ponder d7d5')).toEqual({
      lines: [
        { uci: 'g1f3', scoreCp: 20, mate: null },
        { uci: 'c2c4', scoreCp: 30, mate: null },
        { uci: 'b1c3', scoreCp: null, mate: 4 },
      ],
    });
  });

  it('puts bestmove first even when the info lines disagree or are missing', () => {
    const disagree = new PvCollector();
    disagree.push('info multipv 1 score cp 10 pv e2e4');
    disagree.push('info multipv 2 score cp 5 pv d2d4');
    expect(disagree.push('bestmove d2d4')!.lines.map((l) => l.uci)).toEqual(['d2d4', 'e2e4']);
    expect(new PvCollector().push('bestmove a2a3')).toEqual({
      lines: [{ uci: 'a2a3', scoreCp: null, mate: null }],
    });
    expect(new PvCollector().push('bestmove (none)')).toEqual({ lines: [] });
  });

  it("answers the same whether a line takes the fast path for Stockfish's own shape or the full parse", () => {
    const shaped = fc
      .record({
        depth: fc.nat(30),
        multipv: fc.integer({ min: 1, max: 5 }),
        score: fc.oneof(
          fc.integer({ min: -900, max: 900 }).map((cp) => `cp ${cp}`),
          fc.integer({ min: -9, max: 9 }).map((mate) => `mate ${mate}`),
        ),
        bound: fc.constantFrom('', ' lowerbound', ' upperbound'),
        moves: fc.array(uciMove, { minLength: 1, maxLength: 4 }),
      })
      .map(
        (l) =>
          `info depth ${l.depth} seldepth ${l.depth + 2} multipv ${l.multipv} score ${l.score}${l.bound} nodes 900 nps 9000 time 3 pv ${l.moves.join(' ')}`,
      );
    // Lines just off the shape: parsed in full, and the fast path must not have read them otherwise.
    const offShape = (line: string, how: number): string =>
      [
        line.replace(' pv ', ' multipv 9 pv '),
        line.replace(' nodes ', '  nodes '),
        line.replace(/ pv .*$/, ' pv'),
        line.replace('info depth', 'info string depth'),
      ][how]!;
    const line = fc.oneof(
      { weight: 4, arbitrary: shaped },
      { weight: 1, arbitrary: fc.tuple(shaped, fc.nat(3)).map(([l, how]) => offShape(l, how)) },
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), uciMove, (output, best) => {
        const fast = new PvCollector();
        // A trailing space keeps every line off the fast path; parseInfoPv trims it.
        const full = new PvCollector();
        for (const text of output) {
          fast.push(text);
          full.push(`${text} `);
        }
        expect(fast.push(`bestmove ${best}`)).toEqual(full.push(`bestmove ${best}`));
      }),
      { seed: 32, numRuns: 300 },
    );
  });
});

describe('answer cache (LRU)', () => {
  it('keys on the full FEN and both settings', () => {
    const base = { fen: POSITIONS[0], nodes: 100, multiPv: 2 };
    const keys = new Set([
      cacheKey(base),
      cacheKey({ ...base, nodes: 101 }),
      cacheKey({ ...base, multiPv: 3 }),
      cacheKey({ ...base, fen: POSITIONS[0].replace(' 2 3', ' 2 4') }),
      cacheKey({ ...base, fen: POSITIONS[0].replace(' 2 3', ' 3 3') }),
    ]);
    expect(keys.size).toBe(5);
  });

  it('evicts the least recently used entry beyond its bound, counting hits and misses', () => {
    const cache = new AnswerCache<number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0); // a is now the most recent
    cache.set('d', 3); // evicts b
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([0, 2, 3]);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 4, misses: 1 });
  });

  it('never holds more than its bound (model check against a reference list)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 9 })), { maxLength: 200 }),
        (capacity, ops) => {
          const cache = new AnswerCache<number>(capacity);
          let model: number[] = []; // least recent first
          for (const [isSet, key] of ops) {
            const k = String(key);
            if (isSet) {
              cache.set(k, key);
              model = [...model.filter((m) => m !== key), key].slice(-capacity);
            } else {
              expect(cache.get(k)).toBe(model.includes(key) ? key : undefined);
              if (model.includes(key)) model = [...model.filter((m) => m !== key), key];
            }
            expect(cache.size).toBe(model.length);
          }
        },
      ),
      { seed: 17, numRuns: 300 },
    );
  });

  it('with capacity 0 stores nothing', () => {
    const cache = new AnswerCache<number>(0);
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('the stockfish.wasm pool', () => {
  it('answers with legal moves, best first, at most multiPv lines, castling as e1g1', async () => {
    const engines = pool(1, 0);
    for (const fen of POSITIONS) {
      const result = await engines.search({ fen, nodes: 2_000, multiPv: 3 });
      expect(result.lines.length).toBeGreaterThan(0);
      expect(result.lines.length).toBeLessThanOrEqual(3);
      const legal = wireMoves(fen);
      for (const line of result.lines) expect(legal.has(line.uci), `${line.uci} in ${fen}`).toBe(true);
      expect(new Set(result.lines.map((l) => l.uci)).size).toBe(result.lines.length);
    }
    // Every legal move of a position where both sides may castle: castling arrives as the king's two-square move.
    const all = await engines.search({ fen: POSITIONS[1], nodes: 20_000, multiPv: 60 });
    expect(new Set(all.lines.map((l) => l.uci))).toEqual(wireMoves(POSITIONS[1]));
    expect(all.lines.map((l) => l.uci)).toEqual(expect.arrayContaining(['e1g1', 'e1c1']));
  });

  it('scores a mate in one as mate 1, and answers no lines when nothing can be played', async () => {
    const engines = pool(1, 0);
    const mate = await engines.search({ fen: MATE_IN_ONE, nodes: 5_000, multiPv: 2 });
    expect(mate.lines[0]).toEqual({ uci: 'a1a8', scoreCp: null, mate: 1 });
    expect((await engines.search({ fen: CHECKMATED, nodes: 100, multiPv: 1 })).lines).toEqual([]);
    expect((await engines.search({ fen: STALEMATE, nodes: 100, multiPv: 1 })).lines).toEqual([]);
  });

  it('answers independently of what the instance searched before', async () => {
    const fresh = pool(1, 0);
    const used = pool(1, 0);
    await used.search({ fen: POSITIONS[2], nodes: 5_000, multiPv: 1 });
    await used.search({ fen: POSITIONS[1], nodes: 7_000, multiPv: 2 });
    for (const fen of [POSITIONS[3], POSITIONS[0]]) {
      const request = { fen, nodes: 10_000, multiPv: 3 };
      expect(await used.search(request)).toEqual(await fresh.search(request));
    }
  });

  it('gives the same answers with 1 and 4 instances, the 4 running concurrently', async () => {
    const requests = POSITIONS.flatMap((fen) =>
      [1, 2, 4].map((multiPv) => ({ fen, nodes: 3_000 + 500 * multiPv, multiPv })),
    );
    const one = pool(1, 0);
    const four = pool(4, 0);
    const byOne = await Promise.all(requests.map((r) => one.search(r)));
    const byFour = await Promise.all(requests.map((r) => four.search(r)));
    expect(byFour).toEqual(byOne);
    expect(one.started).toBe(1);
    expect(four.started).toBe(4);
    expect(four.stats()).toEqual({ searches: requests.length, cacheHits: 0 });
  });

  it('queues searches on its one instance at once, each answered as it would be alone', async () => {
    const requests = POSITIONS.flatMap((fen) => [1, 3].map((multiPv) => ({ fen, nodes: 500, multiPv })));
    const queued = pool(1, 0);
    const answers = requests.map((r) => queued.search(r)); // all sent before any is answered
    const alone = pool(1, 0);
    for (const [i, request] of requests.entries())
      expect(await answers[i]).toEqual(await alone.search(request));
    expect(queued.started).toBe(1);
    expect(queued.stats()).toEqual({ searches: requests.length, cacheHits: 0 });
  });

  it('caches: a hit equals a fresh search; other settings miss; concurrent duplicates run once', async () => {
    const cached = pool(1);
    const uncached = pool(1, 0);
    const request = { fen: POSITIONS[0], nodes: 4_000, multiPv: 2 };
    const [first, joined] = await Promise.all([cached.search(request), cached.search(request)]);
    expect(joined).toBe(first);
    expect(cached.stats()).toEqual({ searches: 1, cacheHits: 1 });
    expect(await cached.search(request)).toEqual(await uncached.search(request));
    expect(cached.stats()).toEqual({ searches: 1, cacheHits: 2 });
    await cached.search({ ...request, nodes: 4_001 });
    await cached.search({ ...request, multiPv: 3 });
    await cached.search({ ...request, fen: request.fen.replace(' 2 3', ' 3 3') });
    expect(cached.stats()).toEqual({ searches: 4, cacheHits: 2 });
    expect(Object.isFrozen(first.lines[0])).toBe(true);
  });

  it('refuses a request that could hang the engine or smuggle a command, naming the field', () => {
    const engines = pool(1);
    expect(() => engines.search({ fen: `${POSITIONS[0]}\nquit`, nodes: 10, multiPv: 1 })).toThrow(/fen/);
    expect(() => engines.search({ fen: '8/8/8/8/8/8/8/8 w - - 0 1', nodes: 10, multiPv: 1 })).toThrow(/fen/);
    expect(() => engines.search({ fen: POSITIONS[0], nodes: 0, multiPv: 1 })).toThrow(/nodes/);
    expect(() => engines.search({ fen: POSITIONS[0], nodes: 10, multiPv: 0 })).toThrow(/multiPv/);
    expect(engines.started).toBe(0);
  });

  it('shares one pool per process, fixed by its first use; a closed pool refuses work and a new one starts', () => {
    const shared = EnginePool.shared(2);
    try {
      expect(EnginePool.shared()).toBe(shared);
      expect(EnginePool.shared(2)).toBe(shared);
      expect(() => EnginePool.shared(3)).toThrow(/already runs with 2/);
    } finally {
      shared.close();
    }
    expect(() => shared.search({ fen: POSITIONS[0], nodes: 1, multiPv: 1 })).toThrow(/closed/);
    const next = EnginePool.shared(3);
    expect(next).not.toBe(shared);
    next.close();
  });

  it('closes the shared pool when a run ends, if one was started, so its threads and cache are freed', () => {
    EnginePool.closeShared(); // none started: nothing to do
    const shared = EnginePool.shared(1);
    EnginePool.closeShared();
    expect(() => shared.search({ fen: POSITIONS[0], nodes: 1, multiPv: 1 })).toThrow(/closed/);
    const next = EnginePool.shared(2);
    expect(next).not.toBe(shared);
    next.close();
  });

  it('lets a plain node script exit once its searches are done, without close()', () => {
    // Runs the built module (npm test builds dist/ first, as the CLI tests rely on).
    const built = 'dist/agents/engines/pool.js';
    expect(existsSync(built), `${built} missing: run npm run build`).toBe(true);
    const script = `import { EnginePool } from './${built}';
      const pool = EnginePool.shared(2);
      const fen = ${JSON.stringify(POSITIONS[0])};
      const results = await Promise.all([1, 2, 3].map((m) => pool.search({ fen, nodes: 2000, multiPv: m })));
      console.log(results.map((r) => r.lines[0].uci).join(','));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    // Only the script's own line: the engine's banner and output never reach stdout.
    expect(child.stdout.trim()).toMatch(/^[a-h][1-8][a-h][1-8][qrbn]?(,[a-h][1-8][a-h][1-8][qrbn]?){2}$/);
  });

  it('leaves no process-wide error handlers behind', async () => {
    const before = [
      process.listeners('uncaughtException').length,
      process.listeners('unhandledRejection').length,
    ];
    await pool(1).search({ fen: POSITIONS[2], nodes: 10, multiPv: 1 });
    expect([
      process.listeners('uncaughtException').length,
      process.listeners('unhandledRejection').length,
    ]).toEqual(before);
  });
});

describe('levels', () => {
  it('ascend in nodes, narrow their spread and MultiPV, and are found by name', () => {
    expect(LEVELS).toHaveLength(8);
    for (let i = 1; i < LEVELS.length; i++) {
      const [weaker, stronger] = [LEVELS[i - 1]!, LEVELS[i]!];
      expect(stronger.nodes).toBeGreaterThan(weaker.nodes);
      expect(stronger.spreadCp).toBeLessThanOrEqual(weaker.spreadCp);
      expect(stronger.multiPv).toBeLessThanOrEqual(weaker.multiPv);
    }
    expect(LEVELS.at(-1)!.spreadCp).toBe(0);
    expect(new Set(LEVELS.map((l) => l.name)).size).toBe(LEVELS.length);
    for (const level of LEVELS) expect(levelByName(level.name)).toBe(level);
    expect(levelByName('sf-9')).toBeUndefined();
  });
});

const uciMove = fc.constantFrom('e2e4', 'd2d4', 'g1f3', 'c2c4', 'b1c3', 'e1g1', 'a7a8q');
const searchLine: fc.Arbitrary<SearchLine> = fc.oneof(
  fc.record({ uci: uciMove, scoreCp: fc.integer({ min: -2_000, max: 2_000 }), mate: fc.constant(null) }),
  fc.record({
    uci: uciMove,
    scoreCp: fc.constant(null),
    mate: fc.integer({ min: -20, max: 20 }).filter((m) => m !== 0),
  }),
);
/** Lines as an engine reports them: distinct moves, the best first. */
const searchResult: fc.Arbitrary<SearchResult> = fc
  .uniqueArray(searchLine, { minLength: 1, maxLength: 5, selector: (l) => l.uci })
  .map((lines) => ({ lines: [...lines].sort((a, b) => lineValue(b)! - lineValue(a)!) }));
const level: fc.Arbitrary<EngineLevel> = fc.record({
  name: fc.constant('test'),
  nodes: fc.constant(1),
  multiPv: fc.integer({ min: 1, max: 5 }),
  spreadCp: fc.integer({ min: 0, max: 500 }),
});

describe('chooseMove', () => {
  it('always plays one of the lines the level searched, within its spread of the best', () => {
    fc.assert(
      fc.property(searchResult, level, fc.string(), (result, lvl, seed) => {
        const uci = chooseMove(result, lvl, new Rng(seed));
        const considered = result.lines.slice(0, lvl.multiPv);
        const chosen = considered.find((l) => l.uci === uci);
        expect(chosen).toBeDefined();
        expect(lineValue(considered[0]!)! - lineValue(chosen!)!).toBeLessThanOrEqual(lvl.spreadCp);
      }),
      { seed: 17, numRuns: 1000 },
    );
  });

  it('with spread 0 always plays the best line, and draws nothing from the stream', () => {
    fc.assert(
      fc.property(searchResult, level, fc.string(), (result, lvl, seed) => {
        const rng = new Rng(seed);
        expect(chooseMove(result, { ...lvl, spreadCp: 0 }, rng)).toBe(result.lines[0]!.uci);
        expect(rng.float()).toBe(new Rng(seed).float());
      }),
      { seed: 17, numRuns: 500 },
    );
  });

  it('never trades a forced mate for material, whatever the spread', () => {
    const result: SearchResult = {
      lines: [
        { uci: 'a1a8', scoreCp: null, mate: 3 },
        { uci: 'e2e4', scoreCp: 900, mate: null },
      ],
    };
    const rng = new Rng('mate');
    for (let i = 0; i < 200; i++)
      expect(chooseMove(result, { name: 't', nodes: 1, multiPv: 2, spreadCp: 10_000 }, rng)).toBe('a1a8');
  });

  it('plays smaller losses more often than larger ones (weights fall linearly with the loss)', () => {
    const result: SearchResult = {
      lines: [0, -100, -200].map((cp, i) => ({ uci: ['e2e4', 'd2d4', 'c2c4'][i]!, scoreCp: cp, mate: null })),
    };
    const counts = new Map<string, number>();
    const rng = new Rng('weights');
    for (let i = 0; i < 3_000; i++) {
      const uci = chooseMove(result, { name: 't', nodes: 1, multiPv: 3, spreadCp: 300 }, rng);
      counts.set(uci, (counts.get(uci) ?? 0) + 1);
    }
    // Weights 301 : 201 : 101.
    expect(counts.get('e2e4')! / 3_000).toBeCloseTo(301 / 603, 1);
    expect(counts.get('d2d4')! / 3_000).toBeCloseTo(201 / 603, 1);
    expect(counts.get('c2c4')! / 3_000).toBeCloseTo(101 / 603, 1);
  });

  it('refuses a result without lines (mate or stalemate on the board)', () => {
    expect(() => chooseMove({ lines: [] }, LEVELS[0]!, new Rng('x'))).toThrow(/no move/);
  });
});

describe('searchable positions', () => {
  it('answers a second ask as the first, for a legal position and for one that is not (only the first kind is remembered)', () => {
    const kingless = '8/8/8/8/8/8/8/8 w - - 0 1';
    const smuggled = `${POSITIONS[1]}\nquit`;
    for (let ask = 0; ask < 2; ask++) {
      expect(isSearchablePosition(POSITIONS[1])).toBe(true);
      expect(isSearchablePosition(kingless)).toBe(false);
      expect(isSearchablePosition(smuggled)).toBe(false);
    }
  });
});
