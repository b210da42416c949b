import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/http/server.js';
import { LiveServer } from '../../src/http/live-server.js';
import { toIso } from '../../src/kernel/clock.js';
import { jsonParts, JsonRows, materialized } from '../../src/kernel/json-parts.js';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import { LiveWorld } from '../../src/sim/live.js';
import { parseScenarioWithSource, type ScenarioWithSource } from '../../src/sim/scenario/scenario.js';
import { TEST_CONTROL_TOKEN } from '../helpers/live-server.js';

/**
 * GET /_sim/snapshot is written as a job in slices, as the socket takes it (issue 25): these prove its text
 * is byte for byte the one the one-shot writer wrote (kept here as `oneShotText`, the reference), on a
 * checkpointed world with games, bounties, posts and a tournament and on a world snapshotted by its replay
 * log; and that while it is written the world stays as it is: reads without a key are answered, anything
 * that would change the world is refused busy, and the job ends when the text is read, cut or cancelled.
 */
const MIXED = `
name: snapshot-stream
seed: 2525
start: 2026-03-01T00:00:00Z
duration: 6h
ruleset:
  api: { requestsPerDay: 100000 }
  tournaments: { creatorMinGames: 0 }
population:
  - { persona: random, count: 4, heartbeat: { min: 20s, max: 40s }, airdrop: 1, options: { maxGames: 2, bountyShare: 0.5, bountyMinSol: 0.01, bountyMaxSol: 0.1 } }
  - { persona: organizer, count: 1, heartbeat: { min: 5s, max: 10s }, airdrop: 10, options: { sizes: [8], prizeSol: 1, entryFeeSol: 0.02, maxTournaments: 1, maxGames: 10, minGames: 0 } }
  - { persona: entrant, count: 8, heartbeat: { min: 10s, max: 20s }, airdrop: 0.5, options: { maxGames: 1, joinChance: 0.9 } }
  - { persona: poster, count: 1, heartbeat: { min: 60s, max: 120s } }
  - { persona: replier, count: 1, heartbeat: { min: 60s, max: 120s } }
  - { persona: human, account: human, count: 1, heartbeat: { min: 60s, max: 120s } }
`;
const MINUTE = 60_000;
const control = { authorization: `Bearer ${TEST_CONTROL_TOKEN}`, 'content-type': 'application/json' };

/** The snapshot text as LiveWorld.snapshotText wrote it in one go before it was written in pieces. */
function oneShotText(live: LiveWorld, extra: Record<string, unknown>, replayed: boolean): string {
  const platform = live.world.platform;
  const state = stateFingerprint(platform, { includeUsage: true });
  const head = {
    ...extra,
    format: 'agent-chess-sim/live-snapshot@4',
    scenario: live.scenarioSource,
    keySecret: Buffer.alloc(32, 7).toString('hex'),
    nowMs: live.nowMs,
    now: toIso(live.nowMs),
    stateHash: `sha256:${createHash('sha256').update(state).digest('hex')}`,
    fingerprint: live.world.fingerprintSoFar(),
  };
  const checkpoint = replayed ? 'null' : JSON.stringify(live.world.save());
  // The log's own text (src/sim/live-input-log.ts toJson), each input written by one JSON.stringify.
  const inputs = replayed
    ? JSON.stringify((JSON.parse(live.snapshotText()) as { inputs: unknown }).inputs)
    : '[]';
  const usage: Record<string, unknown> = {};
  for (const actor of [...platform.state.agents.values(), ...platform.state.humans.values()])
    usage[actor.id] = { ...actor.usage };
  return `${JSON.stringify(head).slice(0, -1)},"checkpoint":${checkpoint},"inputs":${inputs},"usage":${JSON.stringify(usage)},"state":${state}}`;
}

/** A live server on `loaded` with no wall clock: a slice is a fixed count of steps, so the job yields often. */
async function serverFor(loaded: ScenarioWithSource, replayLog: boolean) {
  const world = await LiveWorld.start(loaded, { keySecret: Buffer.alloc(32, 7), replayLog });
  const server = new LiveServer(world, { clock: { manual: true, speed: 1 }, own: loaded });
  const app = buildServer(server, { guard: { controlToken: TEST_CONTROL_TOKEN } });
  apps.push(app);
  return { server, app };
}

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const head = (server: LiveServer) => ({ success: true, faults: server.httpFaults.state() });

