/**
 * P4, memory per finished game: the heap a platform keeps for each game it has finished (the game record,
 * its packed moves, its challenge, the players' activity rows, index entries), measured as heap used after
 * a full collection, after `games` more games, minus before, divided by `games`. Games are played as in
 * the platform loop (bench/platform-loop.ts), either at one instant or with moves up to two minutes apart
 * (move times are part of what a finished game keeps).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PlatformLoop } from './platform-loop.js';
import { figureLine, type Goal } from './figures.js';

/** P4: heap retained per finished game (issue 17): at most 2 KB, aiming at 1 KB. */
const P4_PER_GAME: Goal = { better: 'lower', goal: 2048, aim: 1024, unit: (n) => `${n} B` };

export interface RetainedPerGame {
  bytesPerGame: number;
  pliesPerGame: number;
}

/** A full collection, made callable without `node --expose-gc`. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Enough for the compiler and the tables games fill on first use to settle (the figure drifts by some 300 B with 50). */
const WARMUP_GAMES = 150;

export async function retainedPerGame(options: {
  games: number;
  maxPaceMs: number;
  seed: string;
}): Promise<RetainedPerGame> {
  const gc = collector();
  const loop = await PlatformLoop.start(options.seed);
  // Warm-up games first, so that compiled code and first-use tables are in the "before" heap, not charged to games.
  for (let i = 0; i < WARMUP_GAMES; i++) await loop.playGame(options.maxPaceMs);
  const heapUsed = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const before = heapUsed();
  let plies = 0;
  for (let i = 0; i < options.games; i++) plies += await loop.playGame(options.maxPaceMs);
  const after = heapUsed();
  if (loop.platform.state.games.size < options.games) throw new Error('bench: the platform lost games');
  return { bytesPerGame: (after - before) / options.games, pliesPerGame: plies / options.games };
}

export async function runMemoryBench(options: { games: number; log: (line: string) => void }): Promise<void> {
  const { games, log } = options;
  log(`memory per finished game (heap after a full collection, ${games} games through the in-process API):`);
  for (const [label, maxPaceMs] of [
    ['moves at one instant', 0],
    ['moves 1 ms to 2 min apart', 120_000],
  ] as const) {
    const r = await retainedPerGame({ games, maxPaceMs, seed: `memory-bench-${maxPaceMs}` });
    const shown = `${Math.round(r.bytesPerGame)} B per game (${Math.round(r.pliesPerGame)} plies a game, ${(r.bytesPerGame / r.pliesPerGame).toFixed(1)} B a ply)`;
    log(`  ${figureLine(`P4 retained, ${label}`, shown, r.bytesPerGame, P4_PER_GAME)}`);
  }
}
