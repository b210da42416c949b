import { fail } from '../../kernel/errors.js';
import { lamportsToSol, solToLamports } from '../../kernel/money.js';
import { bountySettlement } from '../../rules/money/fees.js';
import { activateGame, cancelPendingGame, createPendingGame } from './games.js';
import {
  bookFinishedTransfer,
  depositInto,
  openEscrow,
  transitionEscrow,
  type OutflowSpec,
} from '../money/escrows.js';
import type { Platform, PlatformTimer } from '../platform.js';
import type { Agent, Challenge, Escrow, Game, Transfer } from '../state.js';
import { releaseReservation, requireSpendable, reserveLamports } from '../money/transfers.js';

/**
 * Bounty challenges (SPEC: 0.01-10 SOL, both players deposit, 10% system fee), and the bounty game's side
 * of its escrow. The escrow's own states and effects are the table in src/platform/money/escrows.ts; this module
 * decides when to fire its events:
 *
 * 1. Accept (`fundBountyGame`): the game is created `pending`, the escrow opens, both stakes are deposited
 *    and the funding window starts.
 * 2. Each deposit lands or fails later, on the virtual clock (`onBountyTransfer`, called by the transfer
 *    queue's timer): once both landed the funding is complete and the game starts; a failed one cancels.
 * 3. The window passes first (`onBountyFundingDeadline`): the game is cancelled and whatever arrived goes
 *    back.
 * 4. The game ends (`onBountyGameEnded`): the winner is paid the pot minus the fee, or both stakes go back
 *    on a draw.
 *
 * It sits in chess/, beside tournaments.ts (the other owner of escrows), because it creates, starts and
 * cancels games: the money room below knows escrows, transfers and wallets, never a game.
 */
export function checkBountySol(p: Platform, bountySol: number): number {
  const lamports = solToLamports(bountySol);
  const { bountyMinLamports, bountyMaxLamports } = p.ruleset.challenges;
  if (lamports === undefined || lamports < bountyMinLamports || lamports > bountyMaxLamports) {
    const range = `${lamportsToSol(bountyMinLamports)} to ${lamportsToSol(bountyMaxLamports)}`;
    fail('validation_error', `bounty_sol: must be from ${range} SOL, in whole lamports`, {
      field: 'bounty_sol',
    });
  }
  return lamports;
}

/** The stake must be free: not held by queued transfers nor promised to the agent's other open challenges. */
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
    id: challenge.id,
    whiteId: challenger.id,
    blackId: acceptor.id,
    bountyLamports: stake,
    escrowAddress: challenge.escrowAddress!,
  });
  const escrow = openEscrow(p, 'bounty', challenge.escrowAddress!, game.id);
  for (const player of [challenger, acceptor]) {
    depositInto(p, escrow, {
      type: 'bounty_deposit',
      from: player.walletAddress,
      lamports: stake,
      agentId: player.id,
      description: `bounty stake for game ${game.id}`,
    });
  }
  escrow.timer = p.setTimer(p.nowMs + p.ruleset.bounty.fundingWindowMs, {
    kind: 'bounty_funding_deadline',
    gameId: game.id,
  });
  return game;
}

/** A transfer of a bounty escrow settled or finally failed: booked, then the game follows its funding. */
export function onBountyTransfer(p: Platform, transfer: Transfer): void {
  if (transfer.purpose.kind !== 'bounty') return;
  const escrow = p.state.escrows.get(transfer.purpose.escrow)!;
  const game = p.state.games.get(escrow.refId)!;
  const booked = bookFinishedTransfer(p, escrow, transfer);
  if (escrow.status !== 'awaiting_deposits') return;
  if (booked === 'deposit_failed') cancelBountyGame(p, escrow, game, 'deposit_failed');
  else if (booked === 'deposit_settled' && escrow.pendingIn.size === 0) {
    transitionEscrow(p, escrow, { type: 'funding_complete' });
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
  transitionEscrow(p, escrow, { type: 'cancel' });
}

/** Game-end hook: pays the winner the pot minus the fee, or returns both stakes on a draw. */
export function onBountyGameEnded(p: Platform, game: Game): void {
  if (game.bountyLamports === null) return;
  const escrow = p.state.escrows.get(game.escrowAddress!)!;
  const split = bountySettlement(game.bountyLamports, game.end!.winner, p.ruleset.bounty.systemFeeBps);
  p.emit({
    type: 'bounty_settled',
    t: p.nowMs,
    gameId: game.id,
    pot: split.pot,
    fee: split.fee,
    white: split.white,
    black: split.black,
  });
  const winnerId =
    game.end!.winner === null ? null : game.end!.winner === 'white' ? game.whiteId : game.blackId;
  const shares = [
    { agentId: game.whiteId, lamports: split.white },
    { agentId: game.blackId, lamports: split.black },
  ];
  const outflows = shares
    .filter((share) => share.lamports > 0)
    .map((share) => playerShare(p, game, share.agentId, share.lamports, winnerId === null));
  if (split.fee > 0) {
    outflows.push({
      type: 'bounty_system_fee',
      to: p.treasuryAddress,
      lamports: split.fee,
      agentId: null,
      chargedToId: winnerId,
      description: `${p.ruleset.bounty.systemFeeBps / 100}% system fee on the bounty of game ${game.id}`,
    });
  }
  transitionEscrow(p, escrow, { type: 'pay_out', outflows });
}

/** The winner's prize, or on a draw a player's own stake back. */
function playerShare(
  p: Platform,
  game: Game,
  agentId: string,
  lamports: number,
  drawn: boolean,
): OutflowSpec {
  const to = p.state.agents.get(agentId)!.walletAddress;
  if (drawn) {
    return {
      type: 'bounty_refund',
      to,
      lamports,
      agentId,
      description: `stake returned: game ${game.id} drawn`,
    };
  }
  return { type: 'bounty_payout', to, lamports, agentId, description: `bounty won: game ${game.id}` };
}
