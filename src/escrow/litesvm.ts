import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
// The error classes are not re-exported from the package root, but instanceof needs the real constructors.
import {
  InstructionErrorCustom,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
} from 'litesvm/dist/internal.js';
import type { Lamports } from '../kernel/money.js';
import {
  RENT_EXEMPT_MINIMUM,
  rentStateAllowed,
  type LedgerAccountKind,
  type LedgerJournalEntry,
  type LedgerOutcome,
} from './ledger.js';
import {
  MISMATCH_CAP,
  type CrossCheckMismatch,
  type CrossCheckResult,
  type OutcomeMismatch,
} from './cross-check-result.js';

// The result's types and its one-line description live apart, so a caller that only reads a result loads no
// Solana code (src/escrow/cross-check-result.ts); re-exported here for callers of the replay itself.
export {
  describeCrossCheck,
  type CrossCheckMismatch,
  type CrossCheckResult,
  type OutcomeMismatch,
} from './cross-check-result.js';

/**
 * Replays a MockLedger journal through a real Solana runtime (litesvm) and reports every place where the
 * runtime disagrees with the mock: which transfers it accepts, why it refuses the others, and the balances
 * it ends with. The mock's rules are our reading of the system program; this is how we find out if the
 * reading is wrong.
 */

export interface CrossCheckOptions {
  /** Really sign with ed25519 and verify signatures; tens of times slower per transfer, so off by default. */
  sign?: boolean;
  /**
   * The mock's own final balances (e.g. `mock.balances()`). Without them the expected balances are the ones
   * the journal implies, which cannot reveal an entry whose amount was changed consistently on both sides.
   */
  balances?: ReadonlyArray<{ address: string; lamports: Lamports }>;
}

/** Fixed so the fee payer's address is the same on every run; it is never an account of ours. */
const FEE_PAYER_SEED = new Uint8Array(32).fill(0xfe);
/** Fees come out of this account so that no compared balance ever pays one. */
const FEE_PAYER_LAMPORTS = 10n ** 15n;
/** The airdrop source must never run dry, or a mint would fail for a reason that is not ours (u64 fits 2^63). */
const AIRDROP_POOL = 2n ** 63n;
/** Any 64 bytes will do once sigverify is off: the runtime then only needs a signature in each slot. */
const PLACEHOLDER_SIGNATURE = Buffer.alloc(64, 1);
/** SystemError::ResultWithNegativeLamports, the system program's "sender has too few lamports". */
const CUSTOM_INSUFFICIENT_LAMPORTS = 1;

interface ReplayedAccount {
  kind: LedgerAccountKind;
  key: PublicKey;
  /** Only built when signing, because deriving a keypair costs more than the transfer it signs. */
  signer?: Keypair;
}

interface Counts {
  outcomeMismatches: number;
  balanceMismatches: number;
}

interface Replay {
  svm: LiteSVM;
  sign: boolean;
  feePayer: Keypair;
  accounts: Map<string, ReplayedAccount>;
  /** Balances as the journal claims them: the mock's view, built from its recorded outcomes. */
  implied: Map<string, Lamports>;
  result: CrossCheckResult;
  counts: Counts;
}

export function crossCheck(
  journal: readonly LedgerJournalEntry[],
  options: CrossCheckOptions = {},
): CrossCheckResult {
  const replay = startReplay(options.sign ?? false);
  journal.forEach((entry, index) => replayEntry(replay, entry, index));
  compareBalances(replay, options.balances);
  replay.result.passed = replay.counts.outcomeMismatches === 0 && replay.counts.balanceMismatches === 0;
  return replay.result;
}

