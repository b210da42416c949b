import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSweep } from '../../src/sweep/sweep-result.js';
import { sweepFiles } from '../../src/sweep/outputs/outputs.js';
import { fakeIdentity, fakeResult } from './synthetic.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

/**
 * sweep.html from made-up seed results (test/sweep/synthetic.ts): one function of the sweep, whatever
 * order the results arrive in (workers, shards, the queue), failing seeds first with their replay
 * commands, and in Chromium a 100-seed page with no console error, no request and a bounded height.
 */
const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);
const kindOf = (seed: number) =>
  seed % 37 === 0 ? ('failed' as const) : seed === 50 ? ('crashed' as const) : ('passed' as const);
const results = SEEDS.map((seed) => fakeResult(seed, kindOf(seed), 100 + ((seed * 53) % 97)));
const sweep = buildSweep(fakeIdentity(SEEDS), results);
const html = sweepFiles(sweep)['sweep.html']!;

describe('sweep.html', () => {
  it('is written beside sweep.json, the same bytes whatever order the seeds finished in', () => {
    const shuffled = [...results].reverse();
    expect(sweepFiles(buildSweep(fakeIdentity(SEEDS), shuffled))['sweep.html']).toBe(html);
    expect(Object.keys(sweepFiles(sweep))[0]).toBe('sweep.json');
  });

  it('lists the failing seeds first, each broken cell linking to its replay command', () => {
    const grid = html.slice(html.indexOf('<section id="invariants">'));
    const firstRows = [...grid.matchAll(/<tr><th class="num">(?:<a href="#seed-\d+">)?(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(firstRows.slice(0, 3)).toEqual([37, 50, 74]);
    expect(grid).toContain(
      '<td class="cell broke" title="broke: game g1: 3 + -2 != 0 &lt;&amp;&gt;"><a href="#seed-37">✗</a></td>',
    );
    expect(html).toMatch(/<tr id="seed-37" class="failed">.*<code>[^<]*--seed 37[^<]*<\/code>/);
    expect(html).toContain('<summary>97 seeds that passed</summary>');
  });

  it('draws each headline metric the seeds have over the seeds that ran to the end', () => {
    expect(html).toContain('<h3>moves</h3>');
    expect(html).toContain('n 99 · mean');
    expect(html).not.toMatch(/https?:\/\//);
  });
});

const runBrowser = existsSync(CHROMIUM) || process.env.CI === 'true';

describe.skipIf(!runBrowser)('sweep.html in headless Chromium', () => {
  it('renders 100 seeds with no console error, no request and a bounded height', async () => {
    const dir = resolve('reports/browser');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'sweep.html');
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
      expect(await page.locator('figure.chart svg').count()).toBeGreaterThanOrEqual(2);
      expect(await page.evaluate<number>('document.documentElement.scrollHeight')).toBeLessThan(20_000);
      await page.click('td.broke a');
      await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#seed-37');
      await page.screenshot({ path: join(dir, 'sweep.png') });
      expect(problems).toEqual([]);
      expect(requests.filter((r) => r.split('#')[0] !== url)).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
