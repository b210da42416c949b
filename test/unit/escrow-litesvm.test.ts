import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/kernel/rng.js';
import {
  MockLedger,
  RENT_EXEMPT_MINIMUM,
  type LedgerAccountKind,
  type LedgerJournalEntry,
} from '../../src/escrow/ledger.js';
import { crossCheck, describeCrossCheck } from '../../src/escrow/litesvm.js';

const RENT = RENT_EXEMPT_MINIMUM;
const SOL = 1_000_000_000;

/** A hand-written run that exercises every rule: both refusals, draining to zero, self and zero transfers. */
function scriptedLedger() {
  const ledger = new MockLedger({ journal: true });
  const rng = new Rng('litesvm-scripted').fork('accounts');
  const [treasury, w1, w2, w3, escrow] = (
    ['treasury', 'wallet', 'wallet', 'wallet', 'bounty_escrow'] as const
  ).map((kind, i) => ledger.open(kind, rng.fork(`a${i}`))) as [string, string, string, string, string];
  const outcomes = [
    ledger.mint(treasury, 10 * SOL),
    ledger.transfer(treasury, w1, 2_000_000),
    ledger.transfer(w1, w2, 1_500_000), // would leave w1 with dust
    ledger.transfer(w1, w3, 5_000), // would create w3 below the minimum
    ledger.transfer(w1, w2, 3_000_000), // more than w1 holds
    ledger.transfer(w1, w2, 2_000_000), // drains w1 to exactly zero
    ledger.transfer(w3, w1, 0), // between two accounts that do not exist on chain
    ledger.transfer(w2, w2, 1_000),
    ledger.mint(w3, 100), // refused: a mint is bound by rent too
    ledger.transfer(treasury, escrow, RENT),
    ledger.transfer(escrow, w1, RENT),
  ].map((o) => (o.ok ? 'ok' : o.reason));
  return { ledger, outcomes, accounts: { treasury, w1, w2, w3, escrow } };
}

