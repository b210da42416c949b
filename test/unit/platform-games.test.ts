import { describe, expect, it } from 'vitest';
import type { GameDetail } from '../../src/client/wire.js';
import { sideToMove, STANDARD_START_FEN } from '../../src/rules/chess/chess.js';
import {
  expectApiError,
  expectRejectedUnchanged,
  FOOLS_MATE,
  newWorld,
  TestWorld,
  TURN_MS,
  type TestAgent,
} from '../helpers/world.js';

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const ITALIAN = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'];
// After these, White's b7 pawn can capture-promote on a8.
const TO_PROMOTION = ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'Bd7'];

async function pair(world: TestWorld) {
  const a = await world.agent('alice');
  const b = await world.agent('bob');
  return { a, b, gameId: await world.game(a, b) };
}

type Detail = GameDetail & {
  winner_handle: string | null;
  turn: string | null;
  turn_deadline_at: string | null;
};

async function detail(agent: TestAgent | TestWorld, gameId: string): Promise<Detail> {
  const client = agent instanceof TestWorld ? agent.client() : agent.client;
  return client.game(gameId);
}

describe('move notation over the API', () => {
  it.each([
    ['O-O', 'move_san'],
    ['0-0', 'move_san'],
    ['O-O+', 'move_san'],
    ['e1g1', 'move_uci'],
    ['e1h1', 'move_uci'],
    ['e1g1', 'move_san'],
    ['O-O', 'move_uci'],
  ] as const)('castles with %j in %s, written back as O-O / e1g1', async (text, field) => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, ITALIAN);
    const r = await a.client.move({ game_id: gameId, [field]: text });
    expect(r.move.move_san).toBe('O-O');
    expect(r.move.move_uci).toBe('e1g1');
    expect(r.move.fen_after.split(' ')[0]).toBe('r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1');
  });

  it.each([
    [{ move_uci: 'b7a8q' }, 'bxa8=Q', 'b7a8q'],
    [{ move_san: 'bxa8=Q' }, 'bxa8=Q', 'b7a8q'],
    [{ move_san: 'bxa8Q' }, 'bxa8=Q', 'b7a8q'],
    [{ move_uci: 'b7a8n' }, 'bxa8=N', 'b7a8n'],
    [{ move_uci: 'B7A8Q'.toLowerCase() }, 'bxa8=Q', 'b7a8q'],
    [{ move_san: 'bxa8=Q', move_uci: 'b7a8q' }, 'bxa8=Q', 'b7a8q'],
  ])('promotes with %j', async (fields, san, uci) => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, TO_PROMOTION);
    const r = await a.client.move({ game_id: gameId, ...fields });
    expect(r.move.move_san).toBe(san);
    expect(r.move.move_uci).toBe(uci);
  });

  it('refuses a promotion without a piece, and a san/uci pair naming different moves', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, TO_PROMOTION);
    for (const fields of [
      { move_uci: 'b7a8' },
      { move_san: 'bxa8' },
      { move_san: 'bxa8=K' },
      { move_san: 'bxa8=Q', move_uci: 'b7a8r' },
    ]) {
      await expectRejectedUnchanged(
        world,
        () => a.client.move({ game_id: gameId, ...fields }),
        'bad_request',
      );
    }
  });

  it('accepts check marks whether sent or not, and reports is_check', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, ['e4', 'f5']);
    const r = await a.client.move({ game_id: gameId, move_san: 'Qh5' });
    expect(r.move.move_san).toBe('Qh5+');
    expect(r.move.is_check).toBe(true);
    expect(r.move.is_checkmate).toBe(false);
    const reply = await b.client.move({ game_id: gameId, move_san: 'g6' });
    expect(reply.move.is_check).toBe(false);
    const check2 = await a.client.move({ game_id: gameId, move_uci: 'h5g6' }); // Qxg6+ (hxg6 would be legal for Black)
    expect(check2.move.move_san).toBe('Qxg6+');
  });
});

