import { invariant } from '../../kernel/errors.js';
import type { Platform } from '../platform.js';
import type { Escrow, EscrowStatus, Transfer, TransferType } from '../state.js';
import { queueTransfer, type TransferSpec } from './transfers.js';

/**
 * The escrow state machine. One escrow account holds the stakes of one bounty game, or the prize fund and
 * entry fees of one tournament, from its deposits to exactly one settlement: paid out or refunded.
 *
 * Every state and every event that moves an escrow are in one table, `ESCROW_TRANSITIONS`, and
 * `transitionEscrow` is the only way to move one: it refuses a pair the table does not list. The effect of
 * each row is called from here: deposits and payouts, fees and refunds are queued on the transfer queue
 * (src/platform/money/transfers.ts), the transfers it reports back are booked, and the escrow closes.
 *
 * Who fires the events: the escrow's owner (src/platform/chess/bounties.ts for a bounty game,
 * src/platform/chess/tournaments.ts for a tournament) decides when to deposit, when its funding is complete, when
 * to pay out and when to cancel. A queued transfer lands later, on the virtual clock: the transfer queue's
 * timer (`onTransferDue` in src/platform/index.ts) hands it to the owner, which books it here with
 * `bookFinishedTransfer` and then reacts. `emptied` is the machine's own event.
 */

/** A deposit from an agent's wallet; the escrow adds itself as the receiver. */
export type DepositSpec = Omit<TransferSpec, 'to' | 'purpose'>;
/** A payout, a fee or a refund; the escrow adds itself as the sender. */
export type OutflowSpec = Omit<TransferSpec, 'from' | 'purpose'>;

export type EscrowEvent =
  // The owner queues a deposit: a bounty stake, a prize fund, an entry fee.
  | { type: 'deposit'; deposit: DepositSpec }
  // The transfer queue reports a deposit landed, or refused by the ledger or lost past its retries.
  | { type: 'deposit_settled'; transfer: Transfer }
  | { type: 'deposit_failed'; transfer: Transfer }
  // The owner has every deposit it waits for (a bounty's two stakes; a tournament's, at seeding).
  | { type: 'funding_complete' }
  // The result is known: the owner's payouts and fees, queued in this order.
  | { type: 'pay_out'; outflows: readonly OutflowSpec[] }
  // The owner gives up (a deposit failed, a window passed): every settled deposit goes back to its sender.
  | { type: 'cancel' }
  // The transfer queue reports a payout, fee or refund landed, or lost past its retries.
  | { type: 'outflow_settled'; transfer: Transfer }
  | { type: 'outflow_failed'; transfer: Transfer }
  // The machine's own: nothing is in flight and the account is empty.
  | { type: 'emptied' };

export type EscrowEventType = EscrowEvent['type'];
type EventOf<T extends EscrowEventType> = Extract<EscrowEvent, { type: T }>;
export type FinishedTransferEvent = EventOf<
  'deposit_settled' | 'deposit_failed' | 'outflow_settled' | 'outflow_failed'
>;

interface Step<T extends EscrowEventType> {
  readonly next: EscrowStatus;
  readonly effect?: (p: Platform, escrow: Escrow, event: EventOf<T>) => void;
}

type Row = { readonly [T in EscrowEventType]?: Step<T> };

/**
 * State x event -> next state and effect. An escrow opens in `awaiting_deposits` (`openEscrow`); `paid_out`
 * and `refunded` are final. A pair missing here cannot happen; `transitionEscrow` treats it as a bug.
 */
