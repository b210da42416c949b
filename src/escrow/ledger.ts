import { Keypair } from '@solana/web3.js';
import type { Rng } from '../kernel/rng.js';
import { assertLamports, type Lamports } from '../kernel/money.js';

/**
 * The ledger port: accounts and balances in integer lamports, as an SVM would hold them. The platform moves
 * money only through this port, so the mock below and a real runtime can be swapped or compared. A transfer
 * here is instant and final; queueing, latency and faults belong to the platform's transfer queue.
 */
export type AccountKind = 'treasury' | 'wallet' | 'bounty_escrow' | 'tournament_escrow';

export type TransferRejection = 'insufficient_funds' | 'insufficient_funds_for_rent';

export type TransferOutcome = { ok: true } | { ok: false; reason: TransferRejection };

/** Every operation, in order: enough to replay a run's money through another backend. */
export type JournalEntry =
  | { op: 'open'; address: string; kind: AccountKind; seed: Uint8Array }
  | { op: 'mint'; address: string; lamports: Lamports }
  | { op: 'transfer'; from: string; to: string; lamports: Lamports; outcome: TransferOutcome };

export interface LedgerPort {
  /** A new account whose keypair comes from `rng`, so its address is reproducible from the seed. */
  open(kind: AccountKind, rng: Rng): string;
  balance(address: string): Lamports;
  /** Creates lamports out of nothing (devnet funding of the treasury, scenario airdrops). */
  mint(address: string, lamports: Lamports): TransferOutcome;
  transfer(from: string, to: string, lamports: Lamports): TransferOutcome;
  /** Sum over every account; changes only by minting. */
  readonly totalSupply: Lamports;
  readonly journal: readonly JournalEntry[];
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
  const seed = new Uint8Array(32);
  for (let i = 0; i < 32; i++) seed[i] = rng.int(0, 255);
  return { address: Keypair.fromSeed(seed).publicKey.toBase58(), seed };
}

export interface MockLedgerOptions {
  rentExemptMinimum?: Lamports;
  /** Keep the journal (needed for a cross-check; costs memory on long runs). */
  journal?: boolean;
}

export class MockLedger implements LedgerPort {
  readonly #balances = new Map<string, Lamports>();
  readonly #kinds = new Map<string, AccountKind>();
  readonly #journal: JournalEntry[] = [];
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

  get journal(): readonly JournalEntry[] {
    return this.#journal;
  }

  open(kind: AccountKind, rng: Rng): string {
    const { address, seed } = deriveKeypair(rng);
    if (this.#kinds.has(address)) throw new Error(`account ${address} opened twice`);
    this.#kinds.set(address, kind);
    this.#balances.set(address, 0);
    if (this.#keepJournal) this.#journal.push({ op: 'open', address, kind, seed });
    return address;
  }

  has(address: string): boolean {
    return this.#balances.has(address);
  }

  kindOf(address: string): AccountKind | undefined {
    return this.#kinds.get(address);
  }

  balance(address: string): Lamports {
    const lamports = this.#balances.get(address);
    if (lamports === undefined) throw new Error(`unknown account ${address}`);
    return lamports;
  }

  mint(address: string, lamports: Lamports): TransferOutcome {
    assertLamports(lamports);
    const after = this.balance(address) + lamports;
    const outcome: TransferOutcome = rentStateAllowed(after, this.rentExemptMinimum) ? { ok: true } : { ok: false, reason: 'insufficient_funds_for_rent' };
    if (outcome.ok) {
      this.#balances.set(address, after);
      this.#supply += lamports;
    }
    if (this.#keepJournal) this.#journal.push({ op: 'mint', address, lamports });
    return outcome;
  }

  transfer(from: string, to: string, lamports: Lamports): TransferOutcome {
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
  #judge(from: string, to: string, lamports: Lamports): TransferOutcome {
    const fromBefore = this.balance(from);
    const toBefore = this.balance(to);
    if (fromBefore < lamports) return { ok: false, reason: 'insufficient_funds' };
    if (from === to) return { ok: true };
    const rentOk = rentStateAllowed(fromBefore - lamports, this.rentExemptMinimum) && rentStateAllowed(toBefore + lamports, this.rentExemptMinimum);
    return rentOk ? { ok: true } : { ok: false, reason: 'insufficient_funds_for_rent' };
  }

  /** Every account and its balance, in opening order. */
  balances(): Array<{ address: string; kind: AccountKind; lamports: Lamports }> {
    return [...this.#kinds].map(([address, kind]) => ({ address, kind, lamports: this.#balances.get(address)! }));
  }
}