describe('refused moves', () => {
  it('refuses an illegal move and a move out of turn with 400 bad_request, leaving the state alone', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    for (const text of ['e5', 'Ke2', 'e2e5', 'O-O', 'Nf6', 'zz', 'e9', 'Qxh7#']) {
      const e = await expectRejectedUnchanged(
        world,
        () => a.client.move({ game_id: gameId, move_san: text }),
        'bad_request',
      );
      expect(e.status).toBe(400);
    }
    await expectRejectedUnchanged(
      world,
      () => b.client.move({ game_id: gameId, move_san: 'e5' }),
      'bad_request',
    );
    await a.client.move({ game_id: gameId, move_san: 'e4' });
    await expectRejectedUnchanged(
      world,
      () => a.client.move({ game_id: gameId, move_san: 'd4' }),
      'bad_request',
    );
    const d = await detail(b, gameId);
    expect(d.moves.map((m) => m.move_san)).toEqual(['e4']);
  });

  it('refuses a non-player (bad_request), an unknown game (404), no move (validation_error), no key (401)', async () => {
    const world = newWorld();
    const { gameId } = await pair(world);
    const c = await world.agent('carol');
    const e = await expectRejectedUnchanged(
      world,
      () => c.client.move({ game_id: gameId, move_san: 'e4' }),
      'bad_request',
    );
    expect((e.body as { reason?: string }).reason).toBe('not_a_player');
    await expectRejectedUnchanged(
      world,
      () => c.client.move({ game_id: UNKNOWN_UUID, move_san: 'e4' }),
      'not_found',
    );
    await expectRejectedUnchanged(
      world,
      () => c.client.move({ game_id: 'nope', move_san: 'e4' }),
      'not_found',
    );
    await expectRejectedUnchanged(world, () => c.client.move({ game_id: gameId }), 'validation_error');
    await expectRejectedUnchanged(
      world,
      () => c.client.move({ game_id: gameId, move_san: '', move_uci: '' }),
      'validation_error',
    );
    await expectApiError(world.client().move({ game_id: gameId, move_san: 'e4' }), 'authentication_required');
  });

  it('refuses moves in a finished game', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, [...FOOLS_MATE]);
    const e = await expectRejectedUnchanged(
      world,
      () => a.client.move({ game_id: gameId, move_san: 'e4' }),
      'bad_request',
    );
    expect((e.body as { reason?: string }).reason).toBe('game_not_active');
  });
});

describe('the 5-minute turn deadline', () => {
  it('accepts a move at deadline - 1 ms; at the deadline the game ends by timeout and the late move is refused', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    const start = world.nowMs;
    const first = await detail(a, gameId);
    expect(first.turn_deadline_at).toBe(new Date(start + TURN_MS).toISOString());

    world.advanceTo(start + TURN_MS - 1);
    await a.client.move({ game_id: gameId, move_san: 'e4' });
    const blackDeadline = start + TURN_MS - 1 + TURN_MS;
    expect((await detail(b, gameId)).turn_deadline_at).toBe(new Date(blackDeadline).toISOString());

    world.advanceTo(blackDeadline - 1);
    expect((await detail(b, gameId)).status).toBe('active');
    world.advanceTo(blackDeadline);
    const e = await expectApiError(b.client.move({ game_id: gameId, move_san: 'e5' }), 'bad_request');
    expect((e.body as { reason?: string }).reason).toBe('deadline_passed');
    const d = await detail(b, gameId);
    expect(d).toMatchObject({
      status: 'completed',
      result: '1-0',
      end_reason: 'timeout',
      winner_handle: 'alice',
      is_my_turn: false,
    });
    expect(d.moves).toHaveLength(1);
    expect((d as unknown as { ended_at: string }).ended_at).toBe(new Date(blackDeadline).toISOString());
  });

  it('a move sent at exactly the deadline through the route alone is refused, and the game is completed', async () => {
    // The clock reaches the deadline without anyone firing timers first: the request itself settles them.
    const world = newWorld();
    const { a, gameId } = await pair(world);
    const deadline = world.nowMs + TURN_MS;
    world.platform.clock.advanceTo(deadline);
    expect(world.platform.state.games.get(gameId)!.status).toBe('active');
    const e = await expectApiError(a.client.move({ game_id: gameId, move_san: 'e4' }), 'bad_request');
    expect((e.body as { reason?: string }).reason).toBe('deadline_passed');
    expect(await detail(a, gameId)).toMatchObject({
      status: 'completed',
      result: '0-1',
      end_reason: 'timeout',
      winner_handle: 'bob',
    });
  });

  it('a side that never moves loses at exactly start + 5 min', async () => {
    const world = newWorld();
    const { gameId } = await pair(world);
    const start = world.nowMs;
    world.advanceTo(start + TURN_MS - 1);
    expect(world.platform.state.games.get(gameId)!.status).toBe('active');
    world.advanceTo(start + TURN_MS);
    const game = world.platform.state.games.get(gameId)!;
    expect(game.status).toBe('completed');
    expect(game.end).toMatchObject({
      reason: 'timeout',
      winner: 'black',
      result: '0-1',
      endedAtMs: start + TURN_MS,
    });
    expect(world.platform.state.liveGamesByAgent.get(game.whiteId)!.has(gameId)).toBe(false);
  });
});

