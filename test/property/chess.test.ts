import type { Move } from 'chessops';
import { makeFen } from 'chessops/fen';
import { makeSan, makeSanAndPlay, parseSan } from 'chessops/san';
import { normalizeMove } from 'chessops/chess';
import { makeSquare, makeUci, moveEquals } from 'chessops/util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Board,
  boardResult,
  currentFen,
  legalMoves,
  newBoard,
  parseMove,
  playMove,
  positionKey,
  quickContextOf,
  quickMover,
  sideToMove,
  toWireUci,
} from '../../src/rules/chess/chess.js';

/**
 * Random legal play: each number picks one legal move (modulo their count); stops at a board ending.
 * size 'max' spreads lengths over the whole range, so endgames with promotions and mates are reached
 * (the default size keeps arrays short, i.e. almost only openings).
 */
const walkArb = fc.array(fc.nat(), { maxLength: 300, size: 'max' });

/** Plays the walk, calling `visit` on every position reached (start included) before the next move. */
function walk(choices: number[], visit: (board: Board) => void): Board {
  const board = newBoard();
  visit(board);
  for (const choice of choices) {
    if (boardResult(board) !== null) break;
    const moves = legalMoves(board);
    playMove(board, moves[choice % moves.length] as Move);
    visit(board);
  }
  return board;
}

function expectSameMove(board: Board, text: string, expected: Move): void {
  const parsed = parseMove(board, text);
  if (!parsed.ok) expect.fail(`"${text}" rejected in ${currentFen(board)}: ${parsed.reason}`);
  if (!moveEquals(parsed.move, expected)) {
    expect.fail(
      `"${text}" parsed as ${makeUci(parsed.move)}, expected ${makeUci(expected)} in ${currentFen(board)}`,
    );
  }
}

const SAN_KINDS: [string, RegExp][] = [
  ['castle short', /^O-O[+#]?$/],
  ['castle long', /^O-O-O[+#]?$/],
  ['promotion', /=Q/],
  ['underpromotion', /=[RBN]/],
  ['file disambiguation', /^[NBRQ][a-h]x?[a-h][1-8]/],
  ['rank disambiguation', /^[NBRQ][1-8]x?[a-h][1-8]/],
  ['mate', /#$/],
];

describe('notation round trips on positions reached by random legal play', () => {
  it('SAN: makeSan of every legal move parses back to that move', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(walkArb, (choices) => {
        walk(choices, (board) => {
          for (const move of legalMoves(board)) {
            const san = makeSan(board.pos, move);
            for (const [kind, pattern] of SAN_KINDS) if (pattern.test(san)) seen.add(kind);
            expectSameMove(board, san, move);
          }
        });
      }),
    );
    // The walks must really reach the hard cases, or the property proves little.
    expect([...seen].sort()).toEqual(SAN_KINDS.map(([kind]) => kind).sort());
  });

  it('UCI: wire UCI (e1g1) and chessops UCI (e1h1) of every legal move parse back to that move', () => {
    fc.assert(
      fc.property(walkArb, (choices) => {
        walk(choices, (board) => {
          for (const move of legalMoves(board)) {
            expectSameMove(board, toWireUci(board, move), move);
            expectSameMove(board, makeUci(move), move);
          }
        });
      }),
    );
  });
});

// Characters that move text is made of, so that generated strings are often nearly valid moves.
const MOVE_CHARS = [...'abcdefghNBRQKPnbrqkp12345678x-=+#!?O0o '];
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom(...MOVE_CHARS), maxLength: 8 }),
);

