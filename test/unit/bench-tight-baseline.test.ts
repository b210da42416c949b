import { describe, expect, it } from 'vitest';
import { sameGamesAsBare, tightRandomGames } from '../../bench/bare-chessops-tight.js';

/**
 * P1's fair baseline (bench/bare-chessops-tight.ts) must play what the plain chessops loop plays, SAN
 * included, or the ratio against it compares different work. Nothing here depends on speed.
 */
describe('the tight bare chessops loop', () => {
  it('plays the same moves and writes the same SAN as chessops makeSanAndPlay, ply for ply', () => {
    expect(sameGamesAsBare(30, 'tight-check')).toBeNull();
  });

  it('exercises every branch of its SAN: castling both ways, promotion, both disambiguations, check and mate', () => {
    const sans = new Set<string>();
    tightRandomGames(30, 'tight-check', (san) => sans.add(san));
    const seen = (pattern: RegExp) => [...sans].some((san) => pattern.test(san));
    expect(seen(/^O-O[+#]?$/)).toBe(true);
    expect(seen(/^O-O-O[+#]?$/)).toBe(true);
    expect(seen(/=[QRBN]/)).toBe(true);
    expect(seen(/^[NBRQ][a-h]x?[a-h][1-8]/)).toBe(true); // by file
    expect(seen(/^[NBRQ][1-8]x?[a-h][1-8]/)).toBe(true); // by rank
    expect(seen(/\+$/)).toBe(true);
    expect(seen(/#$/)).toBe(true);
  });
});
