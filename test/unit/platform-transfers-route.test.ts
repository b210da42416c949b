import { describe, expect, it } from 'vitest';
import type { TransfersReport } from '../../src/client/wire.js';
import { toIso } from '../../src/kernel/clock.js';
import {
  expectApiError,
  FIXED_NETWORK,
  FOOLS_MATE,
  newWorld,
  START_MS,
  TURN_MS,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

const RULES = { tournaments: { creatorMinGames: 0 } };
// Every transfer lands exactly 1 s after it is queued.
const SOL = 1_000_000_000;
const START_DELAY_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

function fixedWorld(): TestWorld {
  return newWorld({ rules: RULES, network: FIXED_NETWORK });
}

/**
 * Plays a started bracket to the end on the clock alone: in every game White lets its time run out, except
 * that `favourite`, when it has White, plays one move so that Black is the one who times out.
 */
async function playOut(world: TestWorld, id: string, favourite?: TestAgent): Promise<void> {
  for (let round = 1; round <= 3; round++) {
    const t = (await world.client().tournament(id)).tournament;
    for (const match of t.rounds[round - 1]!.matches) {
      const game = await world.client().game(match.game_id!);
      if (favourite && game.white_player.handle === favourite.handle)
        await favourite.client.move({ game_id: game.game_id, move_san: 'e4' });
    }
    world.advanceBy(TURN_MS);
  }
  expect((await world.client().tournament(id)).tournament.status).toBe('completed');
}

/** A free 8-player bracket, filled at once (so seeded at once) and started. */
async function freeBracket(
  world: TestWorld,
  creator: TestAgent,
  entrants: readonly TestAgent[],
): Promise<string> {
  const id = (await creator.client.createTournament({ name: 'Free Friday', max_participants: 8 })).tournament
    .id;
  for (const entrant of entrants) await entrant.client.joinTournament(id);
  world.advanceBy(START_DELAY_MS);
  return id;
}

/** The signed amounts of settled transfers, added up in lamports. */
function settledChange(report: TransfersReport): number {
  return Math.round(
    report.transfers.filter((x) => x.status === 'settled').reduce((sum, x) => sum + x.signed, 0) * SOL,
  );
}

describe('GET /api/agents/{handle}/transfers', () => {
  it('shows camelCase totals, directions, signed amounts and day-end balances across a refund on the next day', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const joiner = await world.agent('joiner');
    world.airdrop(creator, 2);
    world.airdrop(joiner, 1);
    const id = (
      await creator.client.createTournament({
        name: 'Lonely Cup',
        max_participants: 8,
        prize_sol: 1.5,
        entry_fee_sol: 0.75,
      })
    ).tournament.id;
    await joiner.client.joinTournament(id);

    const queued = await world.client().transfers('joiner');
    expect(Object.keys(queued).sort()).toEqual(
      [
        ...[
          'transfers',
          'total',
          'limit',
          'offset',
          'balanceHistory',
          'totalWinnings',
          'tournamentWinningsSol',
          'totalEarningsSol',
        ],
        ...['feesPaidSol', 'tournamentsEntered', 'gold', 'silver', 'bronze', 'wallet_address', 'balance_sol'],
      ].sort(),
    );
    expect(queued.transfers).toHaveLength(1);
    expect(Object.keys(queued.transfers[0]!).sort()).toEqual(
      [
        'id',
        'transfer_type',
        'amount_sol',
        'direction',
        'signed',
        'description',
        'status',
        'created_at',
        'settled_at',
      ].sort(),
    );
    expect(queued.transfers[0]).toMatchObject({
      transfer_type: 'tournament_entry',
      amount_sol: 0.75,
      direction: 'out',
      signed: -0.75,
      status: 'queued',
      settled_at: null,
    });
    expect(queued).toMatchObject({
      balanceHistory: [],
      balance_sol: 1,
      tournamentsEntered: 1,
      feesPaidSol: 0,
    });

    world.advanceBy(1000);
    // Registration closes a day after creation: the refunds land on the next UTC day.
    world.advanceTo(START_MS + DAY_MS + 1000);
    const report = await world.client().transfers('joiner');
    expect(report.transfers.map((x) => [x.transfer_type, x.direction, x.signed, x.status])).toEqual([
      ['tournament_refund', 'in', 0.75, 'settled'],
      ['tournament_entry', 'out', -0.75, 'settled'],
    ]);
    expect(report.transfers[1]).toMatchObject({
      created_at: toIso(START_MS),
      settled_at: toIso(START_MS + 1000),
    });
    expect(report.balanceHistory).toEqual([
      { date: '2026-03-01', balance_sol: 0.25 },
      { date: '2026-03-02', balance_sol: 1 },
    ]);
    // A cancelled tournament refunds its entries, so the entry was never a fee.
    expect(report).toMatchObject({
      feesPaidSol: 0,
      totalWinnings: 0,
      tournamentsEntered: 1,
      gold: 0,
      silver: 0,
      bronze: 0,
      balance_sol: 1,
    });
    expect(report.wallet_address).toBe(world.platform.state.agents.get(joiner.id)!.walletAddress);
    expect(settledChange(report)).toBe(0);

    const fund = await world.client().transfers('creator');
    expect(fund.transfers.map((x) => [x.transfer_type, x.direction, x.signed])).toEqual([
      ['tournament_refund', 'in', 1.5],
      ['tournament_fund', 'out', -1.5],
    ]);
    expect(fund).toMatchObject({ tournamentsEntered: 0, balance_sol: 2, totalEarningsSol: 0 });

    expect(await world.client().transfers(joiner.id)).toEqual(report);
    const paged = await world.client().transfers('JOINER', { limit: 1, offset: 1 });
    expect(paged).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.transfers.map((x) => x.transfer_type)).toEqual(['tournament_entry']);
    await expectApiError(world.client().transfers('ghost'), 'not_found');
    await expectApiError(world.client().transfers('joiner', { limit: 0 }), 'validation_error');
  });

  it('totals winnings, earnings, fees and medals; the tournament leaderboards rank the winners', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    world.airdrop(creator, 2);
    const entrants = await world.agents(8, { sol: 1 });
    const input = {
      name: 'Paid Cup',
      max_participants: 8,
      prize_sol: 1,
      entry_fee_sol: 0.5,
      prize_distribution: 'top_four' as const,
      organizer_fee_enabled: true,
    };
    const paid = (await creator.client.createTournament(input)).tournament.id;
    for (const entrant of entrants) await entrant.client.joinTournament(paid);
    world.advanceBy(1000 + START_DELAY_MS);
    // White always times out: seeds 8, 5, 7, 6 win round 1; 8 and 7 the semifinals; 8 the final.
    await playOut(world, paid);
    const wins = await world.client().tournamentWinsLeaderboard();
    expect(wins.leaderboard).toEqual([
      {
        rank: 1,
        agent: { handle: 'player8' },
        handle: 'player8',
        tournament_wins: 1,
        elo: wins.leaderboard[0]!.elo,
      },
    ]);
    expect(wins.leaderboard[0]!.elo).toBe(world.platform.state.agents.get(entrants[7]!.id)!.elo);
    expect((await world.client().tournamentEarningsLeaderboard()).leaderboard).toEqual([]); // payouts still in flight
    world.advanceBy(1000);

    // A bounty the champion wins as Black: pot 0.2 SOL, 10% fee charged to the winner.
    const challenge = await entrants[0]!.client.createChallenge({
      opponent_handle: 'player8',
      bounty_sol: 0.1,
    });
    await entrants[7]!.client.acceptChallenge(challenge.challenge.challenge_id);
    world.advanceBy(1000);
    await world.play(challenge.challenge.game_id, entrants[0]!, entrants[7]!, FOOLS_MATE);
    world.advanceBy(1000);

    const champion = await world.client().transfers('player8');
    expect(champion).toMatchObject({
      totalWinnings: 3.216,
      tournamentWinningsSol: 3.036,
      totalEarningsSol: 3.216,
      feesPaidSol: 0.52,
    });
    expect(champion).toMatchObject({ tournamentsEntered: 1, gold: 1, silver: 0, bronze: 0 });
    expect(champion.transfers.map((x) => [x.transfer_type, x.direction])).toEqual([
      ['bounty_payout', 'in'],
      ['bounty_deposit', 'out'],
      ['tournament_payout', 'in'],
      ['tournament_entry', 'out'],
    ]);
    expect(champion.transfers[2]!.description).toBe('1st place - Paid Cup');
    expect((await world.client().transfers('player7')).silver).toBe(1);
    expect((await world.client().transfers('player5')).bronze).toBe(1);
    expect(await world.client().transfers('creator')).toMatchObject({
      totalWinnings: 0,
      totalEarningsSol: 0.2,
      feesPaidSol: 0,
      tournamentsEntered: 0,
    });
    for (const entrant of [...entrants, creator]) {
      const report = await world.client().transfers(entrant.handle);
      const start = entrant === creator ? 2 * SOL : SOL;
      expect(settledChange(report)).toBe(world.balance(entrant) - start);
      expect(Math.round(report.balanceHistory.at(-1)!.balance_sol * SOL)).toBe(world.balance(entrant));
    }

    const earnings = await world.client().tournamentEarningsLeaderboard();
    expect(earnings.leaderboard.map((r) => [r.rank, r.handle, r.earnings_sol, r.tournament_wins])).toEqual([
      [1, 'player8', 3.036, 1],
      [2, 'player7', 1.15, 0],
      [3, 'player5', 0.276, 0],
      [4, 'player6', 0.138, 0],
    ]);
    expect(earnings.leaderboard[0]!.agent).toEqual({ handle: 'player8' });
    expect(earnings.total).toBe(4);

    // Two free brackets of rookies: one win each ties with player8 (handle order), then a second win leads.
    const rookies = await world.agents(8, { prefix: 'rookie' });
    await playOut(world, await freeBracket(world, creator, rookies));
    expect(
      (await world.client().tournamentWinsLeaderboard()).leaderboard.map((r) => [
        r.rank,
        r.handle,
        r.tournament_wins,
      ]),
    ).toEqual([
      [1, 'player8', 1],
      [2, 'rookie8', 1],
    ]);
    await playOut(world, await freeBracket(world, creator, rookies), rookies[7]);
    const after = await world.client().tournamentWinsLeaderboard({ limit: 1 });
    expect(after.leaderboard.map((r) => [r.rank, r.handle, r.tournament_wins])).toEqual([[1, 'rookie8', 2]]);
    expect(after.total).toBe(2);
    expect(await world.client().transfers('rookie8')).toMatchObject({
      gold: 2,
      tournamentsEntered: 2,
      totalWinnings: 0,
      transfers: [],
    });
    expect((await world.client().tournamentEarningsLeaderboard()).total).toBe(4); // free brackets pay nothing
  });
});
