import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { World, type RunOutcome } from '../../src/sim/world.js';
import { buildReport, type Report } from '../../src/report/report.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { pgnGameIndex, renderHtmlReport } from '../../src/report/html/index.js';
import { CHART_CONFIG, inlineSvg, renderVegaLite } from '../../src/report/html/vega.js';
import { reportScenario } from './report-scenario.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

/**
 * report.html, end to end: a short run with a tournament, bounties, social traffic and 429s is rendered,
 * checked as text (self-contained, byte-identical), then opened in Debian's headless Chromium through
 * playwright-core: every chart is an SVG with marks, the bracket and the viewer render, the viewer steps a
 * move and follows a bracket link, nothing is logged as an error and nothing is requested but the page.
 * A screenshot lands in reports/browser/report.png (ACS_UPDATE_SCREENSHOT=1 also copies it to
 * docs/images/report.png, the README's picture).
 *
 * Without /usr/bin/chromium the browser half is skipped locally and fails in CI (CI=true), where .ci/run
 * installs it.
 */
const OUT_DIR = resolve('reports/browser');
const hasChromium = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!hasChromium && !inCi)
  console.warn(`report.html browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

let report: Report;
let outcome: RunOutcome;
let pgn: string;
let html: string;

beforeAll(async () => {
  const scenario = reportScenario();
  const world = new World(scenario);
  outcome = await world.run();
  report = buildReport(scenario, outcome);
  pgn = gamesToPgn(outcome.platform, `agent-chess-sim: ${scenario.name}`);
  html = renderHtmlReport({ report, outcome, pgn });
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'report.html'), html);
});

describe('report.html as a file', () => {
  it('has something in every section the scenario exercises', () => {
    expect(report.tournaments.some((t) => t.status === 'completed')).toBe(true);
    expect(report.money.bounty_games.settled).toBeGreaterThan(0);
    expect(Object.keys(report.social.rate_limited_by_action).length).toBeGreaterThan(0);
    for (const id of [
      'summary',
      'ratings',
      'endings',
      'money',
      'tournaments',
      'social',
      'invariants',
      'games',
    ]) {
      expect(html, id).toContain(`<section id="${id}">`);
    }
  });

  it('renders the same bytes twice', () => {
    expect(renderHtmlReport({ report, outcome, pgn })).toBe(html);
  });

  it('names no outside resource: nothing to load but data: URIs and in-page anchors', () => {
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
    // Markup and styles only: the viewer's minified bundle calls functions named `url(` and keeps lichess's
    // default site as a string it never loads with `lichess: false`; the CSP and the browser test cover scripts.
    const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
    const attributes = [...markup.matchAll(/\b(?:src|href|action|poster|srcset)\s*=\s*"([^"]*)"/gi)].map(
      (m) => m[1]!,
    );
    expect(attributes.filter((url) => !url.startsWith('#') && !url.startsWith('data:'))).toEqual([]);
    const cssUrls = [...markup.matchAll(/url\(\s*["']?([^"')]*)/gi)].map((m) => m[1]!);
    expect(cssUrls.filter((url) => !url.startsWith('data:') && !url.startsWith('#'))).toEqual([]);
    expect(markup).not.toMatch(/@import|https?:\/\//);
    expect(markup).not.toMatch(/<link(?![^>]*href="data:)/);
  });

  it('links bracket games to their place in games.pgn', () => {
    const index = pgnGameIndex(pgn);
    const final = [...outcome.platform.state.tournaments.values()][0]!.rounds.at(-1)![0]!;
    expect(html).toContain(`href="#g${index.get(final.gameId!)}"`);
  });

  it('draws vega charts synchronously exactly as vega-view toSVG does', async () => {
    const spec = {
      width: 200,
      height: 100,
      data: {
        values: [
          { x: 1, y: 2 },
          { x: 2, y: 5 },
        ],
      },
      mark: 'line',
      encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
    } as const;
    const view = new vega.View(vega.parse(compile({ ...spec, config: CHART_CONFIG }).spec), {
      renderer: 'none',
    });
    const expected = inlineSvg(await view.toSVG(), 'c');
    expect(renderVegaLite(spec, 'c')).toBe(expected);
  });
});

describe.skipIf(!hasChromium && !inCi)('report.html in headless Chromium', () => {
  let profile: string;
  let close: () => Promise<void> = async () => {};

  beforeAll(() => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
    profile = mkdtempSync(join(tmpdir(), 'acs-chromium-'));
  });
  afterAll(async () => {
    await close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('renders charts, bracket and viewer with no console error and no request but the page', async () => {
    const context = await launchChromium(profile, { width: 1280, height: 1200 }, [
      '--disable-quic',
      '--disable-component-update',
      '--disable-sync',
    ]);
    close = () => context.close();
    const page = context.pages()[0] ?? (await context.newPage());
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('request', (request) => requests.push(request.url()));
    const url = pathToFileURL(join(OUT_DIR, 'report.html')).href;
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#game-viewer cg-board piece');

    // Every chart is an inline SVG whose mark groups hold drawn marks.
    const charts = await page.$$eval('figure.chart svg', (svgs) =>
      svgs.map((svg) => svg.querySelectorAll('.role-mark > *').length),
    );
    expect(charts.length).toBeGreaterThanOrEqual(9);
    for (const marks of charts) expect(marks).toBeGreaterThan(0);

    // The 8-player knockout: 4 + 2 + 1 matches, drawn as three columns.
    expect(await page.locator('.bracket .round').count()).toBe(3);
    expect(await page.locator('.bracket .match').count()).toBe(7);
    // Every match says how it was decided, and the whole bracket fits the column, final included.
    expect(await page.locator('.bracket .match .how').count()).toBe(7);
    expect(await page.locator('.bracket .round').last().locator('.how').textContent()).toMatch(
      /^(1-0|0-1|½-½) [a-z -]+( → lower seed advances)?$/,
    );
    expect(await page.$eval('.bracket', (b) => b.scrollWidth - b.clientWidth)).toBe(0);

    // The viewer shows a board with the 32 pieces of the start and steps one move forward.
    expect(await page.locator('#game-viewer cg-board piece').count()).toBe(32);
    await page.click('#game-viewer .lpv__controls__goto--next');
    await expect.poll(() => page.locator('#game-viewer .lpv__moves .current').count()).toBe(1);
    const firstMove =
      (await page.locator('#game-viewer .lpv__moves button.move').first().textContent()) ?? '';
    expect(await page.locator('#game-viewer .lpv__moves .current').textContent()).toBe(firstMove);

    // A bracket link loads that game into the viewer.
    const link = page.locator('.bracket a.game').last();
    const target = ((await link.getAttribute('href')) ?? '').slice(2);
    await link.click();
    await expect.poll(() => page.getAttribute('#game-viewer', 'data-game')).toBe(target);

    // An agent link opens that agent's section when the report has verdicts.
    if ((report as { verdicts?: unknown }).verdicts) {
      await page.locator('a[href="#agent=entrant_0001"]').first().click();
      await expect.poll(() => page.locator('details#agent-entrant_0001').getAttribute('open')).not.toBeNull();
    }

    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#game-viewer cg-board piece');
    const shot = join(OUT_DIR, 'report.png');
    await page.screenshot({ path: shot });
    if (process.env.ACS_UPDATE_SCREENSHOT === '1') copyFileSync(shot, resolve('docs/images/report.png'));

    expect(problems).toEqual([]);
    expect(requests).toContain(url);
    expect(requests.filter((r) => r.split('#')[0] !== url)).toEqual([]);
  });
});
