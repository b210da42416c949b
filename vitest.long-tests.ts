/**
 * The long tier: whole shipped scenarios run twice or checked answer by answer, the rules compared with an
 * independent chess library over hundreds of games, whole sweeps and SPRT comparisons through the CLI, and
 * the fetch agent played through fault profiles over a real socket.
 * Each file took 30 s to 2 min of the suite on 2 cores, so `npm test` (held under five minutes) leaves them
 * to `npm run test:long`, which .ci/run runs right after it: CI runs every test.
 */
export const LONG_TESTS = [
  'test/scenario/wire-contract.test.ts',
  'test/scenario/determinism.test.ts',
  'test/scenario/crowd.test.ts',
  'test/property/chess-differential.test.ts',
  'test/compare/compare-cli.test.ts',
  'test/sweep/sweep-cli.test.ts',
  'test/faults/serve-faults.test.ts',
  'test/browser/live-view.test.ts', // serve's live view in Chromium: its pages look once a wall second (~15 s)
  'test/browser/report-scale.test.ts', // report.html grown to 2,000 agents and a failing run, in Chromium (~12 s)
];
