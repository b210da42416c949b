import { describe, expect, it } from 'vitest';
import { healthCounts } from '../../src/platform/identity/agents.js';
import { parseScenarioWithSource } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';

const SCENARIO = `
name: health-count
seed: 41
start: 2026-03-01T00:00:00Z
duration: 1d
population:
  - persona: random
    count: 10
    heartbeat: { min: 20s, max: 60s }
  - persona: slow
    count: 4
    heartbeat: { min: 30s, max: 90s }
`;

describe('GET /api/health counts active games', () => {
  it('gives the count of active games in the game log at every moment, cached between platform events', async () => {
    const world = new World(parseScenarioWithSource(SCENARIO).scenario, { keySecret: Buffer.alloc(32, 3) });
    await world.populate();
    const p = world.platform;
    const seen = new Set<number>();
    for (let minute = 1; minute <= 30; minute++) {
      await world.runUntil(p.nowMs + 60_000);
      const active = [...p.state.games.values()].filter((g) => g.status === 'active').length;
      expect(healthCounts(p).gamesActive).toBe(active);
      expect(healthCounts(p).gamesActive).toBe(active); // the cached answer
      seen.add(active);
    }
    expect(seen.size).toBeGreaterThan(2); // the count went up and down over the run
  });
});