describe('game end and detail', () => {
  it("ends fool's mate as checkmate 0-1", async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, FOOLS_MATE.slice(0, 3));
    const r = await b.client.move({ game_id: gameId, move_san: 'Qh4' });
    expect(r.move).toMatchObject({ move_san: 'Qh4#', move_uci: 'd8h4', is_check: true, is_checkmate: true });
    expect(r.game_status).toBe('completed');
    expect(r.game_result).toBe('0-1');
    expect(await detail(world, gameId)).toMatchObject({
      status: 'completed',
      result: '0-1',
      end_reason: 'checkmate',
      winner_handle: 'bob',
      turn: null,
    });
  });

  it('shows FENs, moves, and the viewer-dependent fields', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    const fresh = await detail(a, gameId);
    expect(fresh).toMatchObject({
      game_id: gameId,
      status: 'active',
      result: null,
      move_count: 0,
      current_fen: STANDARD_START_FEN,
      initial_fen: STANDARD_START_FEN,
    });
    expect(fresh.moves).toEqual([]);
    await world.play(gameId, a, b, ['e4', 'c5', 'Nf3']);
    const d = await detail(a, gameId);
    expect(d.initial_fen).toBe(STANDARD_START_FEN);
    expect(d.current_fen).toBe('rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    expect(d.move_count).toBe(3);
    expect(d.moves.map((m) => [m.move_number, m.color, m.move_san, m.move_uci])).toEqual([
      [1, 'white', 'e4', 'e2e4'],
      [1, 'black', 'c5', 'c7c5'],
      [2, 'white', 'Nf3', 'g1f3'],
    ]);
    expect(d.moves[0]!.fen_after).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(d.moves.at(-1)!.fen_after).toBe(d.current_fen);
    expect(d.moves.every((m) => m.is_check === false && m.is_checkmate === false)).toBe(true);
    expect(d).toMatchObject({
      is_my_turn: false,
      my_color: 'white',
      turn: 'black',
      white_player: { handle: 'alice', elo: 1200 },
      black_player: { handle: 'bob', elo: 1200 },
    });
    expect(await detail(b, gameId)).toMatchObject({ is_my_turn: true, my_color: 'black' });
    expect(await detail(world, gameId)).toMatchObject({ is_my_turn: false, my_color: null });
    const c = await world.agent('carol');
    expect(await detail(c, gameId)).toMatchObject({ is_my_turn: false, my_color: null });
    await expectApiError(world.client().game(UNKNOWN_UUID), 'not_found');
  });
});

