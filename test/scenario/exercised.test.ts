import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';
import { InvariantSuite } from '../../src/sim/invariants/invariants.js';
import { BUILT_IN_INVARIANTS, statusCounts } from '../../src/sim/invariants/exercised.js';
import { renderRunReport, type ReportText } from '../../src/report/write.js';
import { TestWorld } from '../helpers/world.js';

/**
 * Exercised or not: an invariant that ran no check is "not exercised" in every report, and a scenario may
 * require invariants to be exercised. The run: random players for one virtual hour, so chess invariants
 * run checks while escrow, bounty, tournament and reply invariants see nothing to check.
 */
const NO_TIMEOUTS = fileURLToPath(new URL('../../examples/invariants/no-timeouts.mjs', import.meta.url));
const REPLAY = 'npx agent-chess-sim run exercised.yaml --seed 3';

function scenarioText(extra = ''): string {
  return `name: exercised
seed: 3
start: 2026-01-01T00:00:00Z
duration: 1h
${extra}
population:
  - persona: random
    count: 6
    heartbeat: { min: 30s, max: 60s }
`;
}

async function render(extra = '') {
  const scenario = parseScenario(scenarioText(extra), 'exercised.yaml');
  const outcome = await new World(scenario).run();
  return { outcome, ...renderRunReport(scenario, outcome, { replay: REPLAY }) };
}

/** A file's text; report.html comes in pieces. */
function text(file: ReportText | undefined): string {
  if (file === undefined) throw new Error('expected the file');
  return typeof file === 'string' ? file : [...file].join('');
}

function problemsOf(yaml: string): string[] {
  try {
    parseScenario(yaml, 'exercised.yaml');
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems;
    throw error;
  }
  return [];
}