export const ESCROW_TRANSITIONS: Readonly<Record<EscrowStatus, Row>> = {
  awaiting_deposits: {
    deposit: { next: 'awaiting_deposits', effect: queueDeposit },
    deposit_settled: { next: 'awaiting_deposits', effect: bookDeposit },
    deposit_failed: { next: 'awaiting_deposits', effect: dropDeposit },
    funding_complete: { next: 'funded' },
    cancel: { next: 'refunding', effect: refundSettledDeposits },
  },
  funded: {
    pay_out: { next: 'paying_out', effect: queueOutflows },
  },
  paying_out: {
    outflow_settled: { next: 'paying_out', effect: bookOutflow },
    outflow_failed: { next: 'paying_out', effect: dropOutflow },
    emptied: { next: 'paid_out', effect: close },
  },
  paid_out: {},
  refunding: {
    // A deposit still in flight at the cancel may land afterwards: it goes straight back, never kept.
    deposit_settled: { next: 'refunding', effect: bookAndReturnDeposit },
    deposit_failed: { next: 'refunding', effect: dropDeposit },
    outflow_settled: { next: 'refunding', effect: bookOutflow },
    outflow_failed: { next: 'refunding', effect: dropOutflow },
    emptied: { next: 'refunded', effect: close },
  },
  refunded: {},
};

/**
 * The one way an escrow moves: the table's step for its state and the event, or an invariant failure
 * (nothing changed) when there is none. The state changes first, then the step's effect runs; an escrow
 * that may close and has nothing left then closes at once.
 */
export function transitionEscrow(p: Platform, escrow: Escrow, event: EscrowEvent): void {
  const step = ESCROW_TRANSITIONS[escrow.status][event.type] as Step<EscrowEventType> | undefined;
  invariant(step !== undefined, `escrow ${escrow.address} cannot take ${event.type} while ${escrow.status}`);
  escrow.status = step.next;
  step.effect?.(p, escrow, event);
  if (event.type !== 'emptied' && mayClose(p, escrow)) transitionEscrow(p, escrow, { type: 'emptied' });
}

/** An escrow's address is derived before the escrow opens: a bounty challenge shows it at creation. */
export function deriveEscrowAddress(p: Platform, kind: 'bounty_escrow' | 'tournament_escrow'): string {
  return p.ledger.open(kind, p.stream('escrows'));
}

/** The machine's start: a new escrow in `awaiting_deposits`. */
export function openEscrow(p: Platform, kind: Escrow['kind'], address: string, refId: string): Escrow {
  const escrow: Escrow = {
    address,
    kind,
    refId,
    status: 'awaiting_deposits',
    pendingIn: new Set<string>(),
    pendingOut: new Set<string>(),
    depositIds: [],
    settledDepositIds: [],
    lamportsIn: 0,
    lamportsOut: 0,
    timer: null,
    closedAtMs: null,
  };
  p.state.escrows.set(address, escrow);
  p.emit({ type: 'escrow_opened', t: p.nowMs, escrow: address, kind, refId });
  return escrow;
}

/** Fires `deposit` and returns the queued transfer (the owner keeps its id). */
export function depositInto(p: Platform, escrow: Escrow, deposit: DepositSpec): Transfer {
  transitionEscrow(p, escrow, { type: 'deposit', deposit });
  return p.state.transfers.get(escrow.depositIds.at(-1)!)!;
}

/**
 * The transfer queue finished a transfer of this escrow (settled, or finally failed): fires the matching
 * event and returns its type, for the owner to react to.
 */
export function bookFinishedTransfer(
  p: Platform,
  escrow: Escrow,
  transfer: Transfer,
): FinishedTransferEvent['type'] {
  const event = finishedTransferEvent(escrow, transfer);
  transitionEscrow(p, escrow, event);
  return event.type;
}

function finishedTransferEvent(escrow: Escrow, transfer: Transfer): FinishedTransferEvent {
  const settled = transfer.status === 'settled';
  if (escrow.pendingIn.has(transfer.id)) {
    return { type: settled ? 'deposit_settled' : 'deposit_failed', transfer };
  }
  invariant(
    escrow.pendingOut.has(transfer.id),
    `transfer ${transfer.id} is not pending on escrow ${escrow.address}`,
  );
  return { type: settled ? 'outflow_settled' : 'outflow_failed', transfer };
}

// ---------------------------------------------------------------------------------------------------
// The effects, in the table's order

function queueDeposit(p: Platform, escrow: Escrow, event: EventOf<'deposit'>): void {
  const transfer = queueTransfer(p, { ...event.deposit, to: escrow.address, purpose: purposeOf(escrow) });
  escrow.pendingIn.add(transfer.id);
  escrow.depositIds.push(transfer.id);
}

