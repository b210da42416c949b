/**
 * P5 for `npm run bench`: engine agents' games through the in-process API, as a ratio to bare stockfish.wasm
 * searching the same positions.
 *
 * - `EngineTable`: two engine agents on one platform, set up before any clock starts (a bare engine is also
 *   started before its clock). Each ply is a pool search at one level, a seeded choice among its lines and a
 *   move request; the next position is the FEN the platform answers with, as a real agent would read it.
 * - `BareStockfish`: the baseline, a stockfish.wasm module driven directly (the same UCI commands, no pool, no
 *   cache, no platform), so the ratio between the two is what the agent machinery costs.
 * - `measureEnginePairs`: one game at a time, each paired with the bare searches of that game's positions,
 *   the two taken in turn (agents first, then bare first), the figure the median of the pairs' ratios. This
 *   machine is shared: a pair spans a fraction of a second, so its two halves see nearly the same load, and a
 *   pair hit by a burst does not move the median. The spread of the pairs is printed beside it.
 *
 * The baseline reads the module's lines the way the pool's instances do (wasm-engine.ts): through
 * `console.log`, which the module calls at once when it has no message listener. Its listener API hands each
 * line over through a timer of 1 ms or more; a baseline reading lines that way would be slower than the
 * agents' own engines by that timer alone, and the ratio would credit the machinery with it. For the same
 * reason it sends commands as the instances do, straight to `uci_command`, with the hash table size an
 * instance uses for the level (`hashMbFor`).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chooseMove, type EngineLevel } from '../agents/engines/levels.js';
import { EnginePool } from '../agents/engines/pool.js';
import { hashMbFor } from '../agents/engines/wasm-engine.js';
import type { PlatformClient } from '../src/client/client.js';
import { Rng } from '../src/kernel/rng.js';
import { STANDARD_START_FEN } from '../src/rules/chess/chess.js';
import { DEFAULT_RULESET } from '../src/rules/ruleset.js';
import { wirePlatform } from '../src/sim/wiring.js';
import { figureLine, median, percentile, type Goal } from './figures.js';

const P5_GOAL: Goal = { better: 'higher', goal: 0.9 };

/** Two engine agents registered on one in-process platform; each `play` is one whole game between them. */
export class EngineTable {
  private constructor(
    private readonly players: readonly [PlatformClient, PlatformClient],
    private readonly seed: string,
  ) {}

  static async open(seed: string): Promise<EngineTable> {
    // Two keys play every game, far past the daily request quota: the loop is measured, not throttled.
    const ruleset = {
      ...DEFAULT_RULESET,
      api: { ...DEFAULT_RULESET.api, requestsPerDay: Number.MAX_SAFE_INTEGER },
    };
    const wired = wirePlatform({ seed, startMs: Date.UTC(2026, 0, 1), ruleset });
    const players = [wired.client(), wired.client()] as const;
    await players[0].register({ handle: 'bench_engine_a' });
    await players[1].register({ handle: 'bench_engine_b' });
    for (const player of players) await player.post('bench');
    return new EngineTable(players, seed);
  }

  /**
   * Game `game` of this table: its choices draw from a stream of their own, so the same game number plays
   * the same moves again whatever was played before. Returns every position an agent searched, in order.
   */
  async play(pool: EnginePool, level: EngineLevel, game: number): Promise<string[]> {
    const rng = new Rng(this.seed).fork(`engine-game-${game}`);
    const [a, b] = this.players;
    const { challenge } = await a.createChallenge({ opponent_handle: 'bench_engine_b' });
    const accepted = await b.acceptChallenge(challenge.challenge_id);
    const whiteIsA = accepted.game.white_player.handle === 'bench_engine_a';
    const fens: string[] = [];
    let fen = STANDARD_START_FEN;
    for (let ply = 0; ; ply++) {
      const mover = (ply % 2 === 0) === whiteIsA ? a : b;
      fens.push(fen);
      const uci = chooseMove(
        await pool.search({ fen, nodes: level.nodes, multiPv: level.multiPv }),
        level,
        rng,
      );
      const answer = await mover.move({ game_id: challenge.challenge_id, move_uci: uci });
      if (answer.game_status === 'completed') return fens;
      fen = answer.move.fen_after;
    }
  }
}

