import { fail } from '../kernel/errors.js';
import { lamportsToSol, solToLamports } from '../kernel/money.js';
import { bountySettlement } from '../rules/fees.js';
import { activateGame, cancelPendingGame, createPendingGame } from './games.js';
import { beginPayout, beginRefund, bookTransfer, depositInto, openEscrow, payFrom } from './escrows.js';
import type { Platform, PlatformTimer } from './platform.js';
import type { Agent, Challenge, Escrow, EscrowStatus, Game, Transfer } from './state.js';
import { releaseReservation, requireSpendable, reserveLamports } from './transfers.js';

/**
 * Bounty challenges (SPEC: 0.01-10 SOL, both players deposit, 10% system fee). Accepting queues both
 * deposits; the game waits in `pending` until both settle, and is cancelled and refunded if either fails
 * or the funding window passes. The result then pays the winner the pot minus the fee (or returns both
 * stakes on a draw).
 */
export function checkBountySol(p: Platform, bountySol: number): number {
  const lamports = solToLamports(bountySol);
  const { bountyMinLamports, bountyMaxLamports } = p.ruleset.challenges;
  if (lamports === undefined || lamports < bountyMinLamports || lamports > bountyMaxLamports) {
    const range = `${lamportsToSol(bountyMinLamports)} to ${lamportsToSol(bountyMaxLamports)}`;
    fail('validation_error', `bounty_sol: must be from ${range} SOL, in whole lamports`, { field: 'bounty_sol' });
  }
  return lamports;
}

/** The stake must be free: not held by queued transfers nor promised to the agent's other open bounty challenges. */
export function requireStake(p: Platform, agent: Agent, lamports: number): void {
  requireSpendable(p, agent.walletAddress, lamports, 'the bounty stake');
}

/**
 * OURS: an open bounty challenge reserves its challenger's stake, so a wallet can promise each lamport once
 * (without it, a 1 SOL wallet could open five 0.9 SOL challenges and four accepted games would be cancelled).
 */
export function reserveStake(p: Platform, challenge: Challenge): void {
  if (challenge.bountyLamports === null) return;
  reserveLamports(p, challengerWallet(p, challenge), challenge.bountyLamports);
}

/** The challenge closed: on accept the queued deposit now holds the stake; on expiry it is free again. */
export function releaseStake(p: Platform, challenge: Challenge): void {
  if (challenge.bountyLamports === null) return;
  releaseReservation(p, challengerWallet(p, challenge), challenge.bountyLamports);
}

function challengerWallet(p: Platform, challenge: Challenge): string {
  return p.state.agents.get(challenge.challengerId)!.walletAddress;
}

/** Called by accept once every check passed: the pending game, its escrow, both deposits, the window. */
export function fundBountyGame(p: Platform, challenge: Challenge, acceptor: Agent): Game {
  const stake = challenge.bountyLamports!;
  const challenger = p.state.agents.get(challenge.challengerId)!;
  const game = createPendingGame(p, {
    ...{ id: challenge.id, whiteId: challenger.id, blackId: acceptor.id },
    ...{ bountyLamports: stake, escrowAddress: challenge.escrowAddress! },
  });
  const escrow = openEscrow(p, 'bounty', challenge.escrowAddress!, game.id);
  for (const player of [challenger, acceptor]) {
    depositInto(p, escrow, {
      ...{ type: 'bounty_deposit', from: player.walletAddress, lamports: stake, agentId: player.id },
      description: `bounty stake for game ${game.id}`,
    });
  }
  escrow.timer = p.setTimer(p.nowMs + p.ruleset.bounty.fundingWindowMs, { kind: 'bounty_funding_deadline', gameId: game.id });
  return game;
}

/** Transfer hook: a deposit or payout of a bounty escrow finished. */
export function onBountyTransfer(p: Platform, transfer: Transfer): void {
  if (transfer.purpose.kind !== 'bounty') return;
  const escrow = p.state.escrows.get(transfer.purpose.escrow)!;
  const game = p.state.games.get(escrow.refId)!;
  const change = bookTransfer(p, escrow, transfer, 'bounty_refund');
  if (escrow.status !== 'awaiting_deposits') return;
  if (change === 'deposit_failed') cancelBountyGame(p, escrow, game, 'deposit_failed');
  else if (change === 'deposit_settled' && escrow.pendingIn.size === 0) {
    escrow.status = 'funded';
    p.cancelTimer(escrow.timer);
    escrow.timer = null;
    activateGame(p, game);
  }
}

/** OURS: deposits must settle within `bounty.fundingWindowMs` of the accept. */
export function onBountyFundingDeadline(p: Platform, timer: PlatformTimer): void {
  if (timer.kind !== 'bounty_funding_deadline') return;
  const game = p.state.games.get(timer.gameId)!;
  const escrow = p.state.escrows.get(game.escrowAddress!)!;
  escrow.timer = null;
  if (escrow.status === 'awaiting_deposits') cancelBountyGame(p, escrow, game, 'funding_window_expired');
}

function cancelBountyGame(p: Platform, escrow: Escrow, game: Game, reason: string): void {
  p.cancelTimer(escrow.timer);
  escrow.timer = null;
  cancelPendingGame(p, game, reason);
  beginRefund(p, escrow, 'bounty_refund');
}

/** Game-end hook: pays the winner the pot minus the fee, or returns both stakes on a draw. */
export function onBountyGameEnded(p: Platform, game: Game): void {
  if (game.bountyLamports === null) return;
  const escrow = p.state.escrows.get(game.escrowAddress!)!;
  const split = bountySettlement(game.bountyLamports, game.end!.winner, p.ruleset.bounty.systemFeeBps);
  beginPayout(escrow);
  p.emit({ type: 'bounty_settled', t: p.nowMs, gameId: game.id, pot: split.pot, fee: split.fee, white: split.white, black: split.black });
  const winnerId = game.end!.winner === null ? null : game.end!.winner === 'white' ? game.whiteId : game.blackId;
  for (const [agentId, lamports] of [[game.whiteId, split.white], [game.blackId, split.black]] as const) {
    if (lamports === 0) continue;
    const agent = p.state.agents.get(agentId)!;
    const type = winnerId === null ? 'bounty_refund' : 'bounty_payout';
    payFrom(p, escrow, { type, to: agent.walletAddress, lamports, agentId, description: winnerId === null ? `stake returned: game ${game.id} drawn` : `bounty won: game ${game.id}` });
  }
  if (split.fee > 0) {
    payFrom(p, escrow, {
      ...{ type: 'bounty_system_fee', to: p.treasuryAddress, lamports: split.fee, agentId: null, chargedToId: winnerId },
      description: `${p.ruleset.bounty.systemFeeBps / 100}% system fee on the bounty of game ${game.id}`,
    });
  }
}

/** The wire's escrow_status / transfer_status pair for a bounty challenge or game. */
export function escrowWireStatus(p: Platform, address: string | null): { escrow_status: EscrowStatus | null; transfer_status: 'queued' | 'settled' | 'failed' | null } {
  if (address === null) return { escrow_status: null, transfer_status: null };
  const escrow = p.state.escrows.get(address);
  if (!escrow) return { escrow_status: 'awaiting_deposits', transfer_status: 'queued' }; // not yet accepted
  const deposits = escrow.depositIds.map((id) => p.state.transfers.get(id)!);
  const transferStatus = deposits.some((t) => t.status === 'queued') ? 'queued' : deposits.every((t) => t.status === 'settled') ? 'settled' : 'failed';
  return { escrow_status: escrow.status, transfer_status: transferStatus };
}
