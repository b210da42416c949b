import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stateFingerprint, stateFingerprintParts } from '../../src/platform/snapshot.js';
import { LiveWorld, slicedStateHash, type LiveSnapshot, type Slicing } from '../../src/sim/live.js';
import { parseScenarioWithSource, type ScenarioWithSource } from '../../src/sim/scenario/scenario.js';
import { World } from '../../src/sim/world.js';
import { readSnapshotBody } from '../../src/http/snapshot-body.js';
import { LazyJson } from '../../src/kernel/lazy-json.js';

/**
 * A restore on a running server builds the population, replays the log and checks the state hash in
 * slices (issue 25): the slices really pause, and the world they build is the one an unsliced restore builds.
 * No timing: a slice here is a count of units, and the test counts the pauses.
 */
const SCENARIO = `
name: live-slicing
seed: 7
start: 2026-03-01T00:00:00Z
duration: 30d
population:
  - persona: random
    count: 6
    heartbeat: { min: 20s, max: 40s }
  - persona: poster
    count: 2
    heartbeat: { min: 60s, max: 90s }
`;

const crowd = (count: number) => `
name: crowd-slicing
seed: 11
start: 2026-03-01T00:00:00Z
duration: 1d
population:
  - persona: poller
    count: ${count}
    heartbeat: { min: 5m, max: 10m }
`;

const SECRET = { keySecret: Buffer.alloc(32, 5) };
const MIN = 60_000;

/** Pauses after every `units` pause tests, and counts the pauses. */
function counting(units: number): Slicing & { yields: number } {
  const slicing = {
    yields: 0,
    startSlice: () => {
      let count = 0;
      return () => ++count >= units;
    },
    yieldNow: () => {
      slicing.yields++;
      return Promise.resolve();
    },
  };
  return slicing;
}

/** A world with games, posts and outside requests: a log of advances, requests and an airdrop. */
async function played(loaded: ScenarioWithSource, replayLog = false): Promise<LiveWorld> {
  const live = await LiveWorld.start(loaded, { ...SECRET, replayLog });
  const key = (
    live.handleNow({ method: 'POST', path: '/api/register', body: { handle: 'tester' } }).body as {
      api_key: string;
    }
  ).api_key;
  const headers = { authorization: `Bearer ${key}` };
  live.airdrop('tester', 2_000_000_000);
  for (let step = 0; step < 8; step++) {
    live.handleNow({ method: 'POST', path: '/api/social/post', headers, body: { content: `step ${step}` } });
    live.handleNow({ method: 'PATCH', path: '/api/agents/profile', headers, body: { bio: `bio ${step}` } });
    live.handleNow({ method: 'POST', path: '/api/chess/challenge', headers, body: {} });
    await live.advanceTo(live.nowMs + 5 * MIN);
  }
  return live;
}

const snapshotOf = (live: LiveWorld) => JSON.parse(live.snapshotText()) as LiveSnapshot;

