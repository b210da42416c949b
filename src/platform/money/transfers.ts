import { fail, invariant } from '../../kernel/errors.js';
import { lamportsToSol } from '../../kernel/money.js';
import { rentStateAllowed } from '../../escrow/ledger.js';
import { drawFault, drawLatencyMs } from '../../escrow/network.js';
import type { Platform, PlatformTimer } from '../platform.js';
import type { Transfer, TransferPurpose, TransferType } from '../state.js';

/**
 * The transfer queue between the platform and the ledger. A transfer is queued now and lands after a
 * network latency drawn from the seed; an attempt may be lost (a fault) and is then retried, up to a limit
 * that depends on who pays: an agent's deposit may fail, an escrow's payout is retried until it lands.
 * A refusal by the ledger itself (insufficient funds, rent) is final at once: retrying cannot change it.
 * The queue knows no escrow: `attemptTransfer` returns a finished transfer to its caller, the
 * `transfer_due` timer handler (`onTransferDue` in src/platform/index.ts), which hands it to its owner.
 */
export interface TransferSpec {
  type: TransferType;
  from: string;
  to: string;
  lamports: number;
  agentId: string | null;
  chargedToId?: string | null;
  purpose: TransferPurpose;
  description: string;
}

/**
 * Balance minus what queued transfers will take and what open bounty challenges have promised: what an
 * agent can still commit. A promise is money too: counting it keeps one stake from being promised twice.
 */
export function availableLamports(p: Platform, address: string): number {
  return (
    p.ledger.balance(address) - (p.state.pendingOutByAddress.get(address) ?? 0) - reservedLamports(p, address)
  );
}

/** Lamports an address has promised to open bounty challenges (no transfer queued yet). */
export function reservedLamports(p: Platform, address: string): number {
  return p.state.reservedByAddress.get(address) ?? 0;
}

/**
 * The request-time funds check: the amount is available and spending it leaves the wallet empty or above
 * the rent-exempt minimum (otherwise the ledger would refuse the deposit when it lands).
 */
export function requireSpendable(p: Platform, address: string, lamports: number, what: string): void {
  const available = availableLamports(p, address);
  const left = available - lamports;
  if (left < 0)
    fail(
      'insufficient_balance',
      `${what} needs ${lamportsToSol(lamports)} SOL; available ${lamportsToSol(available)} SOL${reservedNote(p, address)}`,
    );
  if (!rentStateAllowed(left, p.ruleset.escrow.rentExemptMinimumLamports)) {
    fail(
      'insufficient_balance',
      `${what} would leave ${lamportsToSol(left)} SOL, below the rent-exempt minimum; spend all or keep more${reservedNote(p, address)}`,
    );
  }
}

/** Tells the agent why its balance looks larger than what it may spend. */
function reservedNote(p: Platform, address: string): string {
  const reserved = reservedLamports(p, address);
  return reserved === 0
    ? ''
    : ` (${lamportsToSol(reserved)} SOL of the balance is reserved by open challenges)`;
}

/** An open bounty challenge promises its stake: held back from any other spend until the challenge closes. */
export function reserveLamports(p: Platform, address: string, lamports: number): void {
  const reserved = p.state.reservedByAddress;
  reserved.set(address, (reserved.get(address) ?? 0) + lamports);
}

/** The challenge closed (accepted, expired): its promise ends. At accept the queued deposit takes over. */
export function releaseReservation(p: Platform, address: string, lamports: number): void {
  const reserved = p.state.reservedByAddress;
  const left = (reserved.get(address) ?? 0) - lamports;
  invariant(left >= 0, `reservation of ${address} went negative`);
  if (left === 0) reserved.delete(address);
  else reserved.set(address, left);
}

export function queueTransfer(p: Platform, spec: TransferSpec): Transfer {
  invariant(
    Number.isSafeInteger(spec.lamports) && spec.lamports > 0,
    `transfer of ${spec.lamports} lamports`,
  );
  const transfer: Transfer = {
    id: p.newId('transfer'),
    seq: p.state.transfers.size,
    type: spec.type,
    from: spec.from,
    to: spec.to,
    lamports: spec.lamports,
    agentId: spec.agentId,
    chargedToId: spec.chargedToId ?? null,
    purpose: spec.purpose,
    description: spec.description,
    status: 'queued' as const,
    attempts: 0,
    createdAtMs: p.nowMs,
    settledAtMs: null,
    failureReason: null,
  };
  p.state.transfers.set(transfer.id, transfer);
  if (transfer.agentId !== null) indexUnder(p.state.transfersByAgent, transfer.agentId, transfer.id);
  if (transfer.chargedToId !== null) indexUnder(p.state.feesByAgent, transfer.chargedToId, transfer.id);
  const pending = p.state.pendingOutByAddress;
  pending.set(transfer.from, (pending.get(transfer.from) ?? 0) + transfer.lamports);
  const dueMs = scheduleAttempt(p, transfer, 0);
  p.emit({
    type: 'transfer_queued',
    t: p.nowMs,
    transferId: transfer.id,
    transferType: transfer.type,
    from: transfer.from,
    to: transfer.to,
    lamports: transfer.lamports,
    dueMs,
  });
  return transfer;
}

