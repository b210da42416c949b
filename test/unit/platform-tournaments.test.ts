import { describe, expect, it } from 'vitest';
import type { CreateTournamentInput, TournamentDetail } from '../../src/client/wire.js';
import { toIso } from '../../src/kernel/clock.js';
import {
  expectApiError,
  expectRejectedUnchanged,
  FIXED_NETWORK,
  FOOLS_MATE,
  newWorld,
  START_MS,
  TURN_MS,
  type TestAgent,
  type TestWorld,
} from '../helpers/world.js';

const RULES = { tournaments: { creatorMinGames: 0 } };
const SOL = 1_000_000_000;
const START_DELAY_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const BASE: CreateTournamentInput = { name: 'Spring Open', max_participants: 8 };

function fixedWorld(): TestWorld {
  return newWorld({ rules: RULES, network: FIXED_NETWORK });
}

async function detail(world: TestWorld, id: string): Promise<TournamentDetail> {
  return (await world.client().tournament(id)).tournament;
}

async function joinAll(id: string, agents: readonly TestAgent[]): Promise<void> {
  for (const agent of agents) await agent.client.joinTournament(id);
}

/** The games of one round, with both players as test agents (White is the better seed). */
async function roundGames(world: TestWorld, id: string, round: number, agents: readonly TestAgent[]) {
  const byHandle = new Map(agents.map((a) => [a.handle, a]));
  const t = await detail(world, id);
  const games = [];
  for (const match of t.rounds[round - 1]!.matches) {
    const game = await world.client().game(match.game_id!);
    games.push({
      match,
      gameId: match.game_id!,
      white: byHandle.get(game.white_player.handle)!,
      black: byHandle.get(game.black_player.handle)!,
    });
  }
  return games;
}

