/**
 * The command line as a bench child starts it: `node <the bin's node flags> bin/agent-chess-sim.js ...`.
 * A user's `npx agent-chess-sim` runs the bin through its shebang, which passes node flags (the young
 * generation's size); a bench that spawned `node bin/agent-chess-sim.js` would drop them and measure another
 * program. The flags are read from the shebang itself, so they are written in one place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/sweep/version.js';

export const CLI_BIN = join(packageRoot(), 'bin', 'agent-chess-sim.js');

/** The node flags of a `#!/usr/bin/env -S node <flags>` line (none for a plain `#!/usr/bin/env node`). */
export function shebangNodeFlags(firstLine: string): string[] {
  const match = /^#!\s*\/usr\/bin\/env\s+(?:-S\s+)?node((?:\s+\S+)*)\s*$/.exec(firstLine);
  if (!match) throw new Error(`the bin's first line is not a node shebang: ${firstLine}`);
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}

/** The node flags the bin's shebang passes, as a user's `agent-chess-sim` runs with them. */
export const BIN_NODE_FLAGS: readonly string[] = shebangNodeFlags(
  readFileSync(CLI_BIN, 'utf8').split('\n', 1)[0]!,
);

/** node's arguments for `agent-chess-sim <args>`: the bin's flags, then `nodeFlags` (a probe, a profiler), the bin, `args`. */
export function cliArgs(args: readonly string[], nodeFlags: readonly string[] = []): string[] {
  return [...BIN_NODE_FLAGS, ...nodeFlags, CLI_BIN, ...args];
}
