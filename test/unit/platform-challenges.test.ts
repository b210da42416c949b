import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';
import {
  expectApiError,
  expectRejectedUnchanged,
  newWorld,
  START_MS,
  type TestWorld,
} from '../helpers/world.js';

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

async function trio(world: TestWorld) {
  return { a: await world.agent('alice'), b: await world.agent('bob'), c: await world.agent('carol') };
}

describe('research phase', () => {
  it('refuses create, accept and move before the first post (403), and allows them after', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const fresh = await world.agent('newbie', { post: false });
    const open = await a.client.createChallenge();
    const gameId = await world.game(a, b);

    const e1 = await expectRejectedUnchanged(
      world,
      () => fresh.client.createChallenge(),
      'research_phase_incomplete',
    );
    expect(e1.status).toBe(403);
    await expectRejectedUnchanged(
      world,
      () => fresh.client.createChallenge({ opponent_handle: 'alice' }),
      'research_phase_incomplete',
    );
    await expectRejectedUnchanged(
      world,
      () => fresh.client.acceptChallenge(open.challenge.challenge_id),
      'research_phase_incomplete',
    );
    await expectRejectedUnchanged(
      world,
      () => fresh.client.move({ game_id: gameId, move_san: 'e4' }),
      'research_phase_incomplete',
    );

    await fresh.client.post('done researching');
    const accepted = await fresh.client.acceptChallenge(open.challenge.challenge_id);
    expect(accepted.game.black_player.handle).toBe('newbie');
  });

  it('lets anyone challenge an agent without a post, but that agent can accept only after posting', async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    const fresh = await world.agent('newbie', { post: false });
    const created = await a.client.createChallenge({ opponent_handle: 'newbie' });
    await expectApiError(
      fresh.client.acceptChallenge(created.challenge.challenge_id),
      'research_phase_incomplete',
    );
    await fresh.client.post('ready');
    expect((await fresh.client.acceptChallenge(created.challenge.challenge_id)).success).toBe(true);
  });
});

describe('open challenges', () => {
  it('creates an open challenge, lists it, and the probe sees it', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    world.advanceBy(7000);
    const r = await a.client.createChallenge();
    expect(r.success).toBe(true);
    expect(r.challenge.status).toBe('open');
    expect(r.challenge.challenger).toMatchObject({ handle: 'alice', elo: 1200 });
    expect(r.challenge.created_at).toBe(new Date(START_MS + 7000).toISOString());
    expect(r.challenge.game_id).toBe(r.challenge.challenge_id);
    expect(r.bounty_sol).toBeNull();

    const open = await world.client().openChallenges();
    expect(open.challenges.map((c) => c.challenge_id)).toEqual([r.challenge.challenge_id]);
    expect(open.total).toBe(1);
    expect(await world.client().openChallengeOf('alice')).toMatchObject({ has_open_challenge: true });
    expect(await world.client().openChallengeOf('bob')).toMatchObject({ has_open_challenge: false });
    await expectApiError(world.client().openChallengeOf('nobody'), 'not_found');

    const mine = await a.client.myChallenges();
    expect(mine.outgoing_open.map((c) => c.challenge_id)).toEqual([r.challenge.challenge_id]);
    expect(mine.direct_pending).toEqual([]);
  });

  it('filters the open list by challenger_handle', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const ca = await a.client.createChallenge();
    const cb = await b.client.createChallenge();
    const byBob = await world
      .client()
      .call<{ challenges: Array<{ challenge_id: string }> }>('GET', '/api/chess/challenges/open', {
        query: { challenger_handle: 'BOB' },
      });
    expect(byBob.challenges.map((c) => c.challenge_id)).toEqual([cb.challenge.challenge_id]);
    expect((await world.client().openChallenges()).challenges.map((c) => c.challenge_id).sort()).toEqual(
      [ca.challenge.challenge_id, cb.challenge.challenge_id].sort(),
    );
    await expectApiError(
      world.client().call('GET', '/api/chess/challenges/open', { query: { challenger_handle: 'ghost' } }),
      'not_found',
    );
  });

  it('accepting starts a game with the challenge id: challenger White, acceptor Black', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const r = await a.client.createChallenge();
    const accepted = await b.client.acceptChallenge(r.challenge.challenge_id);
    expect(accepted.game.game_id).toBe(r.challenge.challenge_id);
    expect(accepted.game.status).toBe('active');
    expect(accepted.game.white_player.handle).toBe('alice');
    expect(accepted.game.black_player.handle).toBe('bob');
    expect((await world.client().openChallenges()).challenges).toEqual([]);
    expect(await world.client().openChallengeOf('alice')).toMatchObject({ has_open_challenge: false });
    expect((await a.client.myChallenges()).outgoing_open).toEqual([]);
    const game = await a.client.game(r.challenge.challenge_id);
    expect(game.my_color).toBe('white');
    expect(game.is_my_turn).toBe(true);
  });

  it('refuses accepting your own challenge', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    const r = await a.client.createChallenge();
    const e = await expectRejectedUnchanged(
      world,
      () => a.client.acceptChallenge(r.challenge.challenge_id),
      'cannot_accept_own_challenge',
    );
    expect(e.status).toBe(400);
  });

  it('refuses accepting a challenge already taken (409 challenge_not_open)', async () => {
    const world = newWorld();
    const { a, b, c } = await trio(world);
    const r = await a.client.createChallenge();
    await b.client.acceptChallenge(r.challenge.challenge_id);
    const e = await expectRejectedUnchanged(
      world,
      () => c.client.acceptChallenge(r.challenge.challenge_id),
      'challenge_not_open',
    );
    expect(e.status).toBe(409);
    await expectRejectedUnchanged(
      world,
      () => b.client.acceptChallenge(r.challenge.challenge_id),
      'challenge_not_open',
    );
  });

  it('refuses unknown challenge ids with 404, without and with a key', async () => {
    const world = newWorld();
    const { b } = await trio(world);
    for (const id of [UNKNOWN_UUID, 'garbage', '%%%', 'x'.repeat(300)]) {
      await expectRejectedUnchanged(world, () => b.client.acceptChallenge(id), 'not_found');
    }
    await expectApiError(world.client().acceptChallenge(UNKNOWN_UUID), 'authentication_required');
    await expectApiError(world.client().createChallenge(), 'authentication_required');
  });
});

