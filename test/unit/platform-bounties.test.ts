import { describe, expect, it } from 'vitest';
import type { GameDetail } from '../../src/client/wire.js';
import { toIso } from '../../src/kernel/clock.js';
import type { NetworkConditions } from '../../src/escrow/network.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import { airdrop } from '../../src/platform/money/transfers.js';
import type { Transfer } from '../../src/platform/state.js';
import {
  expectApiError,
  expectRejectedUnchanged,
  FIXED_NETWORK,
  FOOLS_MATE,
  newWorld,
  TURN_MS,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

const SOL = 1_000_000_000;
const RENT = 890_880;
// Every transfer lands exactly 1 s after it is queued, so activation and payouts can be timed to the millisecond.
const FIXED = FIXED_NETWORK;
// An odd lamport amount: 10% of the pot (246,913,578) is 24,691,357.8, so the fee floor is visible.
const STAKE_SOL = 0.123456789;
const STAKE = 123_456_789;
const POT = 2 * STAKE;
const FEE = 24_691_357;
const PRIZE = POT - FEE;
const START_LAMPORTS = SOL;
const THREEFOLD = ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8'] as const;
const FUNDING_WINDOW_MS = 10 * 60_000;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The money fields the wire adds to a bounty challenge, game detail or accept response. */
interface EscrowWire {
  bounty_sol: number | null;
  escrow_address: string | null;
  escrow_status: string | null;
  transfer_status: string | null;
}
type BountyGameView = GameDetail &
  EscrowWire & { cancel_reason: string | null; started_at: string | null; winner_handle: string | null };

function walletOf(world: TestWorld, agent: TestAgent): string {
  return world.platform.state.agents.get(agent.id)!.walletAddress;
}

function fund(world: TestWorld, agent: TestAgent, lamports: number): void {
  airdrop(world.platform, walletOf(world, agent), lamports);
}

function treasury(world: TestWorld): number {
  return world.platform.ledger.balance(world.platform.treasuryAddress);
}

function record(world: TestWorld): PlatformEvent[] {
  const events: PlatformEvent[] = [];
  world.platform.onEvent((event) => events.push(event));
  return events;
}

async function view(world: TestWorld, agent: TestAgent, gameId: string): Promise<BountyGameView> {
  return agent.client.game(gameId);
}

function transfersOf(world: TestWorld, escrow: string): Transfer[] {
  return [...world.platform.state.transfers.values()].filter((t) => t.to === escrow || t.from === escrow);
}

function ratingOf(world: TestWorld, agent: TestAgent) {
  const a = world.platform.state.agents.get(agent.id)!;
  return { elo: a.elo, wins: a.wins, losses: a.losses, draws: a.draws };
}

/** Exactly one opening and one closing of this escrow, with the given outcome. */
function expectOneEscrowLife(
  events: readonly PlatformEvent[],
  escrow: string,
  outcome: 'paid_out' | 'refunded',
): void {
  const opened = events.filter((e) => e.type === 'escrow_opened' && e.escrow === escrow);
  const closed = events.filter(
    (e): e is Extract<PlatformEvent, { type: 'escrow_closed' }> =>
      e.type === 'escrow_closed' && e.escrow === escrow,
  );
  expect(opened).toHaveLength(1);
  expect(closed).toHaveLength(1);
  expect(closed[0]!.outcome).toBe(outcome);
  expect(closed[0]!.lamportsOut).toBe(closed[0]!.lamportsIn);
}

interface Staked {
  world: TestWorld;
  events: PlatformEvent[];
  white: TestAgent;
  black: TestAgent;
  gameId: string;
  escrow: string;
  acceptedAtMs: number;
  treasuryBefore: number;
}

/** Alice (White) challenges Bob (Black) for STAKE; both start with 1 SOL; Bob accepts. */
async function stakedGame(world: TestWorld): Promise<Staked> {
  const events = record(world);
  const white = await world.agent('alice');
  const black = await world.agent('bob');
  fund(world, white, START_LAMPORTS);
  fund(world, black, START_LAMPORTS);
  const treasuryBefore = treasury(world);
  const created = await white.client.createChallenge({ opponent_handle: 'bob', bounty_sol: STAKE_SOL });
  const gameId = created.challenge.challenge_id;
  const acceptedAtMs = world.nowMs;
  await black.client.acceptChallenge(gameId);
  return {
    world,
    events,
    white,
    black,
    gameId,
    escrow: created.escrow_address!,
    acceptedAtMs,
    treasuryBefore,
  };
}

describe('bounty_sol validation', () => {
  it('refuses amounts outside 0.01-10 SOL, finer than a lamport, or not numbers (400), changing nothing', async () => {
    const world = newWorld({ network: FIXED });
    const a = await world.agent('alice');
    await world.agent('bob');
    fund(world, a, 25 * SOL);
    for (const bounty of [
      0, 0.009999999, 0.001, 10.000000001, 10.01, 11, -1, -0.01, 0.0100000001, 1.0000000001,
    ]) {
      const error = await expectRejectedUnchanged(
        world,
        () => a.client.createChallenge({ bounty_sol: bounty }),
        'validation_error',
      );
      expect(error.status).toBe(400);
      await expectRejectedUnchanged(
        world,
        () => a.client.createChallenge({ opponent_handle: 'bob', bounty_sol: bounty }),
        'validation_error',
      );
    }
    for (const bounty of ['1', '0.5', true, false, {}, [1], 'ten']) {
      const before = world.fingerprint();
      const response = world.raw({
        method: 'POST',
        path: '/api/chess/challenge',
        key: a.apiKey,
        body: { bounty_sol: bounty },
      });
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toBe('validation_error');
      expect(world.fingerprint()).toBe(before);
    }
    expect(world.platform.state.challenges.size).toBe(0);
  });

  it('accepts exactly 0.01 and exactly 10 SOL with enough balance', async () => {
    const world = newWorld({ network: FIXED });
    const a = await world.agent('alice');
    fund(world, a, 25 * SOL);
    const low = await a.client.createChallenge({ bounty_sol: 0.01 });
    const high = await a.client.createChallenge({ bounty_sol: 10 });
    expect(low.bounty_sol).toBe(0.01);
    expect(low.challenge.bounty_sol).toBe(0.01);
    expect(high.bounty_sol).toBe(10);
    expect(world.platform.state.challenges.get(low.challenge.challenge_id)!.bountyLamports).toBe(10_000_000);
    expect(world.platform.state.challenges.get(high.challenge.challenge_id)!.bountyLamports).toBe(10 * SOL);
    // Creating a challenge moves no lamports: the stakes are only reserved (test/unit/stake-reservation.test.ts),
    // and the wallet is untouched until an accept queues the deposits.
    expect(world.balance(a)).toBe(25 * SOL);
  });
});

describe('bounty stake checks', () => {
  it('refuses a creator without the stake (insufficient_balance, 400), changing nothing', async () => {
    const world = newWorld({ network: FIXED });
    const a = await world.agent('alice');
    await world.agent('bob');
    const e = await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge({ bounty_sol: STAKE_SOL }),
      'insufficient_balance',
    );
    expect(e.status).toBe(400);
    fund(world, a, STAKE - 1); // one lamport short
    await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge({ bounty_sol: STAKE_SOL }),
      'insufficient_balance',
    );
    await expectRejectedUnchanged(
      world,
      () => a.client.createChallenge({ opponent_handle: 'bob', bounty_sol: STAKE_SOL }),
      'insufficient_balance',
    );
    expect(world.platform.state.challenges.size).toBe(0);
    expect(world.balance(a)).toBe(STAKE - 1);
  });

  it('refuses a stake that would leave the wallet strictly between 0 and the rent-exempt minimum', async () => {
    const world = newWorld({ network: FIXED });
    const cases: Array<[string, number, boolean]> = [
      ['leaves1', STAKE + 1, false],
      ['leaves_rent_less_one', STAKE + RENT - 1, false],
      ['leaves_zero', STAKE, true],
      ['leaves_rent', STAKE + RENT, true],
    ];
    for (const [handle, lamports, ok] of cases) {
      const agent = await world.agent(handle);
      fund(world, agent, lamports);
      if (ok) expect((await agent.client.createChallenge({ bounty_sol: STAKE_SOL })).success).toBe(true);
      else
        await expectRejectedUnchanged(
          world,
          () => agent.client.createChallenge({ bounty_sol: STAKE_SOL }),
          'insufficient_balance',
        );
    }
  });

  it('refuses an acceptor without the stake, and the challenge stays open', async () => {
    const world = newWorld({ network: FIXED });
    const a = await world.agent('alice');
    const b = await world.agent('bob');
    fund(world, a, START_LAMPORTS);
    const created = await a.client.createChallenge({ bounty_sol: STAKE_SOL });
    const id = created.challenge.challenge_id;

    const e = await expectRejectedUnchanged(
      world,
      () => b.client.acceptChallenge(id),
      'insufficient_balance',
    );
    expect(e.status).toBe(400);
    fund(world, b, STAKE + 1); // enough lamports, but would leave 1 lamport behind
    await expectRejectedUnchanged(world, () => b.client.acceptChallenge(id), 'insufficient_balance');
    expect(world.platform.state.challenges.get(id)!.status).toBe('open');
    expect((await world.client().openChallenges()).challenges.map((c) => c.challenge_id)).toEqual([id]);
    expect(world.platform.state.games.has(id)).toBe(false);
    expect(world.platform.state.escrows.size).toBe(0);

    fund(world, b, RENT - 1); // now it leaves exactly the rent-exempt minimum
    const accepted = await b.client.acceptChallenge(id);
    expect(accepted.game.status).toBe('pending');
  });
});

