import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildRulesetCompare, type RulesetCompareIdentity } from '../../src/compare/ruleset-compare.js';
import { rulesetHtml } from '../../src/compare/ruleset-html.js';
import { agentHtml, pairHistory } from '../../src/compare/agent-html.js';
import type { AgentCompare } from '../../src/compare/match-output.js';
import { pairsLlr, sprtLimits } from '../../src/rules/chess/sprt.js';
import type { Metrics } from '../../src/sweep/outputs/metrics.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

/**
 * compare.html of a ruleset compare, from made-up per-seed metrics: a forest plot with one interval per
 * moving metric (the flagged ones red), and in Chromium no console error and no request.
 */
const N = 10;
const identity: RulesetCompareIdentity = {
  tool: 'agent-chess-sim',
  version: '0.0.0-test',
  scenario: { name: 'made-up', file: 'made-up.yaml', sha256: 'x', duration_ms: 6 * 3_600_000 },
  seeds: { spec: `1..${N}`, count: N },
  sides: [
    { name: 'a', file: 'default', overrides: null, sha256: 'a' },
    { name: 'b', file: 'b.yaml', overrides: {}, sha256: 'b' },
  ],
};
const noise = [3, -1, 4, -1, -5, 9, -2, 6, -5, 3];
const sideA = (i: number): Metrics => ({ agents: 6, moves: 100 + i, likes: 50 + noise[i]! });
const sideB = (i: number): Metrics => ({
  agents: 6,
  moves: 130 + i + (i % 3),
  likes: 50 + noise[(i + 3) % N]!,
});
const result = (seed: number, metrics: Metrics, side: string): SeedResult => ({
  seed,
  status: 'passed',
  fingerprint: `${side}${seed}`,
  invariants: [],
  metrics,
  error: null,
});
const seeds = Array.from({ length: N }, (_, i) => i);
const c = buildRulesetCompare(
  identity,
  seeds.flatMap((i) => [result(i + 1, sideA(i), 'a'), result(i + 1, sideB(i), 'b')]),
);
const html = rulesetHtml(c);

describe('compare.html for rulesets', () => {
  it('draws a forest plot of the moving metrics beside the table', () => {
    expect(html).toContain('Mean paired difference b − a, % of a, with its interval');
    expect(html.indexOf('<figure class="chart">')).toBeLessThan(html.indexOf('<table class="metrics">'));
    expect(rulesetHtml(c)).toBe(html);
  });
});

/** A made-up agent duel: four pairs, the third void, A scoring 1.5, 2, -, 1 of 2. */
const bounds = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };
const game = (result: string) => ({ white: 'a', black: 'b', result, ending: 'checkmate' });
const pair = (seed: number, scores: [number, number] | null) => ({
  seed,
  opponent: null,
  games: [game('1-0'), game('0-1')],
  scores,
  void: scores ? null : 'the duel game did not finish inside the world',
  broken: [],
});
const duel = {
  version: '0.0.0-test',
  agents: { a: { name: 'a', written: 'a.mjs' }, b: { name: 'b', written: 'random' } },
  sprt: { ...bounds, ...sprtLimits(bounds) },
  decision: null,
  llr: 0,
  pairs: { played: 4, counted: 3, void: 1 },
  games: { wins: 3, draws: 3, losses: 0, total: 6 },
  elo: null,
  seeds_played: '1..4',
  results: [pair(1, [1, 0.5]), pair(2, [1, 1]), pair(3, null), pair(4, [0.5, 0.5])],
} as unknown as AgentCompare;
const FOOLS_MATE =
  '[Event "duel"]\n[White "b"]\n[Black "a"]\n[Result "0-1"]\n[EndReason "checkmate"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n';
const agentPage = agentHtml(duel, `${FOOLS_MATE}\n${FOOLS_MATE}`);

describe('compare.html for agents', () => {
  it('recomputes the LLR after each counted pair as the match took them, void pairs skipped', () => {
    const history = pairHistory(duel);
    expect(history.map((p) => p.pair)).toEqual([1, 2, 3]);
    expect(history.map((p) => p.score)).toEqual([0.75, 0.875, 0.75]);
    const counts = { lossLoss: 0, lossDraw: 0, even: 1, winDraw: 1, winWin: 1 };
    expect(history[2]!.llr).toBeCloseTo(pairsLlr(counts, bounds), 4);
    expect(agentPage).toContain('no decision after 4 pairs (3 counted)');
  });
});

describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true')(
  'compare.html in headless Chromium',
  () => {
    it('renders an interval per moving metric, with no console error and no request', async () => {
      const dir = resolve('reports/browser');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'compare.html');
      writeFileSync(file, html);
      const profile = mkdtempSync(join(tmpdir(), 'acs-chromium-'));
      const context = await launchChromium(profile, { width: 1400, height: 900 });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        const problems: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('request', (r) => requests.push(r.url()));
        const url = pathToFileURL(file).href;
        await page.goto(url, { waitUntil: 'load' });
        // moves and likes move (agents never does): two interval rules, two points, moves in red.
        expect(await page.locator('figure.chart .mark-rule.role-mark line').count()).toBe(3);
        expect(await page.locator('figure.chart .mark-symbol.role-mark path').count()).toBe(2);
        expect(await page.locator('figure.chart .mark-symbol.role-mark path[fill="#c62828"]').count()).toBe(
          1,
        );
        await page.screenshot({ path: join(dir, 'compare.png') });

        // The agent duel's page: the LLR and score lines over 3 counted pairs, and the viewer on its games.
        const agentFile = join(dir, 'compare-agents.html');
        writeFileSync(agentFile, agentPage);
        const agentUrl = pathToFileURL(agentFile).href;
        await page.goto(agentUrl, { waitUntil: 'load' });
        await page.waitForSelector('#game-viewer cg-board piece');
        expect(await page.locator('figure.chart .mark-line.role-mark path').count()).toBe(2);
        expect(await page.locator('#game-picker option').count()).toBe(2);
        expect(problems).toEqual([]);
        expect(requests.filter((r) => r !== url && r !== agentUrl)).toEqual([]);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    });
  },
);