describe('the snapshot written in pieces', () => {
  let loaded: ScenarioWithSource;
  beforeAll(() => {
    loaded = parseScenarioWithSource(MIXED);
  });

  it('is byte for byte the one-shot text on a world with games, bounties, posts and a tournament', async () => {
    const { server, app } = await serverFor(loaded, false);
    await server.advanceTo(server.nowMs + 40 * MINUTE);
    const state = server.current.world.platform.state;
    for (const table of ['games', 'escrows', 'posts', 'replies', 'tournaments', 'humans'] as const)
      expect(state[table].size, table).toBeGreaterThan(0);
    const answer = await app.inject({ method: 'GET', url: '/_sim/snapshot', headers: control });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body === oneShotText(server.current, head(server), false)).toBe(true);
    await until(() => server.job === null);
  });

  it('is byte for byte the one-shot text on a world snapshotted by its replay log', async () => {
    const { server, app } = await serverFor(loaded, true);
    await server.advanceTo(server.nowMs + 10 * MINUTE);
    const registered = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { handle: 'stream_tester', description: 'caf\u00e9 \u2654 \ud83d\ude00' },
    });
    expect(registered.statusCode).toBe(200);
    server.airdrop('stream_tester', 5_000_000);
    await server.advanceTo(server.nowMs + 5 * MINUTE);
    const answer = await app.inject({ method: 'GET', url: '/_sim/snapshot', headers: control });
    const inputs = (JSON.parse(answer.body) as { inputs: unknown[] }).inputs;
    expect(inputs.length).toBeGreaterThan(2);
    expect(answer.body === oneShotText(server.current, head(server), true)).toBe(true);
  });

  it('keeps the world as it is while written: keyless reads answered, changes refused busy, one job at a time', async () => {
    const { server, app } = await serverFor(loaded, false);
    await server.advanceTo(server.nowMs + 10 * MINUTE);
    const key = await registeredKey(app);
    const before = server.snapshotText();
    const writing = await server.snapshot(); // unread: the job holds until the text is read
    expect(server.job).toBe('snapshot');
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const bearer = { authorization: `Bearer ${key}` };
    for (const refused of [
      await app.inject({ method: 'GET', url: '/api/whoami', headers: bearer }),
      await app.inject({
        method: 'POST',
        url: '/api/social/post',
        headers: bearer,
        payload: { content: 'hi' },
      }),
      await app.inject({
        method: 'POST',
        url: '/_sim/airdrop',
        headers: control,
        payload: { handle: 'reader_one', sol: 1 },
      }),
      await app.inject({
        method: 'POST',
        url: '/_sim/clock/advance',
        headers: control,
        payload: { ms: MINUTE },
      }),
      await app.inject({ method: 'GET', url: '/_sim/snapshot', headers: control }),
    ]) {
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json()).toMatchObject({ error: 'busy' });
      expect(refused.headers['retry-after']).toBe('1');
    }
    expect(await writing.text()).toBe(before);
    await until(() => server.job === null);
    expect((await app.inject({ method: 'GET', url: '/api/whoami', headers: bearer })).statusCode).toBe(200);
  });

  it('ends the job when the reader goes away or the job is cancelled', async () => {
    const { server } = await serverFor(loaded, false);
    const gone = await server.snapshot();
    gone.stream.destroy();
    await until(() => server.job === null);
    const cancelled = await server.snapshot();
    expect(server.cancel()).toBe(true);
    await expect(cancelled.text()).rejects.toThrow();
    await until(() => server.job === null);
    expect(await (await server.snapshot()).text()).toBe(server.snapshotText());
  });
});

describe('JSON text in pieces (kernel/json-parts)', () => {
  it('joins to JSON.stringify of the same data: rows, fields left out, lists and nulls', () => {
    const tree = {
      a: 1,
      gone: undefined,
      rows: new JsonRows([{ x: 1 }, undefined, 'two', [3, null]]),
      nested: { empty: new JsonRows([]), f: () => 1, s: 'caf\u00e9' },
      list: [undefined, { toJSON: () => 'j' }],
    };
    const text = [...jsonParts(tree)].join('');
    expect(text).toBe(JSON.stringify(materialized(tree)));
    expect(JSON.parse(text)).toEqual({
      a: 1,
      rows: [{ x: 1 }, null, 'two', [3, null]],
      nested: { empty: [], s: 'caf\u00e9' },
      list: [null, 'j'],
    });
  });
});

async function registeredKey(app: ReturnType<typeof buildServer>): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { handle: 'reader_one' },
  });
  expect(answer.statusCode).toBe(200);
  return answer.json<{ api_key: string }>().api_key;
}

async function until(done: () => boolean): Promise<void> {
  for (let turns = 0; !done(); turns++) {
    if (turns > 10_000) throw new Error('never happened');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