/** Games 0 .. games-1 of a fresh table; every position searched, in order. */
export async function engineGames(
  pool: EnginePool,
  level: EngineLevel,
  games: number,
  seed: string,
): Promise<{ plies: number; fens: string[] }> {
  const table = await EngineTable.open(seed);
  const fens: string[] = [];
  for (let game = 0; game < games; game++) fens.push(...(await table.play(pool, level, game)));
  return { plies: fens.length, fens };
}

/** One timed half of a pair: wall time and the process's CPU time (every thread: world, pool, engine). */
interface Half {
  ms: number;
  cpuMs: number;
}

async function timedHalf(run: () => Promise<unknown>): Promise<Half> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

export interface EnginePair {
  plies: number;
  agents: Half;
  bare: Half;
}

/**
 * `games` pairs. The positions of every game are played once first (untimed; it also warms both loops), so
 * that either half of a pair can go first; the timed replay of a game must search the very same positions.
 */
export async function measureEnginePairs(
  pool: EnginePool,
  bare: BareStockfish,
  level: EngineLevel,
  games: number,
  seed: string,
): Promise<EnginePair[]> {
  const table = await EngineTable.open(seed);
  const positions: string[][] = [];
  for (let game = 0; game < games; game++) positions.push(await table.play(pool, level, game));
  await bare.searchAll(positions[0]!, level);
  const pairs: EnginePair[] = [];
  for (let game = 0; game < games; game++) {
    const fens = positions[game]!;
    const agentsHalf = () =>
      timedHalf(async () => {
        const replayed = await table.play(pool, level, game);
        if (replayed.join('\n') !== fens.join('\n'))
          throw new Error(`engine bench: game ${game} searched other positions when replayed`);
      });
    const bareHalf = () => timedHalf(() => bare.searchAll(fens, level));
    const agentsFirst = game % 2 === 0;
    const first = await (agentsFirst ? agentsHalf() : bareHalf());
    const second = await (agentsFirst ? bareHalf() : agentsHalf());
    pairs.push({
      plies: fens.length,
      agents: agentsFirst ? first : second,
      bare: agentsFirst ? second : first,
    });
  }
  return pairs;
}

/**
 * P5: agents' plies/s over bare searches/s on the same positions (one instance each, answer cache off), the
 * median over the pairs, then the cache hit rate over seeded games with the cache on.
 */
export async function runEngineBench(options: {
  games: number;
  level: EngineLevel;
  log: (line: string) => void;
}): Promise<void> {
  const { games, level, log } = options;
  const loadBefore = loadavg()[0]!;
  const uncached = new EnginePool({ size: 1, cacheEntries: 0 });
  const bare = await BareStockfish.start();
  try {
    const pairs = await measureEnginePairs(uncached, bare, level, games, 'engine-bench');
    logEnginePairs(pairs, level, loadBefore, log);
  } finally {
    uncached.close();
    bare.stop();
  }
  await logCacheHitRate(level, games, log);
}

function logEnginePairs(
  pairs: readonly EnginePair[],
  level: EngineLevel,
  loadBefore: number,
  log: (line: string) => void,
): void {
  const ratios = pairs.map((pair) => pair.bare.ms / pair.agents.ms);
  const cpuRatios = pairs.map((pair) => pair.bare.cpuMs / pair.agents.cpuMs);
  const sum = (key: 'agents' | 'bare', field: keyof Half) => pairs.reduce((s, p) => s + p[key][field], 0);
  const plies = pairs.reduce((s, p) => s + p.plies, 0);
  const perPly = (key: 'agents' | 'bare', field: keyof Half) => (sum(key, field) / plies).toFixed(2);
  const ratio = median(ratios);
  const [low, high] = [percentile(ratios, 25), percentile(ratios, 75)];
  log(
    `engine-agent games at ${level.name} (nodes ${level.nodes}, MultiPV ${level.multiPv}), one instance, no cache: ${pairs.length} games, each paired with bare searches of its ${plies} positions in all, taken in turn (load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after):`,
  );
  log(
    `  per ply: agents + platform ${perPly('agents', 'ms')} ms wall, ${perPly('agents', 'cpuMs')} ms CPU (all threads); bare ${perPly('bare', 'ms')} ms wall, ${perPly('bare', 'cpuMs')} ms CPU`,
  );
  log(
    `  pairs' ratios (bare time / agents' time): quartiles ${low.toFixed(3)} .. ${high.toFixed(3)}, of all ${Math.min(...ratios).toFixed(3)} .. ${Math.max(...ratios).toFixed(3)}; CPU time ratio, median ${median(cpuRatios).toFixed(3)}`,
  );
  if (high - low > 0.1)
    log(
      `  noisy: the middle half of the pairs spans ${(high - low).toFixed(3)}; read the figure with that spread`,
    );
  log(`  ${figureLine('P5 engine games / bare stockfish.wasm', ratio.toFixed(3), ratio, P5_GOAL)}`);
}

