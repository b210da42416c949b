import fc from 'fast-check';
import { afterAll, beforeEach } from 'vitest';
import { FC_SEED } from '../helpers/fc-seed.js';

/**
 * Runs before every test file (vitest.config.ts `setupFiles`): every property of the file draws from one
 * seed. A test passes only its `numRuns` (or other run options); fast-check merges them over this.
 */
fc.configureGlobal({ seed: FC_SEED });

// fast-check names the seed beside a counterexample; this line also covers a test that failed around its
// properties (an assertion on what the runs produced), once per file.
let failedTests = 0;
beforeEach(({ onTestFailed }) => onTestFailed(() => void failedTests++));
afterAll(() => {
  if (failedTests > 0) console.error(`property tests ran with FC_SEED=${FC_SEED}; set it to replay them`);
});