describe('bounty funding and activation', () => {
  it('answers the creation and the accept with the escrow fields; the game is pending until the second deposit settles', async () => {
    const world = newWorld({ network: FIXED });
    const events = record(world);
    const a = await world.agent('alice');
    const b = await world.agent('bob');
    fund(world, a, START_LAMPORTS);
    fund(world, b, START_LAMPORTS);
    world.advanceBy(12_345);

    const created = await a.client.createChallenge({ opponent_handle: 'bob', bounty_sol: STAKE_SOL });
    expect(created).toMatchObject({
      success: true,
      bounty_sol: STAKE_SOL,
      escrow_status: 'awaiting_deposits',
      transfer_status: 'queued',
    });
    expect(created.challenge.bounty_sol).toBe(STAKE_SOL);
    const escrow = created.escrow_address!;
    expect(escrow).toMatch(BASE58);
    expect(escrow).not.toBe(walletOf(world, a));
    expect(escrow).not.toBe(world.platform.treasuryAddress);
    const id = created.challenge.challenge_id;

    const acceptedAt = world.nowMs;
    const accepted = (await b.client.acceptChallenge(id)) as Awaited<
      ReturnType<typeof b.client.acceptChallenge>
    > &
      EscrowWire;
    expect(accepted.game.status).toBe('pending');
    expect(accepted.game.game_id).toBe(id);
    expect(accepted).toMatchObject({
      bounty_sol: STAKE_SOL,
      escrow_address: escrow,
      escrow_status: 'awaiting_deposits',
      transfer_status: 'queued',
    });

    // Both deposits are queued: balances untouched, but the stakes are no longer available.
    expect(world.balance(a)).toBe(START_LAMPORTS);
    expect(world.balance(b)).toBe(START_LAMPORTS);
    const deposits = transfersOf(world, escrow).filter((t) => t.type === 'bounty_deposit');
    expect(deposits.map((t) => [t.from, t.lamports, t.status])).toEqual([
      [walletOf(world, a), STAKE, 'queued'],
      [walletOf(world, b), STAKE, 'queued'],
    ]);

    const pending = await view(world, a, id);
    expect(pending).toMatchObject({
      status: 'pending',
      turn_deadline_at: null,
      started_at: null,
      is_my_turn: false,
      escrow_status: 'awaiting_deposits',
    });
    await expectRejectedUnchanged(world, () => a.client.move({ game_id: id, move_san: 'e4' }), 'bad_request');
    await expectRejectedUnchanged(world, () => b.client.move({ game_id: id, move_san: 'e5' }), 'bad_request');

    world.advanceBy(999);
    expect(await view(world, a, id)).toMatchObject({
      status: 'pending',
      turn_deadline_at: null,
      transfer_status: 'queued',
    });
    await expectRejectedUnchanged(world, () => a.client.move({ game_id: id, move_san: 'e4' }), 'bad_request');
    expect(events.some((e) => e.type === 'game_started')).toBe(false);

    world.advanceBy(1);
    const activeAt = acceptedAt + 1000;
    expect(world.nowMs).toBe(activeAt);
    const active = await view(world, a, id);
    expect(active).toMatchObject({
      status: 'active',
      escrow_status: 'funded',
      transfer_status: 'settled',
      is_my_turn: true,
    });
    expect(active.started_at).toBe(toIso(activeAt));
    expect(active.turn_deadline_at).toBe(toIso(activeAt + TURN_MS));
    const started = events.filter((e) => e.type === 'game_started');
    expect(started).toEqual([
      {
        type: 'game_started',
        t: activeAt,
        gameId: id,
        whiteId: a.id,
        blackId: b.id,
        deadlineMs: activeAt + TURN_MS,
      },
    ]);
    expect(world.balance(a)).toBe(START_LAMPORTS - STAKE);
    expect(world.balance(b)).toBe(START_LAMPORTS - STAKE);
    expect(world.platform.ledger.balance(escrow)).toBe(POT);
    await a.client.move({ game_id: id, move_san: 'e4' });
  });

  it('activates a game whose second deposit lands at the very end of the funding window', async () => {
    const edge: NetworkConditions = {
      latencyMinMs: FUNDING_WINDOW_MS,
      latencyMaxMs: FUNDING_WINDOW_MS,
      faultRate: 0,
    };
    const { world, events, gameId, white, escrow, acceptedAtMs } = await stakedGame(
      newWorld({ network: edge }),
    );
    world.advanceTo(acceptedAtMs + FUNDING_WINDOW_MS);
    const game = await view(world, white, gameId);
    expect(game).toMatchObject({ status: 'active', escrow_status: 'funded', cancel_reason: null });
    expect(game.turn_deadline_at).toBe(toIso(acceptedAtMs + FUNDING_WINDOW_MS + TURN_MS));
    expect(events.some((e) => e.type === 'game_cancelled')).toBe(false);
    expect(world.platform.ledger.balance(escrow)).toBe(POT);
  });

  it('runs no deadline while pending, even for longer than a turn', async () => {
    const slow: NetworkConditions = { latencyMinMs: 9 * 60_000, latencyMaxMs: 9 * 60_000, faultRate: 0 };
    const { world, gameId, white, acceptedAtMs } = await stakedGame(newWorld({ network: slow }));
    world.advanceTo(acceptedAtMs + 9 * 60_000 - 1);
    expect(await view(world, white, gameId)).toMatchObject({
      status: 'pending',
      turn_deadline_at: null,
      result: null,
    });
    world.advanceBy(1);
    const game = await view(world, white, gameId);
    expect(game.status).toBe('active');
    expect(game.turn_deadline_at).toBe(toIso(acceptedAtMs + 9 * 60_000 + TURN_MS));
  });
});