/** Hit rate over distinct seeded games (openings recur), then over a replay of the same games (every answer cached). */
async function logCacheHitRate(
  level: EngineLevel,
  games: number,
  log: (line: string) => void,
): Promise<void> {
  const cached = new EnginePool({ size: 1 });
  const rate = (hits: number, searches: number) =>
    `${hits} hits of ${hits + searches} requests (${((hits / (hits + searches)) * 100).toFixed(1)}%)`;
  const pliesPerSecond = (plies: number, ms: number) => Math.round((plies / ms) * 1000);
  try {
    let start = performance.now();
    const first = await engineGames(cached, level, games, 'engine-cache');
    const firstMs = performance.now() - start;
    const afterFirst = cached.stats();
    start = performance.now();
    const replay = await engineGames(cached, level, games, 'engine-cache');
    const replayMs = performance.now() - start;
    const after = cached.stats();
    log(
      `  answer cache, ${games} seeded games at ${level.name}: ${rate(afterFirst.cacheHits, afterFirst.searches)}, ${pliesPerSecond(first.plies, firstMs)} plies/s`,
    );
    log(
      `  answer cache, the same games replayed: ${rate(after.cacheHits - afterFirst.cacheHits, after.searches - afterFirst.searches)}, ${pliesPerSecond(replay.plies, replayMs)} plies/s`,
    );
  } finally {
    cached.close();
  }
}

interface RawStockfish {
  postMessage(command: string): void;
  ccall(name: 'uci_command', returns: 'number', argTypes: ['string'], args: [string]): number;
  terminate(): void;
}

/** stockfish.wasm with nothing around it: one module, the same settings and commands as a pool instance. */
export class BareStockfish {
  #onBestMove: (() => void) | undefined;

  private constructor(private readonly engine: RawStockfish) {}

  #onLine(line: string): void {
    if (line.startsWith('bestmove') || line === 'readyok') this.#onBestMove?.();
  }

  static async start(): Promise<BareStockfish> {
    const require = createRequire(import.meta.url);
    const create = require('stockfish.wasm') as (module: object) => Promise<RawStockfish>;
    const moduleArg = { wasmBinary: readFileSync(require.resolve('stockfish.wasm/stockfish.wasm')) };
    // Read from before start-up, so the banner does not reach the bench's output.
    let bare: BareStockfish | undefined;
    const restore = readLines((line) => {
      if (bare) bare.#onLine(line);
    });
    try {
      bare = new BareStockfish(await create(moduleArg));
      // Through the module's queue: it retries while the engine's threads start.
      await bare.#await(() => {
        for (const command of ['uci', 'setoption name Threads value 1', 'isready'])
          bare!.engine.postMessage(command);
      });
    } finally {
      restore();
    }
    return bare;
  }

  /** Searches each position once; one search is one ply of the engine loop. */
  async searchAll(fens: readonly string[], level: EngineLevel): Promise<{ plies: number }> {
    const restore = readLines((line) => this.#onLine(line));
    try {
      await this.#send([
        `setoption name Hash value ${hashMbFor(level.nodes)}`,
        `setoption name MultiPV value ${level.multiPv}`,
        'isready',
      ]);
      for (const fen of fens)
        await this.#send(['ucinewgame', `position fen ${fen}`, `go nodes ${level.nodes}`]);
    } finally {
      restore();
    }
    return { plies: fens.length };
  }

  /** Runs the commands now; resolves at the next `bestmove` or `readyok`. */
  #send(commands: string[]): Promise<void> {
    return this.#await(() => {
      for (const command of commands) this.engine.ccall('uci_command', 'number', ['string'], [command]);
    });
  }

  #await(post: () => void): Promise<void> {
    return new Promise((resolve) => {
      this.#onBestMove = resolve;
      post();
    });
  }

  /** Its worker threads would keep the bench process alive. */
  stop(): void {
    this.engine.terminate();
  }
}

/**
 * Makes `console.log` the module's line reader until the returned function restores it. Only while the
 * bare loop runs: the bench prints its own lines in between, and the module prints nothing when idle.
 */
function readLines(onLine: (line: string) => void): () => void {
  const print = console.log;
  console.log = onLine;
  return () => {
    console.log = print;
  };
}
