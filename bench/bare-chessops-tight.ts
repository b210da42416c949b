/**
 * The fair baseline of the platform move-loop benchmark (issue 32): the same uniformly random legal games as
 * `bare-chessops.ts`, doing the same minimum per move (legal moves, SAN with disambiguation and `+`/`#`, the
 * end by mate, stalemate or insufficient material), written as carefully as the platform's own chess: one
 * chessops context per ply, squares read by bit scanning rather than through Maps and iterators, and the
 * check suffix of a move taken from the next ply's context instead of three more. `sameGamesAsBare` proves
 * it plays the identical moves and SAN as the plain loop, so the two differ only in how well they are written.
 */
import type { NormalMove, Role, Square } from 'chessops';
import { Chess, type Context } from 'chessops/chess';
import { makeSanAndPlay } from 'chessops/san';
import type { SquareSet } from 'chessops/squareSet';
import seedrandom from 'seedrandom';
import { BARE_PLY_CAP, legalMoves, PROMOTIONS } from './bare-chessops.js';

export function tightRandomGames(
  games: number,
  seed: string,
  onSan?: (san: string) => void,
): { plies: number } {
  const rng = seedrandom.alea(seed);
  let plies = 0;
  for (let game = 0; game < games; game += 1) plies += tightRandomGame(rng, onSan);
  return { plies };
}

/**
 * The legal moves of one position, with each piece's destinations kept for SAN's disambiguation. The platform
 * loop's agents list their moves with it too, so both loops pay the same for an agent's move generation.
 */
export class LegalMoves {
  readonly moves: NormalMove[] = [];
  readonly destsOf: (SquareSet | undefined)[] = new Array<SquareSet | undefined>(64);

  /** Fills both from `ctx`, in chessops' `allDests` order (squares ascending); returns the move count. */
  fill(pos: Chess, ctx: Context): number {
    this.moves.length = 0;
    this.destsOf.fill(undefined);
    const own = pos.board[pos.turn];
    for (let bits = own.lo; bits !== 0; bits &= bits - 1) this.#addPiece(pos, ctx, lowest(bits, 0));
    for (let bits = own.hi; bits !== 0; bits &= bits - 1) this.#addPiece(pos, ctx, lowest(bits, 32));
    return this.moves.length;
  }

  // Plain loops over the bits, no callback per square: the same as the platform's own legalMoves.
  #addPiece(pos: Chess, ctx: Context, from: Square): void {
    const dests = pos.dests(from, ctx);
    this.destsOf[from] = dests;
    const pawn = pos.board.pawn.has(from);
    for (let bits = dests.lo; bits !== 0; bits &= bits - 1) this.#add(from, lowest(bits, 0), pawn);
    for (let bits = dests.hi; bits !== 0; bits &= bits - 1) this.#add(from, lowest(bits, 32), pawn);
  }

  #add(from: Square, to: Square, pawn: boolean): void {
    if (pawn && (to < 8 || to >= 56))
      for (const promotion of PROMOTIONS) this.moves.push({ from, to, promotion });
    else this.moves.push({ from, to });
  }
}

/** The square of the lowest set bit of a 32-bit half, offset by `base` (0 or 32). */
function lowest(bits: number, base: number): Square {
  return base + 31 - Math.clz32(bits & -bits);
}

const FILES = 'abcdefgh';
const LETTER: Record<Role, string> = { pawn: '', knight: 'N', bishop: 'B', rook: 'R', queen: 'Q', king: 'K' };

/** Calls `visit` for each set bit of a 32-bit half, lowest first, offset by `base` (0 or 32). */
function forEachSquare(bits: number, base: number, visit: (square: Square) => void): void {
  let rest = bits;
  while (rest !== 0) {
    const low = rest & -rest;
    visit(base + 31 - Math.clz32(low));
    rest ^= low;
  }
}

function tightRandomGame(rng: () => number, onSan?: (san: string) => void): number {
  const pos = Chess.default();
  const legal = new LegalMoves();
  let count = legal.fill(pos, pos.ctx());
  let plies = 0;
  while (plies < BARE_PLY_CAP && count > 0 && !pos.isInsufficientMaterial()) {
    const move = legal.moves[Math.floor(rng() * count)]!;
    const san = sanWithoutSuffix(pos, move, legal.destsOf);
    pos.play(move);
    const ctx = pos.ctx();
    count = legal.fill(pos, ctx);
    const suffix = ctx.checkers.isEmpty() ? '' : count === 0 ? '#' : '+';
    onSan?.(san + suffix);
    plies += 1;
  }
  return plies;
}

/** SAN before its check suffix, disambiguated among the mover's same pieces that can also reach `to`. */
function sanWithoutSuffix(pos: Chess, move: NormalMove, destsOf: (SquareSet | undefined)[]): string {
  const { from, to } = move;
  const board = pos.board;
  const role = board.getRole(from)!;
  if (role === 'king' && (board[pos.turn].has(to) || Math.abs(to - from) === 2))
    return to > from ? 'O-O' : 'O-O-O';
  const capture = board.occupied.has(to) || (role === 'pawn' && (from & 7) !== (to & 7));
  let san =
    role === 'pawn'
      ? capture
        ? FILES[from & 7]!
        : ''
      : LETTER[role] + disambiguation(pos, move, role, destsOf);
  if (capture) san += 'x';
  san += FILES[to & 7]! + String((to >> 3) + 1);
  if (move.promotion) san += `=${LETTER[move.promotion]}`;
  return san;
}

function disambiguation(
  pos: Chess,
  move: NormalMove,
  role: Role,
  destsOf: (SquareSet | undefined)[],
): string {
  const { from, to } = move;
  const rivals = pos.board.pieces(pos.turn, role).without(from);
  let sameFile = false;
  let sameRank = false;
  let any = false;
  const consider = (square: Square) => {
    if (!destsOf[square]?.has(to)) return;
    any = true;
    if ((square & 7) === (from & 7)) sameFile = true;
    if (square >> 3 === from >> 3) sameRank = true;
  };
  forEachSquare(rivals.lo, 0, consider);
  forEachSquare(rivals.hi, 32, consider);
  if (!any) return '';
  // A rival on the same file needs the rank; otherwise the file, and the rank too when a rival shares both lines.
  if (!sameFile) return FILES[from & 7]!;
  return sameRank ? FILES[from & 7]! + String((from >> 3) + 1) : String((from >> 3) + 1);
}

/**
 * The plain loop's moves and SAN (chessops' `makeSanAndPlay`) for `games` games of `seed`, against this
 * loop's: the first ply where they differ, or null when every ply of every game agrees.
 */
export function sameGamesAsBare(games: number, seed: string): string | null {
  const plain: string[] = [];
  const rng = seedrandom.alea(seed);
  for (let game = 0; game < games; game += 1) playPlain(rng, (san) => plain.push(san));
  const tight: string[] = [];
  tightRandomGames(games, seed, (san) => tight.push(san));
  const length = Math.max(plain.length, tight.length);
  for (let ply = 0; ply < length; ply += 1)
    if (plain[ply] !== tight[ply]) return `ply ${ply}: plain ${plain[ply]}, tight ${tight[ply]}`;
  return null;
}

function playPlain(rng: () => number, onSan: (san: string) => void): void {
  const pos = Chess.default();
  for (let plies = 0; plies < BARE_PLY_CAP; plies += 1) {
    const ctx = pos.ctx();
    if (pos.isEnd(ctx)) return;
    const moves = legalMoves(pos, ctx);
    onSan(makeSanAndPlay(pos, moves[Math.floor(rng() * moves.length)]!));
  }
}
