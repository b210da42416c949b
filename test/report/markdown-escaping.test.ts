import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mdCell, mdCode, mdFence, mdText } from '../../src/report/markdown.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';
import { buildReport } from '../../src/report/report.js';
import { summaryMarkdown } from '../../src/report/summary-md.js';
import { sweepSummary } from '../../src/sweep/outputs/summary.js';
import { buildSweep, sweepIdentity } from '../../src/sweep/sweep-result.js';
import { fakeResult } from '../sweep/synthetic.js';
import { MatchTally, planMatch, type MatchSetup } from '../../src/compare/agent-match.js';
import { agentMarkdown, buildAgentCompare } from '../../src/compare/match-output.js';
import { parsePlayer, type PlayerSpec } from '../../src/compare/players.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';
import { buildRulesetCompare } from '../../src/compare/ruleset-compare.js';
import { rulesetMarkdown } from '../../src/compare/ruleset-text.js';

/**
 * summary.md and a sweep's summary.md are rendered by CI (GitHub's step summary): a scenario name, an agent
 * file name or an invariant message must come out as the text it is, never as HTML, a link, emphasis or an
 * extra table column (issue 25).
 */
const HTML = '<img src=x onerror=alert(1)>';
const LINK = '| ** [x](javascript:alert(1))';

/** Characters the escaping must never leave bare (an underscore is checked apart: see intrawordUnderscore). */
const SPECIAL = new Set(['\\', '`', '*', '[', ']', '<', '>', '&', '~', '$']);

/**
 * The text CommonMark shows for `markdown` made only of plain characters and backslash escapes, or
 * undefined when a special character stands bare (it could open markup). Pipes are checked by the caller.
 */
function shownText(markdown: string): string | undefined {
  let out = '';
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown[i]!;
    if (c === '\\') {
      out += markdown[++i] ?? '\\';
      continue;
    }
    if (SPECIAL.has(c)) return undefined;
    if (c === '_' && !intrawordUnderscore(markdown, i)) return undefined;
    out += c;
  }
  return out;
}

/** What is left of Markdown for a renderer to read as markup: code spans and backslash escapes removed. */
function bare(markdown: string): string {
  return markdown.replace(/(`+)[^`]*?\1/g, '').replace(/\\./g, '');
}

function intrawordUnderscore(text: string, i: number): boolean {
  const word = /[\p{L}\p{N}]/u;
  return word.test(text[i - 1] ?? '') && word.test(text[i + 1] ?? '');
}

describe('mdText, mdCell, mdCode', () => {
  it('shows HTML and link syntax as text', () => {
    expect(mdText(HTML)).toBe('\\<img src=x onerror=alert(1)\\>');
    expect(mdCell(LINK)).toBe('\\| \\*\\* \\[x\\](javascript:alert(1))');
    expect(mdText('elo_conservation _x_ a\nb')).toBe('elo_conservation \\_x\\_ a b');
    expect(mdCode('a `b` c')).toBe('``a `b` c``');
    expect(mdCode('`x')).toBe('`` `x ``');
  });

  it('any string: one line, no bare markup character, and CommonMark shows it exactly (line breaks as spaces)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), fc.string(), (ascii, any) => {
        for (const text of [ascii, any, `${ascii}${HTML}${any}`]) {
          const md = mdCell(text);
          expect(md).not.toMatch(/[\r\n\u2028\u2029]/);
          // Every pipe is escaped: a cell stays one cell.
          expect(md.replace(/\\./g, '')).not.toContain('|');
          expect(shownText(md)).toBe(text.replace(/[\r\n\u2028\u2029]+/g, ' '));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any string as a code span: fenced by more backticks than any run inside, content kept', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', 'a', ' ', '<', '|') }), (text) => {
        const code = mdCode(text);
        const fence = /^`+/.exec(code)![0];
        expect(code.endsWith(fence)).toBe(true);
        const inner = code.slice(fence.length, code.length - fence.length);
        for (const run of inner.match(/`+/g) ?? []) expect(run.length).toBeLessThan(fence.length);
        const padded = text.startsWith('`') || text.endsWith('`');
        expect(padded ? inner.slice(1, -1) : inner).toBe(text);
        const block = mdFence([text, '```']);
        expect(block[0]!.length).toBeGreaterThan(3);
      }),
      { numRuns: 200 },
    );
  });
});

