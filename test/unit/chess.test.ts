import { makeUci } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import {
  type Board,
  boardResult,
  currentFen,
  legalMoves,
  newBoard,
  parseMove,
  parseMoveFields,
  playMove,
  positionKey,
  sideToMove,
  STANDARD_START_FEN,
  toWireUci,
} from '../../src/rules/chess/chess.js';

// White may castle both ways; black king on e8, no other black pieces nearby.
const CASTLE_FEN = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
const PROMO_FEN = '7k/4P3/8/8/8/8/8/4K3 w - - 0 1';
// Rh8 mates (black Ka8, white Kb6); Rh2 is a quiet move. Halfmove clock at 99.
const CLOCK_99_FEN = 'k7/8/1K6/8/8/8/8/7R w - - 99 80';

/** Plays a line of moves given in any accepted spelling; fails the test on the first rejected one. */
function play(board: Board, line: string): void {
  for (const text of line.split(' ')) {
    const parsed = parseMove(board, text);
    if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
    playMove(board, parsed.move);
  }
}

function uciOf(board: Board, text: string): string {
  const parsed = parseMove(board, text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
  return toWireUci(board, parsed.move);
}

describe('newBoard', () => {
  it('starts from the standard position', () => {
    const board = newBoard();
    expect(currentFen(board)).toBe(STANDARD_START_FEN);
    expect(sideToMove(board)).toBe('white');
    expect(board.plies).toBe(0);
    expect([...board.repetitions.values()]).toEqual([1]);
  });
  it('throws on an invalid FEN or a Chess960 castling setup', () => {
    expect(() => newBoard('not a fen')).toThrow();
    expect(() => newBoard('8/8/8/8/8/8/8/8 w - - 0 1')).toThrow();
    expect(() => newBoard('1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1')).toThrow(/standard-chess castling/);
  });
});

describe('parseMove accepts every spelling agents send', () => {
  it.each([
    ['e4', 'e2e4'],
    ['  e4  ', 'e2e4'],
    ['Nf3', 'g1f3'],
    ['Nf3+', 'g1f3'], // a wrong check mark is an annotation and is ignored
    ['Nf3!?', 'g1f3'],
    ['e4!', 'e2e4'],
    ['e2e4', 'e2e4'],
    ['g1f3', 'g1f3'],
    ['Ng1f3', 'g1f3'],
    ['Ng1-f3', 'g1f3'],
    ['e2-e4', 'e2e4'],
  ])('start position: %j -> %s', (text, uci) => {
    expect(uciOf(newBoard(), text)).toBe(uci);
  });

  it.each([
    ['O-O', 'e1g1'],
    ['0-0', 'e1g1'],
    ['o-o', 'e1g1'],
    ['O-O+', 'e1g1'],
    ['O-O-O', 'e1c1'],
    ['0-0-0', 'e1c1'],
    ['O-O-O#', 'e1c1'],
    ['e1g1', 'e1g1'],
    ['e1h1', 'e1g1'],
    ['e1c1', 'e1c1'],
    ['e1a1', 'e1c1'],
  ])('castling: %j -> %s', (text, uci) => {
    const board = newBoard(CASTLE_FEN);
    const parsed = parseMove(board, text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    // Both castling spellings become chessops' king-takes-rook move, the one legalMoves lists.
    expect(makeUci(parsed.move)).toBe(uci === 'e1g1' ? 'e1h1' : 'e1a1');
    expect(toWireUci(board, parsed.move)).toBe(uci);
  });

  it('castling is played and reported on the wire as the king two squares', () => {
    const board = newBoard(CASTLE_FEN);
    play(board, 'O-O');
    expect(currentFen(board)).toBe('r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
    // Kingside is now barred (Rf1 attacks f8); queenside, sent as king-takes-rook.
    expect(parseMove(board, 'e8h8').ok).toBe(false);
    const played = playMove(board, parseOk(board, 'e8a8'));
    expect(played).toMatchObject({ san: 'O-O-O', uci: 'e8c8', color: 'black', isCheck: false });
  });

  it.each([['e7e8q'], ['e7e8Q'], ['e8=Q'], ['e8Q'], ['e8q'], ['e8=Q+']])('promotion %j', (text) => {
    const board = newBoard(PROMO_FEN);
    expect(uciOf(board, text)).toBe('e7e8q');
    expect(playMove(board, parseOk(board, text))).toMatchObject({
      san: 'e8=Q+',
      uci: 'e7e8q',
      isCheck: true,
    });
  });

  it('underpromotion', () => {
    const board = newBoard(PROMO_FEN);
    expect(uciOf(board, 'e8=N')).toBe('e7e8n');
    expect(uciOf(board, 'e7e8r')).toBe('e7e8r');
  });

  it('captures and en passant', () => {
    const board = newBoard();
    play(board, 'e4 d5');
    expect(uciOf(board, 'exd5')).toBe('e4d5');
    play(board, 'e5 f5');
    expect(uciOf(board, 'exf6')).toBe('e5f6');
    expect(playMove(board, parseOk(board, 'e5f6')).san).toBe('exf6');
  });

  it('mate "#" is accepted and reported', () => {
    const board = newBoard();
    play(board, 'f3 e5 g4');
    const played = playMove(board, parseOk(board, 'Qh4#'));
    expect(played).toMatchObject({
      san: 'Qh4#',
      uci: 'd8h4',
      color: 'black',
      isCheck: true,
      isCheckmate: true,
    });
  });
});

describe('parseMove rejects', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['e5', 'illegal'],
    ['e2e5', 'illegal'],
    ['Nf6', 'illegal'],
    ['O-O', 'illegal'],
    ['e1g1', 'illegal'],
    ['hello', 'unparsable'],
    ['e9', 'unparsable'],
    ['z2z4', 'unparsable'],
    ['nf3', 'unparsable'],
    ['O-0', 'unparsable'],
    ['e2e4e5', 'unparsable'],
    ['e4 e5', 'unparsable'],
    ['x'.repeat(1000), 'unparsable'],
    ['+', 'unparsable'],
  ])('start position: %j (%s)', (text, kind) => {
    const parsed = parseMove(newBoard(), text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(kind);
  });

  it.each([['e8'], ['e7e8'], ['e8=K'], ['e7e8k'], ['e8=P'], ['e7e8p']])('wrong promotion %j', (text) => {
    expect(parseMove(newBoard(PROMO_FEN), text).ok).toBe(false);
  });

  it('a pawn move with a promotion piece off the back rank', () => {
    expect(parseMove(newBoard(), 'e2e4q').ok).toBe(false);
    expect(parseMove(newBoard(), 'e4=Q').ok).toBe(false);
  });

  it('an ambiguous SAN move', () => {
    const board = newBoard('4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1');
    const parsed = parseMove(board, 'Nd2');
    expect(parsed).toMatchObject({ ok: false });
    expect(uciOf(board, 'Nbd2')).toBe('b1d2');
    expect(uciOf(board, 'Nfd2')).toBe('f1d2');
  });

  it('castling through check or without the right', () => {
    expect(parseMove(newBoard('r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1'), 'O-O').ok).toBe(false);
    expect(parseMove(newBoard('r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1'), 'O-O').ok).toBe(false);
    expect(parseMove(newBoard('r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1'), 'e1h1').ok).toBe(false);
  });

  it('never throws on non-string input that slipped past the schema', () => {
    expect(parseMove(newBoard(), undefined as unknown as string).ok).toBe(false);
    expect(parseMove(newBoard(), 42 as unknown as string).ok).toBe(false);
  });
});

describe('parseMoveFields', () => {
  it('takes either field alone', () => {
    const board = newBoard();
    expect(toWireUci(board, parseOkFields(board, 'Nf3', undefined))).toBe('g1f3');
    expect(toWireUci(board, parseOkFields(board, undefined, 'g1f3'))).toBe('g1f3');
    expect(toWireUci(board, parseOkFields(board, '', 'g1f3'))).toBe('g1f3');
  });
  it('takes both when they agree, including both castling spellings', () => {
    const board = newBoard(CASTLE_FEN);
    expect(toWireUci(board, parseOkFields(board, 'O-O', 'e1g1'))).toBe('e1g1');
    expect(toWireUci(board, parseOkFields(board, '0-0', 'e1h1'))).toBe('e1g1');
  });
  it('rejects none, disagreement, or one bad field', () => {
    const board = newBoard();
    expect(parseMoveFields(board, undefined, undefined)).toMatchObject({ ok: false });
    expect(parseMoveFields(board, ' ', '')).toMatchObject({ ok: false });
    expect(parseMoveFields(board, 'Nf3', 'g1h3')).toMatchObject({ ok: false });
    expect(parseMoveFields(board, 'Nf3', 'g1f4')).toMatchObject({ ok: false });
    expect(parseMoveFields(board, 'Nf4', 'g1f3')).toMatchObject({ ok: false });
    expect(parseMoveFields(newBoard(PROMO_FEN), 'e8=Q', 'e7e8n')).toMatchObject({ ok: false });
  });
});

describe('legalMoves', () => {
  it('lists the 20 opening moves by from square, then to square', () => {
    const board = newBoard();
    const ucis = legalMoves(board).map((m) => toWireUci(board, m));
    expect(ucis).toEqual([
      'b1a3',
      'b1c3',
      'g1f3',
      'g1h3',
      'a2a3',
      'a2a4',
      'b2b3',
      'b2b4',
      'c2c3',
      'c2c4',
      'd2d3',
      'd2d4',
      'e2e3',
      'e2e4',
      'f2f3',
      'f2f4',
      'g2g3',
      'g2g4',
      'h2h3',
      'h2h4',
    ]);
  });
  it('expands promotions queen, rook, bishop, knight', () => {
    const board = newBoard(PROMO_FEN);
    const ucis = legalMoves(board).map((m) => makeUci(m));
    expect(ucis.filter((u) => u.startsWith('e7'))).toEqual(['e7e8q', 'e7e8r', 'e7e8b', 'e7e8n']);
  });
});

describe('boardResult', () => {
  it('is null in the start position and during normal play', () => {
    const board = newBoard();
    expect(boardResult(board)).toBeNull();
    play(board, 'e4 e5 Nf3 Nc6');
    expect(boardResult(board)).toBeNull();
  });

  it("fool's mate: checkmate, the side that just moved wins", () => {
    const board = newBoard();
    play(board, 'f3 e5 g4 Qh4#');
    expect(boardResult(board)).toEqual({ ending: 'checkmate', winner: 'black' });
    expect(board.plies).toBe(4);
  });

  it('stalemate from a FEN and by a move', () => {
    expect(boardResult(newBoard('k7/8/1Q6/8/8/8/8/7K b - - 0 1'))).toEqual({
      ending: 'stalemate',
      winner: null,
    });
    const board = newBoard('k7/8/8/8/8/8/1Q6/7K w - - 0 1');
    play(board, 'Qb6');
    expect(boardResult(board)).toEqual({ ending: 'stalemate', winner: null });
  });

  it('insufficient material: K v K from a FEN and by capturing the last piece', () => {
    const draw = { ending: 'insufficient_material', winner: null };
    expect(boardResult(newBoard('8/8/8/4k3/8/8/8/4K3 w - - 0 1'))).toEqual(draw);
    const board = newBoard('8/8/8/4k3/8/8/4r3/4K3 w - - 0 1');
    expect(boardResult(board)).toBeNull();
    play(board, 'Kxe2');
    expect(boardResult(board)).toEqual(draw);
  });

  it.each([
    ['K+N v K', '8/8/8/4k3/8/8/8/3NK3 w - - 0 1', true],
    ['K+B v K', '8/8/8/4k3/8/8/8/3BK3 w - - 0 1', true],
    ['K+B v K+B, same colour (d1, d5)', '8/8/8/3bk3/8/8/8/3BK3 w - - 0 1', true],
    ['K+B v K+B, opposite colours (d1, c5)', '8/8/8/2b1k3/8/8/8/3BK3 w - - 0 1', false],
    ['K+B+B v K, same colour (c1, a3)', '8/8/8/4k3/8/B7/8/2B1K3 w - - 0 1', true],
    ['K+B+B v K, opposite colours (c1, f1)', '8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1', false],
    ['K+N v K+N', '8/8/8/3nk3/8/8/8/3NK3 w - - 0 1', false],
    ['K+N v K+B', '8/8/8/3bk3/8/8/8/3NK3 w - - 0 1', false],
    ['K+N+N v K', '8/8/8/4k3/8/8/8/2NNK3 w - - 0 1', false],
    ['K+P v K', '8/8/8/4k3/8/8/3P4/4K3 w - - 0 1', false],
  ])('material %s -> insufficient %s', (_name, fen, insufficient) => {
    expect(boardResult(newBoard(fen))?.ending === 'insufficient_material').toBe(insufficient);
  });

  it('threefold repetition by knight shuffles, on the third occurrence exactly', () => {
    const board = newBoard();
    play(board, 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1');
    expect(boardResult(board)).toBeNull();
    play(board, 'Ng8');
    expect(board.repetitions.get(positionKey(board.pos))).toBe(3);
    expect(boardResult(board)).toEqual({ ending: 'threefold_repetition', winner: null });
  });

  it('a double push whose en passant capture is illegal does not make a new position (FIDE 9.2.3)', () => {
    // Black's e4 pawn is pinned along the 4th rank: after d2d4, exd3 would expose Ka4 to Rh4.
    const board = newBoard('8/8/8/8/k3p2R/8/3P4/7K w - - 0 1');
    play(board, 'd4');
    expect(currentFen(board).split(' ')[3]).toBe('-');
    play(board, 'Ka3 Kh2 Ka4 Kh1 Ka3 Kh2 Ka4');
    expect(boardResult(board)).toBeNull();
    play(board, 'Kh1');
    expect(boardResult(board)).toEqual({ ending: 'threefold_repetition', winner: null });
  });

  it('a legal en passant capture does make a different position', () => {
    // After d2d4 black can play exd3 e.p.; the same placement later (no e.p. right) is a new position.
    const board = newBoard('8/8/8/8/4p2k/8/3P4/K7 w - - 0 1');
    play(board, 'd4');
    expect(currentFen(board).split(' ')[3]).toBe('d3');
    play(board, 'Kh3 Ka2 Kh4 Ka1 Kh3 Ka2 Kh4 Ka1');
    expect(boardResult(board)).toBeNull();
    play(board, 'Kh3 Ka2 Kh4 Ka1');
    expect(boardResult(board)).toEqual({ ending: 'threefold_repetition', winner: null });
  });

  it('fifty-move rule when the halfmove clock reaches 100', () => {
    const board = newBoard(CLOCK_99_FEN);
    expect(boardResult(board)).toBeNull();
    play(board, 'Rh2');
    expect(board.pos.halfmoves).toBe(100);
    expect(boardResult(board)).toEqual({ ending: 'fifty_move_rule', winner: null });
  });

  it('mate on the 100th halfmove counts as mate', () => {
    const board = newBoard(CLOCK_99_FEN);
    const played = playMove(board, parseOk(board, 'Rh8'));
    expect(played).toMatchObject({ san: 'Rh8#', isCheckmate: true });
    expect(board.pos.halfmoves).toBe(100);
    expect(boardResult(board)).toEqual({ ending: 'checkmate', winner: 'white' });
  });

  it('a capture on the 100th halfmove resets the clock instead', () => {
    const board = newBoard('k7/8/1K6/8/8/8/7r/7R w - - 99 80');
    play(board, 'Rxh2');
    expect(boardResult(board)).toBeNull();
  });
});

describe('playMove', () => {
  it('refuses an illegal move loudly (programmer error)', () => {
    const board = newBoard();
    expect(() => playMove(board, { from: 12, to: 36 })).toThrow(/illegal/);
    expect(currentFen(board)).toBe(STANDARD_START_FEN);
  });
  it('reports the FEN after, the mover and check', () => {
    const board = newBoard();
    const played = playMove(board, parseOk(board, 'e4'));
    expect(played).toEqual({
      san: 'e4',
      uci: 'e2e4',
      fenAfter: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      color: 'white',
      isCheck: false,
      isCheckmate: false,
    });
    expect(currentFen(board)).toBe(played.fenAfter);
    expect(sideToMove(board)).toBe('black');
    expect(board.plies).toBe(1);
  });
});

function parseOk(board: Board, text: string) {
  const parsed = parseMove(board, text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
  return parsed.move;
}

function parseOkFields(board: Board, san: string | undefined, uci: string | undefined) {
  const parsed = parseMoveFields(board, san, uci);
  if (!parsed.ok) throw new Error(`${san}/${uci}: ${parsed.reason}`);
  return parsed.move;
}