describe('litesvm cross-check', () => {
  it('replays a scripted journal with every refusal matched and identical balances', () => {
    const { ledger, outcomes } = scriptedLedger();
    expect(outcomes).toEqual([
      'ok',
      'ok',
      'insufficient_funds_for_rent',
      'insufficient_funds_for_rent',
      'insufficient_funds',
      'ok',
      'ok',
      'ok',
      'insufficient_funds_for_rent',
      'ok',
      'ok',
    ]);
    const result = crossCheck(ledger.journal, { balances: ledger.balances() });
    expect(result).toEqual({
      passed: true,
      accounts: 5,
      transfers: 9,
      rejectedAlike: 3,
      balanceMismatches: [],
      outcomeMismatches: [],
    });
    expect(describeCrossCheck(result)).toBe(
      'litesvm cross-check: 9 transfers, 5 accounts, 3 refused alike: identical balances',
    );
  });

  it("agrees with the balances the journal implies when not given the mock's", () => {
    expect(crossCheck(scriptedLedger().ledger.journal).passed).toBe(true);
  });

  it('fails on an extra entry claiming a refused transfer succeeded', () => {
    const { ledger, accounts } = scriptedLedger();
    const forged: LedgerJournalEntry = {
      op: 'transfer',
      from: accounts.w1,
      to: accounts.w3,
      lamports: 5_000,
      outcome: { ok: true },
    };
    const result = crossCheck([...ledger.journal, forged]);
    expect(result.passed).toBe(false);
    expect(result.outcomeMismatches).toEqual([
      {
        index: ledger.journal.length,
        entry: `transfer ${accounts.w1} -> ${accounts.w3} 5000`,
        mock: 'ok',
        svm: 'insufficient_funds_for_rent',
      },
    ]);
    expect(result.balanceMismatches).toEqual([
      { address: accounts.w1, kind: 'wallet', expected: RENT - 5_000, actual: RENT },
      { address: accounts.w3, kind: 'wallet', expected: 5_000, actual: 0 },
    ]);
    expect(describeCrossCheck(result)).toMatch(
      /MISMATCH, 1 outcome and 2 balance mismatches; #\d+ transfer .* mock ok, svm insufficient_funds_for_rent/,
    );
  });

  it('fails when a mint amount was changed after the fact', () => {
    const { ledger, accounts } = scriptedLedger();
    const tampered = ledger.journal.map((e) =>
      e.op === 'mint' && e.address === accounts.treasury ? { ...e, lamports: e.lamports + 7 } : e,
    );
    const result = crossCheck(tampered, { balances: ledger.balances() });
    expect(result.outcomeMismatches).toEqual([]);
    expect(result.balanceMismatches).toEqual([
      {
        address: accounts.treasury,
        kind: 'treasury',
        expected: ledger.balance(accounts.treasury),
        actual: ledger.balance(accounts.treasury) + 7,
      },
    ]);
    expect(result.passed).toBe(false);
  });

  it('fails when a lowered mint makes a transfer the mock accepted impossible', () => {
    const { ledger, accounts } = scriptedLedger();
    const tampered = ledger.journal.map((e) =>
      e.op === 'mint' && e.address === accounts.treasury ? { ...e, lamports: 1_000_000 } : e,
    );
    const result = crossCheck(tampered);
    const firstTransfer = tampered.findIndex((e) => e.op === 'transfer');
    expect(result.passed).toBe(false);
    expect(result.outcomeMismatches[0]).toEqual({
      index: firstTransfer,
      entry: `transfer ${accounts.treasury} -> ${accounts.w1} 2000000`,
      mock: 'ok',
      svm: 'insufficient_funds',
    });
  });

  it.each(['walk-1', 'walk-2', 'walk-3'])('cross-checks a seeded random walk identically (%s)', (seed) => {
    const ledger = randomWalk(seed, 300);
    const reasons = new Set(
      ledger.journal.flatMap((e) => (e.op === 'transfer' && !e.outcome.ok ? [e.outcome.reason] : [])),
    );
    expect(reasons).toEqual(new Set(['insufficient_funds', 'insufficient_funds_for_rent']));
    const result = crossCheck(ledger.journal, { balances: ledger.balances() });
    expect(result.outcomeMismatches).toEqual([]);
    expect(result.balanceMismatches).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.accounts).toBe(12);
    expect(result.rejectedAlike).toBeGreaterThan(10);
  });

  it('really signs and verifies signatures with sign: true', () => {
    const { ledger } = scriptedLedger();
    const result = crossCheck(ledger.journal, { sign: true, balances: ledger.balances() });
    expect(result.passed).toBe(true);
    expect(result.rejectedAlike).toBe(3);
  });
});

const WALK_KINDS: LedgerAccountKind[] = [
  'treasury',
  ...Array<LedgerAccountKind>(7).fill('wallet'),
  'bounty_escrow',
  'bounty_escrow',
  'tournament_escrow',
  'tournament_escrow',
];

function randomWalk(seed: string, steps: number): MockLedger {
  const ledger = new MockLedger({ journal: true });
  const rng = new Rng(seed).fork('x');
  const addresses = WALK_KINDS.map((kind, i) => ledger.open(kind, rng.fork(`account-${i}`)));
  ledger.mint(addresses[0]!, 40 * RENT);
  for (let step = 0; step < steps; step++) {
    if (rng.chance(0.08)) ledger.mint(rng.pick(addresses), walkAmount(rng, 0));
    else {
      const from = rng.pick(addresses);
      ledger.transfer(from, rng.pick(addresses), walkAmount(rng, ledger.balance(from)));
    }
  }
  return ledger;
}

/** Amounts cluster around the rent minimum and the sender's balance, where the two refusals live. */
function walkAmount(rng: Rng, balance: number): number {
  switch (rng.int(0, 6)) {
    case 0:
      return 0;
    case 1:
      return rng.int(1, 20_000);
    case 2:
      return RENT + rng.int(-20_000, 20_000);
    case 3:
      return balance;
    case 4:
      return Math.max(0, balance - rng.int(1, RENT - 1));
    case 5:
      return balance + rng.int(1, RENT);
    default:
      return rng.int(RENT, 4 * RENT);
  }
}
