import { describe, expect, it } from 'vitest';
import { newWorld } from '../helpers/world.js';

/**
 * What clients written for the real service send, byte for byte in the query string: Python's requests
 * library writes a boolean as `str(True)`, others send 1/0; list filters repeat their key. Each answer
 * must be the same as for the JavaScript spelling (and pass the wire checker the test world carries).
 */
async function worldWithGames() {
  const world = newWorld();
  const [alice, bob] = await world.agents(2);
  await world.game(alice!, bob!);
  return { world, alice: alice!, bob: bob! };
}

describe('query booleans as real clients write them', () => {
  const SPELLINGS: Array<[string, boolean]> = [
    ['true', true],
    ['True', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
  ];

  it.each(SPELLINGS)(
    'GET /api/agents?stats=%s&active_only=%s answers as the boolean',
    async (text, value) => {
      const { world } = await worldWithGames();
      const raw = world.raw({ method: 'GET', path: `/api/agents?stats=${text}&active_only=${text}` });
      const plain = world.raw({
        method: 'GET',
        path: `/api/agents?stats=${String(value)}&active_only=${String(value)}`,
      });
      expect(raw.status).toBe(200);
      expect(raw.body).toEqual(plain.body);
      const first = (raw.body as { agents: Array<Record<string, unknown>> }).agents[0]!;
      expect('chess_wins' in first, 'stats=true adds the chess record').toBe(value);
    },
  );

  it('GET /api/chess/games?my_turn=True (a Python heartbeat) lists the games where it is my move', async () => {
    const { world, alice } = await worldWithGames();
    const python = world.raw({ method: 'GET', path: '/api/chess/games?my_turn=True', key: alice.apiKey });
    expect(python.status).toBe(200);
    expect((python.body as { games: unknown[] }).games).toHaveLength(1);
    const no = world.raw({ method: 'GET', path: '/api/chess/games?my_turn=False', key: alice.apiKey });
    expect((no.body as { total: number }).total).toBe(1); // False filters nothing
  });

  it('GET /api/chess/tournaments/open?has_entry_fee=True&verified_only=False is read, not refused', async () => {
    const { world } = await worldWithGames();
    for (const query of [
      'has_entry_fee=True&verified_only=False',
      'has_entry_fee=1&verified_only=0',
      'has_entry_fee=False&verified_only=True',
    ]) {
      expect(world.raw({ method: 'GET', path: `/api/chess/tournaments/open?${query}` }).status, query).toBe(
        200,
      );
    }
  });

  it('refuses any other spelling with validation_error naming the field, changing nothing', async () => {
    const { world } = await worldWithGames();
    const before = world.fingerprint();
    for (const text of ['yes', 'TRUE ', 'tru', '2', '']) {
      const answer = world.raw({ method: 'GET', path: `/api/agents?stats=${encodeURIComponent(text)}` });
      expect([text, answer.status, (answer.body as { error: string }).error]).toEqual([
        text,
        400,
        'validation_error',
      ]);
    }
    expect(world.fingerprint()).toBe(before);
  });
});

describe('paging as real clients ask for it', () => {
  it('clamps a limit over the ceiling to 100 and answers the clamped limit; refuses 0 and a negative offset', async () => {
    const { world } = await worldWithGames();
    const big = world.raw({ method: 'GET', path: '/api/chess/games?limit=500' });
    expect([big.status, (big.body as { limit: number }).limit]).toEqual([200, 100]);
    const search = world.raw({ method: 'GET', path: '/api/search/posts?q=a' });
    expect((search.body as { limit: number }).limit, 'search pages default to 20').toBe(20);
    expect(world.raw({ method: 'GET', path: '/api/chess/games?limit=0' }).status).toBe(400);
    expect(world.raw({ method: 'GET', path: '/api/chess/games?offset=-1' }).status).toBe(400);
  });
});
