import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../sweep/helpers.js';

/** An unknown `--invariant` is a usage mistake (exit 2), not a run with nothing to shrink (exit 1). */
describe('shrink --invariant', () => {
  it('refuses an unknown invariant with exit 2 and one line listing the known ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shrink-cli-'));
    const file = join(dir, 'small.yaml');
    writeFileSync(
      file,
      'name: small\nseed: 1\nstart: 2026-01-01T00:00:00Z\nduration: 10m\npopulation:\n  - persona: random\n    count: 2\n    heartbeat: { min: 30s, max: 60s }\n',
    );
    const result = await cli([
      'shrink',
      file,
      '--invariant',
      'no_such',
      '--out',
      join(dir, 'out'),
      '--no-progress',
    ]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^shrink: --invariant: no invariant named no_such; the known invariants are [a-z_]+(, [a-z_]+)+$/,
      ),
    ]);
    expect(lines[0]).toContain('elo_conservation');
  });
});
