/**
 * P4, memory per finished game: the heap a platform keeps for each game it has finished (the game record,
 * its packed moves, its challenge, the players' activity rows, index entries), measured as heap used after
 * a full collection, after `games` more games, minus before, divided by `games`. Games are played as in
 * the platform loop (bench/platform-loop.ts), either at one instant or with moves up to two minutes apart
 * (move times are part of what a finished game keeps).
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PlatformLoop } from './platform-loop.js';
import { figureLine, median, type Goal } from './figures.js';

/** P4: heap retained per finished game (issue 17): at most 2 KB, aiming at 1 KB. */
const P4_PER_GAME: Goal = { better: 'lower', goal: 2048, aim: 1024, unit: (n) => `${n} B` };

export interface RetainedPerGame {
  /** The median of the rounds. */
  bytesPerGame: number;
  /** Each round's bytes per game, in order. */
  rounds: number[];
  pliesPerGame: number;
}

/** A full collection, made callable without `node --expose-gc`. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * The heap's objects without compiled code: the compiler goes on compiling while games are measured (tens
 * to over a hundred bytes "a game" in one run, a few in the next), and code is no game's data.
 */
function dataHeapUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics())
    if (!space.space_name.startsWith('code')) used += space.space_used_size;
  return used;
}

/** Enough for the compiler and the tables games fill on first use to settle (the figure drifts by some 300 B with 50). */
const WARMUP_GAMES = 150;

/**
 * `rounds` stretches of `games` games one after another in one platform, each measured on its own; the
 * figure is their median. One stretch alone moved by up to 350 B a game from run to run with timed moves
 * (the same games, so the same data: what V8 keeps beside it differs).
 */
export async function retainedPerGame(options: {
  games: number;
  rounds: number;
  maxPaceMs: number;
  seed: string;
}): Promise<RetainedPerGame> {
  const gc = collector();
  const loop = await PlatformLoop.start(options.seed);
  // Warm-up games first, so that compiled code and first-use tables are in the "before" heap, not charged to games.
  for (let i = 0; i < WARMUP_GAMES; i++) await loop.playGame(options.maxPaceMs);
  const dataHeapAfterGc = (): number => {
    gc();
    gc();
    return dataHeapUsed();
  };
  const rounds: number[] = [];
  let plies = 0;
  for (let round = 0; round < options.rounds; round++) {
    const before = dataHeapAfterGc();
    for (let i = 0; i < options.games; i++) plies += await loop.playGame(options.maxPaceMs);
    rounds.push((dataHeapAfterGc() - before) / options.games);
  }
  if (loop.platform.state.games.size < options.games * options.rounds)
    throw new Error('bench: the platform lost games');
  return { bytesPerGame: median(rounds), rounds, pliesPerGame: plies / (options.games * options.rounds) };
}

export async function runMemoryBench(options: {
  games: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<void> {
  const { games, rounds, log } = options;
  log(
    `memory per finished game (heap after a full collection, without compiled code; median of ${rounds} rounds of ${games} games through the in-process API):`,
  );
  for (const [label, maxPaceMs] of [
    ['moves at one instant', 0],
    ['moves 1 ms to 2 min apart', 120_000],
  ] as const) {
    const r = await retainedPerGame({ games, rounds, maxPaceMs, seed: `memory-bench-${maxPaceMs}` });
    const each = r.rounds.map((b) => Math.round(b)).join(', ');
    const shown = `${Math.round(r.bytesPerGame)} B per game (rounds ${each}; ${Math.round(r.pliesPerGame)} plies a game, ${(r.bytesPerGame / r.pliesPerGame).toFixed(1)} B a ply)`;
    log(`  ${figureLine(`P4 retained, ${label}`, shown, r.bytesPerGame, P4_PER_GAME)}`);
  }
}
