import { describe, expect, it } from 'vitest';
import {
  expectApiError,
  expectErrorResponse,
  expectRejectedUnchanged,
  FOOLS_MATE,
  newWorld,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

interface Row {
  rank: number;
  agent: { handle: string };
  handle: string;
  elo: number;
  wins: number;
  losses: number;
  draws: number;
  games_played: number;
}

/** Black (`winner`) mates White (`loser`) in four plies. */
async function blackBeats(world: TestWorld, winner: TestAgent, loser: TestAgent): Promise<void> {
  const gameId = await world.game(loser, winner);
  await world.play(gameId, loser, winner, [...FOOLS_MATE]);
}

async function seq(world: TestWorld, handles: string[]): Promise<TestAgent[]> {
  const out: TestAgent[] = [];
  for (const handle of handles) out.push(await world.agent(handle));
  return out;
}

async function board(world: TestWorld, query: { limit?: number; offset?: number } = {}) {
  return (await world.client().leaderboard(query)) as unknown as { leaderboard: Row[]; total: number };
}

describe('GET /api/chess/leaderboard', () => {
  it('ranks only agents with a completed game, by Elo descending', async () => {
    const world = newWorld();
    const [a, b, c, d, idle] = await seq(world, ['alice', 'bob', 'carol', 'dave', 'idle']);
    expect((await board(world)).leaderboard).toEqual([]);

    // A live game alone does not rank anyone.
    const live = await world.game(d!, idle!);
    expect((await board(world)).total).toBe(0);

    await blackBeats(world, a!, b!); // alice 1220, bob 1180
    await blackBeats(world, a!, c!); // alice beats carol too
    await blackBeats(world, c!, b!); // carol recovers some, bob drops further
    const lb = await board(world);
    expect(lb.total).toBe(3);
    expect(lb.leaderboard.map((r) => r.handle)).toEqual(['alice', 'carol', 'bob']);
    expect(lb.leaderboard.map((r) => r.rank)).toEqual([1, 2, 3]);
    for (let i = 1; i < lb.leaderboard.length; i++)
      expect(lb.leaderboard[i - 1]!.elo).toBeGreaterThanOrEqual(lb.leaderboard[i]!.elo);
    expect(lb.leaderboard[0]).toMatchObject({
      agent: { handle: 'alice' },
      wins: 2,
      losses: 0,
      games_played: 2,
    });
    expect(lb.leaderboard[2]).toMatchObject({ handle: 'bob', wins: 0, losses: 2 });
    const byHandle = new Map([a!, b!, c!].map((x) => [x.handle, x.id]));
    for (const r of lb.leaderboard)
      expect(r.elo).toBe(world.platform.state.agents.get(byHandle.get(r.handle)!)!.elo);
    // The sum of ratings is conserved (fixed K: every game's changes cancel).
    expect(lb.leaderboard.reduce((s, r) => s + r.elo, 0)).toBe(3 * 1200);
    expect(lb.leaderboard.some((r) => r.handle === 'idle' || r.handle === 'dave')).toBe(false);

    // A timeout completes dave's game: both become ranked.
    world.advanceBy(5 * 60_000);
    expect(world.platform.state.games.get(live)!.status).toBe('completed');
    expect((await board(world)).total).toBe(5);
  });

  it('pages with limit and offset, and validates them', async () => {
    const world = newWorld();
    const [a, b, c] = await seq(world, ['alice', 'bob', 'carol']);
    await blackBeats(world, a!, b!);
    await blackBeats(world, a!, c!);
    const page = await board(world, { limit: 1, offset: 1 });
    expect(page.total).toBe(3);
    expect(page.leaderboard).toHaveLength(1);
    expect(page.leaderboard[0]!.rank).toBe(2);
    await expectApiError(world.client().leaderboard({ limit: 0 }), 'validation_error');
    await expectApiError(world.client().leaderboard({ offset: -1 }), 'validation_error');
  });

  it('breaks Elo ties in a stable order (more games, then handle)', async () => {
    const world = newWorld();
    const [a, b, c, d] = await seq(world, ['ddd', 'ccc', 'bbb', 'aaa']);
    await blackBeats(world, a!, b!); // ddd 1220, ccc 1180
    await blackBeats(world, c!, d!); // bbb 1220, aaa 1180
    expect((await board(world)).leaderboard.map((r) => r.handle)).toEqual(['bbb', 'ddd', 'aaa', 'ccc']);
    // At 1200 (draws at equal Elo change nothing): more games first, then handle.
    const [e, f] = [await world.agent('eee'), await world.agent('fff')];
    const g = await world.game(e, f);
    await world.play(g, e, f, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']); // threefold: both stay 1200
    const again = await world.game(e, f);
    await world.play(again, e, f, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
    const h = await world.agent('aab');
    const i = await world.agent('zzz');
    const g2 = await world.game(h, i);
    await world.play(g2, h, i, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
    const mid = (await board(world)).leaderboard.filter((r) => r.elo === 1200).map((r) => r.handle);
    expect(mid).toEqual(['eee', 'fff', 'aab', 'zzz']);
  });
});

describe('GET /api/chess/leaderboard/around', () => {
  async function ladder(world: TestWorld, n: number): Promise<TestAgent[]> {
    // Agent i wins i games against a punching bag, so ratings strictly increase with i.
    const agents: TestAgent[] = [];
    for (let i = 0; i < n; i++) agents.push(await world.agent(`pl${i}`));
    const bag = await world.agent('bag');
    for (let i = 0; i < n; i++) for (let w = 0; w <= i; w++) await blackBeats(world, agents[i]!, bag);
    return [...agents, bag];
  }

  it('returns half_window rows either side of the caller, with your_rank and total_ranked', async () => {
    const world = newWorld();
    const agents = await ladder(world, 6); // six climbers and the agent they all beat
    const full = (await board(world)).leaderboard;
    expect(full).toHaveLength(7);
    const byHandle = new Map(agents.map((x) => [x.handle, x]));
    const at = (rank: number) => byHandle.get(full[rank - 1]!.handle)!;
    type Around = { leaderboard: Row[]; your_rank: number | null; total_ranked: number };

    const middle = (await at(3).client.leaderboardAround(1)) as unknown as Around;
    expect(middle.your_rank).toBe(3);
    expect(middle.total_ranked).toBe(7);
    expect(middle.leaderboard.map((r) => [r.rank, r.handle])).toEqual(
      full.slice(1, 4).map((r) => [r.rank, r.handle]),
    );
    expect(middle.leaderboard[1]!.agent.handle).toBe(at(3).handle);

    const top = (await at(1).client.leaderboardAround(2)) as unknown as Around;
    expect(top.your_rank).toBe(1);
    expect(top.leaderboard.map((r) => r.rank)).toEqual([1, 2, 3]);

    const nearBottom = (await at(6).client.leaderboardAround(2)) as unknown as Around;
    expect(nearBottom.your_rank).toBe(6);
    expect(nearBottom.leaderboard.map((r) => r.rank)).toEqual([4, 5, 6, 7]);

    const wide = (await at(6).client.leaderboardAround(50)) as unknown as Around;
    expect(wide.leaderboard).toHaveLength(7);
    const byDefault = (await at(6).client.leaderboardAround()) as unknown as Around;
    expect(byDefault.leaderboard).toHaveLength(7);
  });

  it('gives an unranked caller no rank, and a window where its rating would sit', async () => {
    const world = newWorld();
    await ladder(world, 3);
    const fresh = await world.agent('fresh');
    const around = (await fresh.client.leaderboardAround(1)) as unknown as {
      leaderboard: Row[];
      your_rank: number | null;
      total_ranked: number;
    };
    expect(around.your_rank).toBeNull();
    expect(around.total_ranked).toBe(4);
    for (const row of around.leaderboard) expect(Math.abs(row.elo - 1200)).toBeLessThanOrEqual(200);
    expect(around.leaderboard.length).toBeLessThanOrEqual(2);
    expect(around.leaderboard.length).toBeGreaterThan(0);
  });

  it('validates half_window (1-50) and needs a key', async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    for (const half of [0, 51, -1, 1000])
      await expectRejectedUnchanged(world, () => a.client.leaderboardAround(half), 'validation_error');
    for (const text of ['1.5', 'x', '', ' ', ['1', '2']]) {
      const response = world.raw({
        method: 'GET',
        path: '/api/chess/leaderboard/around',
        key: a.apiKey,
        query: { half_window: text },
      });
      expectErrorResponse(response, 'validation_error');
    }
    expect((await a.client.leaderboardAround(1)).your_rank).toBeNull();
    expect((await a.client.leaderboardAround(50)).total_ranked).toBe(0);
    await expectApiError(world.client().leaderboardAround(5), 'authentication_required');
  });
});
