#!/usr/bin/env -S node --max-semi-space-size=32
// The CLI is compiled by `npm ci` (the `prepare` script) into dist/; its entry and yargs are bundled into
// one file there (scripts/bundle.mjs), which starts sooner than their modules one by one.
// The shebang's flag doubles the young generation's semi-spaces (V8's default is 16 MB on 64-bit): a crowd
// makes short-lived request and view objects by the million, and with 32 MB fewer of them survive a
// scavenge to be copied. Worker threads (sweep, compare) inherit it. bench/cli-process.ts reads the flags
// from this line, so the benches run what a user runs; `node bin/agent-chess-sim.js` goes without them.
import '../dist/src/cli/main.bundle.js';
