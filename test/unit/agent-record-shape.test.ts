import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The built modules (npm test builds first), imported by a child node that may use V8's own checks. */
const DIST = fileURLToPath(new URL('../../dist/src/', import.meta.url));

/**
 * Registered agents' records are read on nearly every request. A getter written in the record's literal
 * would put each one in V8's dictionary mode (src/platform/identity/identity.ts, WALLET_ADDRESS): this asks
 * V8 itself, in a child with --allow-natives-syntax, whether two records share one fast hidden class.
 */
describe('registered agent records', () => {
  it('keep fast properties and one hidden class, with the deferred wallet address among their fields', () => {
    const script = `
      const { createPlatform } = await import(${JSON.stringify(`${DIST}platform/index.js`)});
      const { register } = await import(${JSON.stringify(`${DIST}platform/identity/identity.js`)});
      const p = createPlatform({ seed: 'shape', startMs: Date.UTC(2026, 0, 1) });
      const a = register(p, { handle: 'shape_one' }).agent;
      const b = register(p, { handle: 'shape_two' }).agent;
      const before = a.walletAddress;
      console.log(JSON.stringify({
        fast: %HasFastProperties(a) && %HasFastProperties(b),
        sameMap: %HaveSameMap(a, b),
        keys: Object.keys(a),
        address: before,
      }));`;
    const child = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(child.stderr).toBe('');
    const shape = JSON.parse(child.stdout) as {
      fast: boolean;
      sameMap: boolean;
      keys: string[];
      address: string;
    };
    expect(shape.fast).toBe(true);
    expect(shape.sameMap).toBe(true);
    expect(shape.keys.indexOf('walletAddress')).toBe(shape.keys.indexOf('githubRepoUrl') + 1);
    expect(shape.keys.indexOf('verificationCode')).toBe(shape.keys.indexOf('walletAddress') + 1);
    expect(shape.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });
});
