import type { AgentMatch } from './agent-match.js';
import type { Report } from './report.js';
import { notExercisedLine } from '../sim/invariants/exercised.js';

/**
 * junit.xml for CI test panels: one test suite (the scenario), one test case per invariant, and one for
 * the litesvm cross-check when the run made it. A broken invariant's `<failure>` carries its message, the
 * seed and the command that replays the run. An invariant that ran no check is `<skipped>`: it was never
 * put to the test, so counting it as passed would overstate the run (a `<failure>` when the scenario
 * required it). No timestamps or durations: a seed gives the same bytes.
 */
export interface RunContext {
  /** The command that replays this run (without `--out`, so two runs into two folders give the same bytes). */
  replay: string;
  /** The litesvm cross-check's one-line result, when the run made one. */
  crossCheck?: { passed: boolean; line: string };
  /** `run --agent`'s match (src/report/agent-match.ts): report.json, summary.md and report.html show it first. */
  match?: AgentMatch;
}

interface Case {
  name: string;
  passed: boolean;
  /** For a failure: a one-line message, and the detail under it. */
  message?: string;
  detail?: string;
  /** For a passed case that tested nothing: why it is skipped. */
  skipped?: string;
  /** The failure's `type`: `invariant` unless said. */
  type?: string;
}

/** The reason a not-exercised invariant's `<skipped>` gives. */
export const NOT_EXERCISED_REASON = 'not exercised: 0 checks ran';

export function junitXml(report: Report, context: RunContext): string {
  const suite = report.scenario.name;
  const cases = testCases(report, context);
  const failures = cases.filter((c) => !c.passed).length;
  const skipped = cases.filter((c) => c.passed && c.skipped !== undefined).length;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="agent-chess-sim" ${counts}>`,
    `  <testsuite name="${xml(suite)}" ${counts}>`,
    '    <properties>',
    `      <property name="seed" value="${xml(report.scenario.seed)}"/>`,
    `      <property name="fingerprint" value="${xml(report.fingerprint)}"/>`,
    `      <property name="replay" value="${xml(context.replay)}"/>`,
    '    </properties>',
    ...cases.flatMap((c) => caseLines(c, suite)),
    '  </testsuite>',
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function testCases(report: Report, context: RunContext): Case[] {
  const seedAndReplay = `seed: ${report.scenario.seed}\nreplay: ${context.replay}`;
  const cases: Case[] = report.invariants.map((inv) => {
    if (inv.passed && inv.checks === 0) return notExercisedCase(inv, seedAndReplay);
    if (inv.passed) return { name: inv.name, passed: true };
    const first = inv.violations[0]?.message ?? '(no message kept)';
    const message = `${inv.name} broke ${inv.violationCount} time(s); first: ${first}`;
    const detail = [
      ...inv.violations.map((v) => `${new Date(v.t).toISOString()} (event ${v.event}): ${v.message}`),
      seedAndReplay,
    ].join('\n');
    return { name: inv.name, passed: false, message, detail };
  });
  const check = context.crossCheck;
  if (check)
    cases.push(
      check.passed
        ? { name: 'ledger_cross_check', passed: true }
        : {
            name: 'ledger_cross_check',
            passed: false,
            message: check.line,
            detail: `${check.line}\n${seedAndReplay}`,
          },
    );
  return cases;
}

function notExercisedCase(inv: Report['invariants'][number], seedAndReplay: string): Case {
  if (!inv.required) return { name: inv.name, passed: true, skipped: NOT_EXERCISED_REASON };
  const message = notExercisedLine(inv.name);
  return {
    name: inv.name,
    passed: false,
    type: 'not_exercised',
    message,
    detail: `${message}\n${seedAndReplay}`,
  };
}

function caseLines(c: Case, classname: string): string[] {
  const open = `    <testcase name="${xml(c.name)}" classname="${xml(classname)}"`;
  if (c.passed && c.skipped !== undefined)
    return [`${open}>`, `      <skipped message="${xml(c.skipped)}"/>`, '    </testcase>'];
  if (c.passed) return [`${open}/>`];
  return [
    `${open}>`,
    `      <failure message="${xml(c.message ?? '')}" type="${xml(c.type ?? 'invariant')}">${xmlText(c.detail ?? '')}</failure>`,
    '    </testcase>',
  ];
}

/**
 * XML escaping for element text. Characters XML 1.0 cannot hold at all (controls other than tab, LF and CR;
 * lone surrogates; U+FFFE, U+FFFF) become U+FFFD, so a message quoting odd input stays well-formed.
 */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Escaping for an attribute value in double quotes; line breaks and tabs as references, which attribute normalisation would otherwise turn into spaces. */
export function xml(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