describe('bounty settlement', () => {
  it('pays the winner the pot less the floored 10% fee, the fee to the treasury, and empties the escrow', async () => {
    expect(FEE).toBe(Math.floor((POT * 1000) / 10_000));
    const s = await stakedGame(newWorld({ network: FIXED }));
    const { world, white, black, gameId, escrow } = s;
    world.advanceBy(1000);
    expect((await view(world, white, gameId)).status).toBe('active');

    await world.play(gameId, white, black, FOOLS_MATE);
    const ended = await view(world, black, gameId);
    expect(ended).toMatchObject({
      status: 'completed',
      result: '0-1',
      end_reason: 'checkmate',
      winner_handle: 'bob',
      escrow_status: 'paying_out',
    });
    expect(s.events.filter((e) => e.type === 'bounty_settled')).toEqual([
      { type: 'bounty_settled', t: world.nowMs, gameId, pot: POT, fee: FEE, white: 0, black: PRIZE },
    ]);
    // Payouts are queued, not yet landed.
    expect(world.balance(black)).toBe(START_LAMPORTS - STAKE);
    expect(world.platform.ledger.balance(escrow)).toBe(POT);

    world.advanceBy(1000);
    expect(world.balance(black)).toBe(START_LAMPORTS - STAKE + PRIZE);
    expect(world.balance(black)).toBe(START_LAMPORTS + STAKE - FEE);
    expect(world.balance(white)).toBe(START_LAMPORTS - STAKE);
    expect(treasury(world) - s.treasuryBefore).toBe(FEE);
    expect(world.platform.ledger.balance(escrow)).toBe(0);
    expect((await view(world, white, gameId)).escrow_status).toBe('paid_out');
    const outflows = transfersOf(world, escrow).filter((t) => t.from === escrow);
    expect(outflows.map((t) => [t.type, t.to, t.lamports, t.status]).sort()).toEqual(
      [
        ['bounty_payout', walletOf(world, black), PRIZE, 'settled'],
        ['bounty_system_fee', world.platform.treasuryAddress, FEE, 'settled'],
      ].sort(),
    );
    expect(outflows.find((t) => t.type === 'bounty_system_fee')!.chargedToId).toBe(black.id);
    expectOneEscrowLife(s.events, escrow, 'paid_out');
  });

  it('returns both stakes in full on a draw, with no fee', async () => {
    const s = await stakedGame(newWorld({ network: FIXED }));
    const { world, white, black, gameId, escrow } = s;
    world.advanceBy(1000);
    await world.play(gameId, white, black, THREEFOLD);
    const ended = await view(world, white, gameId);
    expect(ended).toMatchObject({
      status: 'completed',
      result: '1/2-1/2',
      end_reason: 'threefold_repetition',
    });
    expect(s.events.filter((e) => e.type === 'bounty_settled')).toEqual([
      { type: 'bounty_settled', t: world.nowMs, gameId, pot: POT, fee: 0, white: STAKE, black: STAKE },
    ]);
    world.advanceBy(1000);
    expect(world.balance(white)).toBe(START_LAMPORTS);
    expect(world.balance(black)).toBe(START_LAMPORTS);
    expect(treasury(world)).toBe(s.treasuryBefore);
    expect(world.platform.ledger.balance(escrow)).toBe(0);
    const outflows = transfersOf(world, escrow).filter((t) => t.from === escrow);
    expect(outflows.every((t) => t.type !== 'bounty_system_fee')).toBe(true);
    expect(outflows.map((t) => t.lamports)).toEqual([STAKE, STAKE]);
    expect((await view(world, white, gameId)).escrow_status).toBe('paid_out');
    expectOneEscrowLife(s.events, escrow, 'paid_out');
  });

  it('pays a timeout win like any other win (here White wins when Black lets the clock run out)', async () => {
    const s = await stakedGame(newWorld({ network: FIXED }));
    const { world, white, black, gameId, escrow, acceptedAtMs } = s;
    world.advanceBy(1000);
    await white.client.move({ game_id: gameId, move_san: 'e4' });
    const blackDeadline = world.nowMs + TURN_MS;
    world.advanceTo(blackDeadline - 1);
    expect((await view(world, white, gameId)).status).toBe('active');
    world.advanceTo(blackDeadline);
    const ended = await view(world, white, gameId);
    expect(ended).toMatchObject({
      status: 'completed',
      result: '1-0',
      end_reason: 'timeout',
      winner_handle: 'alice',
    });
    expect(s.events.find((e) => e.type === 'bounty_settled')).toMatchObject({
      t: blackDeadline,
      pot: POT,
      fee: FEE,
      white: PRIZE,
      black: 0,
    });
    world.advanceBy(1000);
    expect(world.balance(white)).toBe(START_LAMPORTS - STAKE + PRIZE);
    expect(world.balance(black)).toBe(START_LAMPORTS - STAKE);
    expect(treasury(world) - s.treasuryBefore).toBe(FEE);
    expect(world.platform.ledger.balance(escrow)).toBe(0);
    expect((await view(world, white, gameId)).escrow_status).toBe('paid_out');
    expect(acceptedAtMs).toBeLessThan(blackDeadline);
    expectOneEscrowLife(s.events, escrow, 'paid_out');
  });
});

