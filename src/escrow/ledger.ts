import { ed25519 } from '@noble/curves/ed25519';
import bs58 from 'bs58';
import type { Rng } from '../kernel/rng.js';
import { assertLamports, type Lamports } from '../kernel/money.js';
import { flatString } from '../kernel/strings.js';

/**
 * The ledger: every account's balance in integer lamports, as the Solana runtime would hold it, and the
 * journal of every operation on it. It knows accounts, not escrows nor queued transfers: an escrow
 * (src/platform/money/escrows.ts) is one of its accounts with a life cycle on top, and a queued transfer
 * (src/platform/money/transfers.ts) becomes one ledger transfer when it lands. A ledger transfer is instant and
 * final; queueing, latency, faults and retries belong to the transfer queue. The platform moves money only
 * through `LedgerPort`, so the mock below and a real runtime can be swapped or compared (litesvm.ts replays
 * the journal through the real runtime).
 */
export type LedgerAccountKind = 'treasury' | 'wallet' | 'bounty_escrow' | 'tournament_escrow';

/** Why the ledger refuses a mint or a transfer: the system program's reasons. */
export type LedgerRefusal = 'insufficient_funds' | 'insufficient_funds_for_rent';

/** The ledger's answer to one mint or transfer. */
export type LedgerOutcome = { ok: true } | { ok: false; reason: LedgerRefusal };

/** The journal: every operation, in order, enough to replay a run's money through another backend. */
export type LedgerJournalEntry =
  | { op: 'open'; address: string; kind: LedgerAccountKind; seed: Uint8Array }
  | { op: 'mint'; address: string; lamports: Lamports }
  | { op: 'transfer'; from: string; to: string; lamports: Lamports; outcome: LedgerOutcome };

export interface LedgerPort {
  /** A new account whose keypair comes from `rng`, so its address is reproducible from the seed. */
  open(kind: LedgerAccountKind, rng: Rng): string;
  /**
   * `open`, with the ed25519 work put off until the address is first read (the seed is drawn now, so `rng`
   * moves as it would for `open`). Until then the account is empty and nothing can name it.
   */
  openDeferred(kind: LedgerAccountKind, rng: Rng): DeferredAccount;
  balance(address: string): Lamports;
  /** Creates lamports out of nothing (devnet funding of the treasury, scenario airdrops). */
  mint(address: string, lamports: Lamports): LedgerOutcome;
  transfer(from: string, to: string, lamports: Lamports): LedgerOutcome;
  /** Sum over every account; changes only by minting. */
  readonly totalSupply: Lamports;
  readonly journal: readonly LedgerJournalEntry[];
}

/**
 * Solana's rent rule for a plain system account (data length 0): after a transaction, an account that was
 * empty or rent-exempt must be empty (0) or rent-exempt again (>= the minimum, 890,880 lamports on mainnet
 * and in litesvm 0.8). Every account here starts empty, so this one check is the whole rule.
 */
export function rentStateAllowed(lamports: Lamports, rentExemptMinimum: Lamports): boolean {
  return lamports === 0 || lamports >= rentExemptMinimum;
}

export const RENT_EXEMPT_MINIMUM: Lamports = 890_880;

export function deriveKeypair(rng: Rng): { address: string; seed: Uint8Array } {
  const seed = drawSeed(rng);
  return { address: addressOfSeed(seed), seed };
}

function drawSeed(rng: Rng): Uint8Array {
  const seed = new Uint8Array(32);
  for (let i = 0; i < 32; i++) seed[i] = rng.int(0, 255);
  return seed;
}

function addressOfSeed(seed: Uint8Array): string {
  // A Solana address is the base58 of the ed25519 public key, as web3.js's Keypair.fromSeed writes it (the
  // same two libraries it uses, without loading web3.js: a third of a second and 20 MB at every start).
  // base58 builds the address a character at a time, a rope of 44 pieces (1.4 KB) kept by every account.
  return flatString(bs58.encode(ed25519.getPublicKey(seed)));
}

