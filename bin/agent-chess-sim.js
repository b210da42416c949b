#!/usr/bin/env node
// The CLI is compiled by `npm ci` (the `prepare` script) into dist/.
import '../dist/src/cli/main.js';
