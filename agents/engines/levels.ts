/**
 * The strength ladder of engine agents. Stockfish's own Skill Level is seeded from the clock, so a level
 * is built from deterministic knobs only: a node budget (how deep it sees), a MultiPV count (how many
 * candidate moves it weighs) and a spread (how much worse than the best, in centipawns, a move it may
 * still play can be). The choice among candidates is drawn from the agent's seeded stream.
 * Measured Elo per level comes from the calibration command, not from this table.
 */
import type { Rng } from '../../src/kernel/rng.js';
import type { SearchLine, SearchResult } from './uci-lines.js';

export interface EngineLevel {
  name: string;
  /** `go nodes N`: the search budget. */
  nodes: number;
  /** Candidate moves the search scores. */
  multiPv: number;
  /** 0 = always best; higher = more often a worse line */
  spreadCp: number;
}

/** Ascending strength: more nodes, fewer candidates, a narrower spread. */
export const LEVELS: readonly EngineLevel[] = Object.freeze(
  [
    { name: 'sf-1', nodes: 1, multiPv: 5, spreadCp: 300 },
    { name: 'sf-2', nodes: 64, multiPv: 5, spreadCp: 200 },
    { name: 'sf-3', nodes: 256, multiPv: 4, spreadCp: 120 },
    { name: 'sf-4', nodes: 1_000, multiPv: 4, spreadCp: 80 },
    { name: 'sf-5', nodes: 3_000, multiPv: 3, spreadCp: 40 },
    { name: 'sf-6', nodes: 8_000, multiPv: 2, spreadCp: 20 },
    { name: 'sf-7', nodes: 20_000, multiPv: 2, spreadCp: 8 },
    { name: 'sf-8', nodes: 50_000, multiPv: 1, spreadCp: 0 },
  ].map((level) => Object.freeze(level)),
);

export function levelByName(name: string): EngineLevel | undefined {
  return LEVELS.find((level) => level.name === name);
}

/** Far above any centipawn score: a forced mate outranks every material count. */
const MATE_VALUE = 100_000;

/**
 * One scale for centipawns and mates, from the side to move: mating sooner is better, being mated later
 * is better. A line with no score at all (an engine that printed only `bestmove`) has no value.
 */
export function lineValue(line: SearchLine): number | null {
  if (line.mate !== null) return line.mate > 0 ? MATE_VALUE - line.mate : -MATE_VALUE - line.mate;
  return line.scoreCp;
}

/**
 * The move a level plays from a search's candidate lines: the lines within `spreadCp` of the best (mate
 * scores dominate, so a level never trades a forced mate for material nor walks into one it sees), drawn
 * with weights falling linearly with the loss: the best weighs `spreadCp + 1`, a line at the edge 1. A
 * uniform draw would make a level's strength jump with how many lines happen to fall inside the window;
 * the linear weight makes small losses common and large ones rare, so strength follows the spread smoothly.
 * Draws nothing when only one line qualifies (spread 0 always plays the best line).
 */
export function chooseMove(result: SearchResult, level: EngineLevel, rng: Rng): string {
  const lines = result.lines.slice(0, level.multiPv);
  const best = lines[0];
  if (!best) throw new Error('chooseMove: the search found no move (mate or stalemate on the board)');
  const bestValue = lineValue(best);
  if (bestValue === null || level.spreadCp <= 0) return best.uci;
  const candidates: Array<{ uci: string; weight: number }> = [];
  for (const line of lines) {
    const value = lineValue(line);
    const loss = value === null ? Infinity : bestValue - value;
    if (loss <= level.spreadCp)
      candidates.push({ uci: line.uci, weight: level.spreadCp + 1 - Math.max(0, loss) });
  }
  if (candidates.length === 1) return best.uci;
  return weightedPick(candidates, rng);
}

function weightedPick(candidates: ReadonlyArray<{ uci: string; weight: number }>, rng: Rng): string {
  const total = candidates.reduce((sum, c) => sum + c.weight, 0);
  let ticket = rng.int(0, total - 1);
  for (const candidate of candidates) {
    if (ticket < candidate.weight) return candidate.uci;
    ticket -= candidate.weight;
  }
  throw new Error('weightedPick: ticket beyond the total weight');
}
