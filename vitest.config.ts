import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LONG_TESTS } from './vitest.long-tests.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The long tier (vitest.long.config.ts) runs in .ci/run through `npm run test:long`.
    exclude: ['**/node_modules/**', ...LONG_TESTS],
    // One seed for every fast-check property (FC_SEED or the pinned default; test/helpers/fc-seed.ts).
    setupFiles: ['test/setup/fast-check.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Vitest's default is one worker per CPU less one, which is a single worker on a 2-core machine. At
    // least two: many files wait on child processes, sockets and timers (CLI, serve, UCI engines, HTTP), so
    // a second file runs in those waits. Measured on 2 cores: the whole suite about 20% faster.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files share their worker's module cache instead of importing the project afresh each: the suite
    // spent 100 s of its time in imports. Measured on 2 cores, the whole suite 278 s isolated, 159 s not,
    // every test passing both ways. A test that patches a builtin restores it (test/http/hardening.test.ts,
    // test/http/snapshot-safety.test.ts), so nothing leaks into the files after it.
    isolate: false,
  },
});
