import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';
import { renderRunReport, type ReportText } from '../../src/report/write.js';
import { junitXml, xml } from '../../src/report/junit.js';
import { summaryMarkdown } from '../../src/report/summary-md.js';
import { buildReport, type Report } from '../../src/report/report.js';

/** A small run: random players and one slow one (it times out now and then), 3 virtual hours. */
const SCENARIO = `name: outputs
seed: 11
start: 2026-01-01T00:00:00Z
duration: 3h
population:
  - persona: random
    count: 6
    heartbeat: { min: 20s, max: 40s }
  - persona: slow
    count: 2
    heartbeat: { min: 20s, max: 40s }
    options: { lateChance: 0.05 }
`;
const REPLAY = 'npx agent-chess-sim run outputs.yaml --seed 11';

async function render() {
  const scenario = parseScenario(SCENARIO, 'outputs.yaml');
  const outcome = await new World(scenario).run();
  return { scenario, outcome, ...renderRunReport(scenario, outcome, { replay: REPLAY }) };
}

/** The first run, shared by the tests that only read it. */
let firstRun: ReturnType<typeof render> | undefined;
const rendered = () => (firstRun ??= render());

/**
 * A strict enough well-formedness check for the XML we write: one prolog, elements properly nested,
 * attributes quoted, text and attribute values holding only the five named entities or character references.
 */
function expectWellFormedXml(text: string): void {
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = text.slice(text.indexOf('\n') + 1);
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let consumed = 0;
  for (let m = token.exec(body); m !== null; m = token.exec(body)) {
    consumed = token.lastIndex;
    const [, closing, name, attributes, selfClosing, textRun] = m;
    const chars = textRun ?? attributes ?? '';
    expect(chars.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, '')).not.toMatch(/[&<]/);
    if (textRun !== undefined) {
      if (stack.length === 0) expect(textRun.trim()).toBe('');
    } else if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name!);
  }
  expect(consumed).toBe(body.length);
  expect(stack).toEqual([]);
}

/** A file rendered as one string (every file but report.html, which is written in pieces). */
function wholeText(text: ReportText | undefined): string {
  if (typeof text !== 'string') throw new Error('expected the whole text of the file');
  return text;
}

describe('junit.xml and summary.md', () => {
  it('are byte-identical across two runs of one seed, well-formed, one test case per invariant', async () => {
    const first = await rendered();
    const second = await render();
    for (const name of ['junit.xml', 'summary.md', 'report.json', 'games.pgn'] as const)
      expect(second.files.get(name)).toBe(first.files.get(name));
    const junit = wholeText(first.files.get('junit.xml'));
    expectWellFormedXml(junit);
    const cases = [...junit.matchAll(/<testcase name="([^"]+)" classname="outputs"/g)].map((m) => m[1]);
    expect(cases).toEqual(first.report.invariants.map((i) => i.name));
    expect(junit).toContain(`<property name="replay" value="${REPLAY}"/>`);
    const summary = wholeText(first.files.get('summary.md'));
    expect(summary).toMatch(
      /^## agent-chess-sim: outputs \(seed 11\)\n\n\*\*Passed\*\*: 14 invariants: \d+ held, \d+ not exercised\./,
    );
    expect(summary).toContain('### Verdicts: groups (2)');
    // Group names come from the scenario: Markdown punctuation in them is escaped (renders as written).
    expect(summary).toContain('| population\\[1\\] | slow | 2 |');
    expect(summary).toContain(`Replay: \`${REPLAY}\``);
    for (const inv of first.report.invariants)
      expect(summary).toContain(
        `| ${inv.name} | ${inv.checks > 0 ? 'ok' : 'not exercised'} | ${inv.checks} |`,
      );
  });

  it('writes a broken invariant as a failure with its message, the seed and the replay command', async () => {
    const { report: passed } = await rendered();
    const report = withBrokenInvariant(passed);
    const junit = junitXml(report, { replay: REPLAY });
    expectWellFormedXml(junit);
    expect(junit).toContain('failures="1"');
    expect(junit).toContain(
      '<failure message="elo_conservation broke 2 time(s); first: ratings drift by 1 &lt;&amp;&gt; &quot;x&quot;" type="invariant">1970-01-01T00:00:00.005Z (event 9): ratings drift by 1 &lt;&amp;&gt; "x"\n1970-01-01T00:00:00.006Z (event 12): again\nseed: 11\nreplay: npx agent-chess-sim run outputs.yaml --seed 11</failure>',
    );
    const summary = summaryMarkdown(report, { replay: REPLAY });
    expect(summary).toContain('**FAILED**');
    expect(summary).toContain(
      '| elo_conservation | **FAILED** 2 time(s): ratings drift by 1 \\<\\&\\> "x" |',
    );
  });

  it('adds the ledger cross-check as a test case when the run made one', async () => {
    const { report } = await rendered();
    const junit = junitXml(report, {
      replay: REPLAY,
      crossCheck: { passed: false, line: 'litesvm: balances differ' },
    });
    expectWellFormedXml(junit);
    expect(junit).toMatch(
      /<testcase name="ledger_cross_check" classname="outputs">\n\s+<failure message="litesvm: balances differ"/,
    );
  });

  it('escapes what XML cannot hold', () => {
    expect(xml('a\u0000b\u001bc\ttab\nline "q" <&>')).toBe(
      'a\uFFFDb\uFFFDc&#9;tab&#10;line &quot;q&quot; &lt;&amp;&gt;',
    );
  });
});

function withBrokenInvariant(report: Report): Report {
  const [first, ...rest] = report.invariants;
  const broken = {
    ...first!,
    name: 'elo_conservation',
    passed: false,
    violationCount: 2,
    violations: [
      { t: 5, event: 9, message: 'ratings drift by 1 <&> "x"' },
      { t: 6, event: 12, message: 'again' },
    ],
  };
  return { ...report, invariants: [broken, ...rest], passed: false };
}

// buildReport is what renderRunReport writes as report.json: the verdicts ride along in it.
describe('report.json', () => {
  it('carries the verdicts', async () => {
    const { scenario, outcome, report: written } = await rendered();
    const report = buildReport(scenario, outcome);
    expect(report).toEqual(written);
    expect(report.verdicts.agents).toHaveLength(8);
    expect(report.verdicts.groups.map((g) => [g.group, g.persona, g.agents])).toEqual([
      ['population[0]', 'random', 6],
      ['population[1]', 'slow', 2],
    ]);
    const finished = report.counts.games_completed;
    expect(report.verdicts.agents.reduce((s, a) => s + a.games, 0)).toBe(2 * finished);
    const timeouts = report.results_by_ending.timeout;
    expect(report.verdicts.agents.reduce((s, a) => s + a.timeouts, 0)).toBe(timeouts);
    for (const a of report.verdicts.agents) {
      expect(a.requests_limit).toBe(5000);
      expect(a.requests_max_per_day).toBeGreaterThan(0);
      expect(Object.values(a.refused).reduce((s, n) => s + n, 0)).toBeLessThanOrEqual(
        report.requests.rejected,
      );
    }
    const refusedByAgents = report.verdicts.agents.reduce(
      (s, a) => s + Object.values(a.refused).reduce((x, n) => x + n, 0),
      0,
    );
    expect(refusedByAgents).toBe(report.requests.rejected); // every request of this run comes from an agent
  });
});