/** No history: identical transfers (same accounts, amount, blockhash, placeholder signatures) are legitimate repeats. */
function startReplay(sign: boolean): Replay {
  const svm = new LiteSVM().withTransactionHistory(0n).withSigverify(sign).withLamports(AIRDROP_POOL);
  assertSameRent(svm);
  const feePayer = Keypair.fromSeed(FEE_PAYER_SEED);
  expectAccepted(svm.airdrop(feePayer.publicKey, FEE_PAYER_LAMPORTS), 'funding the fee payer');
  const result: CrossCheckResult = {
    passed: false,
    accounts: 0,
    transfers: 0,
    rejectedAlike: 0,
    balanceMismatches: [],
    outcomeMismatches: [],
  };
  return {
    svm,
    sign,
    feePayer,
    accounts: new Map(),
    implied: new Map(),
    result,
    counts: { outcomeMismatches: 0, balanceMismatches: 0 },
  };
}

/** The mock's rent rule is hard-coded to this minimum; a runtime with another one would be comparing apples to pears. */
function assertSameRent(svm: LiteSVM): void {
  const minimum = svm.minimumBalanceForRentExemption(0n);
  if (minimum !== BigInt(RENT_EXEMPT_MINIMUM))
    throw new Error(`litesvm rent-exempt minimum is ${minimum}, the mock assumes ${RENT_EXEMPT_MINIMUM}`);
}

function expectAccepted(outcome: TransactionMetadata | FailedTransactionMetadata | null, what: string): void {
  if (outcome instanceof FailedTransactionMetadata)
    throw new Error(`litesvm refused ${what}: ${String(outcome.err())}`);
}

function replayEntry(replay: Replay, entry: LedgerJournalEntry, index: number): void {
  if (entry.op === 'open') replayOpen(replay, entry);
  else if (entry.op === 'mint') replayMint(replay, entry, index);
  else replayTransfer(replay, entry, index);
}

/** Nothing goes on chain: a system account exists only once it holds lamports. */
function replayOpen(replay: Replay, entry: Extract<LedgerJournalEntry, { op: 'open' }>): void {
  if (replay.accounts.has(entry.address)) throw new Error(`journal opens ${entry.address} twice`);
  const signer = replay.sign ? Keypair.fromSeed(entry.seed) : undefined;
  const key = signer?.publicKey ?? new PublicKey(entry.address);
  if (key.equals(replay.feePayer.publicKey))
    throw new Error(`journal account ${entry.address} is the fee payer`);
  if (signer && key.toBase58() !== entry.address)
    throw new Error(`journal seed does not derive ${entry.address}`);
  replay.accounts.set(entry.address, { kind: entry.kind, key, signer });
  replay.implied.set(entry.address, 0);
}

/**
 * Minting is an airdrop: a real transfer from litesvm's own pool whose fee that pool pays, so the account
 * gains exactly the minted amount and the runtime applies the rent rule to it, as the mock does. The journal
 * does not record a mint's outcome, so the mock's verdict is re-derived from the balance the journal implies.
 */
function replayMint(replay: Replay, entry: Extract<LedgerJournalEntry, { op: 'mint' }>, index: number): void {
  const account = accountOf(replay, entry.address);
  const before = replay.implied.get(entry.address) ?? 0;
  const mock: LedgerOutcome = rentStateAllowed(before + entry.lamports, RENT_EXEMPT_MINIMUM)
    ? { ok: true }
    : { ok: false, reason: 'insufficient_funds_for_rent' };
  if (mock.ok) replay.implied.set(entry.address, before + entry.lamports);
  const svm = verdictOf(replay.svm.airdrop(account.key, BigInt(entry.lamports)));
  if (svm !== verdictName(mock))
    recordOutcomeMismatch(replay, {
      index,
      entry: `mint ${entry.address} ${entry.lamports}`,
      mock: verdictName(mock),
      svm,
    });
}

function replayTransfer(
  replay: Replay,
  entry: Extract<LedgerJournalEntry, { op: 'transfer' }>,
  index: number,
): void {
  replay.result.transfers++;
  applyClaimedTransfer(replay, entry);
  const svm = verdictOf(replay.svm.sendTransaction(transferTransaction(replay, entry)));
  const mock = verdictName(entry.outcome);
  if (svm === mock && !entry.outcome.ok) replay.result.rejectedAlike++;
  if (svm !== mock)
    recordOutcomeMismatch(replay, {
      index,
      entry: `transfer ${entry.from} -> ${entry.to} ${entry.lamports}`,
      mock,
      svm,
    });
}

