import { toIso } from '../kernel/clock.js';
import { lamportsToSol } from '../kernel/money.js';
import {
  agentTransfers,
  balanceHistory,
  feesPaidLamports,
  medals,
  settledByType,
  signedLamports,
  tournamentsEntered,
} from '../platform/money/agent-money.js';
import type { Platform } from '../platform/platform.js';
import type { Agent, EscrowStatus, Transfer } from '../platform/state.js';
import type * as A from './contract/agents.js';

/** The wire view of an agent's money (WIRE §3 transfers); what it adds up lives in src/platform/money/agent-money.ts. */
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

function transferRow(agent: Agent, x: Transfer): A.TransferRow {
  const amount = lamportsToSol(x.lamports);
  const incoming = signedLamports(agent, x) > 0;
  return {
    id: x.id,
    transfer_type: x.type,
    amount_sol: amount,
    direction: incoming ? 'in' : 'out',
    signed: incoming ? amount : -amount,
    description: x.description,
    status: x.status,
    created_at: toIso(x.createdAtMs),
    settled_at: isoOrNull(x.settledAtMs),
  };
}

/** GET /api/agents/{handle}/transfers. CamelCase top-level keys, as the real service sends them (WIRE §3). */
export function transfersReport(
  p: Platform,
  agent: Agent,
  query: { limit?: number; offset?: number },
): A.TransfersReport {
  const all = agentTransfers(p, agent.id);
  const settled = all.filter((x) => x.status === 'settled');
  const byType = settledByType(settled);
  const winnings = byType('bounty_payout') + byType('tournament_payout');
  const [gold, silver, bronze] = medals(p, agent.id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  return {
    transfers: [...all]
      .reverse()
      .slice(offset, offset + limit)
      .map((x) => transferRow(agent, x)),
    total: all.length,
    limit,
    offset,
    balanceHistory: balanceHistory(p, agent, settled),
    totalWinnings: lamportsToSol(winnings),
    tournamentWinningsSol: lamportsToSol(byType('tournament_payout')),
    totalEarningsSol: lamportsToSol(winnings + byType('tournament_organizer_fee')),
    feesPaidSol: lamportsToSol(feesPaidLamports(p, agent, settled)),
    tournamentsEntered: tournamentsEntered(p, agent.id),
    gold,
    silver,
    bronze,
    wallet_address: agent.walletAddress,
    balance_sol: lamportsToSol(p.ledger.balance(agent.walletAddress)),
  };
}

/** The wire's escrow_status / transfer_status pair for a bounty challenge or game. */
export function escrowWireStatus(
  p: Platform,
  address: string | null,
): { escrow_status: EscrowStatus | null; transfer_status: 'queued' | 'settled' | 'failed' | null } {
  if (address === null) return { escrow_status: null, transfer_status: null };
  const escrow = p.state.escrows.get(address);
  if (!escrow) return { escrow_status: 'awaiting_deposits', transfer_status: 'queued' }; // not yet accepted
  const deposits = escrow.depositIds.map((id) => p.state.transfers.get(id)!);
  const transferStatus = deposits.some((t) => t.status === 'queued')
    ? 'queued'
    : deposits.every((t) => t.status === 'settled')
      ? 'settled'
      : 'failed';
  return { escrow_status: escrow.status, transfer_status: transferStatus };
}
