import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_VIEW_CSP, liveViewPages } from '../../src/lib/live-view/pages.js';
import { dashboardLink } from '../../src/cli/control-token.js';
import { startLiveServer } from '../helpers/live-server.js';

/**
 * serve's live view as HTTP answers (the pages in Chromium: test/browser/live-view.test.ts): each page
 * carries the strict policy and names nothing outside the twin, its scripts are same-origin modules, and
 * the Host and Origin guards refuse them as they refuse every route. A page holds no control token, and
 * the control routes it calls still refuse a request without one.
 */
const SCENARIO = `
name: live-view
seed: 5
start: 2026-03-01T00:00:00Z
duration: 1d
population:
  - persona: random
    count: 2
    heartbeat: { min: 20s, max: 40s }
`;

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await startLiveServer(SCENARIO, { listen: false, pages: liveViewPages() }));
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { host: '127.0.0.1:8787', ...headers } });

describe('the live view over HTTP', () => {
  it('serves the dashboard and /stream (any query) under the strict policy, with no inline script', async () => {
    for (const url of ['/', '/stream', '/stream?game=x&replay=1&timestep=2', '/stream?rotate=5']) {
      const page = await get(url);
      expect([page.statusCode, page.headers['content-type']], url).toEqual([200, 'text/html; charset=utf-8']);
      expect(page.headers['content-security-policy']).toBe(LIVE_VIEW_CSP);
      const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBe(1);
      expect(scripts[0]![1]).toMatch(/ src="\/_view\/(dashboard|stream)\.js"/);
      expect(scripts[0]![2]).toBe('');
      expect(page.body).not.toMatch(/<style\b| style="/);
      const urls = [...page.body.matchAll(/\b(?:src|href|action)="([^"]*)"/g)].map((m) => m[1]!);
      expect(urls.filter((u) => !u.startsWith('/') && !u.startsWith('data:'))).toEqual([]);
    }
    expect(LIVE_VIEW_CSP).toContain("script-src 'self'");
    expect(LIVE_VIEW_CSP).not.toContain('unsafe');
  });

  it('serves its scripts and stylesheet same-origin, the board as a module with a default export', async () => {
    const board = await get('/_view/board.js');
    expect([board.statusCode, board.headers['content-type']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
    expect(board.body.trimEnd().endsWith('export default LichessPgnViewer;')).toBe(true);
    for (const name of ['common.js', 'stream.js', 'dashboard.js', 'view.css']) {
      const asset = await get(`/_view/${name}`);
      expect([asset.statusCode, asset.headers['x-content-type-options']], name).toEqual([200, 'nosniff']);
      // Requests only to this origin: every fetch names a path, never a scheme.
      expect(asset.body, name).not.toMatch(/fetch\(\s*['"`]https?:/);
    }
    const imports = [...(await get('/_view/stream.js')).body.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports).toEqual(['./board.js', './common.js']);
  });

  it('refuses the pages to a Host that is not this server and to another origin', async () => {
    const rebound = await get('/stream', { host: 'evil.example' });
    expect([rebound.statusCode, rebound.json()['error']]).toEqual([403, 'host_not_allowed']);
    const foreign = await get('/', { origin: 'http://evil.example' });
    expect([foreign.statusCode, foreign.json()['error']]).toEqual([403, 'cross_site_request']);
  });

  it('changes nothing for a page without the token: its clock calls are refused', async () => {
    for (const path of ['pause', 'resume', 'speed', 'advance']) {
      const answer = await app.inject({
        method: 'POST',
        url: `/_sim/clock/${path}`,
        headers: { host: '127.0.0.1:8787', 'content-type': 'application/json' },
        payload: path === 'speed' ? { speed: 10 } : path === 'advance' ? { ms: 1000 } : {},
      });
      expect([answer.statusCode, answer.json()['error']], path).toEqual([401, 'control_token_required']);
    }
  });

  it("prints the dashboard's link with the token after #, and only a token serve drew", () => {
    const origin = 'http://127.0.0.1:8787';
    expect(dashboardLink(origin, { value: 'abc+def/0123456789', source: { kind: 'generated' } })).toBe(
      `${origin}/#token=abc%2Bdef%2F0123456789`,
    );
    for (const source of [{ kind: 'env' }, { kind: 'flag' }, { kind: 'file', file: 't' }] as const)
      expect(dashboardLink(origin, { value: 'secret-from-the-user', source })).toBe(
        `${origin}/#token=<your control token>`,
      );
  });
});