describe('creating a tournament', () => {
  it('refuses a creator without a research post, then one with fewer than 100 games (the default ruleset)', async () => {
    const world = newWorld();
    const fresh = await world.agent('newbie', { post: false });
    const creator = await world.agent('creator');
    const e1 = await expectRejectedUnchanged(
      world,
      () => fresh.client.createTournament(BASE),
      'research_phase_incomplete',
    );
    expect(e1.status).toBe(403);
    const e2 = await expectRejectedUnchanged(
      world,
      () => creator.client.createTournament(BASE),
      'not_enough_games',
    );
    expect(e2.status).toBe(403);
  });

  it('reports the first problem in precedence order, leaving the state unchanged each time', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    world.airdrop(creator, 0.5);
    // Each step adds its own fault to the faults of every later step; the earliest one must be reported.
    const steps: Array<[string, Partial<CreateTournamentInput>]> = [
      ['name', { name: '   ' }],
      ['max_participants', { max_participants: 10 }],
      ['prize_sol', { prize_sol: 101 }],
      ['entry_fee_sol', { entry_fee_sol: 11 }],
      ['minimum_start_at', { minimum_start_at: toIso(START_MS - 1) }],
      ['elo_min', { elo_min: 1500, elo_max: 1400 }],
    ];
    for (let k = 0; k < steps.length; k++) {
      const input = Object.assign(
        { ...BASE, prize_sol: 1 },
        ...steps.slice(k).map(([, fault]) => fault),
      ) as CreateTournamentInput;
      const error = await expectRejectedUnchanged(
        world,
        () => creator.client.createTournament(input),
        'validation_error',
      );
      expect((error.body as { field: string }).field).toBe(steps[k]![0]);
    }
    // Valid terms, but the 1 SOL prize fund is more than the wallet holds.
    await expectRejectedUnchanged(
      world,
      () => creator.client.createTournament({ ...BASE, prize_sol: 1 }),
      'insufficient_balance',
    );
  });

  it('refuses every variant of a bad name, size, amount, start time or bound', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    world.airdrop(creator, 200);
    const bad: Array<Partial<CreateTournamentInput> | Record<string, unknown>> = [
      { name: '' },
      { name: 'x'.repeat(101) },
      { max_participants: 4 },
      { max_participants: 128 },
      { max_participants: 8.5 },
      { prize_sol: -1 },
      { prize_sol: 100.000000001 },
      { prize_sol: 0.00089087 }, // one lamport under the rent-exempt minimum
      { prize_sol: 0.0000000001 }, // finer than a lamport
      { entry_fee_sol: 10.5 },
      { entry_fee_sol: 0.0001 },
      { minimum_start_at: toIso(START_MS) }, // now is not in the future
      { minimum_start_at: 'tomorrow' },
      { minimum_start_at: '2026-03-02T12:00:00+01:00' },
      { minimum_start_at: '2026-03-02 12:00:00' },
      { elo_min: 1500, elo_max: 1499 },
      { min_games_played: 10, max_games_played: 5 },
      { elo_min: -1 },
      { prize_distribution: 'top_three' },
      { format: 'swiss' },
      { required_tags: [''] },
    ];
    for (const fault of bad) {
      await expectRejectedUnchanged(
        world,
        () => creator.client.createTournament({ ...BASE, ...fault }),
        'validation_error',
      );
    }
    await expectRejectedUnchanged(
      world,
      () => creator.client.call('POST', '/api/chess/tournaments', { body: { name: 'No size' } }),
      'validation_error',
    );
    await expectApiError(world.client().createTournament(BASE), 'authentication_required');
  });

  it('accepts amounts of exactly the rent-exempt minimum and answers with the detail object', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    world.airdrop(creator, 1);
    const input = {
      ...BASE,
      description: 'rapid knockout',
      prize_sol: 0.00089088,
      entry_fee_sol: 0.00089088,
      prize_distribution: null,
      elo_max: null,
    };
    const created = await creator.client.createTournament(input);
    const t = created.tournament;
    expect(created.success).toBe(true);
    expect(t).toMatchObject({
      id: t.tournament_id,
      name: 'Spring Open',
      description: 'rapid knockout',
      status: 'registration',
      format: 'single_elimination',
      max_participants: 8,
      current_participants: 0,
      reserved_participants: null,
      scheduled_start_at: null,
      minimum_start_at: null,
      prize_sol: 0.00089088,
      entry_fee_sol: 0.00089088,
      prize_distribution: 'winner_only',
      organizer_fee_enabled: false,
      created_by: { handle: 'creator' },
      creator_handle: 'creator',
      created_at: toIso(START_MS),
      escrow_status: 'awaiting_deposits',
      verified_only: false,
      required_tags: [],
      elo_min: null,
      elo_max: null,
      participants: [],
      rounds: [],
      placements: [],
    });
    expect(t.escrow_address).toBe(world.platform.state.tournaments.get(t.id)!.escrowAddress);
    expect(await detail(world, t.id)).toEqual(t);
    await expectApiError(world.client().tournament(UNKNOWN_UUID), 'not_found');
  });
});

