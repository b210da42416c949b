import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  FOOLS_MATE,
  onboardedAgent,
  play,
  startGame,
  startServe,
  type ServeProcess,
} from '../helpers/serve-session.js';

/**
 * `serve --out DIR` (the built CLI): a scripted session over HTTP, a report written on demand by
 * POST /_sim/report, and the full set written when the server is stopped, with a verdict for each agent
 * registered over HTTP.
 */
let serve: ServeProcess | undefined;
let out: string | undefined;
afterEach(async () => {
  await serve?.stop();
  serve?.cleanUp();
  if (out) rmSync(out, { recursive: true, force: true });
  serve = out = undefined;
});

const REPORT_SET = ['games.pgn', 'junit.xml', 'report.html', 'report.json', 'summary.md'];

describe('serve --out', () => {
  it('writes the report set on demand and at SIGTERM, verdicts naming the agents registered over HTTP', async () => {
    out = mkdtempSync(join(tmpdir(), 'acs-serve-out-'));
    const dir = join(out, 'session');
    serve = await startServe(['--out', dir, '--start', '2026-03-01T00:00:00Z']);
    const { origin, token } = serve;
    const alice = { handle: 'alice_http', key: await onboardedAgent(origin, 'alice_http') };
    const bob = { handle: 'bob_http', key: await onboardedAgent(origin, 'bob_http') };
    const game = await startGame(origin, alice, bob);
    for (const [ply, uci] of FOOLS_MATE.entries()) await play(origin, game, ply, uci);

    const written = await call(origin, 'POST', '/_sim/report', token);
    expect(written['files'].map((f: string) => f.slice(dir.length + 1)).sort()).toEqual(REPORT_SET);
    expect(readdirSync(dir).sort()).toEqual(REPORT_SET); // no staging folder left beside the set
    expect(existsSync(out) && readdirSync(out)).toEqual(['session']);

    await call(origin, 'POST', '/_sim/clock/advance', token, { ms: 60_000 });
    expect(await serve.stop()).toBe(0);
    expect(serve.stdout()).toMatch(
      /SIGTERM: stopped the server at virtual 2026-03-01T00:01:00\.000Z; wrote .*report\.json/,
    );
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const verdicts = new Map<string, any>(report.verdicts.agents.map((v: any) => [v.handle, v]));
    for (const handle of ['alice_http', 'bob_http']) {
      expect(verdicts.get(handle), handle).toMatchObject({ persona: 'http', group: 'http', games: 1 });
    }
    const black = game.keys.black === alice.key ? 'alice_http' : 'bob_http';
    expect(verdicts.get(black)).toMatchObject({ wins: 1 });
    expect(readFileSync(join(dir, 'games.pgn'), 'utf8')).toContain('1. f3 e5 2. g4 Qh4# 0-1');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(
      /^\| http \| http \| 2 \| 2 \| 1\/0\/1 \|/m,
    );
  }, 60_000);

  it('refuses POST /_sim/report without --out, and an --out that is a file, in one line', async () => {
    serve = await startServe([]);
    const answer = await fetch(`${serve.origin}/_sim/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${serve.token}` },
    });
    expect([answer.status, ((await answer.json()) as any).error]).toEqual([400, 'bad_request']);
    out = mkdtempSync(join(tmpdir(), 'acs-serve-out-'));
    const file = join(out, 'a-file');
    writeFileSync(file, 'not a folder');
    await expect(startServe(['--out', file])).rejects.toThrow(
      /serve did not start: --out .*a-file: is a file, not a folder\n$/,
    );
  }, 30_000);
});