describe('bounty cancellation', () => {
  const FAULTY: NetworkConditions = { latencyMinMs: 1000, latencyMaxMs: 1000, faultRate: 0.5 };

  /** The first seed f0..f99 on which exactly one of the two deposits is lost (one attempt allowed) and the other lands. */
  async function splitDeposits(): Promise<(Staked & { seed: string }) | undefined> {
    for (let i = 0; i < 100; i++) {
      const seed = `f${i}`;
      const s = await stakedGame(
        newWorld({ seed, network: FAULTY, rules: { escrow: { depositMaxAttempts: 1 } } }),
      );
      s.world.advanceBy(1000);
      const deposits = transfersOf(s.world, s.escrow).filter((t) => t.type === 'bounty_deposit');
      const statuses = deposits.map((t) => t.status).sort();
      if (statuses[0] === 'failed' && statuses[1] === 'settled') return { ...s, seed };
    }
    return undefined;
  }

  it('cancels the game when a deposit fails, never rates it, and refunds the deposit that arrived', async () => {
    const found = await splitDeposits();
    expect(found, 'no seed in f0..f99 splits the deposits').toBeDefined();
    const { world, events, white, black, gameId, escrow, acceptedAtMs } = found!;
    const deposits = transfersOf(world, escrow).filter((t) => t.type === 'bounty_deposit');
    const failed = deposits.find((t) => t.status === 'failed')!;
    const landed = deposits.find((t) => t.status === 'settled')!;
    expect(failed).toMatchObject({ attempts: 1, failureReason: 'network_fault' });

    const game = await view(world, white, gameId);
    expect(game).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'deposit_failed',
      result: null,
      turn_deadline_at: null,
      transfer_status: 'failed',
    });
    expect(events.filter((e) => e.type === 'game_cancelled')).toEqual([
      { type: 'game_cancelled', t: acceptedAtMs + 1000, gameId, reason: 'deposit_failed' },
    ]);
    expect(
      events.some((e) => e.type === 'game_started' || e.type === 'game_ended' || e.type === 'bounty_settled'),
    ).toBe(false);
    for (const agent of [white, black])
      expect(ratingOf(world, agent)).toEqual({ elo: 1200, wins: 0, losses: 0, draws: 0 });
    await expectApiError(white.client.move({ game_id: gameId, move_san: 'e4' }), 'bad_request');

    // The refund leaves the escrow, where faults are retried until it lands.
    world.advanceBy(10 * 60_000);
    expect(world.balance(white)).toBe(START_LAMPORTS);
    expect(world.balance(black)).toBe(START_LAMPORTS);
    expect(world.platform.ledger.balance(escrow)).toBe(0);
    const refunds = transfersOf(world, escrow).filter((t) => t.type === 'bounty_refund');
    expect(refunds.map((t) => [t.to, t.lamports, t.status])).toEqual([[landed.from, STAKE, 'settled']]);
    expect((await view(world, white, gameId)).escrow_status).toBe('refunded');
    for (const agent of [white, black])
      expect(ratingOf(world, agent)).toEqual({ elo: 1200, wins: 0, losses: 0, draws: 0 });
    expectOneEscrowLife(events, escrow, 'refunded');
  });

  it('cancels at accept + the funding window exactly, and refunds both deposits when they land later', async () => {
    const late: NetworkConditions = { latencyMinMs: 11 * 60_000, latencyMaxMs: 11 * 60_000, faultRate: 0 };
    const s = await stakedGame(newWorld({ network: late }));
    const { world, events, white, black, gameId, escrow, acceptedAtMs } = s;
    world.advanceTo(acceptedAtMs + FUNDING_WINDOW_MS - 1);
    expect(await view(world, white, gameId)).toMatchObject({
      status: 'pending',
      escrow_status: 'awaiting_deposits',
    });

    world.advanceTo(acceptedAtMs + FUNDING_WINDOW_MS);
    expect(await view(world, white, gameId)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'funding_window_expired',
      escrow_status: 'refunding',
      transfer_status: 'queued',
    });
    expect(events.filter((e) => e.type === 'game_cancelled')).toEqual([
      {
        type: 'game_cancelled',
        t: acceptedAtMs + FUNDING_WINDOW_MS,
        gameId,
        reason: 'funding_window_expired',
      },
    ]);

    // The deposits land at accept + 11 min and go straight back; the refunds take another 11 min.
    world.advanceTo(acceptedAtMs + 11 * 60_000);
    expect(world.balance(white)).toBe(START_LAMPORTS - STAKE);
    expect(world.balance(black)).toBe(START_LAMPORTS - STAKE);
    expect(world.platform.ledger.balance(escrow)).toBe(POT);
    expect((await view(world, white, gameId)).status).toBe('cancelled');
    const refunds = transfersOf(world, escrow).filter((t) => t.type === 'bounty_refund');
    expect(refunds.map((t) => [t.to, t.lamports]).sort()).toEqual(
      [
        [walletOf(world, white), STAKE],
        [walletOf(world, black), STAKE],
      ].sort(),
    );

    world.advanceTo(acceptedAtMs + 22 * 60_000);
    expect(world.balance(white)).toBe(START_LAMPORTS);
    expect(world.balance(black)).toBe(START_LAMPORTS);
    expect(treasury(world)).toBe(s.treasuryBefore);
    expect(world.platform.ledger.balance(escrow)).toBe(0);
    expect((await view(world, white, gameId)).escrow_status).toBe('refunded');
    expect(events.some((e) => e.type === 'game_started')).toBe(false);
    for (const agent of [white, black])
      expect(ratingOf(world, agent)).toEqual({ elo: 1200, wins: 0, losses: 0, draws: 0 });
    const closed = events.find((e) => e.type === 'escrow_closed');
    expect(closed).toMatchObject({ t: acceptedAtMs + 22 * 60_000, lamportsIn: POT, lamportsOut: POT });
    expectOneEscrowLife(events, escrow, 'refunded');
  });
});