describe('listing tournaments', () => {
  it('serves /open from its own route, lists newest first, and treats status=live as in_progress', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const [first, second, third] = [
      await creator.client.createTournament({ ...BASE, name: 'First' }),
      await creator.client.createTournament({ ...BASE, name: 'Second' }),
      await creator.client.createTournament({ ...BASE, name: 'Third' }),
    ].map((r) => r.tournament.id);
    const open = await world
      .client()
      .call<{ tournaments: Array<{ id: string }> }>('GET', '/api/chess/tournaments/open');
    expect(open.tournaments.map((t) => t.id)).toEqual([third, second, first]);

    await joinAll(first!, await world.agents(8));
    const list = await world.client().tournaments();
    expect(list.tournaments.map((t) => [t.id, t.reserved_participants])).toEqual([
      [third, null],
      [second, null],
      [first, 8],
    ]);
    expect(list).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect((await world.client().openTournaments()).tournaments.map((t) => t.id)).toEqual([third, second]);

    world.advanceBy(START_DELAY_MS);
    const live = await world.client().tournaments({ status: 'live' });
    expect(live.tournaments.map((t) => t.id)).toEqual([first]);
    expect(live.tournaments[0]!.reserved_participants).toBeNull();
    expect(await world.client().tournaments({ status: 'in_progress' })).toEqual(live);
    expect(
      (await world.client().tournaments({ status: 'registration' })).tournaments.map((t) => t.id),
    ).toEqual([third, second]);
    expect((await world.client().tournaments({ status: 'completed' })).tournaments).toEqual([]);
    const paged = await world.client().tournaments({ limit: 1, offset: 1 });
    expect(paged).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(paged.tournaments.map((t) => t.id)).toEqual([second]);
    expect(
      (await world.client().tournaments({ limit: 101 })).limit,
      'a limit over the ceiling is clamped (docs/rules.md, Paging)',
    ).toBe(100);
    await expectApiError(
      world.client().call('GET', '/api/chess/tournaments', { query: { status: 'paused' } }),
      'validation_error',
    );
  });

  it('filters the open list by creator, search, verification, fees, prize and required tags', async () => {
    const world = fixedWorld();
    const [alice, bob] = [await world.agent('alice'), await world.agent('bob')];
    world.airdrop(alice, 10);
    world.airdrop(bob, 10);
    const create = async (who: TestAgent, input: Partial<CreateTournamentInput>) =>
      (await who.client.createTournament({ ...BASE, ...input })).tournament.id;
    const a = await create(alice, {
      name: 'Alpha Cup',
      description: 'A rapid KNOCKOUT',
      prize_sol: 2,
      required_tags: ['Rapid'],
    });
    const b = await create(alice, {
      name: 'Beta Blitz',
      entry_fee_sol: 0.5,
      verified_only: true,
      required_tags: ['rapid', 'endgame'],
    });
    const c = await create(bob, { name: 'Gamma', prize_sol: 0.5, entry_fee_sol: 0.1 });
    const ids = async (query: Record<string, string | string[] | boolean | number>) =>
      (await world.client().openTournaments(query)).tournaments.map((t) => t.id);

    expect(await ids({})).toEqual([c, b, a]);
    expect(await ids({ creator_handle: 'ALICE' })).toEqual([b, a]);
    expect(await ids({ search: 'knockout' })).toEqual([a]);
    expect(await ids({ search: 'BLITZ' })).toEqual([b]);
    expect(await ids({ verified_only: true })).toEqual([b]);
    expect(await ids({ verified_only: false })).toEqual([c, a]);
    expect(await ids({ has_entry_fee: true })).toEqual([c, b]);
    expect(await ids({ has_entry_fee: false })).toEqual([a]);
    expect(await ids({ prize_min: 0.5 })).toEqual([c, a]);
    expect(await ids({ prize_min: 2 })).toEqual([a]);
    expect(await ids({ entry_fee_max: 0.1 })).toEqual([c, a]);
    expect(await ids({ required_tag: 'RAPID' })).toEqual([b, a]);
    expect(await ids({ required_tag: ['rapid', 'endgame'] })).toEqual([b]);
    expect(await ids({ creator_handle: 'alice', has_entry_fee: false, search: 'cup' })).toEqual([a]);
    expect(await ids({ limit: 1, offset: 2 })).toEqual([a]);

    const row = (await world.client().openTournaments({ search: 'Beta' })).tournaments[0]!;
    expect(Object.keys(row).sort()).toEqual(
      [
        ...[
          'id',
          'name',
          'status',
          'max_participants',
          'current_participants',
          'minimum_start_at',
          'reserved_participants',
        ],
        ...[
          'scheduled_start_at',
          'prize_sol',
          'entry_fee_sol',
          'verified_only',
          'required_tags',
          'creator_handle',
          'created_by',
        ],
        ...['created_at', 'prize_distribution', 'elo_min', 'elo_max', 'min_games_played', 'max_games_played'],
      ].sort(),
    );
    expect(row).toMatchObject({
      creator_handle: 'alice',
      created_by: { handle: 'alice' },
      entry_fee_sol: 0.5,
      required_tags: ['rapid', 'endgame'],
    });
    await expectApiError(world.client().openTournaments({ creator_handle: 'ghost' }), 'not_found');
    await expectApiError(world.client().openTournaments({ prize_min: 0.0000000001 }), 'validation_error');
    await expectApiError(
      world.client().openTournaments({ verified_only: 'maybe' } as never),
      'validation_error',
    );
  });
});

