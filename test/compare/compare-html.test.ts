import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildRulesetCompare, type RulesetCompareIdentity } from '../../src/compare/ruleset-compare.js';
import { rulesetHtml } from '../../src/compare/ruleset-html.js';
import type { Metrics } from '../../src/sweep/outputs/metrics.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';

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

const CHROMIUM = '/usr/bin/chromium';
describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true')(
  'compare.html in headless Chromium',
  () => {
    it('renders an interval per moving metric, with no console error and no request', async () => {
      const dir = resolve('reports/browser');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'compare.html');
      writeFileSync(file, html);
      const profile = mkdtempSync(join(tmpdir(), 'acs-chromium-'));
      const { chromium } = await import('playwright-core');
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1400, height: 900 },
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
        ],
      });
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
        expect(problems).toEqual([]);
        expect(requests.filter((r) => r !== url)).toEqual([]);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    });
  },
);
