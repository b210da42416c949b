import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultProfile } from '../../src/faults/profile.js';
import { sessionOutcome } from '../../src/lib/session-report.js';
import { faultsSection } from '../../src/report/faults-section.js';
import { startLiveServer, type LiveTestServer } from '../helpers/live-server.js';

/** The simulated agents meet the scenario's latency in process; HTTP clients meet --faults on the socket. */
const SCENARIO = `
name: session-faults
seed: 6
start: 2026-05-01T00:00:00Z
duration: 30d
population:
  - { persona: random, count: 2, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 1 } }
faults:
  name: slow-inside
  rules:
    - { kind: latency, median: 1s, p99: 2s }
`;
const ON_SOCKET = parseFaultProfile(
  { name: 'proxy', rules: [{ kind: 'error', statuses: [502], scope: { routes: ['leaderboard'] } }] },
  'test',
);

let server: LiveTestServer | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

describe("serve --out's report: faults met over HTTP beside those met in process (src/lib/session-report.ts)", () => {
  it('one faults section names both profiles and has a row for the HTTP agent and for the simulated ones', async () => {
    server = await startLiveServer(SCENARIO, { listen: false, faults: ON_SOCKET });
    const registered = await server.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { handle: 'over_http' },
    });
    const key = registered.json().api_key as string;
    for (let i = 0; i < 3; i++) {
      const page = await server.app.inject({
        method: 'GET',
        url: '/api/chess/leaderboard',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(page.statusCode).toBe(502);
    }
    await server.server.advanceTo(server.server.nowMs + 10 * 60_000);

    const section = faultsSection(sessionOutcome(server.server.current, server.server.httpFaults))!;
    expect(section.profile).toBe('slow-inside (in process), proxy (HTTP)');
    expect(section.agents.find((a) => a.handle === 'over_http')).toMatchObject({
      met: { error: 3 },
      retried: 2,
      crashed: null,
    });
    expect(section.met_by_kind['error']).toBe(3);
    expect(section.met_by_kind['latency']).toBeGreaterThan(0);
    expect(section.agents.filter((a) => a.handle.startsWith('random_'))).toHaveLength(2);
  });
});
