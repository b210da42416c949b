import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { LONG_TESTS } from './vitest.long-tests.js';

/** `npm run test:long`: the tests vitest.long-tests.ts lists, with the main config's setup and limits. */
export default defineConfig({ test: { ...base.test, include: LONG_TESTS, exclude: ['**/node_modules/**'] } });
