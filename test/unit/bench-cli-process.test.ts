import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_BIN, cliArgs, shebangNodeFlags } from '../../bench/cli-process.js';

describe('the bench starts the CLI with the flags of its shebang', () => {
  it('reads node flags from an env -S shebang, none from a plain one', () => {
    expect(shebangNodeFlags('#!/usr/bin/env -S node --max-semi-space-size=32 --foo')).toEqual([
      '--max-semi-space-size=32',
      '--foo',
    ]);
    expect(shebangNodeFlags('#!/usr/bin/env node')).toEqual([]);
    expect(() => shebangNodeFlags('// not a shebang')).toThrow(/not a node shebang/);
  });

  it("puts the bin's flags first, then the bench's own, then the bin and the command", () => {
    const flags = shebangNodeFlags(readFileSync(CLI_BIN, 'utf8').split('\n', 1)[0]!);
    expect(cliArgs(['diff', 'a', 'b'], ['--import', 'probe.js'])).toEqual([
      ...flags,
      '--import',
      'probe.js',
      CLI_BIN,
      'diff',
      'a',
      'b',
    ]);
  });
});
