import { describe, expect, it } from 'vitest';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import { emptyState, STATE_TABLES, type StateTable } from '../../src/platform/state.js';
import { newWorld } from '../helpers/world.js';

/**
 * The state's tables are declared once (STATE_TABLES). The fingerprint is derived from that list. The empty
 * state is written out as one literal (a state built in a loop became a dictionary, slow to read on every
 * request), so this file holds it to the list: a table missing from either, or of another kind, fails here.
 */
describe('the state tables', () => {
  it('are exactly the tables of the empty state, each of its declared kind', () => {
    const state = emptyState() as unknown as Record<string, unknown>;
    expect(Object.keys(state).sort()).toEqual(Object.keys(STATE_TABLES).sort());
    for (const [name, kind] of Object.entries(STATE_TABLES)) {
      const table = state[name];
      const actual =
        table instanceof Map ? 'map' : table instanceof Set ? 'set' : Array.isArray(table) ? 'list' : 'other';
      expect([name, actual]).toEqual([name, kind]);
    }
  });

  it('each reach the fingerprint: every table is written, and a change to a plain one changes it', () => {
    const world = newWorld();
    const written = JSON.parse(stateFingerprint(world.platform)) as { tables: Record<string, unknown> };
    expect(Object.keys(written.tables).sort()).toEqual(Object.keys(STATE_TABLES).sort());
    // Tables of records with their own writer (agents, humans, games, activity) hold typed records, not markers.
    const special = new Set(['agents', 'humans', 'games', 'activity']);
    for (const name of (Object.keys(STATE_TABLES) as StateTable[]).filter((table) => !special.has(table))) {
      const before = stateFingerprint(world.platform);
      const table = world.platform.state[name] as unknown;
      const restore = touch(table);
      expect(stateFingerprint(world.platform), `${name} is not fingerprinted`).not.toBe(before);
      restore();
      expect(stateFingerprint(world.platform)).toBe(before);
    }
  });
});

/** Adds one marker entry to a table and returns how to take it out again. */
function touch(table: unknown): () => void {
  if (table instanceof Map) {
    table.set('marker', 'marker');
    return () => table.delete('marker');
  }
  if (table instanceof Set) {
    table.add('marker');
    return () => table.delete('marker');
  }
  (table as unknown[]).push('marker');
  return () => (table as unknown[]).pop();
}