function indexUnder(index: Map<string, string[]>, key: string, id: string): void {
  const list = index.get(key);
  if (list) list.push(id);
  else index.set(key, [id]);
}

function scheduleAttempt(p: Platform, transfer: Transfer, extraDelayMs: number): number {
  const latencyMs = drawLatencyMs(p.network, p.stream('escrow:latency'));
  const dueMs = p.nowMs + extraDelayMs + latencyMs;
  p.setTimer(dueMs, { kind: 'transfer_due', transferId: transfer.id, attempt: transfer.attempts + 1 });
  return dueMs;
}

/**
 * The `transfer_due` timer: one attempt of a transfer reaches the network. Returns the transfer once it
 * settled or finally failed, or null while it waits for a retry.
 */
export function attemptTransfer(p: Platform, timer: PlatformTimer): Transfer | null {
  if (timer.kind !== 'transfer_due') return null;
  const transfer = p.state.transfers.get(timer.transferId)!;
  invariant(
    transfer.status === 'queued' && transfer.attempts + 1 === timer.attempt,
    `transfer ${transfer.id} attempted out of order`,
  );
  transfer.attempts++;
  if (drawFault(p.network, p.stream('escrow:faults'))) return onFault(p, transfer);
  const outcome = p.ledger.transfer(transfer.from, transfer.to, transfer.lamports);
  if (outcome.ok) settle(p, transfer);
  else finalFailure(p, transfer, outcome.reason);
  return transfer;
}

function onFault(p: Platform, transfer: Transfer): Transfer | null {
  const limit = isDeposit(transfer)
    ? p.ruleset.escrow.depositMaxAttempts
    : p.ruleset.escrow.payoutMaxAttempts;
  if (transfer.attempts >= limit) {
    // An escrow outflow that exhausts its retries would strand lamports: the invariant checkers report it.
    finalFailure(p, transfer, 'network_fault');
    return transfer;
  }
  const dueMs = scheduleAttempt(p, transfer, p.ruleset.escrow.retryDelayMs);
  p.emit({
    type: 'transfer_retried',
    t: p.nowMs,
    transferId: transfer.id,
    attempt: transfer.attempts,
    dueMs,
  });
  return null;
}

/** Deposits come from an agent's wallet; everything else leaves an escrow or the treasury. */
function isDeposit(transfer: Transfer): boolean {
  return (
    transfer.type === 'bounty_deposit' ||
    transfer.type === 'tournament_entry' ||
    transfer.type === 'tournament_fund'
  );
}

function release(p: Platform, transfer: Transfer): void {
  const pending = p.state.pendingOutByAddress;
  const left = (pending.get(transfer.from) ?? 0) - transfer.lamports;
  invariant(left >= 0, `pending outflow of ${transfer.from} went negative`);
  if (left === 0) pending.delete(transfer.from);
  else pending.set(transfer.from, left);
}

function settle(p: Platform, transfer: Transfer): void {
  release(p, transfer);
  transfer.status = 'settled';
  transfer.settledAtMs = p.nowMs;
  p.emit({
    type: 'transfer_settled',
    t: p.nowMs,
    transferId: transfer.id,
    transferType: transfer.type,
    from: transfer.from,
    to: transfer.to,
    lamports: transfer.lamports,
  });
}

function finalFailure(p: Platform, transfer: Transfer, reason: string): void {
  release(p, transfer);
  transfer.status = 'failed';
  transfer.failureReason = reason;
  p.emit({
    type: 'transfer_failed',
    t: p.nowMs,
    transferId: transfer.id,
    transferType: transfer.type,
    reason,
    attempts: transfer.attempts,
  });
}

/** Scenario airdrops: lamports minted straight into an agent's wallet (no queue: nothing can fail). */
export function airdrop(p: Platform, address: string, lamports: number): void {
  const outcome = p.ledger.mint(address, lamports);
  if (!outcome.ok)
    fail(
      'validation_error',
      `an airdrop must leave the wallet at 0 or at least ${p.ruleset.escrow.rentExemptMinimumLamports} lamports`,
    );
  p.emit({ type: 'lamports_minted', t: p.nowMs, address, lamports, reason: 'airdrop' });
}

/** Verified agents get devnet funding from the treasury (the verify route of the social layer calls this). */
export function fundVerifiedAgent(p: Platform, agentId: string): Transfer | undefined {
  const agent = p.state.agents.get(agentId)!;
  const lamports = p.ruleset.escrow.verifiedFundingLamports;
  if (lamports === 0) return undefined;
  return queueTransfer(p, {
    type: 'devnet_funding',
    from: p.treasuryAddress,
    to: agent.walletAddress,
    lamports,
    agentId,
    purpose: { kind: 'funding' },
    description: 'devnet funding for a verified agent',
  });
}
