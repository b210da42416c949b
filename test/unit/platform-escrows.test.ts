import { describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../src/platform/events.js';
import { Platform } from '../../src/platform/platform.js';
import type { Escrow, EscrowStatus, Transfer } from '../../src/platform/state.js';
import { attemptTransfer } from '../../src/platform/money/transfers.js';
import {
  bookFinishedTransfer,
  depositInto,
  deriveEscrowAddress,
  ESCROW_TRANSITIONS,
  openEscrow,
  transitionEscrow,
  type EscrowEvent,
  type EscrowEventType,
  type OutflowSpec,
} from '../../src/platform/money/escrows.js';

/**
 * The escrow state machine on its own: a platform with no owner wired (no bounty game, no tournament), so
 * the test fires each event itself and books each finished transfer by hand, one at a time, and can look
 * at the escrow between any two steps. Every transfer lands exactly one latency after it is queued.
 */

const RENT = 890_880;
const STAKE = 3 * RENT;
const LATENCY_MS = 1_000;

interface Bench {
  readonly p: Platform;
  readonly escrow: Escrow;
  readonly events: PlatformEvent[];
  /** Transfers that settled or finally failed and are not booked yet, in the order they finished. */
  readonly finished: Transfer[];
}

function bench(kind: Escrow['kind'] = 'bounty'): Bench {
  const network = { latencyMinMs: LATENCY_MS, latencyMaxMs: LATENCY_MS, faultRate: 0 };
  const p = new Platform({ seed: 'escrow-machine', startMs: Date.UTC(2026, 0, 1), network });
  const finished: Transfer[] = [];
  p.registerTimerHandler('transfer_due', (platform, timer) => {
    const transfer = attemptTransfer(platform, timer);
    if (transfer) finished.push(transfer);
  });
  const address = deriveEscrowAddress(p, kind === 'bounty' ? 'bounty_escrow' : 'tournament_escrow');
  const escrow = openEscrow(p, kind, address, `${kind}-1`);
  const events: PlatformEvent[] = [];
  p.onEvent((event) => events.push(event));
  return { p, escrow, events, finished };
}

function wallet(b: Bench, lamports: number): string {
  const address = b.p.ledger.open('wallet', b.p.stream('test-wallets'));
  if (lamports > 0) b.p.ledger.mint(address, lamports);
  return address;
}

function deposit(b: Bench, from: string, lamports = STAKE): Transfer {
  return depositInto(b.p, b.escrow, {
    type: 'bounty_deposit',
    from,
    lamports,
    agentId: null,
    description: 'a stake',
  });
}

/** Lets one latency pass: everything queued before lands (or fails), waiting to be booked. */
function land(b: Bench): Transfer[] {
  b.p.advanceTo(b.p.nowMs + LATENCY_MS);
  return b.finished.splice(0);
}

function book(b: Bench, transfer: Transfer): string {
  return bookFinishedTransfer(b.p, b.escrow, transfer);
}

function payout(to: string, lamports: number): OutflowSpec {
  return { type: 'bounty_payout', to, lamports, agentId: null, description: 'a prize' };
}

function queued(b: Bench): Array<Extract<PlatformEvent, { type: 'transfer_queued' }>> {
  return b.events.filter(
    (e): e is Extract<PlatformEvent, { type: 'transfer_queued' }> => e.type === 'transfer_queued',
  );
}

/** Deposits one stake into the escrow, lands and books it; returns the sender. */
function holdingOneStake(b: Bench): string {
  const sender = wallet(b, STAKE);
  deposit(b, sender);
  const [landed] = land(b);
  book(b, landed!);
  return sender;
}

/** A funded escrow paying out two prizes, both landed, neither booked yet. */
function twoPayoutsLanded(b: Bench): Transfer[] {
  holdingOneStake(b);
  transitionEscrow(b.p, b.escrow, { type: 'funding_complete' });
  transitionEscrow(b.p, b.escrow, {
    type: 'pay_out',
    outflows: [payout(wallet(b, 0), 2 * RENT), payout(wallet(b, 0), RENT)],
  });
  return land(b);
}

interface Case {
  readonly from: EscrowStatus;
  readonly on: EscrowEventType;
  readonly next: EscrowStatus;
  /** Brings a new escrow to `from` and returns the step that fires `on`, which checks its effect. */
  readonly arrange: (b: Bench) => () => void;
}

const CASES: readonly Case[] = [
  {
    from: 'awaiting_deposits',
    on: 'deposit',
    next: 'awaiting_deposits',
    arrange: (b) => () => {
      const transfer = deposit(b, wallet(b, STAKE));
      expect(queued(b)).toMatchObject([
        { transferId: transfer.id, transferType: 'bounty_deposit', to: b.escrow.address, lamports: STAKE },
      ]);
      expect([...b.escrow.pendingIn]).toEqual([transfer.id]);
      expect(b.escrow.depositIds).toEqual([transfer.id]);
    },
  },
  {
    from: 'awaiting_deposits',
    on: 'deposit_settled',
    next: 'awaiting_deposits',
    arrange: (b) => {
      deposit(b, wallet(b, STAKE));
      const [landed] = land(b);
      return () => {
        expect(book(b, landed!)).toBe('deposit_settled');
        expect(b.escrow).toMatchObject({ lamportsIn: STAKE, settledDepositIds: [landed!.id] });
        expect(b.escrow.pendingIn.size).toBe(0);
      };
    },
  },
  {
    from: 'awaiting_deposits',
    on: 'deposit_failed',
    next: 'awaiting_deposits',
    arrange: (b) => {
      // An empty wallet: the ledger refuses the deposit when it lands.
      deposit(b, wallet(b, 0));
      const [refused] = land(b);
      return () => {
        expect(book(b, refused!)).toBe('deposit_failed');
        expect(b.escrow).toMatchObject({ lamportsIn: 0, settledDepositIds: [], depositIds: [refused!.id] });
        expect(b.escrow.pendingIn.size).toBe(0);
      };
    },
  },
  {
    from: 'awaiting_deposits',
    on: 'funding_complete',
    next: 'funded',
    arrange: (b) => {
      holdingOneStake(b);
      return () => {
        const before = b.events.length;
        transitionEscrow(b.p, b.escrow, { type: 'funding_complete' });
        expect(b.events.length).toBe(before);
      };
    },
  },
  {
    from: 'awaiting_deposits',
    on: 'cancel',
    next: 'refunding',
    arrange: (b) => {
      const sender = holdingOneStake(b);
      return () => {
        transitionEscrow(b.p, b.escrow, { type: 'cancel' });
        expect(queued(b).at(-1)).toMatchObject({
          transferType: 'bounty_refund',
          from: b.escrow.address,
          to: sender,
          lamports: STAKE,
        });
        expect(b.escrow.pendingOut.size).toBe(1);
      };
    },
  },
  {
    from: 'funded',
    on: 'pay_out',
    next: 'paying_out',
    arrange: (b) => {
      holdingOneStake(b);
      transitionEscrow(b.p, b.escrow, { type: 'funding_complete' });
      const [first, second] = [wallet(b, 0), wallet(b, 0)];
      return () => {
        transitionEscrow(b.p, b.escrow, {
          type: 'pay_out',
          outflows: [payout(first, 2 * RENT), payout(second, RENT)],
        });
        expect(queued(b).slice(-2)).toMatchObject([
          { transferType: 'bounty_payout', from: b.escrow.address, to: first, lamports: 2 * RENT },
          { transferType: 'bounty_payout', from: b.escrow.address, to: second, lamports: RENT },
        ]);
      };
    },
  },
  {
    from: 'paying_out',
    on: 'outflow_settled',
    next: 'paying_out',
    arrange: (b) => {
      const [first] = twoPayoutsLanded(b);
      return () => {
        expect(book(b, first!)).toBe('outflow_settled');
        expect(b.escrow.lamportsOut).toBe(2 * RENT);
        expect(b.escrow.closedAtMs).toBeNull();
      };
    },
  },
  {
    from: 'paying_out',
    on: 'outflow_failed',
    next: 'paying_out',
    arrange: (b) => {
      holdingOneStake(b);
      transitionEscrow(b.p, b.escrow, { type: 'funding_complete' });
      // 1,000 lamports would leave an empty wallet below the rent-exempt minimum: the ledger refuses it.
      transitionEscrow(b.p, b.escrow, { type: 'pay_out', outflows: [payout(wallet(b, 0), 1_000)] });
      const [refused] = land(b);
      return () => {
        expect(book(b, refused!)).toBe('outflow_failed');
        // The stake is still there, so the escrow stays open for the checker to report.
        expect(b.escrow).toMatchObject({ lamportsOut: 0, closedAtMs: null });
        expect(b.p.ledger.balance(b.escrow.address)).toBe(STAKE);
      };
    },
  },
  {
    from: 'paying_out',
    on: 'emptied',
    next: 'paid_out',
    arrange: (b) => {
      const [first, last] = twoPayoutsLanded(b);
      book(b, first!);
      return () => {
        book(b, last!);
        expect(b.events.at(-1)).toEqual({
          type: 'escrow_closed',
          t: b.p.nowMs,
          escrow: b.escrow.address,
          kind: 'bounty',
          refId: 'bounty-1',
          outcome: 'paid_out',
          lamportsIn: STAKE,
          lamportsOut: STAKE,
        });
        expect(b.escrow.closedAtMs).toBe(b.p.nowMs);
      };
    },
  },
  {
    from: 'refunding',
    on: 'deposit_settled',
    next: 'refunding',
    arrange: (b) => {
      const sender = wallet(b, STAKE);
      deposit(b, sender);
      transitionEscrow(b.p, b.escrow, { type: 'cancel' });
      const [late] = land(b);
      return () => {
        expect(book(b, late!)).toBe('deposit_settled');
        // A deposit landing after the cancel is sent straight back.
        expect(queued(b).at(-1)).toMatchObject({
          transferType: 'bounty_refund',
          from: b.escrow.address,
          to: sender,
          lamports: STAKE,
        });
        expect(b.escrow.lamportsIn).toBe(STAKE);
      };
    },
  },
  {
    from: 'refunding',
    on: 'deposit_failed',
    next: 'refunding',
    arrange: (b) => {
      holdingOneStake(b);
      deposit(b, wallet(b, 0));
      transitionEscrow(b.p, b.escrow, { type: 'cancel' });
      const [refused, refund] = land(b);
      return () => {
        expect(book(b, refused!)).toBe('deposit_failed');
        // The refund of the first stake is still to be booked.
        expect([...b.escrow.pendingOut]).toEqual([refund!.id]);
        expect(b.escrow.pendingIn.size).toBe(0);
      };
    },
  },
  {
    from: 'refunding',
    on: 'outflow_settled',
    next: 'refunding',
    arrange: (b) => {
      holdingOneStake(b);
      holdingOneStake(b);
      transitionEscrow(b.p, b.escrow, { type: 'cancel' });
      const [first] = land(b);
      return () => {
        expect(book(b, first!)).toBe('outflow_settled');
        expect(b.escrow.lamportsOut).toBe(STAKE);
      };
    },
  },
  {
    from: 'refunding',
    on: 'outflow_failed',
    next: 'refunding',
    arrange: (b) => {
      holdingOneStake(b);
      // Lamports taken out behind the machine's back (only a transfer outside the platform's checks can):
      // the refund of the whole stake no longer fits.
      b.p.ledger.transfer(b.escrow.address, wallet(b, 0), RENT);
      transitionEscrow(b.p, b.escrow, { type: 'cancel' });
      const [refused] = land(b);
      return () => {
        expect(book(b, refused!)).toBe('outflow_failed');
        expect(b.escrow).toMatchObject({ lamportsOut: 0, closedAtMs: null });
      };
    },
  },
  {
    from: 'refunding',
    on: 'emptied',
    next: 'refunded',
    arrange: (b) => {
      holdingOneStake(b);
      transitionEscrow(b.p, b.escrow, { type: 'cancel' });
      const [refund] = land(b);
      return () => {
        book(b, refund!);
        expect(b.events.at(-1)).toMatchObject({
          type: 'escrow_closed',
          outcome: 'refunded',
          lamportsIn: STAKE,
          lamportsOut: STAKE,
        });
        expect(b.p.ledger.balance(b.escrow.address)).toBe(0);
      };
    },
  },
];

function listed(): string[] {
  const rows = Object.entries(ESCROW_TRANSITIONS) as Array<
    [EscrowStatus, (typeof ESCROW_TRANSITIONS)[EscrowStatus]]
  >;
  return rows.flatMap(([from, row]) =>
    Object.entries(row).map(([on, step]) => `${from} x ${on} -> ${step.next}`),
  );
}

describe('the escrow state machine', () => {
  it('has a case below for every transition its table lists, and none it does not', () => {
    expect(CASES.map((c) => `${c.from} x ${c.on} -> ${c.next}`).sort()).toEqual(listed().sort());
  });

  it.each(CASES.map((c) => [`${c.from} x ${c.on} -> ${c.next}`, c] as const))('%s', (_name, c) => {
    const b = bench();
    const fire = c.arrange(b);
    expect(b.escrow.status).toBe(c.from);
    fire();
    expect(b.escrow.status).toBe(c.next);
  });

  it('refuses every event its table does not list in a state, as a bug, changing nothing', () => {
    const b = bench();
    const someone = wallet(b, STAKE);
    const transfer = deposit(b, someone);
    const samples: Record<EscrowEventType, EscrowEvent> = {
      deposit: {
        type: 'deposit',
        deposit: {
          type: 'bounty_deposit',
          from: someone,
          lamports: STAKE,
          agentId: null,
          description: 'a stake',
        },
      },
      deposit_settled: { type: 'deposit_settled', transfer },
      deposit_failed: { type: 'deposit_failed', transfer },
      funding_complete: { type: 'funding_complete' },
      pay_out: { type: 'pay_out', outflows: [payout(someone, STAKE)] },
      cancel: { type: 'cancel' },
      outflow_settled: { type: 'outflow_settled', transfer },
      outflow_failed: { type: 'outflow_failed', transfer },
      emptied: { type: 'emptied' },
    };
    const states = Object.keys(ESCROW_TRANSITIONS) as EscrowStatus[];
    let refused = 0;
    for (const state of states) {
      for (const event of Object.values(samples)) {
        if (ESCROW_TRANSITIONS[state][event.type] !== undefined) continue;
        b.escrow.status = state;
        const before = {
          events: b.events.length,
          transfers: b.p.state.transfers.size,
          escrow: JSON.stringify(b.escrow, setsAsArrays),
        };
        expect(() => transitionEscrow(b.p, b.escrow, event), `${state} x ${event.type}`).toThrow(
          `cannot take ${event.type} while ${state}`,
        );
        expect({
          events: b.events.length,
          transfers: b.p.state.transfers.size,
          escrow: JSON.stringify(b.escrow, setsAsArrays),
        }).toEqual(before);
        refused++;
      }
    }
    // 6 states x 9 events, less the 14 listed pairs.
    expect(refused).toBe(states.length * Object.keys(samples).length - listed().length);
  });

  it('refuses paying out twice, and paying out a closed escrow', () => {
    const b = bench();
    const [first, last] = twoPayoutsLanded(b);
    const again = { type: 'pay_out', outflows: [payout(wallet(b, 0), RENT)] } as const;
    expect(() => transitionEscrow(b.p, b.escrow, again)).toThrow('cannot take pay_out while paying_out');
    book(b, first!);
    book(b, last!);
    expect(() => transitionEscrow(b.p, b.escrow, again)).toThrow('cannot take pay_out while paid_out');
    expect(() => transitionEscrow(b.p, b.escrow, { type: 'cancel' })).toThrow(
      'cannot take cancel while paid_out',
    );
  });

  it('refuses to book a transfer that is not in flight on the escrow', () => {
    const b = bench();
    deposit(b, wallet(b, STAKE));
    const [landed] = land(b);
    book(b, landed!);
    expect(() => book(b, landed!)).toThrow(
      `transfer ${landed!.id} is not pending on escrow ${b.escrow.address}`,
    );
  });

  it('closes at once when it has nothing to pay out or refund', () => {
    const b = bench('tournament');
    transitionEscrow(b.p, b.escrow, { type: 'cancel' });
    expect(b.escrow.status).toBe('refunded');
    expect(b.events).toMatchObject([
      {
        type: 'escrow_closed',
        kind: 'tournament',
        refId: 'tournament-1',
        outcome: 'refunded',
        lamportsIn: 0,
      },
    ]);
  });

  it("refunds a tournament's deposits as tournament refunds, for the tournament", () => {
    const b = bench('tournament');
    const sender = holdingOneStake(b);
    transitionEscrow(b.p, b.escrow, { type: 'cancel' });
    const refund = b.p.state.transfers.get([...b.escrow.pendingOut][0]!)!;
    expect(refund).toMatchObject({
      type: 'tournament_refund',
      to: sender,
      purpose: { kind: 'tournament', tournamentId: 'tournament-1' },
    });
  });
});

/** JSON of an escrow with its Sets spelled out, so a change to the transfers in flight shows. */
function setsAsArrays(_key: string, value: unknown): unknown {
  return value instanceof Set ? [...(value as Set<unknown>)] : value;
}
