/**
 * The hash table size an instance searches with (wasm-engine.ts, `hashMbFor`) changes no answer: the small
 * table answers as the 16 MB one did, and switching sizes between searches leaves no trace.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { levelByName, type EngineLevel } from '../../agents/engines/levels.js';
import { EnginePool, type SearchResult } from '../../agents/engines/pool.js';
import { hashMbFor } from '../../agents/engines/wasm-engine.js';

/**
 * Positions from simulated games with the lines stockfish.wasm 0.10.0 gave at sf-1 to sf-4 with a 16 MB
 * table (recorded before the small table), as `uci score` per line, best first.
 */
const ANSWERED_WITH_16_MB: Record<string, readonly [string, string, string, string]> = {
  '4k1n1/1b4p1/r1ppppP1/PQ5r/R1p3P1/2N5/1PnPP1BP/2BK3R w - - 0 27': [
    'b5h5 cp 1834, g4h5 cp 1283, b2b3 cp 413',
    'b5h5 cp 1834, g4h5 cp 1283, b2b3 cp 413',
    'b5h5 cp 1834, b5b7 cp 1671, g2c6 cp 1625, b5a6 cp 1601',
    'b5b7 cp 2161, b5h5 cp 2122, g2c6 cp 1625, b5a6 cp 1601',
  ],
  'r1bqkb1r/1pp2pp1/p1np1n2/1N2p2p/4P3/3P1QB1/PPP2PPP/R3KBNR b KQkq - 1 7': [
    'a6b5 cp 592, h5h4 cp 343',
    'a6b5 cp 592, h5h4 cp 343',
    'c6b4 cp 732, h5h4 cp 693, a6b5 cp 603, g7g5 cp 312',
    'c8g4 cp 821, c6b4 cp 732, a6b5 cp 729, h5h4 cp 633',
  ],
  '8/2K5/3r3k/8/1n6/8/8/8 b - - 14 144': [
    'b4a2 cp 13',
    'd6d1 cp 5907, d6d2 cp 5907, b4a2 cp 13',
    'd6a6 cp 5903, d6c6 cp 5903, d6d1 cp 5898, d6d2 cp 5907',
    'd6c6 cp 5903, d6a6 cp 5898, d6f6 cp 5898, d6e6 cp 5898',
  ],
  '4b3/8/2n3r1/2npk1p1/p2p4/P2P4/nQ2p1K1/3B3r b - - 5 80': [
    'e2d1q cp 2712, g5g4 cp 673',
    'e2d1q cp 2712, g5g4 cp 673',
    'e2d1q cp 2712, h1g1 cp 2419, e2d1r cp 1702, h1d1 cp 1023',
    'e2d1q cp 2728, e2e1q cp 2535, h1g1 cp 2419, h1h2 cp 2153',
  ],
};

const SMALL_LEVELS = ['sf-1', 'sf-2', 'sf-3', 'sf-4'].map(level);

function level(name: string): EngineLevel {
  const found = levelByName(name);
  if (!found) throw new Error(`no level ${name}`);
  return found;
}

function written(result: SearchResult): string {
  return result.lines
    .map((line) => `${line.uci} ${line.mate !== null ? `mate ${line.mate}` : `cp ${line.scoreCp}`}`)
    .join(', ');
}

// One instance, no cache: every answer below is a search of its own, in the order asked.
const pool = new EnginePool({ size: 1, cacheEntries: 0 });
afterAll(() => pool.close());

function search(fen: string, at: EngineLevel): Promise<SearchResult> {
  return pool.search({ fen, nodes: at.nodes, multiPv: at.multiPv });
}

describe('the hash table size of a search', () => {
  it('is the small table for sf-1 to sf-4 and 16 MB from sf-6 up', () => {
    expect(SMALL_LEVELS.map((l) => hashMbFor(l.nodes))).toEqual([1, 1, 1, 1]);
    expect(['sf-6', 'sf-7', 'sf-8'].map((name) => hashMbFor(level(name).nodes))).toEqual([16, 16, 16]);
  });

  it('gives the answers a 16 MB table gave at sf-1 to sf-4', async () => {
    for (const [fen, expected] of Object.entries(ANSWERED_WITH_16_MB)) {
      const answers = await Promise.all(SMALL_LEVELS.map((at) => search(fen, at)));
      expect(answers.map(written), fen).toEqual(expected);
    }
  });

  it('switches between searches and leaves no trace', async () => {
    const [fen, expected] = Object.entries(ANSWERED_WITH_16_MB)[1]!;
    // sf-8 fills a small table: there it answers cp 682, with 16 MB cp 671.
    const large = level('sf-8');
    const with16Mb = 'a6b5 cp 671';
    expect(written(await search(fen, large))).toBe(with16Mb);
    expect(written(await search(fen, SMALL_LEVELS[3]!))).toBe(expected[3]);
    expect(written(await search(fen, large))).toBe(with16Mb);
  });
});
