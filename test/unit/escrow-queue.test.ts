import { describe, expect, it } from 'vitest';
import { crossCheck, describeCrossCheck } from '../../src/escrow/litesvm.js';
import type { NetworkConditions } from '../../src/escrow/network.js';
import { PlatformError } from '../../src/kernel/errors.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import type { Platform } from '../../src/platform/platform.js';
import type { Transfer, TransferType } from '../../src/platform/state.js';
import {
  airdrop,
  availableLamports,
  fundVerifiedAgent,
  queueTransfer,
  requireSpendable,
} from '../../src/platform/money/transfers.js';
import { FOOLS_MATE, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

const SOL = 1_000_000_000;
const RENT = 890_880;
const RETRY_MS = 5_000;

function fixed(latencyMs: number, faultRate = 0): NetworkConditions {
  return { latencyMinMs: latencyMs, latencyMaxMs: latencyMs, faultRate };
}

function record(world: TestWorld): PlatformEvent[] {
  const events: PlatformEvent[] = [];
  world.platform.onEvent((event) => events.push(event));
  return events;
}

function walletOf(world: TestWorld, agent: TestAgent): string {
  return world.platform.state.agents.get(agent.id)!.walletAddress;
}

/** A plain wallet outside any agent, opened straight on the ledger. */
function openWallet(p: Platform, name: string): string {
  return p.ledger.open('wallet', p.stream(`test-wallet:${name}`));
}

/** A transfer with no escrow behind it (purpose "funding"), so only the queue's own rules apply. */
function send(
  p: Platform,
  from: string,
  to: string,
  lamports: number,
  type: TransferType = 'devnet_funding',
): Transfer {
  return queueTransfer(p, {
    type,
    from,
    to,
    lamports,
    agentId: null,
    purpose: { kind: 'funding' },
    description: `test ${type}`,
  });
}

function ofTransfer<K extends PlatformEvent['type']>(
  events: readonly PlatformEvent[],
  type: K,
  id: string,
): Array<Extract<PlatformEvent, { type: K }>> {
  return events.filter(
    (e): e is Extract<PlatformEvent, { type: K }> =>
      e.type === type && 'transferId' in e && e.transferId === id,
  );
}

function expectPlatformError(call: () => unknown, code: string): void {
  let caught: unknown;
  try {
    call();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(PlatformError);
  expect((caught as PlatformError).code).toBe(code);
}

describe('latency', () => {
  it('settles a transfer exactly at queue time + the fixed latency, not a millisecond earlier', () => {
    const L = 1_234;
    const world = newWorld({ network: fixed(L) });
    const events = record(world);
    const p = world.platform;
    const to = openWallet(p, 'dest');
    world.advanceBy(777);
    const queuedAt = world.nowMs;
    const t = send(p, p.treasuryAddress, to, 2 * SOL);
    expect(ofTransfer(events, 'transfer_queued', t.id)).toEqual([
      {
        type: 'transfer_queued',
        t: queuedAt,
        transferId: t.id,
        transferType: 'devnet_funding',
        from: p.treasuryAddress,
        to,
        lamports: 2 * SOL,
        dueMs: queuedAt + L,
      },
    ]);
    world.advanceTo(queuedAt + L - 1);
    expect(t.status).toBe('queued');
    expect(p.ledger.balance(to)).toBe(0);
    world.advanceTo(queuedAt + L);
    expect(t).toMatchObject({
      status: 'settled',
      attempts: 1,
      settledAtMs: queuedAt + L,
      createdAtMs: queuedAt,
    });
    expect(p.ledger.balance(to)).toBe(2 * SOL);
    expect(ofTransfer(events, 'transfer_settled', t.id)).toHaveLength(1);
    expect(ofTransfer(events, 'transfer_settled', t.id)[0]!.t).toBe(queuedAt + L);
  });

  it('settles a zero-latency transfer at the instant it was queued, on the next tick of the clock', () => {
    const world = newWorld({ network: fixed(0) });
    const p = world.platform;
    const to = openWallet(p, 'dest');
    world.advanceBy(50);
    const t = send(p, p.treasuryAddress, to, SOL);
    const at = world.nowMs;
    world.advanceBy(0);
    expect(t).toMatchObject({ status: 'settled', settledAtMs: at });
  });

  /** Queues 12 transfers at staggered times on a seeded world and returns when each settled. */
  function settleTimes(seed: string, network: NetworkConditions): number[] {
    const world = newWorld({ seed, network });
    const p = world.platform;
    const to = openWallet(p, 'dest');
    const transfers: Transfer[] = [];
    for (let i = 0; i < 12; i++) {
      transfers.push(send(p, p.treasuryAddress, to, SOL + i));
      world.advanceBy(137 * (i + 1));
    }
    world.advanceBy(60_000);
    expect(transfers.every((t) => t.status === 'settled')).toBe(true);
    return transfers.map((t) => t.settledAtMs! - t.createdAtMs);
  }

  it('is reproducible from the seed and differs between seeds when min < max', () => {
    const network: NetworkConditions = { latencyMinMs: 100, latencyMaxMs: 9_000, faultRate: 0 };
    const a = settleTimes('latency-seed-a', network);
    expect(settleTimes('latency-seed-a', network)).toEqual(a);
    const b = settleTimes('latency-seed-b', network);
    expect(b).not.toEqual(a);
    for (const latency of [...a, ...b]) {
      expect(latency).toBeGreaterThanOrEqual(100);
      expect(latency).toBeLessThanOrEqual(9_000);
    }
    // With min === max every seed gives the same latency.
    expect(settleTimes('latency-seed-a', fixed(2_500))).toEqual(settleTimes('latency-seed-b', fixed(2_500)));
    expect(new Set(settleTimes('latency-seed-c', fixed(2_500)))).toEqual(new Set([2_500]));
  });
});

describe('faults and retries', () => {
  it('retries a lost attempt after escrow.retryDelayMs + the latency', () => {
    const L = 1_000;
    const retryMs = 7_000;
    const world = newWorld({
      seed: 'retry',
      network: fixed(L, 0.5),
      rules: { escrow: { retryDelayMs: retryMs } },
    });
    const events = record(world);
    const p = world.platform;
    const to = openWallet(p, 'dest');
    const transfers = Array.from({ length: 30 }, (_, i) => send(p, p.treasuryAddress, to, SOL + i));
    world.advanceBy(60 * 60_000);
    let retried = 0;
    for (const t of transfers) {
      expect(t.status).toBe('settled');
      const retries = ofTransfer(events, 'transfer_retried', t.id);
      expect(retries.map((r) => r.attempt)).toEqual(Array.from({ length: t.attempts - 1 }, (_, i) => i + 1));
      // Attempt k lands at created + k*L + (k-1)*retry; each retry is announced at the lost attempt's time.
      retries.forEach((r, i) => {
        const lostAt = t.createdAtMs + (i + 1) * L + i * retryMs;
        expect(r.t).toBe(lostAt);
        expect(r.dueMs).toBe(lostAt + retryMs + L);
      });
      expect(t.settledAtMs).toBe(t.createdAtMs + t.attempts * L + (t.attempts - 1) * retryMs);
      if (t.attempts > 1) retried++;
    }
    expect(retried).toBeGreaterThan(0);
  });

  it('fails a deposit once escrow.depositMaxAttempts attempts are lost, releasing its hold on the wallet', () => {
    const L = 1_000;
    const world = newWorld({
      seed: 'deposits',
      network: fixed(L, 0.5),
      rules: { escrow: { depositMaxAttempts: 3 } },
    });
    const events = record(world);
    const p = world.platform;
    const wallet = openWallet(p, 'payer');
    const sink = openWallet(p, 'sink');
    airdrop(p, wallet, 100 * SOL);
    const deposits = Array.from({ length: 40 }, () => send(p, wallet, sink, SOL, 'bounty_deposit'));
    expect(availableLamports(p, wallet)).toBe(60 * SOL);
    world.advanceBy(10 * 60_000);
    const failed = deposits.filter((t) => t.status === 'failed');
    const settled = deposits.filter((t) => t.status === 'settled');
    expect(failed.length).toBeGreaterThan(0);
    expect(settled.some((t) => t.attempts > 1)).toBe(true);
    expect(failed.length + settled.length).toBe(deposits.length);
    for (const t of failed) {
      expect(t).toMatchObject({ attempts: 3, failureReason: 'network_fault', settledAtMs: null });
      const failure = ofTransfer(events, 'transfer_failed', t.id);
      expect(failure).toEqual([
        {
          type: 'transfer_failed',
          t: t.createdAtMs + 3 * L + 2 * RETRY_MS,
          transferId: t.id,
          transferType: 'bounty_deposit',
          reason: 'network_fault',
          attempts: 3,
        },
      ]);
      expect(ofTransfer(events, 'transfer_retried', t.id)).toHaveLength(2);
    }
    for (const t of settled) expect(t.attempts).toBeLessThanOrEqual(3);
    expect(p.ledger.balance(sink)).toBe(settled.length * SOL);
    expect(p.ledger.balance(wallet)).toBe((100 - settled.length) * SOL);
    expect(availableLamports(p, wallet)).toBe(p.ledger.balance(wallet));
  });

  it('retries an escrow payout until it lands, past the deposit limit (fault rate 0.5)', () => {
    const world = newWorld({
      seed: 'payouts',
      network: fixed(500, 0.5),
      rules: { escrow: { depositMaxAttempts: 2 } },
    });
    const p = world.platform;
    const to = openWallet(p, 'dest');
    const types: TransferType[] = [
      'bounty_payout',
      'bounty_refund',
      'bounty_system_fee',
      'tournament_payout',
      'tournament_refund',
      'devnet_funding',
    ];
    const payouts = Array.from({ length: 180 }, (_, i) =>
      send(p, p.treasuryAddress, to, SOL, types[i % types.length]),
    );
    world.advanceBy(2 * 60 * 60_000);
    expect(payouts.every((t) => t.status === 'settled')).toBe(true);
    const attempts = payouts.map((t) => t.attempts);
    expect(Math.max(...attempts)).toBeLessThanOrEqual(50);
    expect(Math.max(...attempts)).toBeGreaterThan(2);
    expect(p.ledger.balance(to)).toBe(180 * SOL);
  });
});

describe('ledger refusals', () => {
  it('are final at once: transfer_failed with the reason and 1 attempt, no retry, nothing moved', () => {
    const world = newWorld({ network: fixed(1_000), rules: { escrow: { depositMaxAttempts: 5 } } });
    const events = record(world);
    const p = world.platform;
    const empty = openWallet(p, 'empty');
    const holder = openWallet(p, 'holder');
    const target = openWallet(p, 'target');
    airdrop(p, holder, SOL);
    const supply = p.ledger.totalSupply;

    const broke = send(p, empty, target, SOL, 'bounty_deposit'); // nothing to send
    const dust = send(p, holder, target, SOL - 1, 'bounty_deposit'); // would leave 1 lamport in the sender
    const tiny = send(p, p.treasuryAddress, target, RENT - 1, 'bounty_payout'); // would leave the empty receiver below rent
    world.advanceBy(1_000);

    const cases: Array<[Transfer, string]> = [
      [broke, 'insufficient_funds'],
      [dust, 'insufficient_funds_for_rent'],
      [tiny, 'insufficient_funds_for_rent'],
    ];
    for (const [t, reason] of cases) {
      expect(t).toMatchObject({ status: 'failed', attempts: 1, failureReason: reason });
      expect(ofTransfer(events, 'transfer_failed', t.id)).toEqual([
        {
          type: 'transfer_failed',
          t: t.createdAtMs + 1_000,
          transferId: t.id,
          transferType: t.type,
          reason,
          attempts: 1,
        },
      ]);
      expect(ofTransfer(events, 'transfer_retried', t.id)).toEqual([]);
    }
    world.advanceBy(60 * 60_000);
    expect(events.filter((e) => e.type === 'transfer_retried')).toEqual([]);
    expect(p.ledger.balance(empty)).toBe(0);
    expect(p.ledger.balance(holder)).toBe(SOL);
    expect(p.ledger.balance(target)).toBe(0);
    expect(p.ledger.totalSupply).toBe(supply);
    for (const address of [empty, holder, p.treasuryAddress])
      expect(availableLamports(p, address)).toBe(p.ledger.balance(address));
  });
});

describe('availableLamports and requireSpendable', () => {
  it('subtracts queued outflows and refuses double spending while a transfer is queued', () => {
    const world = newWorld({ network: fixed(1_000) });
    const p = world.platform;
    const wallet = openWallet(p, 'wallet');
    const sink = openWallet(p, 'sink');
    airdrop(p, wallet, 5 * SOL);
    expect(availableLamports(p, wallet)).toBe(5 * SOL);
    requireSpendable(p, wallet, 5 * SOL, 'everything');

    const first = send(p, wallet, sink, 2 * SOL, 'bounty_deposit');
    expect(p.ledger.balance(wallet)).toBe(5 * SOL);
    expect(availableLamports(p, wallet)).toBe(3 * SOL);
    // Inflows do not count until they land.
    expect(availableLamports(p, sink)).toBe(0);

    expectPlatformError(
      () => requireSpendable(p, wallet, 5 * SOL, 'the same lamports again'),
      'insufficient_balance',
    );
    expectPlatformError(
      () => requireSpendable(p, wallet, 3 * SOL + 1, 'one lamport too many'),
      'insufficient_balance',
    );
    expectPlatformError(
      () => requireSpendable(p, wallet, 3 * SOL - 1, 'a dusty remainder'),
      'insufficient_balance',
    );
    expectPlatformError(
      () => requireSpendable(p, wallet, 3 * SOL - RENT + 1, 'just under rent'),
      'insufficient_balance',
    );
    requireSpendable(p, wallet, 3 * SOL, 'the rest');
    requireSpendable(p, wallet, 3 * SOL - RENT, 'all but rent');

    const second = send(p, wallet, sink, 3 * SOL - RENT, 'bounty_deposit');
    expect(availableLamports(p, wallet)).toBe(RENT);
    expectPlatformError(() => requireSpendable(p, wallet, 1, 'one more lamport'), 'insufficient_balance');
    requireSpendable(p, wallet, RENT, 'the last of it');

    world.advanceBy(1_000);
    expect([first.status, second.status]).toEqual(['settled', 'settled']);
    expect(p.ledger.balance(wallet)).toBe(RENT);
    expect(availableLamports(p, wallet)).toBe(RENT);
    expect(availableLamports(p, sink)).toBe(5 * SOL - RENT);
  });

  it("returns a failed transfer's hold to the wallet", () => {
    const world = newWorld({ network: fixed(1_000) });
    const p = world.platform;
    const wallet = openWallet(p, 'wallet');
    const sink = openWallet(p, 'sink');
    airdrop(p, wallet, SOL);
    const refused = send(p, wallet, sink, SOL - 1, 'bounty_deposit'); // leaves dust: the ledger refuses it
    expect(availableLamports(p, wallet)).toBe(1);
    world.advanceBy(1_000);
    expect(refused.status).toBe('failed');
    expect(availableLamports(p, wallet)).toBe(SOL);
  });
});

describe('fundVerifiedAgent', () => {
  it('moves escrow.verifiedFundingLamports from the treasury to the agent, through the queue', async () => {
    const world = newWorld({
      network: fixed(1_000),
      rules: { escrow: { verifiedFundingLamports: 3 * SOL + 7 } },
    });
    const events = record(world);
    const p = world.platform;
    const agent = await world.agent('verified_one');
    const treasuryBefore = p.ledger.balance(p.treasuryAddress);
    const t = fundVerifiedAgent(p, agent.id)!;
    expect(t).toMatchObject({
      type: 'devnet_funding',
      from: p.treasuryAddress,
      to: walletOf(world, agent),
      lamports: 3 * SOL + 7,
      agentId: agent.id,
      status: 'queued',
    });
    expect(availableLamports(p, p.treasuryAddress)).toBe(treasuryBefore - (3 * SOL + 7));
    expect(world.balance(agent)).toBe(0);
    world.advanceBy(1_000);
    expect(t.status).toBe('settled');
    expect(world.balance(agent)).toBe(3 * SOL + 7);
    expect(p.ledger.balance(p.treasuryAddress)).toBe(treasuryBefore - (3 * SOL + 7));
    expect(
      events
        .filter((e) => e.type === 'transfer_settled')
        .map((e) => (e as { transferId: string }).transferId),
    ).toEqual([t.id]);
  });

  it('uses 1 SOL by default, and queues nothing when the funding is 0', async () => {
    const world = newWorld({ network: fixed(1_000) });
    const agent = await world.agent('default_one');
    expect(fundVerifiedAgent(world.platform, agent.id)!.lamports).toBe(SOL);

    const none = newWorld({ network: fixed(1_000), rules: { escrow: { verifiedFundingLamports: 0 } } });
    const other = await none.agent('unfunded');
    const before = none.platform.state.transfers.size;
    expect(fundVerifiedAgent(none.platform, other.id)).toBeUndefined();
    expect(none.platform.state.transfers.size).toBe(before);
  });
});

describe('airdrop', () => {
  it('refuses an amount below the rent minimum into an empty wallet (validation_error) and mints nothing', async () => {
    const world = newWorld();
    const events = record(world);
    const p = world.platform;
    const agent = await world.agent('dusty');
    const wallet = walletOf(world, agent);
    const supply = p.ledger.totalSupply;
    for (const lamports of [1, RENT - 1])
      expectPlatformError(() => airdrop(p, wallet, lamports), 'validation_error');
    expect(p.ledger.balance(wallet)).toBe(0);
    expect(p.ledger.totalSupply).toBe(supply);
    expect(events.filter((e) => e.type === 'lamports_minted')).toEqual([]);

    airdrop(p, wallet, RENT);
    expect(p.ledger.balance(wallet)).toBe(RENT);
    airdrop(p, wallet, 1); // a rent-exempt wallet may take any amount
    expect(p.ledger.balance(wallet)).toBe(RENT + 1);
    expect(p.ledger.totalSupply).toBe(supply + RENT + 1);
    expect(
      events.filter((e) => e.type === 'lamports_minted').map((e) => (e as { lamports: number }).lamports),
    ).toEqual([RENT, 1]);
  });
});

describe('litesvm cross-check of a platform journal', () => {
  it('agrees with the MockLedger after a paid bounty game, a cancelled one and a refused transfer', async () => {
    const world = newWorld({ journal: true, network: fixed(1_000) });
    const p = world.platform;
    const [a, b] = [await world.agent('alice'), await world.agent('bob')];
    world.airdrop(a, 2);
    world.airdrop(b, 2);

    const paid = await a.client.createChallenge({ opponent_handle: 'bob', bounty_sol: 0.123456789 });
    await b.client.acceptChallenge(paid.challenge.challenge_id);
    world.advanceBy(1_000);
    await world.play(paid.challenge.challenge_id, a, b, FOOLS_MATE);
    world.advanceBy(1_000);
    expect(p.state.escrows.get(paid.escrow_address!)!.status).toBe('paid_out');

    // The challenger's wallet is emptied before its deposit lands: the ledger refuses the deposit, the second
    // game is cancelled and the acceptor's deposit refunded.
    const cancelled = await a.client.createChallenge({ opponent_handle: 'bob', bounty_sol: 0.5 });
    send(p, walletOf(world, a), p.treasuryAddress, world.balance(a), 'bounty_deposit');
    await b.client.acceptChallenge(cancelled.challenge.challenge_id);
    world.advanceBy(10_000);
    expect(p.state.games.get(cancelled.challenge.challenge_id)!.status).toBe('cancelled');
    expect(p.state.escrows.get(cancelled.escrow_address!)!.status).toBe('refunded');
    expect(world.balance(a)).toBe(0);
    expect(world.balance(b)).toBe(2 * SOL + 123_456_789 - 24_691_357);

    const journal = p.ledger.journal;
    expect(journal.some((e) => e.op === 'transfer' && !e.outcome.ok)).toBe(true);
    const result = crossCheck(journal, { balances: p.ledger.balances() });
    expect(result.passed, describeCrossCheck(result)).toBe(true);
    expect(result.rejectedAlike).toBeGreaterThan(0);
    expect(result.accounts).toBe(p.ledger.balances().length);
  });

  it('agrees after a bounty game cancelled by its funding window, with both deposits refunded late', async () => {
    const world = newWorld({ journal: true, network: fixed(11 * 60_000) });
    const p = world.platform;
    const [a, b] = [await world.agent('alice'), await world.agent('bob')];
    world.airdrop(a, 1);
    world.airdrop(b, 1);
    const created = await a.client.createChallenge({ opponent_handle: 'bob', bounty_sol: 0.25 });
    await b.client.acceptChallenge(created.challenge.challenge_id);
    world.advanceBy(30 * 60_000);
    expect(p.state.games.get(created.challenge.challenge_id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'funding_window_expired',
    });
    expect(p.state.escrows.get(created.escrow_address!)!.status).toBe('refunded');
    expect([world.balance(a), world.balance(b)]).toEqual([SOL, SOL]);
    const result = crossCheck(p.ledger.journal, { balances: p.ledger.balances() });
    expect(result.passed, describeCrossCheck(result)).toBe(true);
    expect(result.transfers).toBe(4);
  });
});