/** The expected side follows the mock's recorded outcome, right or wrong, so a wrong claim shows up in balances too. */
function applyClaimedTransfer(replay: Replay, entry: Extract<LedgerJournalEntry, { op: 'transfer' }>): void {
  if (!entry.outcome.ok || entry.from === entry.to) return;
  replay.implied.set(entry.from, (replay.implied.get(entry.from) ?? 0) - entry.lamports);
  replay.implied.set(entry.to, (replay.implied.get(entry.to) ?? 0) + entry.lamports);
}

function transferTransaction(
  replay: Replay,
  entry: Extract<LedgerJournalEntry, { op: 'transfer' }>,
): Transaction {
  const from = accountOf(replay, entry.from);
  const to = accountOf(replay, entry.to);
  const tx = new Transaction().add(
    SystemProgram.transfer({ fromPubkey: from.key, toPubkey: to.key, lamports: BigInt(entry.lamports) }),
  );
  tx.feePayer = replay.feePayer.publicKey;
  tx.recentBlockhash = replay.svm.latestBlockhash();
  if (from.signer) tx.sign(replay.feePayer, from.signer);
  // Signature checking tests ed25519, not our ledger, so by default the slots are filled without signing:
  // the order must match the compiled message, which puts the fee payer first.
  else
    tx.signatures = [replay.feePayer.publicKey, from.key].map((publicKey) => ({
      publicKey,
      signature: PLACEHOLDER_SIGNATURE,
    }));
  return tx;
}

function accountOf(replay: Replay, address: string): ReplayedAccount {
  const account = replay.accounts.get(address);
  if (!account) throw new Error(`journal uses ${address} before opening it`);
  return account;
}

function verdictName(outcome: LedgerOutcome): string {
  return outcome.ok ? 'ok' : outcome.reason;
}

/** The runtime's answer in the mock's vocabulary; anything the mock has no word for is shown raw. */
function verdictOf(outcome: TransactionMetadata | FailedTransactionMetadata | null): string {
  if (!(outcome instanceof FailedTransactionMetadata)) return 'ok';
  const err = outcome.err();
  if (err instanceof TransactionErrorInsufficientFundsForRent) return 'insufficient_funds_for_rent';
  if (err instanceof TransactionErrorInstructionError) {
    const inner = err.err();
    if (inner instanceof InstructionErrorCustom && inner.code === CUSTOM_INSUFFICIENT_LAMPORTS)
      return 'insufficient_funds';
  }
  return String(err);
}

function recordOutcomeMismatch(replay: Replay, mismatch: OutcomeMismatch): void {
  replay.counts.outcomeMismatches++;
  if (replay.result.outcomeMismatches.length < MISMATCH_CAP) replay.result.outcomeMismatches.push(mismatch);
}

function compareBalances(replay: Replay, given: CrossCheckOptions['balances']): void {
  const expected = new Map(replay.implied);
  for (const { address, lamports } of given ?? []) expected.set(address, lamports);
  for (const [address, account] of replay.accounts) {
    replay.result.accounts++;
    // A system account that never held lamports does not exist on chain.
    const actual = Number(replay.svm.getBalance(account.key) ?? 0n);
    const want = expected.get(address) ?? 0;
    if (actual !== want)
      recordBalanceMismatch(replay, { address, kind: account.kind, expected: want, actual });
  }
}

function recordBalanceMismatch(replay: Replay, mismatch: CrossCheckMismatch): void {
  replay.counts.balanceMismatches++;
  if (replay.result.balanceMismatches.length < MISMATCH_CAP) replay.result.balanceMismatches.push(mismatch);
}

/** One line for logs and reports; on failure it names the first few disagreements. */
