import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  call,
  FOOLS_MATE,
  onboardedAgent,
  play,
  startGame,
  startServe,
  type ServeProcess,
} from '../helpers/serve-session.js';
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

/**
 * serve's live view in Debian's headless Chromium (playwright-core), against the built CLI on a --manual
 * clock: a game played move by move through the API is followed by /stream?game= (the board's own
 * position, read back from the viewer, and its pieces); replay=1&timestep=1 reaches the final position;
 * rotate=1 shows each live game in turn; the dashboard, given the token in its fragment, resumes the clock,
 * sets its speed (the clock then moves at about that rate) and pauses it (the clock stops), while a page
 * without the token has every control disabled and is refused. No console error, and no request leaves
 * the twin. Screenshots land in reports/browser/ (ACS_UPDATE_SCREENSHOT=1 also copies them to
 * docs/screenshots/, the README's pictures).
 *
 * The pages look once a wall second, so this file takes some 15 s: it is in the long tier
 * (vitest.long-tests.ts), which .ci/run runs after npm test. Without /usr/bin/chromium it is skipped
 * locally and fails in CI (CI=true), as report.html's browser test does.
 */
const OUT_DIR = resolve('reports/browser');
const hasChromium = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!hasChromium && !inCi)
  console.warn(`live view browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

let serve: ServeProcess;
let profile: string;
let context: BrowserContext;
const problems: string[] = [];
const outside: string[] = [];

async function openPage(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${path}: ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${path}: pageerror: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(`${serve.origin}/`) && !request.url().startsWith('data:'))
      outside.push(request.url());
  });
  await page.goto(`${serve.origin}${path}`);
  return page;
}

/** The pages look once a wall second: a few seconds is room for two looks under load. */
const SOON = { timeout: 5000 };

const boardOf = (page: Page, name: string) => page.getAttribute('#board', `data-${name}`);

/** The pieces chessground draws, as "square colour role" (its own record of each piece element). */
const piecesOf = (page: Page) =>
  page.$$eval('#board cg-board piece', (pieces) =>
    pieces.map((p) => `${(p as unknown as { cgKey: string }).cgKey} ${p.className}`).sort(),
  );

function screenshot(page: Page, name: string): Promise<unknown> {
  const shot = join(OUT_DIR, name);
  return page.screenshot({ path: shot }).then(() => {
    if (process.env.ACS_UPDATE_SCREENSHOT === '1') {
      mkdirSync(resolve('docs/screenshots'), { recursive: true });
      copyFileSync(shot, resolve('docs/screenshots', name));
    }
  });
}

/** Makes `username` a human who owns `agent`: the agent verified with that external handle. */
async function ownedBy(origin: string, token: string, agent: { key: string }, username: string) {
  const info = await call(origin, 'GET', '/api/verify', agent.key);
  const text = info['verification_tweet_format'] as string;
  await call(origin, 'POST', '/_sim/network/posts', token, { handle: username, text });
  await call(origin, 'POST', '/api/verify', agent.key, { twitter_handle: username });
  await call(origin, 'POST', '/_sim/humans', token, { username });
}

describe.skipIf(!hasChromium && !inCi)('the live view in headless Chromium', () => {
  beforeAll(async () => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
    mkdirSync(OUT_DIR, { recursive: true });
    serve = await startServe(['--start', '2026-03-01T00:00:00Z']);
    profile = mkdtempSync(join(tmpdir(), 'acs-chromium-'));
    context = await launchChromium(profile, { width: 1280, height: 860 });
  });
  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    serve?.cleanUp();
    rmSync(profile, { recursive: true, force: true });
  });

  it('follows a scripted game move by move, replays it, rotates the live games, and the dashboard drives the clock', async () => {
    const { origin, token } = serve;
    const players = await Promise.all(
      ['alice', 'bob', 'carol', 'dave'].map(async (handle) => ({
        handle,
        key: await onboardedAgent(origin, handle),
      })),
    );
    const [alice, bob, carol, dave] = players as [
      (typeof players)[0],
      (typeof players)[0],
      (typeof players)[0],
      (typeof players)[0],
    ];
    const mate = await startGame(origin, alice, bob);

    // /stream?game=: the board follows each move as it is played.
    const stream = await openPage(`/stream?game=${mate.gameId}`);
    await expect.poll(() => boardOf(stream, 'ply'), SOON).toBe('0');
    expect(await piecesOf(stream)).toHaveLength(32);
    for (const [ply, uci] of FOOLS_MATE.entries()) {
      const move = await play(origin, mate, ply, uci);
      await expect.poll(() => boardOf(stream, 'fen'), SOON).toBe(move['fen_after']);
      expect(await boardOf(stream, 'ply')).toBe(String(ply + 1));
    }
    await expect.poll(() => piecesOf(stream), SOON).toContain('h4 black queen');
    await expect.poll(() => stream.textContent('#result'), SOON).toBe('0-1 (checkmate)');
    expect(await stream.textContent('#moves')).toBe('1. f3 e5 2. g4 Qh4#');
    await screenshot(stream, 'stream.png');
    const finalFen = await boardOf(stream, 'fen');

    // replay=1&timestep=1 from the first move to the last, while rotate=1 shows the two live games in turn.
    const [second, third] = [await startGame(origin, carol, dave), await startGame(origin, dave, alice)];
    await play(origin, second, 0, 'e2e4');
    await ownedBy(origin, token, carol, 'carol_owner');
    const [replay, rotating, following, owner] = await Promise.all([
      openPage(`/stream?game=${mate.gameId}&replay=1&timestep=1`),
      openPage('/stream?rotate=1'),
      openPage('/stream?agent=dave'),
      openPage('/stream?human=carol_owner'),
    ]);
    // human= shows the live game of an agent that human owns: carol's.
    await expect.poll(() => boardOf(owner, 'game'), SOON).toBe(second.gameId);
    // agent= follows dave into his newest live game; its deadline counts down in virtual time (the manual
    // clock has not moved: the full five minutes).
    await expect.poll(() => boardOf(following, 'game'), SOON).toBe(third.gameId);
    await expect
      .poll(() => following.textContent('#deadline'), SOON)
      .toBe('5:00 left to move (virtual time)');
    const white = third.keys.white === dave.key ? 'dave' : 'alice';
    expect(await following.textContent('#turn')).toBe(`${white} (white) to move`);
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          seen.add((await boardOf(rotating, 'game')) ?? '');
          return [...seen].filter((id) => id === second.gameId || id === third.gameId).length;
        },
        { timeout: 8000, interval: 200 },
      )
      .toBe(2);
    expect(seen.has(mate.gameId)).toBe(false); // finished: not among the live games
    await expect.poll(() => boardOf(replay, 'ply'), { timeout: 8000 }).toBe('4');
    expect([await boardOf(replay, 'fen'), await replay.textContent('#turn')]).toEqual([
      finalFen,
      'replay finished',
    ]);

    // The dashboard with the token: resume, a speed, then pause.
    const dashboard = await openPage(`/#token=${encodeURIComponent(token)}`);
    expect(await dashboard.evaluate('location.hash')).toBe(''); // the token leaves the address bar
    const body = (name: string) => dashboard.getAttribute('body', `data-${name}`);
    await expect.poll(() => body('manual'), SOON).toBe('true');
    await dashboard.click('#resume');
    await expect.poll(() => body('manual'), SOON).toBe('false');
    await dashboard.fill('#speed', '600');
    await dashboard.click('#speed-form button');
    await expect.poll(() => body('speed'), SOON).toBe('600');
    const clock = async () => (await call(origin, 'GET', '/_sim/clock', token))['now_ms'] as number;
    const [wallBefore, before] = [performance.now(), await clock()];
    await new Promise((r) => setTimeout(r, 1500));
    const [wallAfter, after] = [performance.now(), await clock()];
    const rate = (after - before) / (wallAfter - wallBefore);
    expect(rate).toBeGreaterThan(600 / 3);
    expect(rate).toBeLessThan(600 * 3);
    await expect
      .poll(() => dashboard.locator('#live-games li, #activity li').count(), SOON)
      .toBeGreaterThan(0);
    await screenshot(dashboard, 'dashboard.png');
    await dashboard.click('#pause');
    await expect.poll(() => body('manual'), SOON).toBe('true');
    const stopped = await clock();
    await new Promise((r) => setTimeout(r, 500));
    expect(await clock()).toBe(stopped);

    // A dashboard without the token: read-only, and the server refuses what it would send.
    const readOnly = await openPage('/');
    await expect.poll(() => readOnly.textContent('#now'), SOON).toMatch(/^2026-03-01T/);
    expect(await readOnly.locator('#controls button:enabled').count()).toBe(0);
    const refused = await readOnly.evaluate(() =>
      fetch('/_sim/clock/resume', { method: 'POST' }).then((r) => r.status),
    );
    expect(refused).toBe(401);
    expect(await clock()).toBe(stopped);

    expect(problems.filter((p) => !p.includes('401 (Unauthorized)'))).toEqual([]);
    expect(outside).toEqual([]);
  }, 90_000);
});
