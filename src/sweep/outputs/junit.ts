import { xml, xmlText } from '../../report/junit.js';
import type { SweepResult } from '../sweep-result.js';
import { requiredNotExercised, type SeedResult } from '../seed-result.js';
import { NOT_EXERCISED_REASON } from '../../report/junit.js';
import { notExercisedLine } from '../../sim/invariants/exercised.js';

/**
 * junit.xml: one test suite per seed, one test case per seed x invariant. A broken invariant is a
 * <failure>; one that ran no check is <skipped> (a <failure> when the scenario requires it); a seed
 * whose run never ended (crash, timeout, lost) gives each invariant an <error>, since none of them was
 * decided. Each failure's body is the replay command. No timings: the file's bytes are as reproducible as
 * sweep.json's.
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
  const skipped = suites.reduce((n, s) => n + s.skipped, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`agent-chess-sim sweep ${sweep.scenario.name} seeds ${sweep.seeds.spec}`)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
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
  skipped: number;
}

function seedSuite(scenario: string, r: SeedResult, names: readonly string[], replay: string): Suite {
  const classname = `${scenario}.seed-${r.seed}`;
  const cases =
    r.metrics === null
      ? names.map((name) => errorCase(classname, name, r, replay))
      : r.invariants.map((i) => invariantCase(classname, i, replay));
  const ended = r.metrics === null ? [] : r.invariants;
  const failures = ended.filter((i) => !i.passed || requiredNotExercised(i)).length;
  const skipped = ended.filter((i) => i.passed && i.checks === 0 && !i.required).length;
  const errors = r.metrics === null ? cases.length : 0;
  const head = `  <testsuite name="${xml(`${scenario} seed ${r.seed}`)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`;
  const text = [head, ...cases, '  </testsuite>'].join('\n');
  return { text, tests: cases.length, failures, errors, skipped };
}

function invariantCase(classname: string, i: SeedResult['invariants'][number], replay: string): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(i.name)}"`;
  if (requiredNotExercised(i))
    return `${open}>\n      <failure message="${xml(notExercisedLine(i.name))}" type="not_exercised">${xmlText(`replay: ${replay}`)}</failure>\n    </testcase>`;
  if (i.passed && i.checks === 0)
    return `${open}>\n      <skipped message="${xml(NOT_EXERCISED_REASON)}"/>\n    </testcase>`;
  if (i.passed) return `${open}/>`;
  const message = `broke ${i.violations} time(s); first: ${i.first_violation ?? '?'}`;
  return `${open}>\n      <failure message="${xml(message)}" type="invariant">${xmlText(`replay: ${replay}`)}</failure>\n    </testcase>`;
}

function errorCase(classname: string, name: string, r: SeedResult, replay: string): string {
  const message = `${r.status.replace('_', ' ')}: ${r.error ?? 'no detail'}`;
  return `    <testcase classname="${xml(classname)}" name="${xml(name)}">\n      <error message="${xml(message)}" type="${r.status}">${xmlText(`replay: ${replay}`)}</error>\n    </testcase>`;
}
