import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFaultProfileFile } from '../../src/faults/profile-file.js';
import { faultProfileSource, parseFaultProfile, type FaultProfile } from '../../src/faults/profile.js';
import { startLiveServer, type LiveTestServer } from '../helpers/live-server.js';

const SCENARIO = `
name: snapshot-faults
seed: 31
start: 2026-05-01T00:00:00Z
duration: 30d
population:
  - { persona: random, count: 2, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 1 } }
`;

const servers: LiveTestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.app.close();
});

async function server(): Promise<LiveTestServer> {
  const s = await startLiveServer(SCENARIO, { listen: false });
  servers.push(s);
  return s;
}

async function call(s: LiveTestServer, method: 'GET' | 'POST', url: string, body?: unknown) {
  const answer = await s.app.inject({
    method,
    url,
    headers: url.startsWith('/_sim') ? s.control : {},
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: answer.statusCode, text: answer.body, json: () => JSON.parse(answer.body) };
}

/** What `n` anonymous leaderboard reads meet, in order: statuses (and Retry-After for a 429). */
async function statuses(s: LiveTestServer, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = await s.app.inject({ method: 'GET', url: '/api/chess/leaderboard' });
    out.push(
      `${answer.statusCode}${answer.headers['retry-after'] ? `/${answer.headers['retry-after']}` : ''}`,
    );
  }
  return out;
}

const shipped = (name: string): FaultProfile => {
  const loaded = loadFaultProfileFile(fileURLToPath(new URL(`../../faults/${name}.yaml`, import.meta.url)));
  if (typeof loaded === 'string') throw new Error(loaded);
  return loaded;
};

describe('/_sim/faults in the written form, and faults in snapshots (src/faults/state.ts)', () => {
  it('the written form of every shipped profile reads back to the same profile', () => {
    for (const name of ['light', 'outage', 'hostile']) {
      const profile = shipped(name);
      expect(parseFaultProfile(faultProfileSource(profile), name)).toEqual(profile);
    }
  });

  it('GET /_sim/faults answers a profile that POST /_sim/faults takes back as it is', async () => {
    const s = await server();
    expect((await call(s, 'POST', '/_sim/faults', faultProfileSource(shipped('hostile')))).status).toBe(200);
    const shown = (await call(s, 'GET', '/_sim/faults')).json().profile;
    expect(shown.rules.find((r: { kind: string }) => r.kind === 'latency')).toMatchObject({
      median: expect.stringMatching(/^\d+ms$/),
    });
    const posted = await call(s, 'POST', '/_sim/faults', shown);
    expect(posted.status, posted.text).toBe(200);
    expect(posted.json().profile).toEqual(shown);
    expect(s.server.httpFaults.injector.profile).toEqual(shipped('hostile'));
  });

  it('a profile set at run time is in the snapshot; a restore elsewhere meets the same faults from there on', async () => {
    const first = await server();
    const runtime = {
      name: 'set-at-runtime',
      rules: [
        { kind: 'error', rate: 0.3, statuses: [502, 503], scope: { routes: ['leaderboard'] } },
        { kind: 'burst429', rate: 0.2, length: '1s', retryAfter: '2s', scope: { routes: ['leaderboard'] } },
      ],
    };
    expect((await call(first, 'POST', '/_sim/faults', runtime)).status).toBe(200);
    await statuses(first, 7); // the streams and a burst move on before the snapshot
    const snapshot = (await call(first, 'GET', '/_sim/snapshot')).text;
    const expected = await statuses(first, 40);
    expect(new Set(expected).size).toBeGreaterThan(2); // 200s, errors and 429s: a sequence worth comparing

    const second = await server(); // started with no profile at all
    const restored = await call(second, 'POST', '/_sim/restore', snapshot);
    expect(restored.status, restored.text).toBe(200);
    expect((await call(second, 'GET', '/_sim/faults')).json().profile.name).toBe('set-at-runtime');
    expect(await statuses(second, 40)).toEqual(expected);
  });

  it("a snapshot whose faults are not the fault layer's is refused, naming the field", async () => {
    const s = await server();
    const snapshot = (await call(s, 'GET', '/_sim/snapshot')).json();
    snapshot.faults.profile.rules = [{ kind: 'error', statuses: [418] }];
    const refused = await call(s, 'POST', '/_sim/restore', snapshot);
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'validation_error',
      message: 'snapshot: faults.profile.rules[0].statuses: must be a non-empty list of 500, 502, 503, 504',
    });
  });
});