describe('joining a tournament', () => {
  it('refuses unknown tournaments, agents without a post, ineligible agents and short wallets, changing nothing', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const plain = await world.agent('plain');
    const tagged = await world.agent('tagged', { tags: ['Endgame'] });
    const fresh = await world.agent('newbie', { post: false });
    const create = async (input: Partial<CreateTournamentInput>) =>
      (await creator.client.createTournament({ ...BASE, ...input })).tournament.id;

    await expectRejectedUnchanged(world, () => plain.client.joinTournament(UNKNOWN_UUID), 'not_found');
    const free = await create({});
    await expectRejectedUnchanged(
      world,
      () => fresh.client.joinTournament(free),
      'research_phase_incomplete',
    );
    for (const terms of [
      { verified_only: true },
      { elo_min: 1201 },
      { elo_max: 1199 },
      { min_games_played: 1 },
      { required_tags: ['endgame'] },
    ]) {
      const id = await create(terms);
      const error = await expectRejectedUnchanged(
        world,
        () => plain.client.joinTournament(id),
        'not_eligible',
      );
      expect(error.status).toBe(403);
    }
    const tagsOnly = await create({
      required_tags: ['endgame'],
      elo_min: 1200,
      elo_max: 1200,
      max_games_played: 0,
    });
    expect((await tagged.client.joinTournament(tagsOnly)).already_joined).toBe(false); // tags match without regard to case

    const paid = await create({ entry_fee_sol: 0.5 });
    await expectRejectedUnchanged(world, () => plain.client.joinTournament(paid), 'insufficient_balance');
    world.airdrop(plain, 0.5 + 0.0005); // enough for the fee, but it would leave dust below the rent-exempt minimum
    await expectRejectedUnchanged(world, () => plain.client.joinTournament(paid), 'insufficient_balance');
    await expectApiError(world.client().joinTournament(paid), 'authentication_required');
  });

  it('refuses a join across a profile downvote, with the creator or with anyone already entered', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const [early, late, other] = await world.agents(3);
    const id = (await creator.client.createTournament(BASE)).tournament.id;
    await early!.client.joinTournament(id);
    world.platform.state.profileVotes.set(`${creator.id}>${late!.id}`, 'down');
    world.platform.state.profileVotes.set(`${other!.id}>${early!.id}`, 'down');
    const e1 = await expectRejectedUnchanged(world, () => late!.client.joinTournament(id), 'vote_blocked');
    expect(e1.status).toBe(403);
    await expectRejectedUnchanged(world, () => other!.client.joinTournament(id), 'vote_blocked');
    world.platform.state.profileVotes.set(`${creator.id}>${late!.id}`, 'up');
    expect((await late!.client.joinTournament(id)).success).toBe(true);
  });

  it('answers a repeat join with already_joined and no change; refuses a full bracket and a started one', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const entrants = await world.agents(9, { sol: 1 });
    const id = (await creator.client.createTournament({ ...BASE, entry_fee_sol: 0.25 })).tournament.id;
    const first = await entrants[0]!.client.joinTournament(id);
    expect(first).toMatchObject({
      success: true,
      payment_status: 'pending',
      queued_transfers: true,
      already_joined: false,
    });
    expect(first.participant).toMatchObject({
      tournament_id: id,
      agent_id: entrants[0]!.id,
      seed: null,
      eliminated: false,
      eliminated_round: null,
    });
    expect(first.participant.joined_at).toBe(toIso(START_MS));

    const before = world.fingerprint();
    const again = await entrants[0]!.client.joinTournament(id);
    expect(again).toMatchObject({
      already_joined: true,
      payment_status: 'pending',
      participant: first.participant,
    });
    expect(world.fingerprint()).toBe(before);

    world.advanceBy(1000);
    expect(await entrants[0]!.client.joinTournament(id)).toMatchObject({
      already_joined: true,
      payment_status: 'paid',
      queued_transfers: false,
    });
    await joinAll(id, entrants.slice(1, 8));
    const full = await expectRejectedUnchanged(
      world,
      () => entrants[8]!.client.joinTournament(id),
      'tournament_full',
    );
    expect(full.status).toBe(409);

    world.advanceBy(1000 + START_DELAY_MS);
    expect((await detail(world, id)).status).toBe('in_progress');
    await expectRejectedUnchanged(world, () => entrants[8]!.client.joinTournament(id), 'tournament_not_open');
    await expectRejectedUnchanged(world, () => entrants[0]!.client.joinTournament(id), 'tournament_not_open');
  });

  it('accepts a join with no body and no content type, as real clients send it', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const joiner = await world.agent('joiner');
    const id = (await creator.client.createTournament(BASE)).tournament.id;
    const response = world.raw({
      method: 'POST',
      path: `/api/chess/tournaments/${id}/join`,
      key: joiner.apiKey,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      payment_status: 'free',
      queued_transfers: false,
      already_joined: false,
    });
  });
});

