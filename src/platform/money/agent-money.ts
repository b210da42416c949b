import { toIso } from '../../kernel/clock.js';
import { lamportsToSol } from '../../kernel/money.js';
import type { Platform } from '../platform.js';
import type { Agent, Transfer, TransferType } from '../state.js';

/**
 * An agent's money as the transfers report shows it (WIRE §3): its transfers, balance history, winnings by
 * type, fees paid and tournament record. Lamports until the last step, so sums stay exact.
 */
/** The transfers that move money in or out of an agent's wallet, oldest first. */
export function agentTransfers(p: Platform, agentId: string): Transfer[] {
  return (p.state.transfersByAgent.get(agentId) ?? []).map((id) => p.state.transfers.get(id)!);
}

export function sumLamports(transfers: readonly Transfer[]): number {
  return transfers.reduce((sum, x) => sum + x.lamports, 0);
}

export function signedLamports(agent: Agent, x: Transfer): number {
  return x.to === agent.walletAddress ? x.lamports : -x.lamports;
}

/**
 * The wallet's balance at the end of each UTC day on which a settled transfer moved it, oldest day first.
 * Airdrops are ledger mints, not transfers, and the state keeps no record of them, so the history is
 * computed backwards from the current ledger balance by undoing later transfers: exact whenever the mints
 * came before the days shown (as scenario airdrops do); a mint after a day would be counted in that day.
 */
export function balanceHistory(p: Platform, agent: Agent, settled: readonly Transfer[]) {
  const bySettlement = [...settled].sort((a, b) => b.settledAtMs! - a.settledAtMs! || b.seq - a.seq);
  let balance = p.ledger.balance(agent.walletAddress);
  const days: Array<{ date: string; balance_sol: number }> = [];
  for (const x of bySettlement) {
    const date = toIso(x.settledAtMs!).slice(0, 10);
    if (days.at(-1)?.date !== date) days.push({ date, balance_sol: lamportsToSol(balance) });
    balance -= signedLamports(agent, x);
  }
  return days.reverse();
}

/** Settled lamports per transfer type (each type moves one way for the agent it belongs to). */
export function settledByType(settled: readonly Transfer[]): (type: TransferType) => number {
  const totals = new Map<TransferType, number>();
  for (const x of settled) totals.set(x.type, (totals.get(x.type) ?? 0) + x.lamports);
  return (type) => totals.get(type) ?? 0;
}

/**
 * Fees the agent paid: bounty fees charged on its winnings, and entry fees of tournaments that were not
 * cancelled (OURS: a cancelled tournament refunds every entry, so that money was never a fee).
 */
export function feesPaidLamports(p: Platform, agent: Agent, settled: readonly Transfer[]): number {
  const bountyFees = (p.state.feesByAgent.get(agent.id) ?? []).map((id) => p.state.transfers.get(id)!);
  const charged = bountyFees.filter((x) => x.status === 'settled' && x.type === 'bounty_system_fee');
  const entries = settled.filter(
    (x) =>
      x.type === 'tournament_entry' &&
      x.purpose.kind === 'tournament' &&
      !wasCancelled(p, x.purpose.tournamentId),
  );
  return sumLamports(charged) + sumLamports(entries);
}

function wasCancelled(p: Platform, tournamentId: string): boolean {
  return p.state.tournaments.get(tournamentId)?.status === 'cancelled';
}

/** Completed tournaments by the agent's place: [gold, silver, bronze]. */
export function medals(p: Platform, agentId: string): [number, number, number] {
  const counts: [number, number, number] = [0, 0, 0];
  for (const t of p.state.tournaments.values()) {
    const place = t.status === 'completed' ? t.placements.indexOf(agentId) : -1;
    if (place >= 0 && place < 3) counts[place as 0 | 1 | 2]++;
  }
  return counts;
}

export function tournamentsEntered(p: Platform, agentId: string): number {
  let count = 0;
  for (const t of p.state.tournaments.values())
    if (t.participants.some((x) => x.agentId === agentId)) count++;
  return count;
}