/** The escrow now holds it, and a cancel would send it back. */
function bookDeposit(_p: Platform, escrow: Escrow, event: EventOf<'deposit_settled'>): void {
  takePending(escrow, escrow.pendingIn, event.transfer);
  escrow.settledDepositIds.push(event.transfer.id);
  escrow.lamportsIn += event.transfer.lamports;
}

/** The lamports never left the sender's wallet: nothing to hold, nothing to return. */
function dropDeposit(_p: Platform, escrow: Escrow, event: EventOf<'deposit_failed'>): void {
  takePending(escrow, escrow.pendingIn, event.transfer);
}

function refundSettledDeposits(p: Platform, escrow: Escrow): void {
  for (const id of escrow.settledDepositIds) returnDeposit(p, escrow, p.state.transfers.get(id)!);
}

function queueOutflows(p: Platform, escrow: Escrow, event: EventOf<'pay_out'>): void {
  for (const outflow of event.outflows) queueOutflow(p, escrow, outflow);
}

function bookOutflow(_p: Platform, escrow: Escrow, event: EventOf<'outflow_settled'>): void {
  takePending(escrow, escrow.pendingOut, event.transfer);
  escrow.lamportsOut += event.transfer.lamports;
}

/**
 * A failed outflow (lost past its retries, or refused by the ledger) leaves its lamports behind, so the
 * escrow never empties and stays open: the escrow_settles_once checker reports it, rather than the run
 * pretending it settled.
 */
function dropOutflow(_p: Platform, escrow: Escrow, event: EventOf<'outflow_failed'>): void {
  takePending(escrow, escrow.pendingOut, event.transfer);
}

function close(p: Platform, escrow: Escrow): void {
  escrow.closedAtMs = p.nowMs;
  p.emit({
    type: 'escrow_closed',
    t: p.nowMs,
    escrow: escrow.address,
    kind: escrow.kind,
    refId: escrow.refId,
    outcome: escrow.status === 'paid_out' ? 'paid_out' : 'refunded',
    lamportsIn: escrow.lamportsIn,
    lamportsOut: escrow.lamportsOut,
  });
}

function bookAndReturnDeposit(p: Platform, escrow: Escrow, event: EventOf<'deposit_settled'>): void {
  bookDeposit(p, escrow, event);
  returnDeposit(p, escrow, event.transfer);
}

// ---------------------------------------------------------------------------------------------------
// Helpers of the effects

function returnDeposit(p: Platform, escrow: Escrow, deposit: Transfer): void {
  queueOutflow(p, escrow, {
    type: refundTypeOf(escrow),
    to: deposit.from,
    lamports: deposit.lamports,
    agentId: deposit.agentId,
    description: `refund of ${deposit.type.replace(/_/g, ' ')}`,
  });
}

function queueOutflow(p: Platform, escrow: Escrow, outflow: OutflowSpec): void {
  const transfer = queueTransfer(p, { ...outflow, from: escrow.address, purpose: purposeOf(escrow) });
  escrow.pendingOut.add(transfer.id);
}

function takePending(escrow: Escrow, pending: Set<string>, transfer: Transfer): void {
  invariant(
    pending.delete(transfer.id),
    `transfer ${transfer.id} is not pending on escrow ${escrow.address}`,
  );
}

/** The table lets the state close (paying out, refunding), nothing is in flight and the account is empty. */
function mayClose(p: Platform, escrow: Escrow): boolean {
  if (ESCROW_TRANSITIONS[escrow.status].emptied === undefined) return false;
  if (escrow.pendingIn.size > 0 || escrow.pendingOut.size > 0) return false;
  return p.ledger.balance(escrow.address) === 0;
}

function purposeOf(escrow: Escrow): Transfer['purpose'] {
  return escrow.kind === 'bounty'
    ? { kind: 'bounty', escrow: escrow.address }
    : { kind: 'tournament', tournamentId: escrow.refId };
}

function refundTypeOf(escrow: Escrow): TransferType {
  return escrow.kind === 'bounty' ? 'bounty_refund' : 'tournament_refund';
}