describe('tournament lifecycle', () => {
  it('runs a paid top_four bracket from registration to settled payouts, conserving every lamport', async () => {
    const world = fixedWorld();
    const treasury = world.platform.treasuryAddress;
    const treasuryStart = world.platform.ledger.balance(treasury);
    const creator = await world.agent('creator');
    world.airdrop(creator, 3);
    const entrants = await world.agents(8, { sol: 2 });
    const supply = world.platform.ledger.totalSupply;
    const input = {
      ...BASE,
      prize_sol: 1,
      entry_fee_sol: 0.5,
      prize_distribution: 'top_four' as const,
      organizer_fee_enabled: true,
    };
    const id = (await creator.client.createTournament(input)).tournament.id;
    const escrow = world.platform.state.tournaments.get(id)!.escrowAddress;

    // Joins 500 ms apart; each entry lands 1 s after its join, so the last join's entry is the last to settle.
    world.advanceBy(2000);
    for (const entrant of entrants) {
      await entrant.client.joinTournament(id);
      if (entrant !== entrants.at(-1)) world.advanceBy(500);
    }
    const filledAt = world.nowMs;
    let t = await detail(world, id);
    expect(t).toMatchObject({
      status: 'registration',
      current_participants: 8,
      reserved_participants: 8,
      scheduled_start_at: null,
      seeded_at: null,
    });
    expect(t.participants.map((x) => x.payment_status)).toEqual([
      'paid',
      'paid',
      'paid',
      'paid',
      'paid',
      'paid',
      'pending',
      'pending',
    ]);
    expect((await world.client().openTournaments()).tournaments).toEqual([]);

    world.advanceTo(filledAt + 999);
    expect((await detail(world, id)).seeded_at).toBeNull();
    world.advanceTo(filledAt + 1000);
    t = await detail(world, id);
    const seededAt = filledAt + 1000;
    expect(t).toMatchObject({
      seeded_at: toIso(seededAt),
      scheduled_start_at: toIso(seededAt + START_DELAY_MS),
      reserved_participants: 8,
    });
    expect(t.escrow_status).toBe('funded');
    // Equal Elo: the earlier joiner is the better seed.
    expect(t.participants.map((x) => [x.handle, x.seed, x.elo_at_seed])).toEqual(
      entrants.map((e, i) => [e.handle, i + 1, 1200]),
    );
    expect(world.platform.ledger.balance(escrow)).toBe(5 * SOL);

    world.advanceTo(seededAt + START_DELAY_MS - 1);
    expect((await detail(world, id)).rounds).toEqual([]);
    world.advanceTo(seededAt + START_DELAY_MS);
    t = await detail(world, id);
    expect(t).toMatchObject({
      status: 'in_progress',
      started_at: toIso(seededAt + START_DELAY_MS),
      reserved_participants: null,
    });
    expect(t.rounds.map((r) => r.matches.length)).toEqual([4, 2, 1]);
    const r1 = t.rounds[0]!.matches;
    expect(r1.map((m) => [m.participant1!.seed, m.participant2!.seed])).toEqual([
      [1, 8],
      [4, 5],
      [2, 7],
      [3, 6],
    ]);
    expect(t.rounds[1]!.matches.map((m) => [m.participant1, m.participant2, m.status])).toEqual([
      [null, null, 'waiting'],
      [null, null, 'waiting'],
    ]);

    // Round 1: every better seed has White, and Black wins by fool's mate.
    for (const g of await roundGames(world, id, 1, entrants)) {
      expect(g.white.handle).toBe(g.match.participant1!.handle);
      await world.play(g.gameId, g.white, g.black, FOOLS_MATE);
    }
    t = await detail(world, id);
    expect(t.rounds[0]!.matches.map((m) => m.winner_handle)).toEqual([
      'player8',
      'player5',
      'player7',
      'player6',
    ]);
    expect(t.rounds[1]!.matches.map((m) => [m.participant1!.seed, m.participant2!.seed, m.status])).toEqual([
      [8, 5, 'active'],
      [7, 6, 'active'],
    ]);
    expect(t.participants.find((x) => x.handle === 'player8')!.elo_at_seed).toBe(1200); // frozen though the rating moved
    expect(world.platform.state.agents.get(entrants[7]!.id)!.elo).toBeGreaterThan(1200);

    // Round 2: the better seed (White, to move) lets the clock run out.
    const r2 = await roundGames(world, id, 2, entrants);
    expect(r2.map((g) => g.white.handle)).toEqual(['player5', 'player6']);
    world.advanceBy(TURN_MS);
    t = await detail(world, id);
    expect(t.rounds[1]!.matches.map((m) => m.winner_handle)).toEqual(['player8', 'player7']);

    const [final] = await roundGames(world, id, 3, entrants);
    expect([final!.white.handle, final!.black.handle]).toEqual(['player7', 'player8']);
    await world.play(final!.gameId, final!.white, final!.black, FOOLS_MATE);
    t = await detail(world, id);
    const completedAt = world.nowMs;
    expect(t).toMatchObject({
      status: 'completed',
      completed_at: toIso(completedAt),
      escrow_status: 'paying_out',
    });

    // Pool: 1 SOL prize + 4 SOL entries - 5% system fee - 5% organizer fee (both on entries only) = 4.6 SOL.
    const payouts: Record<string, number> = {
      player8: 3_036_000_000,
      player7: 1_150_000_000,
      player5: 276_000_000,
      player6: 138_000_000,
    };
    expect(t.placements).toEqual(
      Object.entries(payouts).map(([handle, lamports], i) => ({
        place: i + 1,
        handle,
        payout_sol: lamports / SOL,
      })),
    );
    const statusOf = (handle: string) => t.participants.find((x) => x.handle === handle)!;
    expect(statusOf('player8')).toMatchObject({ status: 'champion', eliminated_round: null });
    expect(statusOf('player7')).toMatchObject({ status: 'eliminated', eliminated_round: 3 });
    expect(['player5', 'player6'].map((h) => statusOf(h).eliminated_round)).toEqual([2, 2]);
    expect(['player1', 'player2', 'player3', 'player4'].map((h) => statusOf(h).eliminated_round)).toEqual([
      1, 1, 1, 1,
    ]);

    world.advanceBy(1000);
    expect((await detail(world, id)).escrow_status).toBe('paid_out');
    expect(world.platform.ledger.balance(escrow)).toBe(0);
    for (const entrant of entrants)
      expect(world.balance(entrant)).toBe(2 * SOL - SOL / 2 + (payouts[entrant.handle] ?? 0));
    expect(world.balance(creator)).toBe(3 * SOL - SOL + 200_000_000);
    expect(world.platform.ledger.balance(treasury) - treasuryStart).toBe(200_000_000);
    expect(world.platform.ledger.totalSupply).toBe(supply);
    expect((await world.client().tournaments({ status: 'completed' })).tournaments.map((x) => x.id)).toEqual([
      id,
    ]);
  });

  it('advances Black from a drawn match when the Elo at seeding ties', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const entrants = await world.agents(8);
    const id = (await creator.client.createTournament(BASE)).tournament.id;
    await joinAll(id, entrants);
    world.advanceBy(START_DELAY_MS);
    const [first] = await roundGames(world, id, 1, entrants);
    expect([first!.white.handle, first!.black.handle]).toEqual(['player1', 'player8']);
    await world.play(first!.gameId, first!.white, first!.black, [
      'Nf3',
      'Nf6',
      'Ng1',
      'Ng8',
      'Nf3',
      'Nf6',
      'Ng1',
      'Ng8',
    ]);
    expect(await world.client().game(first!.gameId)).toMatchObject({
      status: 'completed',
      result: '1/2-1/2',
      end_reason: 'threefold_repetition',
    });
    const t = await detail(world, id);
    expect(t.rounds[0]!.matches[0]).toMatchObject({ winner_handle: 'player8', status: 'completed' });
    expect(t.participants.find((x) => x.handle === 'player1')).toMatchObject({
      status: 'eliminated',
      eliminated_round: 1,
      elo_at_seed: 1200,
    });
    expect(t.rounds[1]!.matches[0]!.participant1).toEqual({ handle: 'player8', seed: 8 });
  });

  it('waits for a later minimum_start_at, and otherwise starts 5 minutes after seeding', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    const entrants = await world.agents(8);
    const later = START_MS + 60 * 60_000;
    const soon = START_MS + 60_000;
    const delayed = (await creator.client.createTournament({ ...BASE, minimum_start_at: toIso(later) }))
      .tournament.id;
    const prompt = (await creator.client.createTournament({ ...BASE, minimum_start_at: toIso(soon) }))
      .tournament.id;
    await joinAll(delayed, entrants);
    await joinAll(prompt, entrants);
    expect((await detail(world, delayed)).scheduled_start_at).toBe(toIso(later));
    expect((await detail(world, prompt)).scheduled_start_at).toBe(toIso(START_MS + START_DELAY_MS));
    world.advanceTo(START_MS + START_DELAY_MS);
    expect((await detail(world, prompt)).status).toBe('in_progress');
    world.advanceTo(later - 1);
    expect(await detail(world, delayed)).toMatchObject({ status: 'registration', rounds: [] });
    world.advanceTo(later);
    expect(await detail(world, delayed)).toMatchObject({ status: 'in_progress', started_at: toIso(later) });
  });

  it('cancels an unfilled bracket when registration closes and refunds every lamport, late deposits included', async () => {
    const world = fixedWorld();
    const creator = await world.agent('creator');
    world.airdrop(creator, 2);
    const entrants = await world.agents(4, { sol: 1 });
    const supply = world.platform.ledger.totalSupply;
    const id = (await creator.client.createTournament({ ...BASE, prize_sol: 1.5, entry_fee_sol: 0.75 }))
      .tournament.id;
    await joinAll(id, entrants.slice(0, 3));
    world.advanceTo(START_MS + DAY_MS - 500);
    await entrants[3]!.client.joinTournament(id); // its entry lands 500 ms after the cancellation
    world.advanceTo(START_MS + DAY_MS);
    const t = await detail(world, id);
    expect(t).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'registration_window_expired',
      cancelled_at: toIso(START_MS + DAY_MS),
      completed_at: null,
    });
    expect(t.escrow_status).toBe('refunding');
    expect((await world.client().tournaments({ status: 'cancelled' })).tournaments.map((x) => x.id)).toEqual([
      id,
    ]);
    expect((await world.client().openTournaments()).tournaments).toEqual([]);
    await expectRejectedUnchanged(world, () => entrants[0]!.client.joinTournament(id), 'tournament_not_open');

    world.advanceBy(3000);
    expect((await detail(world, id)).escrow_status).toBe('refunded');
    expect(world.platform.ledger.balance(t.escrow_address)).toBe(0);
    expect(world.balance(creator)).toBe(2 * SOL);
    for (const entrant of entrants) expect(world.balance(entrant)).toBe(SOL);
    expect(world.platform.ledger.totalSupply).toBe(supply);
  });
});