/**
 * An account opened before its address is known (`openDeferred`). Reading `address` derives it once (half
 * a millisecond of ed25519) and enters the account in its ledger under it; a crowd's agents register
 * thousands of wallets that nobody looks at or pays into.
 */
export class DeferredAccount {
  #seed: Uint8Array | undefined;
  #address: string | undefined;
  readonly #enter: (address: string, seed: Uint8Array) => void;

  constructor(seed: Uint8Array, enter: (address: string, seed: Uint8Array) => void) {
    this.#seed = seed;
    this.#enter = enter;
  }

  /** The address if something has read it, else undefined (and nothing is derived). */
  get addressIfRead(): string | undefined {
    return this.#address;
  }

  get address(): string {
    if (this.#address === undefined) {
      const seed = this.#seed!;
      this.#address = addressOfSeed(seed);
      this.#seed = undefined;
      this.#enter(this.#address, seed);
    }
    return this.#address;
  }
}

export interface MockLedgerOptions {
  rentExemptMinimum?: Lamports;
  /** Keep the journal (needed for a cross-check; costs memory on long runs). */
  journal?: boolean;
}

export class MockLedger implements LedgerPort {
  /** Accounts with an address: every account but the deferred ones not yet read. */
  readonly #balances = new Map<string, Lamports>();
  readonly #kinds = new Map<string, LedgerAccountKind>();
  /** Every account in opening order, a deferred one by its handle (it enters the maps when addressed). */
  #openingOrder: Array<string | DeferredAccount> = [];
  readonly #journal: LedgerJournalEntry[] = [];
  readonly #keepJournal: boolean;
  readonly rentExemptMinimum: Lamports;
  #supply = 0;

  constructor(options: MockLedgerOptions = {}) {
    this.rentExemptMinimum = options.rentExemptMinimum ?? RENT_EXEMPT_MINIMUM;
    this.#keepJournal = options.journal ?? false;
  }

  get totalSupply(): Lamports {
    return this.#supply;
  }

  /** Whether this ledger keeps a journal (`MockLedgerOptions.journal`). */
  get keepsJournal(): boolean {
    return this.#keepJournal;
  }

  get journal(): readonly LedgerJournalEntry[] {
    return this.#journal;
  }

  open(kind: LedgerAccountKind, rng: Rng): string {
    const { address, seed } = deriveKeypair(rng);
    this.#enter(address, kind, seed);
    this.#openingOrder.push(address);
    return address;
  }

