import { assertLamports, type Lamports } from '../../kernel/money.js';
import type { Side } from '../chess/game.js';

/**
 * Fee and prize arithmetic. Everything is integer lamports and every split is exact: each function
 * returns parts that add back to its input, so the ledger never creates or loses a lamport. A share is
 * floor(amount * bps / BPS) computed in BigInt, because amount * bps can pass 2^53 long before the amount
 * itself does (100 SOL * 10_000 bps is already 10^15, and pools are larger than that).
 */
export const BPS = 10_000;

function assertBps(bps: number, what: string): void {
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS)
    throw new Error(`${what} must be an integer 0..${BPS} bps: ${bps}`);
}

function assertSum(value: number, what: string): Lamports {
  if (!Number.isSafeInteger(value)) throw new Error(`${what} is not a safe lamport amount: ${value}`);
  return value;
}

/** floor(amount * bps / BPS) without losing precision to doubles. */
function shareOf(amount: Lamports, bps: number): Lamports {
  return Number((BigInt(amount) * BigInt(bps)) / BigInt(BPS));
}

export interface BountySettlement {
  readonly pot: Lamports;
  readonly fee: Lamports;
  readonly white: Lamports;
  readonly black: Lamports;
}

/**
 * Settles a bounty game where both players staked `stakeLamports`. A decisive game pays the winner the
 * pot less the system fee. A draw charges no fee and refunds both stakes: nobody won the bounty, so
 * there is nothing to take a cut of.
 */
export function bountySettlement(
  stakeLamports: number,
  winner: Side | null,
  systemFeeBps: number,
): BountySettlement {
  assertLamports(stakeLamports);
  assertBps(systemFeeBps, 'system fee');
  const pot = assertSum(stakeLamports * 2, 'bounty pot');
  if (winner === null) return { pot, fee: 0, white: stakeLamports, black: stakeLamports };
  const fee = shareOf(pot, systemFeeBps);
  const prize = pot - fee;
  return winner === 'white' ? { pot, fee, white: prize, black: 0 } : { pot, fee, white: 0, black: prize };
}

export interface TournamentPoolInput {
  readonly prizeLamports: number;
  readonly entryFeeLamports: number;
  readonly participants: number;
  readonly systemFeeBps: number;
  readonly organizerFeeBps: number;
  readonly rentExemptMinimum: number;
}

export interface TournamentPool {
  readonly entriesTotal: Lamports;
  readonly systemFee: Lamports;
  readonly organizerFee: Lamports;
  readonly pool: Lamports;
}

/**
 * The prize pool of a tournament. Fees are charged on entry fees only: the organizer's own prize is a
 * gift to the players and taking a cut of it would tax the organizer twice. An organizer fee too small
 * to land in an empty wallet (below the rent-exempt minimum) is waived into the pool rather than lost.
 * The two fee rates together may not exceed 100%, or the pool would eat into the organizer's prize.
 */
export function tournamentPool(input: TournamentPoolInput): TournamentPool {
  const { prizeLamports, entryFeeLamports, participants, systemFeeBps, organizerFeeBps, rentExemptMinimum } =
    input;
  assertLamports(prizeLamports);
  assertLamports(entryFeeLamports);
  assertLamports(rentExemptMinimum);
  if (!Number.isSafeInteger(participants) || participants < 0)
    throw new Error(`not a participant count: ${participants}`);
  assertBps(systemFeeBps, 'system fee');
  assertBps(organizerFeeBps, 'organizer fee');
  assertBps(systemFeeBps + organizerFeeBps, 'system + organizer fee');
  const entriesTotal = assertSum(entryFeeLamports * participants, 'entry fees total');
  assertSum(prizeLamports + entriesTotal, 'prize + entry fees');
  const systemFee = shareOf(entriesTotal, systemFeeBps);
  const rawOrganizerFee = shareOf(entriesTotal, organizerFeeBps);
  const organizerFee = isDust(rawOrganizerFee, rentExemptMinimum) ? 0 : rawOrganizerFee;
  const pool = prizeLamports + entriesTotal - systemFee - organizerFee;
  return { entriesTotal, systemFee, organizerFee, pool };
}

/** A payout that is positive but could not fund an empty Solana account on its own. */
function isDust(amount: Lamports, rentExemptMinimum: Lamports): boolean {
  return amount > 0 && amount < rentExemptMinimum;
}

export const PRIZE_DISTRIBUTIONS = ['winner_only', 'top_four'] as const;
export type PrizeDistribution = (typeof PRIZE_DISTRIBUTIONS)[number];

/** Shares of the pool by place (1st first). Each list sums to BPS. */
export const PRIZE_SHARES_BPS: Record<PrizeDistribution, readonly number[]> = {
  winner_only: [10_000],
  top_four: [6_600, 2_500, 600, 300],
};

/**
 * One amount per place. Places 2..n are floored and 1st takes the remainder, so rounding dust goes to the
 * champion and the split sums exactly to the pool. A lower place too small to land in an empty wallet is
 * folded into 1st as well: paying it would fail on chain and strand the lamports.
 */
export function prizeSplit(
  pool: number,
  distribution: PrizeDistribution,
  rentExemptMinimum: number,
): number[] {
  assertLamports(pool);
  assertLamports(rentExemptMinimum);
  if (!PRIZE_DISTRIBUTIONS.includes(distribution))
    throw new Error(`unknown prize distribution: ${String(distribution)}`);
  const lower = PRIZE_SHARES_BPS[distribution].slice(1).map((bps) => {
    const amount = shareOf(pool, bps);
    return isDust(amount, rentExemptMinimum) ? 0 : amount;
  });
  const first = pool - lower.reduce((sum, amount) => sum + amount, 0);
  return [first, ...lower];
}

/** Why a pool cannot be paid out, or undefined when it can (an empty pool pays nothing and is fine). */
export function poolProblem(pool: number, rentExemptMinimum: number): string | undefined {
  if (!isDust(pool, rentExemptMinimum)) return undefined;
  return `prize pool of ${pool} lamports is below the rent-exempt minimum of ${rentExemptMinimum} lamports and could not be paid into an empty wallet`;
}