describe('a restore in slices', () => {
  it('writes the state text in pieces that join to the state fingerprint, usage in or out', async () => {
    const live = await played(parseScenarioWithSource(SCENARIO));
    expect(live.world.platform.state.games.size).toBeGreaterThan(0);
    expect(live.world.platform.state.posts.size).toBeGreaterThan(8);
    for (const includeUsage of [true, false]) {
      const parts = [...stateFingerprintParts(live.world.platform, { includeUsage })];
      expect(parts.length).toBeGreaterThan(50);
      expect(parts.join('')).toBe(stateFingerprint(live.world.platform, { includeUsage }));
    }
    const whole = createHash('sha256')
      .update(stateFingerprint(live.world.platform, { includeUsage: true }))
      .digest('hex');
    const slicing = counting(5);
    expect(await slicedStateHash(live.world, slicing)).toBe(`sha256:${whole}`);
    expect(slicing.yields).toBeGreaterThan(10);
  });

  it('replays to the same state hash and fingerprint as an unsliced restore, pausing between slices', async () => {
    const own = parseScenarioWithSource(SCENARIO);
    const snapshot = snapshotOf(await played(own, true));
    expect(snapshot.inputs.filter((i) => i.kind === 'request').length).toBeGreaterThanOrEqual(24);
    const whole = await LiveWorld.restore(snapshot, own);
    const slicing = counting(2);
    const sliced = await LiveWorld.restore(snapshot, own, slicing);
    expect(slicing.yields).toBeGreaterThan(snapshot.inputs.length / 2);
    const [a, b] = [snapshotOf(whole), snapshotOf(sliced)];
    expect(b.stateHash).toBe(snapshot.stateHash);
    expect(b.stateHash).toBe(a.stateHash);
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(b.inputs).toEqual(a.inputs);
  });

  it('reads a checkpoint in slices, to the same world as in one call', async () => {
    const loaded = parseScenarioWithSource(crowd(300));
    const live = await LiveWorld.start(loaded, SECRET);
    await live.advanceTo(live.nowMs + 3 * MIN);
    const snapshot = snapshotOf(live);
    expect(snapshot.checkpoint).not.toBeNull();
    const whole = await LiveWorld.restore(snapshot, loaded);
    const slicing = counting(50);
    const sliced = await LiveWorld.restore(snapshot, loaded, slicing);
    expect(slicing.yields).toBeGreaterThanOrEqual(300 / 50); // a pause at least every 50 agents
    expect(snapshotOf(sliced).stateHash).toBe(snapshot.stateHash);
    expect(snapshotOf(sliced).checkpoint).toEqual(snapshotOf(whole).checkpoint);
    const cancelled = { ...counting(50), cancelled: () => true };
    await expect(LiveWorld.restore(snapshot, loaded, cancelled)).rejects.toThrow('the restore was cancelled');
  });

  it('restores from a body read a piece at a time, its checkpoint rows parsed as they are read', async () => {
    const loaded = parseScenarioWithSource(crowd(400));
    const live = await LiveWorld.start(loaded, SECRET);
    await live.advanceTo(live.nowMs + 3 * MIN);
    const text = live.snapshotText();
    const read = await readSnapshotBody(Buffer.from(text), counting(50));
    const body = (read as { body: { checkpoint: unknown } }).body;
    expect(body.checkpoint).toBeInstanceOf(LazyJson); // over a parse's share: the lazy path is the one tested
    const fromBody = await LiveWorld.restore(body, loaded, counting(50));
    const fromParsed = await LiveWorld.restore(JSON.parse(text), loaded);
    expect(snapshotOf(fromBody).stateHash).toBe(snapshotOf(live).stateHash);
    expect(snapshotOf(fromBody).checkpoint).toEqual(snapshotOf(fromParsed).checkpoint);
    const tampered = text.replace(/"elo":1200/, '"elo":"x"');
    expect(tampered).not.toBe(text);
    const readTampered = await readSnapshotBody(Buffer.from(tampered), counting(50));
    await expect(
      LiveWorld.restore((readTampered as { body: unknown }).body, loaded, counting(50)),
    ).rejects.toThrow(/^checkpoint\.[\w.[\]]*elo: must be/);
  });

  it('builds a large population in slices, the same population as in one call', async () => {
    const loaded = parseScenarioWithSource(crowd(1000));
    const plain = new World(loaded.scenario, SECRET);
    expect(await plain.populate()).toBe(true);
    const slicing = counting(50);
    const sliced = new World(loaded.scenario, SECRET);
    expect(await sliced.populate(slicing)).toBe(true);
    expect(slicing.yields).toBeGreaterThanOrEqual(19); // 1000 agents, a pause every 50
    expect(sliced.agents.map((a) => a.handle)).toEqual(plain.agents.map((a) => a.handle));
    expect(await slicedStateHash(sliced)).toBe(await slicedStateHash(plain));
    expect(sliced.fingerprintSoFar()).toBe(plain.fingerprintSoFar());
    await plain.runUntil(plain.platform.nowMs + 2 * MIN);
    await sliced.runUntil(sliced.platform.nowMs + 2 * MIN);
    expect(sliced.fingerprintSoFar()).toBe(plain.fingerprintSoFar());
  });

  it('stops building the population when the restore is cancelled', async () => {
    const loaded = parseScenarioWithSource(crowd(500));
    const slicing = { ...counting(50), cancelled: () => true };
    const world = new World(loaded.scenario, SECRET);
    expect(await world.populate(slicing)).toBe(false);
    expect(world.agents.length).toBe(49);
    const snapshot = snapshotOf(await LiveWorld.start(loaded, SECRET));
    await expect(LiveWorld.restore(snapshot, loaded, slicing)).rejects.toThrow('the restore was cancelled');
  });
});
