/**
 * Reading a UCI engine's search output: the `info ... multipv N ... score cp|mate X ... pv <moves>` lines and
 * the closing `bestmove`. Shared by the stockfish.wasm pool and the external-UCI adapter, so both turn an
 * engine's answer into the same `SearchResult`.
 */

/** One candidate move of a search, scored from the side to move's point of view. */
export interface SearchLine {
  /** Standard UCI (castling as the king's two-square move, e1g1), as UCI engines write it. */
  uci: string;
  /** Centipawns, or null when the score is a mate (or the engine gave none). */
  scoreCp: number | null;
  /** Moves to mate: positive when the side to move mates, negative when it is mated; null otherwise. */
  mate: number | null;
}

/** A search's candidate moves, best first; empty when the side to move has no legal move. */
export interface SearchResult {
  lines: SearchLine[];
}

/** What one `info` line with a principal variation says. */
export interface InfoPv {
  /** 1-based; engines without MultiPV omit the field, which means 1. */
  multipv: number;
  depth: number | null;
  scoreCp: number | null;
  mate: number | null;
  /** Set when the score is only a bound (the search stopped inside an aspiration window). */
  bound: 'lower' | 'upper' | null;
  pv: string[];
}

/** Parses an `info` line that carries a principal variation; undefined for any other line. */
export function parseInfoPv(line: string): InfoPv | undefined {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'info' || tokens[1] === 'string') return undefined;
  const pvAt = tokens.indexOf('pv');
  if (pvAt < 0 || pvAt === tokens.length - 1) return undefined;
  const info: InfoPv = {
    multipv: 1,
    depth: null,
    scoreCp: null,
    mate: null,
    bound: null,
    pv: tokens.slice(pvAt + 1),
  };
  for (let i = 1; i < pvAt; i++) {
    const token = tokens[i];
    if (token === 'multipv') info.multipv = integerAt(tokens, ++i) ?? 1;
    else if (token === 'depth') info.depth = integerAt(tokens, ++i);
    else if (token === 'score') i = readScore(tokens, i + 1, info);
  }
  return info;
}

/** Reads `cp X` or `mate X` (plus an optional bound) starting at `at`; returns the index of the last token read. */
function readScore(tokens: string[], at: number, info: InfoPv): number {
  const kind = tokens[at];
  const value = integerAt(tokens, at + 1);
  if (kind === 'cp') info.scoreCp = value;
  else if (kind === 'mate') info.mate = value;
  else return at - 1;
  const next = tokens[at + 2];
  if (next === 'lowerbound' || next === 'upperbound') {
    info.bound = next === 'lowerbound' ? 'lower' : 'upper';
    return at + 2;
  }
  return at + 1;
}

function integerAt(tokens: string[], at: number): number | null {
  const text = tokens[at];
  return text !== undefined && /^-?\d+$/.test(text) ? Number(text) : null;
}

/**
 * Parses `bestmove <move> [ponder <move>]`: `move` is null when the engine has nothing to play (`(none)` or
 * `0000`, sent for mate and stalemate positions). Undefined for any other line.
 */
export function parseBestMove(line: string): { move: string | null } | undefined {
  const tokens = line.trim().split(/\s+/);
  if (tokens[0] !== 'bestmove') return undefined;
  const move = tokens[1];
  return { move: move === undefined || move === '(none)' || move === '0000' ? null : move };
}

/**
 * An `info` line as Stockfish writes one with a principal variation: single spaces, its own fields in its own
 * order, at least one move. On such a line `parseInfoPv` is sure to answer, with the multipv captured here:
 * the first `pv` token is the one matched (no other token before it can be `pv`) and no other `multipv`
 * precedes it.
 */
const STOCKFISH_INFO_PV =
  /^info depth \d+ seldepth \d+ multipv (\d+) score (?:cp|mate) -?\d+(?: lowerbound| upperbound)?(?: (?:nodes|nps|hashfull|tbhits|time) \d+)* pv \S+(?: \S+)*$/;

/**
 * Collects one search's output. The answer is the LAST info line of each multipv index: when a node budget
 * stops a search mid-iteration, the engine prints every line once more (those it did not finish at the
 * previous depth), so earlier lines are superseded and the final block is the answer.
 *
 * A line in Stockfish's own shape is kept as text and parsed only if it is still the last of its index when
 * `bestmove` comes (about 4 of a search's 17-21 lines at sf-4). The engine waits while its line is read (each
 * line is handed over synchronously from its search thread), so the reading is part of every search's time.
 * Any other line is parsed at once, as before.
 */
export class PvCollector {
  readonly #last = new Map<number, InfoPv | string>();

  /** Feeds one output line; returns the result once the line is `bestmove`, else undefined. */
  push(line: string): SearchResult | undefined {
    const shaped = STOCKFISH_INFO_PV.exec(line);
    if (shaped) {
      this.#last.set(Number(shaped[1]), line);
      return undefined;
    }
    const info = parseInfoPv(line);
    if (info) {
      this.#last.set(info.multipv, info);
      return undefined;
    }
    const best = parseBestMove(line);
    return best ? this.#result(best.move) : undefined;
  }

  #result(bestMove: string | null): SearchResult {
    if (bestMove === null) return { lines: [] };
    const lines = [...this.#last.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, kept]) => {
        const info = typeof kept === 'string' ? parseInfoPv(kept)! : kept;
        return { uci: info.pv[0]!, scoreCp: info.scoreCp, mate: info.mate };
      });
    // `bestmove` is the engine's decision: it leads the list even if an engine's info lines disagree or are missing.
    const bestAt = lines.findIndex((l) => l.uci === bestMove);
    const best = bestAt >= 0 ? lines.splice(bestAt, 1)[0]! : { uci: bestMove, scoreCp: null, mate: null };
    return { lines: [best, ...lines] };
  }
}
