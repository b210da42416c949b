/**
 * What a crowd pays for touching a game it has not touched for a while (issue 32's crowd figure): the
 * platform's own parse and play of one move on a board just touched, against the same move on a board last
 * touched thousands of boards and tens of megabytes of other data ago, as in a crowd, where an agent's next
 * move in a game comes after the heartbeats of thousands of other agents.
 *
 * Both arms play the same moves from the same positions (their digests are compared): the same boards, each
 * set up untimed to a ply of a scripted game (`scriptedGames`), then a few moves of it timed. The warm arm
 * plays each board's moves one after another; the crowd's arm takes the boards in shuffled turns with a read
 * larger than the machine's caches between turns. Only the parse and the play are timed, so the ratio is the
 * cost of the data (and code) having left the caches, not of the sweep.
 */
import seedrandom from 'seedrandom';
import {
  boardResult,
  legalMoves,
  newBoard,
  parseMove,
  playMove,
  toWireUci,
  type Board,
} from '../src/rules/chess/chess.js';
import { median } from './figures.js';

/** Scripted games of uniformly random legal moves, as wire UCI texts, each at most `plies` long. */
export function scriptedGames(games: number, plies: number, seed: string): string[][] {
  const rng = seedrandom.alea(seed);
  const scripts: string[][] = [];
  for (let g = 0; g < games; g++) {
    const board = newBoard();
    const moves: string[] = [];
    while (moves.length < plies && boardResult(board) === null) {
      const legal = legalMoves(board);
      const move = legal[Math.floor(rng() * legal.length)]!;
      moves.push(toWireUci(board, move));
      playMove(board, move);
    }
    scripts.push(moves);
  }
  return scripts;
}

/** A board of one arm: the game it replays, and the ply it was set up to before the timed moves. */
interface Job {
  readonly script: readonly string[];
  readonly startPly: number;
}

export interface ArmResult {
  readonly nsPerMove: number;
  readonly moves: number;
  /** A digest of every timed move's board, index and SAN, independent of their order: equal in both arms. */
  readonly sanDigest: number;
}

/**
 * The boards of both arms: board k replays script k mod the scripts' count from a ply that differs from
 * board to board, so the timed moves come from the openings, middlegames and ends of the games alike.
 */
export function jobsFor(scripts: readonly string[][], boards: number, movesPerBoard: number): Job[] {
  const jobs: Job[] = [];
  for (let k = 0; k < boards; k++) {
    const script = scripts[k % scripts.length]!;
    jobs.push({ script, startPly: (k * 7) % (script.length - movesPerBoard + 1) });
  }
  return jobs;
}

/** A board with the job's script played up to its start ply (not timed). */
function setUp(job: Job): Board {
  const board = newBoard();
  for (let ply = 0; ply < job.startPly; ply++) play(board, job.script[ply]!);
  return board;
}

function play(board: Board, uci: string): string {
  const parsed = parseMove(board, uci);
  if (!parsed.ok) throw new Error(`scripted move ${uci} refused: ${parsed.reason}`);
  return playMove(board, parsed.move).san;
}

/** The warm arm: each board set up, then its moves played one after another, its data never leaving the caches. */
export function playWarm(jobs: readonly Job[], movesPerBoard: number): ArmResult {
  let elapsed = 0n;
  let digest = 0;
  for (const [k, job] of jobs.entries()) {
    const board = setUp(job);
    for (let m = 0; m < movesPerBoard; m++) {
      const start = process.hrtime.bigint();
      const san = play(board, job.script[job.startPly + m]!);
      elapsed += process.hrtime.bigint() - start;
      digest = (digest + moveHash(k, m, san)) >>> 0;
    }
  }
  const moves = jobs.length * movesPerBoard;
  return { nsPerMove: Number(elapsed) / moves, moves, sanDigest: digest };
}

/**
 * The crowd's arm: every board set up first, then one move of each board per round, the boards in a new
 * shuffled order each round (as a crowd's games come up in no order), and a read of `sweepBytes` between
 * rounds, so that every board's data has left the caches when its next move comes.
 */
export function playCold(
  jobs: readonly Job[],
  movesPerBoard: number,
  sweepBytes: number,
  seed: string,
): ArmResult {
  const boards = jobs.map(setUp);
  const order = jobs.map((_, k) => k);
  const rng = seedrandom.alea(seed);
  const sweep = new Float64Array(sweepBytes / 8);
  let sink = 0;
  let elapsed = 0n;
  let digest = 0;
  for (let m = 0; m < movesPerBoard; m++) {
    for (let i = 0; i < sweep.length; i += 8) sink += sweep[i]!; // a read per 64-byte cache line
    shuffle(order, rng);
    for (const k of order) {
      const start = process.hrtime.bigint();
      const san = play(boards[k]!, jobs[k]!.script[jobs[k]!.startPly + m]!);
      elapsed += process.hrtime.bigint() - start;
      digest = (digest + moveHash(k, m, san)) >>> 0;
    }
  }
  if (sink !== 0) throw new Error('the sweep buffer was not read as made (all zeros)');
  const moves = jobs.length * movesPerBoard;
  return { nsPerMove: Number(elapsed) / moves, moves, sanDigest: digest };
}

function shuffle(values: number[], rng: () => number): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
}

/** One timed move's board, index and SAN, hashed. */
function moveHash(board: number, move: number, san: string): number {
  return hashText(Math.imul(board, 0x9e3779b1) ^ move, san);
}

/** FNV-1a over the text's code units, continued from `hash`: a digest of the arm's SAN stream. */
function hashText(hash: number, text: string): number {
  let h = hash ^ 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The bench line: the two arms alternated over `rounds`, each round's arms playing the same moves of the same
 * boards (their digests must agree); the medians of their costs a move, and the ratio.
 */
export function runColdBoardsBench(options: {
  rounds: number;
  log: (line: string) => void;
  boards?: number;
  sweepBytes?: number;
}): void {
  const { rounds, log } = options;
  const boards = options.boards ?? 5_000;
  const sweepBytes = options.sweepBytes ?? 64 * 1024 * 1024;
  const movesPerBoard = 4;
  const jobs = jobsFor(scriptedGames(16, 80, 'cold-boards'), boards, movesPerBoard);
  log(
    `cold boards (the platform's parse and play of one move: a board just touched, against one of ${boards} boards taken in shuffled turns with ${sweepBytes / 1024 / 1024} MB read between turns; ${rounds} rounds, medians):`,
  );
  const warmNs: number[] = [];
  const coldNs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const warm = playWarm(jobs, movesPerBoard);
    const cold = playCold(jobs, movesPerBoard, sweepBytes, `cold-boards-${round}`);
    if (warm.sanDigest !== cold.sanDigest) throw new Error('the two arms played different moves');
    warmNs.push(warm.nsPerMove);
    coldNs.push(cold.nsPerMove);
  }
  const warmMedian = median(warmNs);
  const coldMedian = median(coldNs);
  log(`  warm board: ${(warmMedian / 1000).toFixed(2)} us a move`);
  log(`  cold board: ${(coldMedian / 1000).toFixed(2)} us a move`);
  log(
    `  cold / warm: ${(coldMedian / warmMedian).toFixed(2)} (the same moves; what a crowd pays a move for its game's data having left the caches)`,
  );
}