describe('summary.md of a run and of a sweep', () => {
  it('escapes the scenario name, the group names and the replay command of a run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-escape-'));
    const agentFile = `${HTML}.mjs`;
    copyFileSync(resolve('test/fixtures/agents/random-mover.mjs'), join(dir, agentFile));
    const text = [
      `name: "${HTML} ${LINK}"`,
      'seed: 3',
      'start: 2026-01-01T00:00:00Z',
      'duration: 20m',
      'population:',
      '  - persona: random',
      '    count: 3',
      '    heartbeat: { min: 20s, max: 40s }',
      `  - module: "./${agentFile}"`,
      '    count: 1',
      '    heartbeat: { min: 20s, max: 40s }',
    ].join('\n');
    const scenario = parseScenario(text, join(dir, 's.yaml'), undefined, dir);
    const report = buildReport(scenario, await new World(scenario).run());
    const md = summaryMarkdown(report, { replay: 'npx agent-chess-sim run `x`.yaml --seed 3' });
    expect(bare(md)).not.toContain('<');
    expect(bare(md)).not.toContain('](');
    expect(md).toContain(
      '## agent-chess-sim: \\<img src=x onerror=alert(1)\\> | \\*\\* \\[x\\](javascript:alert(1))',
    );
    // Group names are the scenario's paths (population[1]); `run --agent` names the scenario after the agent's file.
    expect(md).toContain('| population\\[1\\] | byo_random | 1 |');
    expect(md).toContain('Replay: ``npx agent-chess-sim run `x`.yaml --seed 3``');
    for (const row of md.split('\n').filter((line) => line.startsWith('|')))
      expect(row.replace(/\\./g, '').split('|').length, row).toBeGreaterThan(2);
  });

  it('escapes the scenario name and path, a failure message and the replay command of a sweep', () => {
    const failed = fakeResult(2, 'failed');
    failed.invariants[0]!.first_violation = `${HTML} ${LINK}`;
    const identity = sweepIdentity('0.1.0', { name: HTML, file: `s/${LINK}.yaml`, text: 'x' }, [1, 2]);
    const md = sweepSummary(buildSweep(identity, [fakeResult(1), failed]));
    expect(md).toContain('## agent-chess-sim sweep: \\<img src=x onerror=alert(1)\\>, seeds 1,2');
    expect(md).toContain('Scenario `s/| ** [x](javascript:alert(1)).yaml` (sha256');
    expect(bare(md)).not.toMatch(/<|\]\(/);
    const row = md.split('\n').find((line) => line.startsWith('| 2 |'))!;
    // seed, status, reason, replay: four cells whatever the names hold.
    expect(row.replace(/\\./g, '').split('|').length).toBe(6);
    expect(row).toContain('first: \\<img src=x onerror=alert(1)\\> \\| \\*\\* \\[x\\](javascript:alert(1))');
  });

  it('escapes the agent names of compare --agent (a file name is an agent name) in compare.md', () => {
    const named = (word: string, name: string): PlayerSpec => ({
      ...(parsePlayer(word, '--agent', process.cwd()) as PlayerSpec),
      name,
    });
    const setup: MatchSetup = {
      a: named('greedy', HTML),
      b: named('random', LINK),
      vs: [],
      bounds: { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 },
      seeds: [1],
    };
    const { pairs, tasks } = planMatch(setup);
    const tally = new MatchTally(setup, pairs);
    const won = (seed: number, white: boolean): SeedResult => ({
      seed,
      status: 'passed',
      fingerprint: `sha256:${'0'.repeat(64)}`,
      invariants: [],
      metrics: {
        games_started: 1,
        games_completed: 1,
        [white ? 'white_wins' : 'black_wins']: 1,
        ending_checkmate: 1,
      },
      error: null,
    });
    tasks.forEach((t, i) => tally.accept(i, won(t.seed, i === 0)));
    const md = agentMarkdown(buildAgentCompare('0.1.0', setup, tally), setup, tally);
    expect(md).toContain(
      '## agent-chess-sim compare: \\<img src=x onerror=alert(1)\\> vs | \\*\\* \\[x\\](javascript:alert(1))',
    );
    const outsideCode = md.replace(/^(`{3,})\n[\s\S]*?\n\1$/m, '');
    expect(bare(outsideCode)).not.toMatch(/<|\]\(/);
    // seed, opponent, games, score, note: five cells whatever the names hold.
    const row = md.split('\n').find((line) => line.startsWith('| 1 |'))!;
    expect(row.replace(/\\./g, '').split('|')).toHaveLength(7);
  });

  it('escapes the scenario and the ruleset file names of compare --ruleset in compare.md', () => {
    const run = (seed: number, moves: number): SeedResult => ({
      seed,
      status: 'passed',
      fingerprint: `sha256:${String(moves).padStart(64, '0')}`,
      invariants: [],
      metrics: { moves },
      error: null,
    });
    const c = buildRulesetCompare(
      {
        tool: 'agent-chess-sim',
        version: '0.1.0',
        scenario: { name: HTML, file: `${LINK}.yaml`, sha256: 'x', duration_ms: 3_600_000 },
        seeds: { spec: '1,2', count: 2 },
        sides: [
          { name: HTML, file: `${HTML}.yaml`, overrides: { note: '`x`' }, sha256: 'a' },
          { name: LINK, file: `${LINK}.yaml`, overrides: {}, sha256: 'b' },
        ],
      },
      [run(1, 10), run(1, 30), run(2, 11), run(2, 35)],
    );
    const md = rulesetMarkdown(c);
    expect(md).toContain('## agent-chess-sim compare: \\<img src=x onerror=alert(1)\\>, seeds 1,2');
    expect(md).toContain(
      'Side a **\\<img src=x onerror=alert(1)\\>** (`<img src=x onerror=alert(1)>.yaml`: ``{"note":"`x`"}``)',
    );
    expect(bare(md)).not.toMatch(/<|\]\(/);
    const header = md.split('\n').find((line) => line.startsWith('| metric |'))!;
    // metric, a, b, b - a, change, interval, effect, p, detectable, flag: ten cells whatever the names hold.
    expect(header.replace(/\\./g, '').split('|')).toHaveLength(12);
  });
});
