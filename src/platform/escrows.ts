import { invariant } from '../kernel/errors.js';
import type { Platform } from './platform.js';
import type { Escrow, Transfer, TransferType } from './state.js';
import { queueTransfer, type TransferSpec } from './transfers.js';

/**
 * The life of one escrow account, shared by bounties and tournaments: deposits in, then exactly one
 * settlement, paid out or refunded. It closes when nothing is in flight and its balance is zero.
 */
/** An escrow's address is derived before the escrow opens: a bounty challenge shows it at creation. */
export function deriveEscrowAddress(p: Platform, kind: 'bounty_escrow' | 'tournament_escrow'): string {
  return p.ledger.open(kind, p.stream('escrows'));
}

export function openEscrow(p: Platform, kind: Escrow['kind'], address: string, refId: string): Escrow {
  const escrow: Escrow = {
    ...{ address, kind, refId, status: 'awaiting_deposits' as const, pendingIn: new Set<string>(), pendingOut: new Set<string>() },
    ...{ depositIds: [], deposits: [], lamportsIn: 0, lamportsOut: 0, timer: null, closedAtMs: null },
  };
  p.state.escrows.set(address, escrow);
  p.emit({ type: 'escrow_opened', t: p.nowMs, escrow: address, kind, refId });
  return escrow;
}

export function depositInto(p: Platform, escrow: Escrow, spec: Omit<TransferSpec, 'to' | 'purpose'>): Transfer {
  const transfer = queueTransfer(p, { ...spec, to: escrow.address, purpose: purposeOf(escrow) });
  escrow.pendingIn.add(transfer.id);
  escrow.depositIds.push(transfer.id);
  return transfer;
}

export function payFrom(p: Platform, escrow: Escrow, spec: Omit<TransferSpec, 'from' | 'purpose'>): Transfer {
  const transfer = queueTransfer(p, { ...spec, from: escrow.address, purpose: purposeOf(escrow) });
  escrow.pendingOut.add(transfer.id);
  return transfer;
}

function purposeOf(escrow: Escrow): Transfer['purpose'] {
  return escrow.kind === 'bounty' ? { kind: 'bounty', escrow: escrow.address } : { kind: 'tournament', tournamentId: escrow.refId };
}

export type EscrowChange = 'deposit_settled' | 'deposit_failed' | 'outflow_settled' | 'outflow_failed';

/**
 * Books a finished transfer against its escrow. A deposit that lands after the escrow started refunding is
 * sent straight back, so a late deposit is never kept.
 */
export function bookTransfer(p: Platform, escrow: Escrow, transfer: Transfer, refundType: TransferType): EscrowChange {
  const settled = transfer.status === 'settled';
  if (escrow.pendingIn.delete(transfer.id)) {
    if (settled) {
      escrow.deposits.push(transfer.id);
      escrow.lamportsIn += transfer.lamports;
      if (escrow.status === 'refunding') refundDeposit(p, escrow, transfer, refundType);
    }
    // The last deposit of a cancelled escrow may be the one that failed: that is when it can close.
    closeIfDone(p, escrow);
    return settled ? 'deposit_settled' : 'deposit_failed';
  }
  invariant(escrow.pendingOut.delete(transfer.id), `transfer ${transfer.id} is not pending on escrow ${escrow.address}`);
  if (settled) escrow.lamportsOut += transfer.lamports;
  closeIfDone(p, escrow);
  return settled ? 'outflow_settled' : 'outflow_failed';
}

/** Starts the payout phase; the caller queues the payouts. */
export function beginPayout(escrow: Escrow): void {
  invariant(escrow.status === 'funded', `escrow ${escrow.address} paid out while ${escrow.status}`);
  escrow.status = 'paying_out';
}

/** Cancels: every settled deposit goes back to its sender; deposits still in flight follow when they land. */
export function beginRefund(p: Platform, escrow: Escrow, refundType: TransferType): void {
  invariant(escrow.status === 'awaiting_deposits' || escrow.status === 'funded', `escrow ${escrow.address} refunded while ${escrow.status}`);
  escrow.status = 'refunding';
  for (const id of escrow.deposits) refundDeposit(p, escrow, p.state.transfers.get(id)!, refundType);
  closeIfDone(p, escrow);
}

function refundDeposit(p: Platform, escrow: Escrow, deposit: Transfer, refundType: TransferType): void {
  payFrom(p, escrow, {
    ...{ type: refundType, to: deposit.from, lamports: deposit.lamports, agentId: deposit.agentId },
    description: `refund of ${deposit.type.replace(/_/g, ' ')}`,
  });
}

/** Closes once the settlement phase has nothing left in flight. */
export function closeIfDone(p: Platform, escrow: Escrow): void {
  if (escrow.status !== 'paying_out' && escrow.status !== 'refunding') return;
  if (escrow.pendingIn.size > 0 || escrow.pendingOut.size > 0) return;
  // A payout that exhausted its retries leaves lamports behind: the escrow stays open and the
  // escrow_settles_once checker reports it, rather than the run pretending it settled.
  if (p.ledger.balance(escrow.address) !== 0) return;
  escrow.status = escrow.status === 'paying_out' ? 'paid_out' : 'refunded';
  escrow.closedAtMs = p.nowMs;
  p.emit({
    ...{ type: 'escrow_closed' as const, t: p.nowMs, escrow: escrow.address, kind: escrow.kind, refId: escrow.refId },
    ...{ outcome: escrow.status === 'paid_out' ? ('paid_out' as const) : ('refunded' as const), lamportsIn: escrow.lamportsIn, lamportsOut: escrow.lamportsOut },
  });
}
