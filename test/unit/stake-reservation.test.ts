import { describe, expect, it } from 'vitest';
import { availableLamports, reservedLamports } from '../../src/platform/money/transfers.js';
import {
  expectRejectedUnchanged,
  FIXED_NETWORK,
  newWorld,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

/**
 * An open bounty challenge reserves its challenger's stake (docs/rules.md, Bounties): every other spend
 * (another challenge, accepting someone else's bounty, a tournament's entry fee or prize fund) sees the
 * balance minus the reservation, and the reservation ends when the challenge expires or is accepted (the
 * queued deposit then holds the stake). Transfers land exactly 1 s after they are queued.
 */
const SOL = 1_000_000_000;
const EXPIRY_MS = 60 * 60_000;
const RULES = { tournaments: { creatorMinGames: 0 } };

function wallet(world: TestWorld, agent: TestAgent): string {
  return world.platform.state.agents.get(agent.id)!.walletAddress;
}

function reserved(world: TestWorld, agent: TestAgent): number {
  return reservedLamports(world.platform, wallet(world, agent));
}

function available(world: TestWorld, agent: TestAgent): number {
  return availableLamports(world.platform, wallet(world, agent));
}

async function funded(world: TestWorld, handle: string, sol: number): Promise<TestAgent> {
  const agent = await world.agent(handle);
  world.airdrop(agent, sol);
  return agent;
}

describe('an open bounty challenge reserves its stake', () => {
  it('lets a 1 SOL wallet promise 0.9 SOL once: the other four of five challenges are refused, changing nothing', async () => {
    const world = newWorld({ network: FIXED_NETWORK });
    const alice = await funded(world, 'alice', 1);
    const first = await alice.client.createChallenge({ bounty_sol: 0.9 });
    expect(first.success).toBe(true);
    expect(reserved(world, alice)).toBe(0.9 * SOL);
    expect(available(world, alice)).toBe(0.1 * SOL);
    expect(world.balance(alice)).toBe(SOL); // a reservation moves no lamports
    for (let i = 0; i < 4; i++) {
      const refused = await expectRejectedUnchanged(
        world,
        () => alice.client.createChallenge({ bounty_sol: 0.9 }),
        'insufficient_balance',
      );
      expect(refused.status).toBe(400);
      expect(refused.message).toContain('reserved by open challenges');
      expect(refused.message).toContain('0.9 SOL of the balance');
    }
    // What is left can still be promised, to the lamport; then nothing more.
    expect((await alice.client.createChallenge({ bounty_sol: 0.1 })).success).toBe(true);
    expect(reserved(world, alice)).toBe(SOL);
    expect(available(world, alice)).toBe(0);
    await expectRejectedUnchanged(
      world,
      () => alice.client.createChallenge({ bounty_sol: 0.01 }),
      'insufficient_balance',
    );
    // A challenge without a bounty promises nothing and is still allowed.
    expect((await alice.client.createChallenge()).success).toBe(true);
  });

  it('counts direct bounty challenges too, and keeps the rent rule on what is left', async () => {
    const world = newWorld({ network: FIXED_NETWORK });
    const alice = await funded(world, 'alice', 1);
    await world.agent('bob');
    await alice.client.createChallenge({ opponent_handle: 'bob', bounty_sol: 0.5 });
    // 0.5 SOL is free: a stake leaving 1 lamport (below the rent-exempt minimum) is refused as before.
    const dusty = await expectRejectedUnchanged(
      world,
      () => alice.client.createChallenge({ bounty_sol: 0.499999999 }),
      'insufficient_balance',
    );
    expect(dusty.message).toContain('rent-exempt minimum');
    expect(dusty.message).toContain('reserved by open challenges');
    expect((await alice.client.createChallenge({ opponent_handle: 'bob', bounty_sol: 0.5 })).success).toBe(
      true,
    );
  });

  it('releases the stake when the challenge expires (still held 1 ms before)', async () => {
    const world = newWorld({ network: FIXED_NETWORK });
    const alice = await funded(world, 'alice', 1);
    const created = await alice.client.createChallenge({ bounty_sol: 0.9 });
    world.advanceBy(EXPIRY_MS - 1);
    await expectRejectedUnchanged(
      world,
      () => alice.client.createChallenge({ bounty_sol: 0.9 }),
      'insufficient_balance',
    );
    world.advanceBy(1);
    expect(world.platform.state.challenges.get(created.challenge.challenge_id)!.status).toBe('expired');
    expect(reserved(world, alice)).toBe(0);
    expect(available(world, alice)).toBe(SOL);
    expect(world.platform.state.reservedByAddress.size).toBe(0); // no zero entries left behind
    expect((await alice.client.createChallenge({ bounty_sol: 0.9 })).success).toBe(true);
  });

  it('turns the reservation into the queued deposit at accept: the game is funded, never cancelled', async () => {
    const world = newWorld({ network: FIXED_NETWORK });
    const alice = await funded(world, 'alice', 1);
    const bob = await funded(world, 'bob', 1);
    const created = await alice.client.createChallenge({ bounty_sol: 0.9 });
    for (let i = 0; i < 4; i++)
      await expectRejectedUnchanged(
        world,
        () => alice.client.createChallenge({ bounty_sol: 0.9 }),
        'insufficient_balance',
      );

    const accepted = await bob.client.acceptChallenge(created.challenge.challenge_id);
    expect(accepted.game.status).toBe('pending');
    const p = world.platform;
    expect(reserved(world, alice)).toBe(0);
    expect(p.state.pendingOutByAddress.get(wallet(world, alice))).toBe(0.9 * SOL); // the deposit now holds it
    expect(available(world, alice)).toBe(0.1 * SOL); // unchanged across the handover
    await expectRejectedUnchanged(
      world,
      () => alice.client.createChallenge({ bounty_sol: 0.9 }),
      'insufficient_balance',
    );

    world.advanceBy(1000);
    expect(p.state.games.get(accepted.game.game_id)!.status).toBe('active');
    expect(world.balance(alice)).toBe(0.1 * SOL);
    expect(available(world, alice)).toBe(0.1 * SOL);
    expect([...p.state.games.values()].filter((g) => g.status === 'cancelled')).toEqual([]);
  });

  it('refuses a taker whose balance is reserved by its own open challenge, until that challenge closes', async () => {
    const world = newWorld({ network: FIXED_NETWORK });
    const alice = await funded(world, 'alice', 1);
    const bob = await funded(world, 'bob', 1);
    const offer = await alice.client.createChallenge({ bounty_sol: 0.5 });
    await bob.client.createChallenge({ bounty_sol: 0.9 });
    const refused = await expectRejectedUnchanged(
      world,
      () => bob.client.acceptChallenge(offer.challenge.challenge_id),
      'insufficient_balance',
    );
    expect(refused.message).toContain('the bounty stake needs 0.5 SOL; available 0.1 SOL');
    expect(refused.message).toContain('reserved by open challenges');
    expect(world.platform.state.challenges.get(offer.challenge.challenge_id)!.status).toBe('open');

    world.advanceBy(EXPIRY_MS); // both challenges expire; alice opens a new one
    const again = await alice.client.createChallenge({ bounty_sol: 0.5 });
    expect((await bob.client.acceptChallenge(again.challenge.challenge_id)).game.status).toBe('pending');
  });

  it('holds back a tournament entry fee and a prize fund the reservation covers', async () => {
    const world = newWorld({ rules: RULES, network: FIXED_NETWORK });
    const creator = await funded(world, 'creator', 1);
    const entrant = await funded(world, 'entrant', 1);
    const tournament = (
      await creator.client.createTournament({ name: 'Cup', max_participants: 8, entry_fee_sol: 0.25 })
    ).tournament.id;

    await entrant.client.createChallenge({ bounty_sol: 0.8 });
    const fee = await expectRejectedUnchanged(
      world,
      () => entrant.client.joinTournament(tournament),
      'insufficient_balance',
    );
    expect(fee.message).toContain('the entry fee needs 0.25 SOL; available 0.2 SOL');
    expect(fee.message).toContain('reserved by open challenges');

    await creator.client.createChallenge({ bounty_sol: 0.6 });
    const prize = await expectRejectedUnchanged(
      world,
      () => creator.client.createTournament({ name: 'Big', max_participants: 8, prize_sol: 0.5 }),
      'insufficient_balance',
    );
    expect(prize.message).toContain('the prize fund needs 0.5 SOL; available 0.4 SOL');

    world.advanceBy(EXPIRY_MS); // the entrant's challenge expires: the fee is payable again
    expect((await entrant.client.joinTournament(tournament)).success).toBe(true);
  });

  it('keeps the index equal to the open challenges it summarises, and in the state fingerprint', async () => {
    const world = newWorld({ network: FIXED_NETWORK });
    const alice = await funded(world, 'alice', 3);
    await alice.client.createChallenge({ bounty_sol: 0.25 });
    await alice.client.createChallenge({ bounty_sol: 1.5 });
    await alice.client.createChallenge();
    expect(reserved(world, alice)).toBe(1.75 * SOL);
    expect(world.fingerprint()).toContain(`"reservedByAddress":[["${wallet(world, alice)}",${1.75 * SOL}]]`);
  });
});
