/**
 * Engine-agent loops for `npm run bench`. `engineGames`: two engine agents play whole games through the
 * in-process API, each ply a pool search at one level, a seeded choice among its lines, and a move request;
 * the next position is the FEN the platform answers with, as a real agent would read it. `bareSearches`:
 * the baseline, the same positions searched by a stockfish.wasm module driven directly (same UCI commands,
 * no pool, no cache, no platform), so the ratio between the two is what the agent machinery costs.
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
import { chooseMove, type EngineLevel } from '../agents/engines/levels.js';
import type { EnginePool } from '../agents/engines/pool.js';
import { hashMbFor } from '../agents/engines/wasm-engine.js';
import type { PlatformClient } from '../src/client/client.js';
import { Rng } from '../src/kernel/rng.js';
import { STANDARD_START_FEN } from '../src/rules/chess/chess.js';
import { DEFAULT_RULESET } from '../src/rules/ruleset.js';
import { wirePlatform } from '../src/sim/wiring.js';

export interface EngineGamesResult {
  plies: number;
  /** Every position an agent searched, in order: the bare loop replays them. */
  fens: string[];
}

export async function engineGames(
  pool: EnginePool,
  level: EngineLevel,
  games: number,
  seed: string,
): Promise<EngineGamesResult> {
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
  const rng = new Rng(seed).fork('engine-bench');
  const result: EngineGamesResult = { plies: 0, fens: [] };
  for (let i = 0; i < games; i++) await playOne(players, pool, level, rng, result);
  return result;
}

async function playOne(
  players: readonly [PlatformClient, PlatformClient],
  pool: EnginePool,
  level: EngineLevel,
  rng: Rng,
  into: EngineGamesResult,
): Promise<void> {
  const { challenge } = await players[0].createChallenge({ opponent_handle: 'bench_engine_b' });
  const accepted = await players[1].acceptChallenge(challenge.challenge_id);
  const whiteIsA = accepted.game.white_player.handle === 'bench_engine_a';
  let fen = STANDARD_START_FEN;
  for (let ply = 0; ; ply++) {
    const mover = players[(ply % 2 === 0) === whiteIsA ? 0 : 1];
    into.fens.push(fen);
    const uci = chooseMove(
      await pool.search({ fen, nodes: level.nodes, multiPv: level.multiPv }),
      level,
      rng,
    );
    const answer = await mover.move({ game_id: challenge.challenge_id, move_uci: uci });
    into.plies++;
    if (answer.game_status === 'completed') return;
    fen = answer.move.fen_after;
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
