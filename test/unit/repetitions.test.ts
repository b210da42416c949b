import { describe, expect, it } from 'vitest';
import { keyHash, RepetitionWindow } from '../../src/rules/chess/repetitions.js';

const hashOf = (key: string): number => keyHash(Buffer.from(key, 'latin1'), key.length);

/** Counts a key as playMove does: its hash computed from its bytes. */
function see(window: RepetitionWindow, key: string): void {
  window.see(key, hashOf(key));
}

describe('RepetitionWindow', () => {
  it('counts keys as a Map would, in the order first seen', () => {
    const window = new RepetitionWindow();
    for (const key of ['a w', 'b b', 'a w', 'c w', 'a w']) see(window, key);
    expect([...window.entries()]).toEqual([
      ['a w', 3],
      ['b b', 1],
      ['c w', 1],
    ]);
    expect([...window.values()]).toEqual([3, 1, 1]);
    expect(window.size).toBe(3);
    expect(window.get('a w')).toBe(3);
    expect(window.countOf('c w', hashOf('c w'))).toBe(1);
    expect(window.get('d w')).toBeUndefined();
  });

  it('forgets every key on a restart and counts the new one once', () => {
    const window = new RepetitionWindow();
    for (const key of ['a w', 'b b', 'a w']) see(window, key);
    window.restart('z b', hashOf('z b'));
    expect([...window.entries()]).toEqual([['z b', 1]]);
    expect(window.get('a w')).toBeUndefined();
    see(window, 'a w');
    expect([...window.entries()]).toEqual([
      ['z b', 1],
      ['a w', 1],
    ]);
  });

  it('keeps different keys apart when their hashes agree (the text decides)', () => {
    const window = new RepetitionWindow();
    window.see('first', 7);
    window.see('second', 7);
    window.see('first', 7);
    expect(window.countOf('first', 7)).toBe(2);
    expect(window.countOf('second', 7)).toBe(1);
    expect(window.countOf('third', 7)).toBeUndefined();
  });

  it('is made from saved entries as new Map(entries) is: a repeated key keeps its place, the last count', () => {
    const entries: [string, number][] = [
      ['a w', 1],
      ['b b', 2],
      ['a w', 3],
    ];
    const window = RepetitionWindow.of(entries);
    expect([...window.entries()]).toEqual([...new Map(entries).entries()]);
    see(window, 'b b');
    expect(window.get('b b')).toBe(3);
  });

  it('hashes a key the same from its bytes and from its text', () => {
    const window = RepetitionWindow.of([['rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq -', 2]]);
    const key = 'rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq -';
    expect(window.countOf(key, hashOf(key))).toBe(2);
  });
});
