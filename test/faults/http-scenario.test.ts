import { afterEach, describe, expect, it } from 'vitest';
import { parseFaultProfile } from '../../src/faults/profile.js';
import { startLiveServer, type LiveTestServer } from '../helpers/live-server.js';

/** A served scenario with its own profile: its in-process agents meet it, and so do agents over HTTP. */
const SCENARIO = `
name: served-with-faults
seed: 4
start: 2026-05-01T00:00:00Z
duration: 30d
population:
  - { persona: random, count: 2, heartbeat: { min: 30s, max: 60s }, options: { maxGames: 1 } }
faults:
  name: scenario-proxy
  rules:
    - { kind: error, statuses: [502], scope: { routes: [leaderboard] } }
`;

let server: LiveTestServer | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

const leaderboard = async (s: LiveTestServer) =>
  (await s.app.inject({ method: 'GET', url: '/api/chess/leaderboard' })).statusCode;
const profileName = async (s: LiveTestServer) =>
  (await s.app.inject({ method: 'GET', url: '/_sim/faults', headers: s.control })).json().profile.name;

describe("a served scenario's faults: apply to HTTP agents too (src/http/live-server.ts)", () => {
  it('without --faults, HTTP clients meet the scenario profile', async () => {
    server = await startLiveServer(SCENARIO, { listen: false });
    expect(await profileName(server)).toBe('scenario-proxy');
    expect(await leaderboard(server)).toBe(502);
    expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('--faults FILE takes the place of the scenario profile for HTTP clients', async () => {
    const none = parseFaultProfile({ name: 'calm', rules: [] }, 'test');
    server = await startLiveServer(SCENARIO, { listen: false, faults: none });
    expect(await profileName(server)).toBe('calm');
    expect(await leaderboard(server)).toBe(200);
  });
});
