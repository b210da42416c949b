import { describe, expect, it } from 'vitest';
import { MockLedger } from '../../src/escrow/ledger.js';
import { Rng } from '../../src/kernel/rng.js';
import { createPlatform } from '../../src/platform/index.js';
import { register } from '../../src/platform/identity/identity.js';
import { airdrop } from '../../src/platform/money/transfers.js';

/** Wallets opened before their address is read (src/escrow/ledger.ts, DeferredAccount). */
describe('deferred ledger accounts', () => {
  it('get the address `open` gives for the same draws, and leave the stream where `open` does', () => {
    const eager = new MockLedger();
    const deferred = new MockLedger();
    const eagerRng = new Rng('wallets-a');
    const deferredRng = new Rng('wallets-a');
    const eagerAddresses = [eager.open('wallet', eagerRng), eager.open('wallet', eagerRng)];
    const accounts = [
      deferred.openDeferred('wallet', deferredRng),
      deferred.openDeferred('wallet', deferredRng),
    ];
    expect(deferredRng.int(0, 1_000_000)).toBe(eagerRng.int(0, 1_000_000));
    // Read in the other order: an address depends on its own seed only.
    expect([accounts[1]!.address, accounts[0]!.address]).toEqual([eagerAddresses[1], eagerAddresses[0]]);
  });

  it('stay out of the addressed accounts until read, and are listed in opening order either way', () => {
    const ledger = new MockLedger();
    const rng = new Rng('order');
    const first = ledger.openDeferred('wallet', rng);
    const treasury = ledger.open('treasury', rng);
    const second = ledger.openDeferred('wallet', rng);
    expect([...ledger.addressedAccounts()].map((a) => a.address)).toEqual([treasury]);
    const secondAddress = second.address;
    expect(ledger.balance(secondAddress)).toBe(0);
    expect(ledger.mint(secondAddress, 1_000_000)).toEqual({ ok: true });
    expect([...ledger.addressedAccounts()].map((a) => a.address)).toEqual([treasury, secondAddress]);
    // Listing every account addresses the rest, in the order they opened.
    expect(ledger.balances()).toEqual([
      { address: first.address, kind: 'wallet', lamports: 0 },
      { address: treasury, kind: 'treasury', lamports: 0 },
      { address: secondAddress, kind: 'wallet', lamports: 1_000_000 },
    ]);
    expect(ledger.totalSupply).toBe(1_000_000);
  });

  it('show their balances in opening order without being addressed', () => {
    const ledger = new MockLedger();
    const rng = new Rng('opening-balances');
    const quiet = ledger.openDeferred('wallet', rng);
    const paid = ledger.openDeferred('wallet', rng);
    ledger.mint(paid.address, 3_000_000);
    expect([...ledger.openingBalances()]).toEqual([
      { address: undefined, lamports: 0 },
      { address: paid.address, lamports: 3_000_000 },
    ]);
    expect(quiet.addressIfRead).toBeUndefined();
  });

  it('are addressed as they open when the ledger keeps a journal, so openings stay in order', () => {
    const ledger = new MockLedger({ journal: true });
    const rng = new Rng('journal');
    const a = ledger.openDeferred('wallet', rng);
    const b = ledger.open('bounty_escrow', rng);
    expect(ledger.journal.map((entry) => (entry.op === 'open' ? entry.address : entry.op))).toEqual([
      a.address,
      b,
    ]);
    expect([...ledger.addressedAccounts()]).toHaveLength(2);
  });

  it('spare a registered agent ed25519 work until its wallet is read; the register answer reads it', () => {
    const p = createPlatform({ seed: 'deferred-wallets', startMs: Date.UTC(2026, 0, 1) });
    const before = [...p.ledger.addressedAccounts()].length;
    const { agent } = register(p, { handle: 'quiet_one' });
    const { agent: shown } = register(p, { handle: 'shown_one' });
    expect([...p.ledger.addressedAccounts()]).toHaveLength(before);
    airdrop(p, shown.walletAddress, 2_000_000);
    expect(p.ledger.balance(shown.walletAddress)).toBe(2_000_000);
    expect([...p.ledger.addressedAccounts()].map((a) => a.address)).toContain(shown.walletAddress);
    expect([...p.ledger.addressedAccounts()]).toHaveLength(before + 1);
    // A copy of the record (a checkpoint's or a view's) carries the address, not a getter.
    const copied = { ...agent } as { walletAddress: unknown };
    expect(copied.walletAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(JSON.parse(JSON.stringify(agent)).walletAddress).toBe(agent.walletAddress);
  });
});