describe('game lists', () => {
  it("my-turn lists only live games where it is the caller's move", async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    const b = await world.agent('bob');
    const g1 = await world.game(a, b); // alice White, to move
    const g2 = await world.game(b, a); // bob White, to move
    const ids = async (x: TestAgent) => (await x.client.myTurn()).games.map((g) => g.game_id).sort();
    expect(await ids(a)).toEqual([g1]);
    expect(await ids(b)).toEqual([g2]);
    const row = (await a.client.myTurn()).games[0]!;
    expect(row).toMatchObject({
      my_color: 'white',
      move_count: 0,
      current_fen: STANDARD_START_FEN,
      white_player: { handle: 'alice' },
    });
    await a.client.move({ game_id: g1, move_san: 'e4' });
    expect(await ids(a)).toEqual([]);
    expect(await ids(b)).toEqual([g1, g2].sort());
    expect((await b.client.myTurn()).games.find((g) => g.game_id === g1)).toMatchObject({
      my_color: 'black',
      move_count: 1,
    });
    await world.play(g2, b, a, [...FOOLS_MATE]);
    expect(await ids(b)).toEqual([g1]);
    expect(await ids(a)).toEqual([]);
    await expectApiError(world.client().myTurn(), 'authentication_required');
  });

  it("reads whose move it is from the ply count, which always agrees with the board's turn", async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    const game = world.platform.state.games.get(gameId)!;
    const agrees = () => expect(game.sideToMove).toBe(sideToMove(game.board));
    agrees();
    for (const [ply, san] of ITALIAN.entries()) {
      await (ply % 2 === 0 ? a : b).client.move({ game_id: gameId, move_san: san });
      agrees();
    }
  });

  it('filters by status, player_handle and my_turn (which needs a key)', async () => {
    const world = newWorld();
    const a = await world.agent('alice');
    const b = await world.agent('bob');
    const c = await world.agent('carol');
    const done = await world.game(a, b);
    await world.play(done, a, b, [...FOOLS_MATE]);
    const ab = await world.game(a, b);
    const bc = await world.game(b, c);
    const list = async (query: Record<string, string | boolean>, who?: TestAgent) =>
      (await (who ? who.client : world.client()).games(query)).games.map((g) => g.game_id);

    expect(await list({})).toEqual([bc, ab, done]); // newest first
    expect(await list({ status: 'active' })).toEqual([bc, ab]);
    expect(await list({ status: 'completed' })).toEqual([done]);
    expect(await list({ status: 'pending' })).toEqual([]);
    expect(await list({ player_handle: 'carol' })).toEqual([bc]);
    expect(await list({ player_handle: 'ALICE' })).toEqual([ab, done]);
    expect(await list({ player_handle: 'alice', status: 'completed' })).toEqual([done]);
    expect(await list({ my_turn: true }, a)).toEqual([ab]);
    expect(await list({ my_turn: true }, c)).toEqual([]);
    expect(await list({ my_turn: true }, b)).toEqual([bc]);
    expect(await list({ my_turn: false })).toEqual([bc, ab, done]);
    const summary = (await world.client().games({ status: 'completed' })).games[0]!;
    expect(summary).toMatchObject({
      status: 'completed',
      result: '0-1',
      move_count: 4,
      white_player: { handle: 'alice' },
      black_player: { handle: 'bob' },
    });

    await expectApiError(world.client().games({ my_turn: true }), 'authentication_required');
    await expectApiError(world.client().games({ player_handle: 'ghost' }), 'not_found');
    await expectApiError(world.client().games({ status: 'finished' as never }), 'validation_error');
    await expectApiError(world.client().games({ limit: 0 }), 'validation_error');
    expect(
      ((await world.client().games({ limit: 101 })) as unknown as { limit: number }).limit,
      'a limit over the ceiling is clamped (docs/rules.md, Paging)',
    ).toBe(100);
    const paged = await world.client().games({ limit: 1, offset: 1 });
    expect(paged.games.map((g) => g.game_id)).toEqual([ab]);
    expect(paged.total).toBe(3);
  });
});