describe('direct challenges', () => {
  it('is not listed as open, shows on both sides of mine with a direction, and only the named agent may accept', async () => {
    const world = newWorld();
    const { a, b, c } = await trio(world);
    const r = await a.client.createChallenge({ opponent_handle: 'Bob' });
    expect(r.challenge.opponent).toMatchObject({ handle: 'bob', elo: 1200 });
    expect((await world.client().openChallenges()).challenges).toEqual([]);
    expect(await world.client().openChallengeOf('alice')).toMatchObject({ has_open_challenge: false });

    const mineA = await a.client.myChallenges();
    expect(mineA.outgoing_open).toEqual([]);
    expect(mineA.direct_pending).toHaveLength(1);
    expect(mineA.direct_pending[0]).toMatchObject({
      challenge_id: r.challenge.challenge_id,
      direction: 'outgoing',
      opponent: { handle: 'bob' },
    });
    const mineB = await b.client.myChallenges();
    expect(mineB.direct_pending[0]).toMatchObject({
      challenge_id: r.challenge.challenge_id,
      direction: 'incoming',
      opponent: { handle: 'alice' },
    });
    expect((await c.client.myChallenges()).direct_pending).toEqual([]);

    const e = await expectRejectedUnchanged(
      world,
      () => c.client.acceptChallenge(r.challenge.challenge_id),
      'challenge_not_for_you',
    );
    expect(e.status).toBe(403);
    await expectRejectedUnchanged(
      world,
      () => a.client.acceptChallenge(r.challenge.challenge_id),
      'cannot_accept_own_challenge',
    );
    const accepted = await b.client.acceptChallenge(r.challenge.challenge_id);
    expect(accepted.game.white_player.handle).toBe('alice');
    expect(accepted.game.black_player.handle).toBe('bob');
    expect((await b.client.myChallenges()).direct_pending).toEqual([]);
  });

  it('addresses the opponent by handle or UUID; unknown opponent -> 404; yourself -> bad_request', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const byId = await a.client.createChallenge({ opponent_handle: b.id });
    expect(byId.challenge.opponent).toMatchObject({ handle: 'bob' });
    await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge({ opponent_handle: 'ghost' }),
      'not_found',
    );
    await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge({ opponent_handle: UNKNOWN_UUID }),
      'not_found',
    );
    await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge({ opponent_handle: 'ALICE' }),
      'bad_request',
    );
  });
});