  openDeferred(kind: LedgerAccountKind, rng: Rng): DeferredAccount {
    const account = new DeferredAccount(drawSeed(rng), (address, seed) => this.#enter(address, kind, seed));
    this.#openingOrder.push(account);
    // A journal lists openings in order, with addresses: an account is addressed as it opens then.
    if (this.#keepJournal) void account.address;
    return account;
  }

  #enter(address: string, kind: LedgerAccountKind, seed: Uint8Array): void {
    if (this.#kinds.has(address)) throw new Error(`account ${address} opened twice`);
    this.#kinds.set(address, kind);
    this.#balances.set(address, 0);
    if (this.#keepJournal) this.#journal.push({ op: 'open', address, kind, seed });
  }

  has(address: string): boolean {
    return this.#balances.has(address);
  }

  kindOf(address: string): LedgerAccountKind | undefined {
    return this.#kinds.get(address);
  }

  balance(address: string): Lamports {
    const lamports = this.#balances.get(address);
    if (lamports === undefined) throw new Error(`unknown account ${address}`);
    return lamports;
  }

  mint(address: string, lamports: Lamports): LedgerOutcome {
    assertLamports(lamports);
    const after = this.balance(address) + lamports;
    const outcome: LedgerOutcome = rentStateAllowed(after, this.rentExemptMinimum)
      ? { ok: true }
      : { ok: false, reason: 'insufficient_funds_for_rent' };
    if (outcome.ok) {
      this.#balances.set(address, after);
      this.#supply += lamports;
    }
    if (this.#keepJournal) this.#journal.push({ op: 'mint', address, lamports });
    return outcome;
  }

  transfer(from: string, to: string, lamports: Lamports): LedgerOutcome {
    assertLamports(lamports);
    const outcome = this.#judge(from, to, lamports);
    if (outcome.ok && from !== to) {
      this.#balances.set(from, this.balance(from) - lamports);
      this.#balances.set(to, this.balance(to) + lamports);
    }
    if (this.#keepJournal) this.#journal.push({ op: 'transfer', from, to, lamports, outcome });
    return outcome;
  }

  /** The system program's checks, in its order: the sender's funds, then rent on both accounts. */
  #judge(from: string, to: string, lamports: Lamports): LedgerOutcome {
    const fromBefore = this.balance(from);
    const toBefore = this.balance(to);
    if (fromBefore < lamports) return { ok: false, reason: 'insufficient_funds' };
    if (from === to) return { ok: true };
    const rentOk =
      rentStateAllowed(fromBefore - lamports, this.rentExemptMinimum) &&
      rentStateAllowed(toBefore + lamports, this.rentExemptMinimum);
    return rentOk ? { ok: true } : { ok: false, reason: 'insufficient_funds_for_rent' };
  }

  /**
   * Replaces every account, the supply and the journal with a checkpoint's (accounts in opening order, the
   * journal only when this ledger keeps one). The caller has checked the data: the supply is the balances' sum.
   */
  restore(
    accounts: ReadonlyArray<{ address: string; kind: LedgerAccountKind; lamports: Lamports }>,
    journal: readonly LedgerJournalEntry[],
  ): void {
    this.#balances.clear();
    this.#kinds.clear();
    this.#openingOrder = [];
    this.#supply = 0;
    for (const { address, kind, lamports } of accounts) {
      assertLamports(lamports);
      if (this.#kinds.has(address)) throw new Error(`account ${address} restored twice`);
      this.#kinds.set(address, kind);
      this.#balances.set(address, lamports);
      this.#openingOrder.push(address);
      this.#supply += lamports;
    }
    this.#journal.length = 0;
    if (this.#keepJournal) this.#journal.push(...journal);
  }

  /** Every account and its balance, in opening order (deferred ones addressed now). */
  balances(): Array<{ address: string; kind: LedgerAccountKind; lamports: Lamports }> {
    return [...this.accounts()];
  }

  /** `balances`, an account at a time as it is read (a checkpoint of 100,000 wallets written in slices). */
  *accounts(): Generator<{ address: string; kind: LedgerAccountKind; lamports: Lamports }> {
    for (const entry of this.#openingOrder) {
      const address = typeof entry === 'string' ? entry : entry.address;
      yield { address, kind: this.#kinds.get(address)!, lamports: this.#balances.get(address)! };
    }
  }

  /**
   * Every account's balance in opening order, without addressing any: an account not yet addressed shows
   * no address and 0 lamports, since nothing can pay into an account without naming its address.
   */
  *openingBalances(): Generator<{ address: string | undefined; lamports: Lamports }> {
    for (const entry of this.#openingOrder) {
      const address = typeof entry === 'string' ? entry : entry.addressIfRead;
      yield { address, lamports: address === undefined ? 0 : this.#balances.get(address)! };
    }
  }

  /**
   * The accounts that have an address, in the order they got it: every account whose balance can differ
   * from 0, since a deferred account is empty until its address is read.
   */
  *addressedAccounts(): Generator<{ address: string; kind: LedgerAccountKind; lamports: Lamports }> {
    for (const [address, kind] of this.#kinds)
      yield { address, kind, lamports: this.#balances.get(address)! };
  }
}
