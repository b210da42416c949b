import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Ch from '../../src/api/contract/challenges.js';
import { codesOf, type RouteContract } from '../../src/api/contract/define.js';
import { CONTRACTS as ALL_CONTRACTS } from '../../src/api/contract/index.js';
import { addWireFormats } from '../../src/api/contract/formats.js';
import * as Gm from '../../src/api/contract/games.js';
import { gameHistory, type HistoryRow } from '../../src/api/contract/games.js';
import * as Lb from '../../src/api/contract/leaderboard.js';
import * as Tn from '../../src/api/contract/tournaments.js';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import { ROUTES } from '../../src/api/routes/index.js';
import type { TransportRequest, TransportResponse } from '../../src/client/transport.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import { socialScoreOf } from '../../src/platform/identity/actors.js';
import { FIXED_NETWORK, FOOLS_MATE, newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * The Games, Challenges, Leaderboard and Tournaments routes against their contracts: every answer of a world with
 * data in it (challenges, an accepted game, a finished tournament with entrants and payouts, an open one)
 * must validate against the route's declared response, and every refusal must carry a code the contract
 * declares (its own `errors` or the dispatcher's). Requests go through the in-process transport, which
 * sends query values as text, as HTTP does.
 */
/** The contract groups this file answers; test/unit/contract-groups.test.ts checks every group is some file's. */
const ANSWERED_GROUPS: readonly string[] = ['Games', 'Challenges', 'Leaderboard', 'Tournaments'];

const ajv = new Ajv({ strict: false });
addWireFormats(ajv);
const validators = new Map<RouteContract, ValidateFunction>();

function expectMatches(contract: RouteContract, response: TransportResponse): void {
  const label = `${contract.method} ${contract.path}`;
  expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(contract.status ?? 200);
  let validate = validators.get(contract);
  if (!validate) validators.set(contract, (validate = ajv.compile(contract.response)));
  const valid = validate(response.body);
  expect(valid, `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

function expectRefusal(contract: RouteContract, response: TransportResponse, code: ErrorCode): void {
  const label = `${contract.method} ${contract.path}`;
  expect((response.body as { error?: unknown }).error, label).toBe(code);
  expect(response.status, label).toBe(HTTP_STATUS_BY_CODE[code]);
  expect(codesOf(contract), `${label} must declare ${code}`).toContain(code);
}

type Request = Omit<TransportRequest, 'apiKey'> & { as?: TestAgent };

function send(world: TestWorld, request: Request): Promise<TransportResponse> {
  const { as, ...rest } = request;
  return world.transport.send(as ? { ...rest, apiKey: as.apiKey } : rest);
}

async function bodyOf<T>(world: TestWorld, request: Request): Promise<T> {
  const response = await send(world, request);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as T;
}

const CUP = 'Contract Cup';

/** The game ids of one round, with both players as test agents. */
async function roundGames(world: TestWorld, id: string, round: number, byHandle: Map<string, TestAgent>) {
  const { tournament } = await bodyOf<{ tournament: Tn.TournamentDetail }>(world, {
    method: 'GET',
    path: `/api/chess/tournaments/${id}`,
  });
  const games = [];
  for (const match of tournament.rounds[round - 1]!.matches) {
    const game = await world.client().game(match.game_id!);
    games.push({
      id: match.game_id!,
      white: byHandle.get(game.white_player.handle)!,
      black: byHandle.get(game.black_player.handle)!,
    });
  }
  return games;
}

interface Fixture {
  world: TestWorld;
  creator: TestAgent;
  entrants: TestAgent[];
  alice: TestAgent;
  bob: TestAgent;
  carol: TestAgent;
  cupId: string;
}

/**
 * A world with a finished 8-player tournament (1 SOL prize, payouts settled), a friendly game between two
 * of its entrants first, and three outsiders (alice, bob, carol) with SOL for bounty challenges.
 */
async function playedTournament(): Promise<Fixture> {
  const world = newWorld({ rules: { tournaments: { creatorMinGames: 0 } }, network: FIXED_NETWORK });
  const creator = await world.agent('creator');
  world.airdrop(creator, 5);
  const entrants = await world.agents(8, { sol: 2 });
  const [alice, bob, carol] = [
    await world.agent('alice'),
    await world.agent('bob'),
    await world.agent('carol'),
  ];
  for (const agent of [alice, bob, carol]) world.airdrop(agent, 2);

  // A game outside any tournament, between two entrants: Black (player2) wins.
  await world.play(await world.game(entrants[0]!, entrants[1]!), entrants[0]!, entrants[1]!, FOOLS_MATE);

  const created = await creator.client.createTournament({ name: CUP, max_participants: 8, prize_sol: 1 });
  const cupId = created.tournament.id;
  for (const entrant of entrants) await entrant.client.joinTournament(cupId);
  world.advanceBy(10 * 60_000); // past the settlement window and the start delay
  const byHandle = new Map(entrants.map((e) => [e.handle, e]));
  for (const round of [1, 2, 3]) {
    for (const game of await roundGames(world, cupId, round, byHandle))
      await world.play(game.id, game.white, game.black, FOOLS_MATE);
  }
  world.advanceBy(5_000); // the payouts settle
  return { world, creator, entrants, alice, bob, carol, cupId };
}

describe('wire fix: challenger.social_score on challenges', () => {
  it('shows the challenger’s social score on the open list a challenge hunter reads, and on the create response', async () => {
    const world = newWorld();
    const [alice, bob] = [await world.agent('alice'), await world.agent('bob')];
    await world.play(await world.game(alice, bob), alice, bob, FOOLS_MATE); // bob, Black, wins
    const created = await bob.client.createChallenge({});
    // Spec §12: +2 per post, +3 per win; bob has one post and one win.
    const bobRecord = world.platform.state.agents.get(bob.id)!;
    expect(socialScoreOf(world.platform, bobRecord)).toBe(5);
    const challenger = { handle: 'bob', elo: bobRecord.elo, wins: 1, losses: 0, social_score: 5 };
    expect(created.challenge.challenger).toEqual(challenger);

    // As the SDK sends it: no Authorization header (a public GET), the limit as query text.
    const response = await world.transport.send({
      method: 'GET',
      path: '/api/chess/challenges/open',
      query: { limit: 50 },
    });
    expectMatches(Ch.openChallenges, response);
    const { challenges } = response.body as { challenges: Ch.ChallengeView[] };
    expect(challenges.map((c) => c.challenger)).toEqual([challenger]);
  });
});

describe('the chess routes against their contracts', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await playedTournament();
  });

  it('wire fix: history rows name the tournament of a tournament game, and null otherwise', async () => {
    const { world, entrants } = f;
    // As the SDK sends it: the caller's key, limit and offset as query text.
    const history = (as: TestAgent) =>
      send(world, { method: 'GET', path: '/api/chess/games/history', query: { limit: 50, offset: 0 }, as });
    const response = await history(entrants[1]!);
    expectMatches(gameHistory, response);
    const rows = (response.body as { games: HistoryRow[] }).games;
    const friendly = world.platform.state.games.get(rows.at(-1)!.game_id)!;
    expect(friendly.tournamentId, 'the oldest row is the friendly game').toBeNull();
    expect(rows.map((r) => r.tournament_name)).toEqual([...rows.slice(0, -1).map(() => CUP), null]);
    expect(rows.length).toBeGreaterThan(1);

    // Every tournament game of every entrant is named, with no friendly game to hide a miss.
    for (const entrant of entrants.slice(2)) {
      const games = ((await history(entrant)).body as { games: HistoryRow[] }).games;
      expect(games.length).toBeGreaterThan(0);
      for (const row of games) expect([row.game_id, row.tournament_name]).toEqual([row.game_id, CUP]);
    }
  });

  it('answers every Challenges route with its contract shape, and refuses with declared codes', async () => {
    const { world, alice, bob, carol } = f;
    const create = (as: TestAgent, body: unknown) =>
      send(world, { method: 'POST', path: '/api/chess/challenge', body, as });

    const direct = await create(alice, { opponent_handle: 'bob' });
    expectMatches(Ch.createChallenge, direct);
    expect(direct.body).toMatchObject({
      bounty_sol: null,
      escrow_address: null,
      escrow_status: null,
      transfer_status: null,
    });
    const bounty = await create(alice, { bounty_sol: 0.1 });
    expectMatches(Ch.createChallenge, bounty);
    expect(bounty.body).toMatchObject({
      bounty_sol: 0.1,
      escrow_status: 'awaiting_deposits',
      transfer_status: 'queued',
    });
    const openId = (bounty.body as Ch.CreateChallengeResponse).challenge.challenge_id;
    const directId = (direct.body as Ch.CreateChallengeResponse).challenge.challenge_id;
    expectRefusal(Ch.createChallenge, await create(alice, { opponent_handle: 'alice' }), 'bad_request');
    expectRefusal(Ch.createChallenge, await create(alice, { bounty_sol: 'lots' }), 'validation_error');

    const open = await send(world, {
      method: 'GET',
      path: '/api/chess/challenges/open',
      query: { limit: 10, challenger_handle: 'alice' },
    });
    expectMatches(Ch.openChallenges, open);
    expect((open.body as { challenges: unknown[] }).challenges).toHaveLength(1);
    expectRefusal(
      Ch.openChallenges,
      await send(world, {
        method: 'GET',
        path: '/api/chess/challenges/open',
        query: { challenger_handle: 'ghost' },
      }),
      'not_found',
    );

    const mine = await send(world, { method: 'GET', path: '/api/chess/challenges/mine', as: alice });
    expectMatches(Ch.myChallenges, mine);
    expect(mine.body).toMatchObject({
      outgoing_open: [{ challenge_id: openId }],
      direct_pending: [{ challenge_id: directId, direction: 'outgoing' }],
    });
    const bobsSide = await send(world, { method: 'GET', path: '/api/chess/challenges/mine', as: bob });
    expectMatches(Ch.myChallenges, bobsSide);
    expect(bobsSide.body).toMatchObject({
      outgoing_open: [],
      direct_pending: [{ challenge_id: directId, direction: 'incoming' }],
    });
    expectRefusal(
      Ch.myChallenges,
      await send(world, { method: 'GET', path: '/api/chess/challenges/mine' }),
      'authentication_required',
    );

    // As the SDK sends accept: no body, no Content-Type.
    const accept = (id: string, as: TestAgent) =>
      send(world, { method: 'POST', path: `/api/chess/challenges/${id}/accept`, as });
    expectRefusal(Ch.acceptChallenge, await accept(openId, alice), 'cannot_accept_own_challenge');
    expectRefusal(Ch.acceptChallenge, await accept(directId, carol), 'challenge_not_for_you');
    const plain = await accept(directId, bob);
    expectMatches(Ch.acceptChallenge, plain);
    expect(plain.body).toMatchObject({
      game: { game_id: directId, status: 'active', result: null },
      escrow_status: null,
    });
    const staked = await accept(openId, carol);
    expectMatches(Ch.acceptChallenge, staked);
    expect(staked.body).toMatchObject({
      game: { game_id: openId, status: 'pending' },
      bounty_sol: 0.1,
      escrow_status: 'awaiting_deposits',
    });
    expectRefusal(Ch.acceptChallenge, await accept(openId, bob), 'challenge_not_open');
    expectRefusal(Ch.acceptChallenge, await accept('00000000-0000-4000-8000-000000000000', bob), 'not_found');
  });

  it('answers every Leaderboard route with its contract shape, and refuses with declared codes', async () => {
    const { world, entrants } = f;
    const get = (path: string, query: TransportRequest['query'] = {}, as?: TestAgent) =>
      send(world, { method: 'GET', path, query, ...(as ? { as } : {}) });

    const elo = await get('/api/chess/leaderboard', { limit: 5, offset: 1 });
    expectMatches(Lb.leaderboard, elo);
    expect((elo.body as { leaderboard: unknown[] }).leaderboard).toHaveLength(5);
    expectRefusal(Lb.leaderboard, await get('/api/chess/leaderboard', { limit: 0 }), 'validation_error');

    const around = await get('/api/chess/leaderboard/around', { half_window: 2 }, entrants[7]);
    expectMatches(Lb.leaderboardAround, around);
    expect((around.body as { your_rank: number | null }).your_rank).not.toBeNull();
    const unranked = await get('/api/chess/leaderboard/around', {}, f.creator);
    expectMatches(Lb.leaderboardAround, unranked);
    expect((unranked.body as { your_rank: number | null }).your_rank).toBeNull();
    expectRefusal(
      Lb.leaderboardAround,
      await get('/api/chess/leaderboard/around', { half_window: 51 }, entrants[0]),
      'validation_error',
    );
    expectRefusal(
      Lb.leaderboardAround,
      await get('/api/chess/leaderboard/around'),
      'authentication_required',
    );

    const wins = await get('/api/chess/leaderboard/tournament-wins');
    expectMatches(Lb.tournamentWins, wins);
    expect((wins.body as { leaderboard: Lb.TournamentWinsRow[] }).leaderboard).toMatchObject([
      { rank: 1, tournament_wins: 1 },
    ]);
    expectRefusal(
      Lb.tournamentWins,
      await get('/api/chess/leaderboard/tournament-wins', { offset: -1 }),
      'validation_error',
    );

    const earnings = await get('/api/chess/leaderboard/tournament-earnings');
    expectMatches(Lb.tournamentEarnings, earnings);
    const [top] = (earnings.body as { leaderboard: Lb.TournamentEarningsRow[] }).leaderboard;
    expect(top!.earnings_sol).toBeGreaterThan(0);
    expectRefusal(
      Lb.tournamentEarnings,
      await get('/api/chess/leaderboard/tournament-earnings', { limit: 'ten' }),
      'validation_error',
    );
  });

  it('answers every Tournaments route with its contract shape, and refuses with declared codes', async () => {
    const { world, creator, entrants, cupId } = f;
    const created = await send(world, {
      method: 'POST',
      path: '/api/chess/tournaments',
      // SDKs serialise unset options as null.
      body: {
        name: 'Open Cup',
        max_participants: 8,
        entry_fee_sol: 0.1,
        prize_distribution: null,
        description: 'line one\nline two',
      },
      as: creator,
    });
    expectMatches(Tn.createTournament, created);
    const openId = (created.body as { tournament: Tn.TournamentDetail }).tournament.id;
    expectRefusal(
      Tn.createTournament,
      await send(world, {
        method: 'POST',
        path: '/api/chess/tournaments',
        body: { name: ' ', max_participants: 8 },
        as: creator,
      }),
      'validation_error',
    );

    const join = (id: string, as: TestAgent) =>
      send(world, { method: 'POST', path: `/api/chess/tournaments/${id}/join`, as });
    const joined = await join(openId, entrants[0]!);
    expectMatches(Tn.joinTournament, joined);
    expect(joined.body).toMatchObject({
      payment_status: 'pending',
      queued_transfers: true,
      already_joined: false,
    });
    expectRefusal(Tn.joinTournament, await join(cupId, f.alice), 'tournament_not_open');

    const list = await send(world, { method: 'GET', path: '/api/chess/tournaments', query: { limit: 10 } });
    expectMatches(Tn.listTournaments, list);
    expect(
      (list.body as { tournaments: Tn.TournamentSummary[] }).tournaments.map((t) => [t.name, t.status]),
    ).toEqual([
      ['Open Cup', 'registration'],
      [CUP, 'completed'],
    ]);
    expectRefusal(
      Tn.listTournaments,
      await send(world, { method: 'GET', path: '/api/chess/tournaments', query: { status: 'paused' } }),
      'validation_error',
    );

    // As the tournament-joiner sends its filters: booleans and amounts as query text.
    const open = await send(world, {
      method: 'GET',
      path: '/api/chess/tournaments/open',
      query: { verified_only: false, has_entry_fee: true, entry_fee_max: 1 },
    });
    expectMatches(Tn.openTournaments, open);
    expect((open.body as { tournaments: Tn.OpenTournamentRow[] }).tournaments.map((t) => t.id)).toEqual([
      openId,
    ]);
    expectRefusal(
      Tn.openTournaments,
      await send(world, {
        method: 'GET',
        path: '/api/chess/tournaments/open',
        query: { creator_handle: 'ghost' },
      }),
      'not_found',
    );
    expectRefusal(
      Tn.openTournaments,
      await send(world, { method: 'GET', path: '/api/chess/tournaments/open', query: { prize_min: 1e-10 } }),
      'validation_error',
    );

    const cup = await send(world, { method: 'GET', path: `/api/chess/tournaments/${cupId}` });
    expectMatches(Tn.getTournament, cup);
    const detail = (cup.body as { tournament: Tn.TournamentDetail }).tournament;
    expect(detail.participants).toHaveLength(8);
    expect(detail.rounds.map((r) => r.matches.length)).toEqual([4, 2, 1]);
    expect(detail.placements[0]!.payout_sol).toBeGreaterThan(0);
    expect(detail.participants.filter((x) => x.status === 'champion')).toHaveLength(1);
    const waiting = await send(world, { method: 'GET', path: `/api/chess/tournaments/${openId}` });
    expectMatches(Tn.getTournament, waiting);
    expectRefusal(
      Tn.getTournament,
      await send(world, {
        method: 'GET',
        path: '/api/chess/tournaments/00000000-0000-4000-8000-000000000000',
      }),
      'not_found',
    );
  });

  it('answers every Games route with its contract shape, and refuses with declared codes', async () => {
    const { world } = f;
    const [white, black] = [await world.agent('gina'), await world.agent('hugo')];
    const gameId = await world.game(white, black);
    const get = (path: string, query: TransportRequest['query'] = {}, as?: TestAgent) =>
      send(world, { method: 'GET', path, query, ...(as ? { as } : {}) });

    const listed = await get('/api/chess/games', { player_handle: 'gina', status: 'active' });
    expectMatches(Gm.listGames, listed);
    expect((listed.body as { games: Array<{ game_id: string }> }).games.map((g) => g.game_id)).toEqual([
      gameId,
    ]);
    expectRefusal(
      Gm.listGames,
      await get('/api/chess/games', { my_turn: 'true' }),
      'authentication_required',
    );
    expectRefusal(Gm.listGames, await get('/api/chess/games', { player_handle: 'ghost' }), 'not_found');

    const turn = await get('/api/chess/games/my-turn', {}, white);
    expectMatches(Gm.myTurn, turn);
    expect((turn.body as { games: unknown[] }).games).toHaveLength(1);
    expectMatches(Gm.gameHistory, await get('/api/chess/games/history', {}, white));
    expectMatches(Gm.getGame, await get(`/api/chess/games/${gameId}`, {}, black));
    expectRefusal(
      Gm.getGame,
      await get('/api/chess/games/00000000-0000-4000-8000-000000000000'),
      'not_found',
    );

    const move = (as: TestAgent, body: unknown) =>
      send(world, { method: 'POST', path: '/api/chess/move', body, as });
    const played = await move(white, { game_id: gameId, move_san: 'e4' });
    expectMatches(Gm.submitMove, played);
    expect(played.body).toMatchObject({ game_status: 'active', game_result: null });
    expectRefusal(Gm.submitMove, await move(white, { game_id: gameId, move_san: 'e5' }), 'bad_request');
    expectRefusal(Gm.submitMove, await move(black, { move_san: 'e5' }), 'validation_error');
  });

  // Runs last: the tests above compiled a validator for each contract whose answer they checked.
  it('serves each of these contracts from the route table, and the tests above checked an answer of each', () => {
    const contracts = ALL_CONTRACTS.filter((contract) => ANSWERED_GROUPS.includes(contract.group));
    expect(contracts.length).toBe(
      Gm.GAME_ROUTES.length +
        Ch.CHALLENGE_ROUTES.length +
        Lb.LEADERBOARD_ROUTES.length +
        Tn.TOURNAMENT_ROUTES.length,
    );
    for (const contract of contracts) {
      const served = ROUTES.filter(
        (route) => route.contract.method === contract.method && route.contract.path === contract.path,
      );
      expect(
        served.map((route) => route.contract),
        `${contract.method} ${contract.path}`,
      ).toEqual([contract]);
    }
    expect([...validators.keys()].filter((c) => contracts.includes(c))).toHaveLength(contracts.length);
  });
});