describe('history and Elo', () => {
  it('reports win/loss rows with Elo before, after and change, and the changes cancel', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, [...FOOLS_MATE]);
    const ha = (await a.client.history()).games;
    const hb = (await b.client.history()).games;
    expect(ha).toHaveLength(1);
    expect(ha[0]).toMatchObject({
      game_id: gameId,
      result: 'loss',
      opponent_handle: 'bob',
      my_elo_before: 1200,
      my_elo_after: 1180,
      elo_change: -20,
      move_count: 4,
    });
    expect(hb[0]).toMatchObject({
      game_id: gameId,
      result: 'win',
      opponent_handle: 'alice',
      my_elo_before: 1200,
      my_elo_after: 1220,
      elo_change: 20,
    });
    expect(ha[0]!.elo_change + hb[0]!.elo_change).toBe(0);
    expect((await a.client.agentWhoami()).agent.chess_elo).toBe(1180);

    // A second game between unequal ratings: the underdog wins more than 20, the changes still cancel.
    const g2 = await world.game(a, b);
    await world.play(g2, a, b, ['e4', 'f6', 'd4', 'g5', 'Qh5#']);
    const [latestA] = (await a.client.history()).games;
    const [latestB] = (await b.client.history()).games;
    expect(latestA).toMatchObject({ game_id: g2, result: 'win', my_elo_before: 1180 });
    expect(latestA!.elo_change).toBeGreaterThan(20);
    expect(latestA!.elo_change + latestB!.elo_change).toBe(0);
    expect(latestA!.my_elo_after - latestA!.my_elo_before).toBe(latestA!.elo_change);
    expect((await a.client.history()).total).toBe(2);
  });

  it('reports a draw (threefold repetition) with no Elo change at equal ratings', async () => {
    const world = newWorld();
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
    expect(await detail(world, gameId)).toMatchObject({
      status: 'completed',
      result: '1/2-1/2',
      end_reason: 'threefold_repetition',
      winner_handle: null,
    });
    const [row] = (await a.client.history()).games;
    expect(row).toMatchObject({ result: 'draw', elo_change: 0, my_elo_before: 1200, my_elo_after: 1200 });
  });

  it('keeps the history empty while a game is live, and needs a key', async () => {
    const world = newWorld();
    const { a } = await pair(world);
    expect((await a.client.history()).games).toEqual([]);
    await expectApiError(world.client().history(), 'authentication_required');
  });
});

describe('move limit (ruleset override: 4 plies)', () => {
  const rules = { game: { moveLimitPlies: 4 } };
  const QUIET = ['Nf3', 'Nf6', 'Nc3', 'Nc6'];

  it('at equal Elo, Black wins', async () => {
    const world = newWorld({ rules });
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, QUIET.slice(0, 3));
    expect((await detail(world, gameId)).status).toBe('active');
    const r = await b.client.move({ game_id: gameId, move_san: QUIET[3]! });
    expect(r.game_status).toBe('completed');
    expect(r.game_result).toBe('0-1');
    expect(await detail(world, gameId)).toMatchObject({ end_reason: 'move_limit', winner_handle: 'bob' });
  });

  it('the lower-Elo player wins, as White or as Black', async () => {
    const world = newWorld({ rules });
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, QUIET); // bob (Black) wins at equal Elo: alice 1180, bob 1220
    const lowWhite = await world.game(a, b);
    await world.play(lowWhite, a, b, QUIET);
    expect(await detail(world, lowWhite)).toMatchObject({
      result: '1-0',
      end_reason: 'move_limit',
      winner_handle: 'alice',
    });
    // Now alice leads; bob is lower and plays Black.
    const elo = (x: TestAgent) => world.platform.state.agents.get(x.id)!.elo;
    expect(elo(b)).toBeLessThan(elo(a));
    const lowBlack = await world.game(a, b);
    await world.play(lowBlack, a, b, QUIET);
    expect(await detail(world, lowBlack)).toMatchObject({
      result: '0-1',
      end_reason: 'move_limit',
      winner_handle: 'bob',
    });
    // And the lower-rated side also wins as White when it is the challenger.
    expect(elo(a)).toBeLessThan(elo(b));
    const again = await world.game(a, b);
    await world.play(again, a, b, QUIET);
    expect(await detail(world, again)).toMatchObject({ result: '1-0', winner_handle: 'alice' });
  });

  it('a checkmate on the last allowed ply is a checkmate', async () => {
    const world = newWorld({ rules });
    const { a, b, gameId } = await pair(world);
    await world.play(gameId, a, b, [...FOOLS_MATE]);
    expect(await detail(world, gameId)).toMatchObject({ result: '0-1', end_reason: 'checkmate' });
  });
});
