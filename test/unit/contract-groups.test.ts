import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GROUPS } from '../../src/api/contract/define.js';

/**
 * Each "every contract answered" test owns some contract groups, named in its `ANSWERED_GROUPS`, and fails
 * when a contract of those groups got no checked answer. This file checks the other half: that every group
 * of the wire is owned by exactly one of them, so a new group (or one left out, as Games once was) cannot
 * go unanswered. The lists are read from the files' text, since a test file exports nothing.
 */
const ANSWERING_FILES = [
  'test/unit/contract-identity-agents.test.ts',
  'test/unit/contract-chess.test.ts',
  'test/unit/contract-social.test.ts',
  'test/http/contract-control.test.ts',
];

/** The string literals of `const ANSWERED_GROUPS ... = [...]` in a file's text. */
function answeredGroups(text: string): string[] {
  const list = /const ANSWERED_GROUPS\b[^=]*=\s*\[([^\]]*)\]/.exec(text);
  if (list === null) return [];
  return [...list[1]!.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

describe('every contract group', () => {
  it('is answered by exactly one "every contract answered" test', () => {
    const owners = new Map<string, string[]>();
    for (const file of ANSWERING_FILES) {
      const groups = answeredGroups(readFileSync(file, 'utf8'));
      expect(groups.length, `${file} names no ANSWERED_GROUPS`).toBeGreaterThan(0);
      for (const group of groups) owners.set(group, [...(owners.get(group) ?? []), file]);
    }
    const wire = GROUPS.map(([name]) => name as string);
    expect([...owners.keys()].filter((group) => !wire.includes(group))).toEqual([]);
    for (const group of wire) expect(owners.get(group) ?? [], group).toHaveLength(1);
  });

  it('reads a group list as the answering files write it', () => {
    const text = "const ANSWERED_GROUPS: readonly string[] = ['Games', 'Human Profiles'];";
    expect(answeredGroups(text)).toEqual(['Games', 'Human Profiles']);
    expect(answeredGroups('const OTHER = [1];')).toEqual([]);
  });
});
