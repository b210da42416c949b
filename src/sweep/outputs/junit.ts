import { xml, xmlText } from '../../report/junit.js';
import type { SweepResult } from '../sweep-result.js';
import type { SeedResult } from '../seed-result.js';

/**
 * junit.xml: one test suite per seed, one test case per seed x invariant. A broken invariant is a
 * <failure>; a seed whose run never ended (crash, timeout, lost) gives each invariant an <error>, since
 * none of them was decided. Each failure's body is the replay command. No timings: the file's bytes are
 * as reproducible as sweep.json's.
 */
export function sweepJunit(sweep: SweepResult): string {
  const names = sweep.invariants.map((i) => i.name);
  const replays = new Map(sweep.failures.map((f) => [f.seed, f.replay]));
  const suites = sweep.results.map((r) =>
    seedSuite(sweep.scenario.name, r, names.length > 0 ? names : ['run'], replays.get(r.seed) ?? ''),
  );
  const tests = suites.reduce((n, s) => n + s.tests, 0);
  const failures = suites.reduce((n, s) => n + s.failures, 0);
  const errors = suites.reduce((n, s) => n + s.errors, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`agent-chess-sim sweep ${sweep.scenario.name} seeds ${sweep.seeds.spec}`)}" tests="${tests}" failures="${failures}" errors="${errors}">`,
    ...suites.map((s) => s.text),
    '</testsuites>',
    '',
  ].join('\n');
}

interface Suite {
  text: string;
  tests: number;
  failures: number;
  errors: number;
}

function seedSuite(scenario: string, r: SeedResult, names: readonly string[], replay: string): Suite {
  const classname = `${scenario}.seed-${r.seed}`;
  const cases =
    r.metrics === null
      ? names.map((name) => errorCase(classname, name, r, replay))
      : r.invariants.map((i) => invariantCase(classname, i, replay));
  const failures = r.metrics === null ? 0 : r.invariants.filter((i) => !i.passed).length;
  const errors = r.metrics === null ? cases.length : 0;
  const head = `  <testsuite name="${xml(`${scenario} seed ${r.seed}`)}" tests="${cases.length}" failures="${failures}" errors="${errors}">`;
  return { text: [head, ...cases, '  </testsuite>'].join('\n'), tests: cases.length, failures, errors };
}

function invariantCase(classname: string, i: SeedResult['invariants'][number], replay: string): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(i.name)}"`;
  if (i.passed) return `${open}/>`;
  const message = `broke ${i.violations} time(s); first: ${i.first_violation ?? '?'}`;
  return `${open}>\n      <failure message="${xml(message)}" type="invariant">${xmlText(`replay: ${replay}`)}</failure>\n    </testcase>`;
}

function errorCase(classname: string, name: string, r: SeedResult, replay: string): string {
  const message = `${r.status.replace('_', ' ')}: ${r.error ?? 'no detail'}`;
  return `    <testcase classname="${xml(classname)}" name="${xml(name)}">\n      <error message="${xml(message)}" type="${r.status}">${xmlText(`replay: ${replay}`)}</error>\n    </testcase>`;
}