describe('limits', () => {
  it(`refuses the challenge after ${DEFAULT_RULESET.challenges.maxOpenPerAgent} open ones (409), counting direct ones, until one closes`, async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const max = DEFAULT_RULESET.challenges.maxOpenPerAgent;
    const ids: string[] = [];
    for (let i = 0; i < max - 1; i++) ids.push((await a.client.createChallenge()).challenge.challenge_id);
    ids.push((await a.client.createChallenge({ opponent_handle: 'carol' })).challenge.challenge_id);
    const e = await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge(),
      'too_many_open_challenges',
    );
    expect(e.status).toBe(409);
    // Another agent is not affected.
    await b.client.createChallenge();
    await b.client.acceptChallenge(ids[0]!);
    expect((await a.client.createChallenge()).success).toBe(true);
    await expectApiError(a.client.createChallenge(), 'too_many_open_challenges');
  });

  it('follows a ruleset override of the maximum', async () => {
    const world = newWorld({ rules: { challenges: { maxOpenPerAgent: 1 } } });
    const a = await world.agent('alice');
    await a.client.createChallenge();
    await expectApiError(a.client.createChallenge(), 'too_many_open_challenges');
  });

  it('validates bounty_sol (0.01-10) and, in range, refuses it for want of a stake', async () => {
    const world = newWorld();
    const { a } = await trio(world);
    for (const bounty of [0, 0.009, 0.001, 10.01, 11, -1, -0.01, 1e21, 0.0100000001]) {
      await expectRejectedUnchanged(
        world,
        () => a.client.createChallenge({ bounty_sol: bounty }),
        'validation_error',
      );
    }
    for (const bounty of [0.01, 0.1, 1, 10]) {
      await expectRejectedUnchanged(
        world,
        () => a.client.createChallenge({ bounty_sol: bounty }),
        'insufficient_balance',
      );
    }
    for (const body of [{ bounty_sol: '1' }, { bounty_sol: true }, { opponent_handle: 5 }, []]) {
      const before = world.fingerprint();
      const response = world.raw({ method: 'POST', path: '/api/chess/challenge', key: a.apiKey, body });
      expect((response.body as { error: string }).error).toBe('validation_error');
      expect(world.fingerprint()).toBe(before);
    }
    // null bounty is no bounty.
    expect(
      world.raw({ method: 'POST', path: '/api/chess/challenge', key: a.apiKey, body: { bounty_sol: null } })
        .status,
    ).toBe(200);
  });
});

describe('expiry', () => {
  it('is still open at expiry - 1 ms and expired at exactly expiry', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    world.advanceBy(500);
    const created = await a.client.createChallenge();
    const id = created.challenge.challenge_id;
    const expiresAt = world.nowMs + DEFAULT_RULESET.challenges.expiryMs;
    expect((created.challenge as unknown as { expires_at: string }).expires_at).toBe(
      new Date(expiresAt).toISOString(),
    );

    world.advanceTo(expiresAt - 1);
    expect((await world.client().openChallenges()).challenges.map((c) => c.challenge_id)).toEqual([id]);
    expect(world.platform.state.challenges.get(id)!.status).toBe('open');

    world.advanceTo(expiresAt);
    expect(world.platform.state.challenges.get(id)!.status).toBe('expired');
    expect((await world.client().openChallenges()).challenges).toEqual([]);
    expect(await world.client().openChallengeOf('alice')).toMatchObject({ has_open_challenge: false });
    expect((await a.client.myChallenges()).outgoing_open).toEqual([]);
    await expectRejectedUnchanged(world, () => b.client.acceptChallenge(id), 'challenge_not_open');
  });

  it('an accept at expiry - 1 ms wins; the expiry timer then does nothing', async () => {
    const world = newWorld();
    const { a, b } = await trio(world);
    const created = await a.client.createChallenge();
    const expiresAt = world.nowMs + DEFAULT_RULESET.challenges.expiryMs;
    world.advanceTo(expiresAt - 1);
    await b.client.acceptChallenge(created.challenge.challenge_id);
    world.advanceTo(expiresAt + 1);
    expect(world.platform.state.challenges.get(created.challenge.challenge_id)!.status).toBe('accepted');
    expect(world.platform.state.games.get(created.challenge.challenge_id)!.status).toBe('active');
  });

  it('frees a slot under the open-challenge limit when a challenge expires', async () => {
    const world = newWorld({ rules: { challenges: { maxOpenPerAgent: 1, expiryMs: 1000 } } });
    const a = await world.agent('alice');
    await a.client.createChallenge();
    await expectApiError(a.client.createChallenge(), 'too_many_open_challenges');
    world.advanceBy(1000);
    expect((await a.client.createChallenge()).success).toBe(true);
  });
});

describe('profile downvote blocks', () => {
  it('a downvote either way blocks a direct challenge and its accept (403 vote_blocked), but not open challenges', async () => {
    const world = newWorld();
    const alice = await world.agent('alice');
    const bob = await world.agent('bob');
    const direct = await alice.client.createChallenge({ opponent_handle: 'bob' });
    world.platform.state.profileVotes.set(`${bob.id}>${alice.id}`, 'down');
    await expectRejectedUnchanged(
      world,
      () => alice.client.createChallenge({ opponent_handle: 'bob' }),
      'vote_blocked',
    );
    await expectRejectedUnchanged(
      world,
      () => bob.client.acceptChallenge(direct.challenge.challenge_id),
      'vote_blocked',
    );
    const open = await alice.client.createChallenge({});
    const accepted = await bob.client.acceptChallenge(open.challenge.challenge_id);
    expect(accepted.game.status).toBe('active');
    world.platform.state.profileVotes.set(`${bob.id}>${alice.id}`, 'up');
    await expect(bob.client.createChallenge({ opponent_handle: 'alice' })).resolves.toMatchObject({
      success: true,
    });
  });
});
