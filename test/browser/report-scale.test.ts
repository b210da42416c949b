import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { World, type RunOutcome } from '../../src/sim/world.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { buildReport, type Report } from '../../src/report/report.js';
import { gamesToPgn } from '../../src/report/pgn.js';
import { renderHtmlReport } from '../../src/report/html/index.js';
import { eloScale, histogramBins } from '../../src/report/html/charts.js';
import { junitXml } from '../../src/report/junit.js';
import type { AgentVerdict } from '../../src/report/verdicts.js';
import type { Agent } from '../../src/platform/state.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

/**
 * report.html at any population, and a failing run's page, in Chromium. No 5,000-agent run: a tiny run is
 * made, then its report is grown to CROWD synthetic agents (rows of report.json's elo and verdicts, and
 * their accounts in the final state, which is all report.html reads of an agent), so the page has the
 * crowd's table and sections in a second of wall time. A second copy of the report has an invariant
 * broken on one of the run's real games, as a checker would record it.
 */
const OUT_DIR = resolve('reports/browser');
const hasChromium = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
/** crowd-5000's population (its table rows and sections); the file is in the long tier (25 s at 5,000). */
const CROWD = Number(process.env.ACS_REPORT_CROWD ?? 5000);
/** The bound on the page's height at 1,400 px, whatever the population. */
const MAX_HEIGHT_PX = 20_000;

const TINY = `
name: report-scale
seed: 7
start: 2026-01-01T00:00:00Z
duration: 40m
ruleset:
  api: { requestsPerDay: 100000 }
population:
  - persona: random
    count: 4
    heartbeat: { min: 5s, max: 10s }
    options: { maxGames: 2 }
`;

let outcome: RunOutcome;
let pgn: string;
let crowdFile: string;
let failingFile: string;
let brokenGame: { index: number; ply: number };

beforeAll(async () => {
  const scenario = parseScenario(TINY, 'report-scale');
  outcome = await new World(scenario).run();
  const report = buildReport(scenario, outcome);
  pgn = gamesToPgn(outcome.platform, `agent-chess-sim: ${scenario.name}`);
  mkdirSync(OUT_DIR, { recursive: true });
  crowdFile = join(OUT_DIR, `report-${CROWD}.html`);
  writeFileSync(crowdFile, renderHtmlReport({ report: crowded(report, CROWD), outcome, pgn }));
  failingFile = join(OUT_DIR, 'report-failing.html');
  writeFileSync(failingFile, renderHtmlReport({ report: failing(report), outcome, pgn }));
});

function crowdHandle(i: number): string {
  return `crowd_${String(i).padStart(5, '0')}`;
}
const last = crowdHandle(CROWD - 1);

/** The report with `total` agents: the run's own and synthetic ones spread over three long-named groups. */
function crowded(report: Report, total: number): Report {
  const template = report.verdicts.agents[0]!;
  const agents: AgentVerdict[] = [...report.verdicts.agents];
  const elo = [...report.elo];
  for (let i = agents.length; i < total; i++) {
    const handle = crowdHandle(i);
    const persona = ['random', 'poller', 'engine'][i % 3]!;
    const group = `${persona} (population[0].mix.${persona}.with_a_long_label)`;
    const final = 800 + ((i * 37) % 600);
    agents.push({ ...template, handle, name: handle, persona, group, games: i % 7, elo_final: final });
    elo.push({ ...report.elo[0]!, handle, name: handle, elo: final, rank: i + 1, games: i % 7 });
    const id = `synthetic-${i}`;
    outcome.platform.state.agents.set(id, { id, handle } as Agent);
  }
  return { ...report, elo, verdicts: { ...report.verdicts, agents } };
}