describe('parseMove on arbitrary text', () => {
  it('never throws, and anything it accepts is a legal move', () => {
    fc.assert(
      fc.property(walkArb, fc.array(anyText, { maxLength: 20 }), (choices, texts) => {
        const board = walk(choices, () => {});
        const legal = legalMoves(board);
        for (const text of texts) {
          const parsed = parseMove(board, text);
          if (parsed.ok) expect(legal.some((m) => moveEquals(m, parsed.move))).toBe(true);
          else expect(parsed.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('playMove', () => {
  it('keeps plies, side to move, FEN and repetition counts consistent', () => {
    fc.assert(
      fc.property(walkArb, fc.nat(), (choices, last) => {
        const board = walk(choices, () => {});
        if (boardResult(board) !== null) return;
        const before = { plies: board.plies, side: sideToMove(board), fullmoves: board.pos.fullmoves };
        const moves = legalMoves(board);
        const played = playMove(board, moves[last % moves.length] as Move);
        expect(board.plies).toBe(before.plies + 1);
        expect(played.color).toBe(before.side);
        expect(sideToMove(board)).not.toBe(before.side);
        expect(played.fenAfter).toBe(currentFen(board));
        // The FEN alone rebuilds the same position (what a game record or a reload relies on).
        expect(currentFen(newBoard(played.fenAfter))).toBe(played.fenAfter);
        expect(board.pos.fullmoves).toBe(before.fullmoves + (before.side === 'black' ? 1 : 0));
        expect(played.isCheck).toBe(board.pos.isCheck());
        expect(played.isCheckmate).toBe(boardResult(board)?.ending === 'checkmate');
        expect(board.repetitions.get(positionKey(board.pos))).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('plies count every move of a walk', () => {
    fc.assert(
      fc.property(walkArb, (choices) => {
        let visits = 0;
        const board = walk(choices, () => (visits += 1));
        expect(board.plies).toBe(visits - 1);
      }),
    );
  });
});

/** Every legal move by chessops' own dests, in legalMoves' order (from, to, promotion q r b n), as UCI. */
function chessopsMoves(board: Board): string[] {
  const pos = board.pos;
  const ctx = pos.ctx();
  const moves: string[] = [];
  for (let from = 0; from < 64; from += 1) {
    if (!pos.board[pos.turn].has(from)) continue;
    for (const to of pos.dests(from, ctx)) {
      const promotes = pos.board.pawn.has(from) && (to < 8 || to >= 56);
      if (!promotes) moves.push(makeUci({ from, to }));
      else
        for (const promotion of ['queen', 'rook', 'bishop', 'knight'] as const)
          moves.push(makeUci({ from, to, promotion }));
    }
  }
  return moves;
}

describe('legalMoves', () => {
  it('is strictly ordered by from, to, promotion and free of duplicates', () => {
    const promoRank = (m: Move) =>
      'promotion' in m && m.promotion ? 'qrbn'.indexOf(makeUci(m)[4] ?? '') : -1;
    fc.assert(
      fc.property(walkArb, (choices) => {
        walk(choices, (board) => {
          const moves = legalMoves(board);
          for (let i = 1; i < moves.length; i += 1) {
            const a = moves[i - 1] as Move & { from: number };
            const b = moves[i] as Move & { from: number };
            const order = a.from - b.from || a.to - b.to || promoRank(a) - promoRank(b);
            // A plain check in the hot loop; expect() only on failure, to say where.
            if (order >= 0) expect.fail(`${makeUci(a)} before ${makeUci(b)} in ${currentFen(board)}`);
          }
        });
      }),
    );
  });
});

/**
 * The platform works out a position's context (king, blockers, checkers) from the board's bits, and finds a
 * king's targets and whether a side can move without chessops' dests where it can (a king that cannot castle,
 * an unpinned knight or pawn out of check); chessops is the oracle.
 */
describe('move finding agrees with chessops', () => {
  it("the quick context is chessops' ctx(), parseMove takes the king to exactly chessops' dests, a quick mover has a move, and boardResult sees mate, stalemate and insufficient material where chessops does", () => {
    let kingsThatCannotCastle = 0;
    let kingsThatCastle = 0;
    let quickMovers = 0;
    let checks = 0;
    let pins = 0;
    fc.assert(
      fc.property(walkArb, (choices) => {
        walk(choices, (board) => {
          const pos = board.pos;
          const king = pos.board.kingOf(pos.turn)!;
          const dests = pos.dests(king, pos.ctx());
          const rooks = pos.castles.rook[pos.turn];
          if (rooks.a === undefined && rooks.h === undefined) kingsThatCannotCastle += 1;
          if (dests.intersects(pos.board.rook.intersect(pos.board[pos.turn]))) kingsThatCastle += 1;
          const listed = legalMoves(board).map(makeUci).join(' ');
          if (listed !== chessopsMoves(board).join(' '))
            expect.fail(`legalMoves differs from chessops' dests in ${currentFen(board)}`);
          for (let to = 0; to < 64; to += 1) {
            const legal = dests.has(to) || dests.has(normalizeMove(pos, { from: king, to }).to);
            if (parseMove(board, makeSquare(king) + makeSquare(to)).ok !== legal)
              expect.fail(`king to ${makeSquare(to)} in ${currentFen(board)}: chessops says ${legal}`);
          }
          const context = pos.ctx();
          const quick = quickContextOf(board);
          if (
            quick.king !== context.king ||
            !quick.blockers.equals(context.blockers) ||
            !quick.checkers.equals(context.checkers)
          )
            expect.fail(`quickContext differs from ctx() in ${currentFen(board)}`);
          if (context.checkers.nonEmpty()) checks += 1;
          if (context.blockers.nonEmpty()) pins += 1;
          const mover = quickMover(board);
          if (mover >= 0) quickMovers += 1;
          if (mover >= 0 && pos.dests(mover, pos.ctx()).isEmpty())
            expect.fail(`${makeSquare(mover)} has no move in ${currentFen(board)}`);
          const ending = boardResult(board)?.ending;
          expect(ending === 'checkmate').toBe(pos.isCheckmate());
          expect(ending === 'stalemate').toBe(pos.isStalemate());
          if (ending !== 'checkmate' && ending !== 'stalemate')
            expect(ending === 'insufficient_material').toBe(pos.isInsufficientMaterial());
        });
      }),
      { numRuns: 30 },
    );
    // The walks must reach kings without castling rights, where the platform's own search runs.
    expect(kingsThatCannotCastle).toBeGreaterThan(500);
    expect(kingsThatCastle).toBeGreaterThan(30);
    expect(quickMovers).toBeGreaterThan(500);
    expect(Math.min(checks, pins)).toBeGreaterThan(100);
  });
});

/**
 * The platform writes SAN and FEN itself and parses SAN in its cached position context (one context per
 * ply instead of four); chessops' own makeSanAndPlay, makeFen and parseSan are the oracle, text for text.
 */
describe('own SAN and FEN writers and SAN parser agree with chessops', () => {
  it('playMove writes the SAN and FEN chessops writes, for every legal move of every position on a walk', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(walkArb, (choices) => {
        walk(choices, (board) => {
          expect(currentFen(board)).toBe(makeFen(board.pos.toSetup()));
          for (const move of legalMoves(board)) {
            const fen = currentFen(board);
            const ours = newBoard(fen);
            const theirs = ours.pos.clone();
            const played = playMove(ours, move);
            const san = makeSanAndPlay(theirs, move);
            for (const [kind, pattern] of SAN_KINDS) if (pattern.test(san)) seen.add(kind);
            if (played.san !== san || played.fenAfter !== makeFen(theirs.toSetup())) {
              expect.fail(
                `${makeUci(move)} in ${fen}: ${played.san} ${played.fenAfter} != ${san} ${makeFen(theirs.toSetup())}`,
              );
            }
          }
        });
      }),
      { numRuns: 30 },
    );
    expect([...seen].sort()).toEqual(SAN_KINDS.map(([kind]) => kind).sort());
  });

  it('parseMove reads SAN-shaped text as chessops parseSan does (same move, or refused by both)', () => {
    const SAN_SHAPE = /^([NBRQK])?([a-h])?([1-8])?[-x]?([a-h][1-8])(?:=?([nbrqkNBRQK]))?$/;
    const sanShaped = fc.string({
      unit: fc.constantFrom(...'abcdefghNBRQK12345678x-=qrbnk'),
      minLength: 2,
      maxLength: 7,
    });
    fc.assert(
      fc.property(walkArb, fc.array(sanShaped, { maxLength: 40 }), (choices, texts) => {
        const board = walk(choices, () => {});
        const written = legalMoves(board).map((m) => makeSan(board.pos, m).replace(/[+#]$/, ''));
        const longForms = legalMoves(board).map(
          (m) =>
            makeUci(m).slice(0, 2) +
            makeSan(board.pos, m)
              .replace(/[+#]$/, '')
              .replace(/^[NBRQK]/, ''),
        );
        for (const text of [...texts, ...written, ...longForms, 'Kh1', 'Kxh1', 'Ka1', 'Kh8', 'Kxa8']) {
          // Only what parseMove reads as SAN: UCI-shaped text (b1a3, e7e8q) takes the UCI path first.
          if (!SAN_SHAPE.test(text) || /^[a-h][1-8][a-h][1-8][qrbnQRBN]?$/.test(text)) continue;
          const ours = parseMove(board, text);
          const theirs = parseSan(board.pos, text);
          const same = ours.ok ? theirs !== undefined && moveEquals(ours.move, theirs) : theirs === undefined;
          if (!same)
            expect.fail(
              `"${text}" in ${currentFen(board)}: ours ${ours.ok ? makeUci(ours.move) : ours.reason}, chessops ${theirs ? makeUci(theirs) : 'undefined'}`,
            );
        }
      }),
      { numRuns: 200 },
    );
  });
});