describe('invariants that ran no check', () => {
  it('the built-in names the scenario is checked against are the suite’s own, in its order', () => {
    const suite = new InvariantSuite(new TestWorld().platform);
    expect([...suite.names]).toEqual(BUILT_IN_INVARIANTS);
  });

  it('read "not exercised" in report.json, summary.md and junit.xml (a <skipped> with its reason), and the run still passes', async () => {
    const { report, files } = await render();
    const idle = report.invariants.filter((i) => i.checks === 0).map((i) => i.name);
    const held = report.invariants.filter((i) => i.checks > 0).map((i) => i.name);
    expect(idle).toEqual(
      expect.arrayContaining(['escrow_settles_once', 'bounty_fees_exact', 'tournament_brackets']),
    );
    expect(held).toEqual(expect.arrayContaining(['elo_conservation', 'one_result_per_game']));
    for (const inv of report.invariants) expect(inv.status).toBe(inv.checks === 0 ? 'not_exercised' : 'held');
    expect(report.passed).toBe(true);
    expect(report.required_not_exercised).toEqual([]);

    const summary = text(files.get('summary.md'));
    expect(summary).toContain(
      `**Passed**: ${report.invariants.length} invariants: ${held.length} held, ${idle.length} not exercised.`,
    );
    for (const name of idle) expect(summary).toContain(`| ${name} | not exercised | 0 |`);

    const junit = text(files.get('junit.xml'));
    expect(junit).toContain(
      `<testsuite name="exercised" tests="${report.invariants.length}" failures="0" errors="0" skipped="${idle.length}">`,
    );
    for (const name of idle)
      expect(junit).toContain(
        `<testcase name="${name}" classname="exercised">\n      <skipped message="not exercised: 0 checks ran"/>\n    </testcase>`,
      );
    for (const name of held) expect(junit).toContain(`<testcase name="${name}" classname="exercised"/>`);

    const html = text(files.get('report.html'));
    expect(html).toContain(`invariants: ${held.length} held, ${idle.length} not exercised`);
  });

  it('a required invariant that ran no check fails the run, saying which and why in every file', async () => {
    const { outcome, report, files } = await render(
      'requireExercised: [escrow_settles_once, elo_conservation]',
    );
    expect(outcome.failed).toBe(true);
    expect(outcome.requiredNotExercised).toEqual(['escrow_settles_once']);
    expect(report.passed).toBe(false);
    expect(report.required_not_exercised).toEqual([
      {
        name: 'escrow_settles_once',
        message: 'required invariant escrow_settles_once was not exercised: 0 checks ran',
      },
    ]);
    const escrow = report.invariants.find((i) => i.name === 'escrow_settles_once')!;
    expect(escrow).toMatchObject({ status: 'not_exercised', required: true, passed: true });
    expect(report.invariants.find((i) => i.name === 'elo_conservation')).toMatchObject({
      status: 'held',
      required: true,
    });

    const summary = text(files.get('summary.md'));
    expect(summary).toMatch(
      /\*\*FAILED\*\*: 14 invariants: \d+ held, \d+ not exercised; required invariant escrow_settles_once was not exercised: 0 checks ran\./,
    );
    expect(summary).toContain('| escrow_settles_once | **not exercised** (required) | 0 |');

    const junit = text(files.get('junit.xml'));
    expect(junit).toMatch(/<testsuite name="exercised" tests="14" failures="1" errors="0" skipped="\d+">/);
    expect(junit).toContain(
      `<testcase name="escrow_settles_once" classname="exercised">\n      <failure message="required invariant escrow_settles_once was not exercised: 0 checks ran" type="not_exercised">`,
    );
    expect(text(files.get('report.html'))).toContain('required, not exercised: escrow_settles_once');
  });

  it('`all` requires every invariant the run checks, user invariants included', async () => {
    const { outcome } = await render(`requireExercised: all\ninvariants:\n  - module: ${NO_TIMEOUTS}`);
    const idle = outcome.invariants.filter((i) => i.checks === 0).map((i) => i.name);
    expect(idle.length).toBeGreaterThan(0);
    expect(outcome.requiredNotExercised).toEqual(idle);
    expect(outcome.failed).toBe(true);
  });

  it('counts statuses as reports lead with them', () => {
    expect(statusCounts(['held', 'not_exercised', 'held'])).toBe('2 held, 1 not exercised');
    expect(statusCounts(['held', 'broken'])).toBe('1 held, 1 broken');
    expect(statusCounts([])).toBe('0 held');
  });
});

describe('requireExercised is checked with the scenario', () => {
  it('refuses an unknown name in one line naming the field and the known names, and a value that is no list', () => {
    expect(problemsOf(scenarioText('requireExercised: [escrow_settles_once, escrow_once]'))).toEqual([
      `requireExercised: unknown invariant escrow_once (the run checks ${BUILT_IN_INVARIANTS.join(', ')})`,
    ]);
    expect(problemsOf(scenarioText('requireExercised: yes'))).toEqual([
      'requireExercised: must be a list of invariant names, e.g. [escrow_settles_once, bounty_fees_exact], or all',
    ]);
    expect(problemsOf(scenarioText('requireExercised: [escrow_settles_once]'))).toEqual([]);
  });

  it('lets a scenario with invariant modules name theirs, and refuses a name none of them has once they load', async () => {
    const modules = `invariants:\n  - module: ${NO_TIMEOUTS}`;
    const mine = parseScenario(scenarioText(`requireExercised: [no_timeouts]\n${modules}`), 'exercised.yaml');
    expect(mine.requireExercised).toEqual(['no_timeouts']);
    const typo = parseScenario(scenarioText(`requireExercised: [no_timeout]\n${modules}`), 'exercised.yaml');
    const world = new World(typo);
    await expect(world.populate()).rejects.toThrow(ScenarioError);
    await expect(new World(typo).populate()).rejects.toThrow(
      /requireExercised: unknown invariant no_timeout \(the run checks elo_conservation, .*, no_timeouts\)/,
    );
  });
});