/** The report with elo_conservation broken on the run's first finished game, a third of the way in. */
function failing(report: Report): Report {
  const game = [...outcome.platform.state.games.values()].find((g) => g.status === 'completed')!;
  const move = game.moves[Math.floor(game.moves.length / 3)]!;
  const ply = game.moves.filter((m) => m.playedAtMs <= move.playedAtMs).length;
  const index = [...pgn.matchAll(/^\[GameId "([^"]*)"\]$/gm)].findIndex((m) => m[1] === game.id) + 1;
  brokenGame = { index, ply };
  const invariants = report.invariants.map((inv) =>
    inv.name === 'elo_conservation'
      ? {
          ...inv,
          passed: false,
          status: 'broken' as const,
          violationCount: 1,
          violations: [{ t: move.playedAtMs, event: 40, message: `game ${game.id}: 8 + -7 != 0` }],
        }
      : inv,
  );
  return { ...report, invariants, passed: false };
}

describe('report.html at scale, as a file', () => {
  it('keeps every agent in the page but shows one page of rows before any script runs', () => {
    const html = readFileSync(crowdFile, 'utf8');
    expect(html.match(/<tr data-agent="/g)?.length).toBe(CROWD);
    expect(html.match(/<tr data-agent="[^"]*"[^>]*>/g)!.filter((tr) => !tr.includes(' hidden')).length).toBe(
      25,
    );
    expect(html).toContain(`id="agent-${last}"`);
  });

  it('opens a failing run on what broke, naming the invariant in the badge, time in ISO', () => {
    const html = readFileSync(failingFile, 'utf8');
    const main = html.slice(html.indexOf('<main>'));
    expect(main.indexOf('<section id="broke">')).toBeLessThan(main.indexOf('<section id="summary">'));
    expect(main).toMatch(/<a class="badge fail" href="#broke">broke: elo_conservation<\/a>/);
    expect(main).toMatch(/<time>2026-01-01T00:\d\d:\d\d\.\d{3}Z<\/time>/);
    expect(main).toContain(`href="#g${brokenGame.index}.${brokenGame.ply}"`);
  });
});

describe('what a failing or flat run prints', () => {
  it("JUnit's failure text gives the violation's virtual time in ISO, never the raw epoch", () => {
    const xml = junitXml(failing(buildReportAgain()), { replay: 'npx agent-chess-sim run x.yaml --seed 7' });
    expect(xml).toMatch(/2026-01-01T00:\d\d:\d\d\.\d{3}Z \(event 40\): game /);
    expect(xml).not.toMatch(/t=\d{10,}/);
  });

  it('reads a rating nobody left as a band around it, and bins ratings from their spread', () => {
    expect(eloScale([1200, 1200, 1200])).toEqual({ domain: [1150, 1250], nice: false });
    expect(eloScale([1180, 1230])).toEqual({ zero: false });
    // 4,000 ratings at 1200 and a tail up to 2400: narrow bins, not one bar over the whole range.
    const crowd = [...Array.from({ length: 4000 }, (_, i) => 1200 + (i % 40)), 2400];
    const bins = histogramBins(crowd);
    expect(bins.step).toBeLessThanOrEqual(25);
    expect((bins.extent[1] - bins.extent[0]) / bins.step).toBeLessThanOrEqual(60);
    expect(histogramBins([1200, 1200])).toEqual({ step: 1, extent: [1200, 1201] });
  });
});

function buildReportAgain(): Report {
  return buildReport(parseScenario(TINY, 'report-scale'), outcome);
}

describe.skipIf(!hasChromium && !inCi)('report.html at scale, in headless Chromium', () => {
  let profile: string;
  let close: () => Promise<void> = async () => {};
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
    profile = mkdtempSync(join(tmpdir(), 'acs-chromium-'));
    const context = await launchChromium(profile, { width: 1400, height: 900 });
    close = () => context.close();
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('request', (request) => requests.push(request.url().split('#')[0]!));
  });
  afterAll(async () => {
    await close();
    rmSync(profile, { recursive: true, force: true });
  });

  it(`bounds a ${CROWD}-agent page's height; search, sort and #agent= reach any agent`, async () => {
    const url = pathToFileURL(crowdFile).href;
    await page.goto(url, { waitUntil: 'load' });
    const height = await pageHeight(page);
    console.info(`report-${CROWD}.html: ${statSync(crowdFile).size} bytes, ${height} px tall at 1400 px`);
    expect(height).toBeLessThan(MAX_HEIGHT_PX);
    expect(await page.locator('#agent-table tbody tr:not([hidden])').count()).toBe(25);

    const middle = crowdHandle(Math.floor(CROWD * 0.63));
    await page.fill('#agent-search', middle);
    await expect.poll(() => page.locator('#agent-table tbody tr:not([hidden])').count()).toBe(1);
    expect(await page.locator(`#agent-${middle}`).isVisible()).toBe(true);
    expect(await page.locator('details.agent:not([hidden])').count()).toBe(1);

    await page.fill('#agent-search', '');
    await page.click('#agent-table th button[data-col="2"]');
    await page.click('#agent-table th button[data-col="2"]');
    const games = (
      await page.locator('#agent-table tbody tr:not([hidden]) td:nth-child(3)').allTextContents()
    ).map(Number);
    expect(games[0]).toBe(Math.max(...games));
    expect(games).toEqual([...games].sort((a, b) => b - a));
    expect(games[0]).toBeGreaterThanOrEqual(6);

    await page.goto(`${url}#agent=${last}`, { waitUntil: 'load' });
    await expect.poll(() => page.locator(`details#agent-${last}`).getAttribute('open')).not.toBeNull();
    expect(await page.locator('#agent-table tbody tr:not([hidden])').getAttribute('data-agent')).toBe(last);
    expect(await pageHeight(page)).toBeLessThan(MAX_HEIGHT_PX);
    expectQuiet(url);
  });

  it("a failing run's first screen names the invariant; its game link opens the viewer at the ply", async () => {
    await firstScreen(page, pathToFileURL(failingFile).href);
    const top = await page.locator('#broke').boundingBox();
    expect(top!.y).toBeLessThan(900);
    expect(await page.locator('.badge.fail').textContent()).toContain('elo_conservation');
    await page.click('#broke a.violation-game');
    // The game and the ply are waited for together: the page opens on game 1 at ply 0, and the broken game
    // is game 1 here, so waiting for the game alone passed before the link's hashchange had landed.
    const shown = async () =>
      `${await page.getAttribute('#game-viewer', 'data-game')}.${await page.getAttribute('#game-viewer', 'data-ply')}`;
    await expect.poll(shown).toBe(`${brokenGame.index}.${brokenGame.ply}`);
    await expect.poll(() => page.locator('#game-viewer .lpv__moves .current').count()).toBe(1);
    expectQuiet(pathToFileURL(failingFile).href);
  });

  function expectQuiet(url: string) {
    expect(problems).toEqual([]);
    expect(requests.filter((r) => r !== url)).toEqual([]);
    problems.length = 0;
    requests.length = 0;
  }
});

function pageHeight(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollHeight');
}

async function firstScreen(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#game-viewer cg-board piece');
}
