import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeUci } from 'chessops/util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTwin, TwinError, type Twin, type TwinAgent } from '../../src/lib/index.js';

/** The wall clock, read before any test fakes it (vitest's fake timers fake performance.now too). */
const wallMs = performance.now.bind(performance);

/** A small world: four random players who accept open challenges (one post unlocks play: the random persona makes no follows). */
const POPULATION = [
  {
    persona: 'random',
    count: 4,
    heartbeat: { min: '20s', max: '40s' },
    options: { maxGames: 1, seekChance: 1 },
  },
];
/**
 * Six virtual hours keep this file fast; examples/agent-tests runs the whole day (README, "Testing your
 * agent": a day of a 5-second loop takes 10 to 20 s of wall time, most of it the fake timers' own turns).
 */
const SPAN_MS = 6 * 3600 * 1000;

/** The virtual day's world: two random players, each looking in once or twice a minute. */
const DAY_POPULATION = [
  {
    persona: 'random',
    count: 2,
    heartbeat: { min: '30s', max: '60s' },
    options: { maxGames: 1, seekChance: 1 },
  },
];
const OPTIONS = {
  population: POPULATION,
  research: 'spec',
  seed: 7,
  start: '2026-03-01T00:00:00Z',
  listen: false,
} as const;

/** The first legal move in chessops' order, a mate in one before anything: the agent under test. */
function chooseMove(fen: string): string {
  const position = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  let first: string | undefined;
  for (const [from, targets] of position.allDests()) {
    for (const to of targets) {
      const move = {
        from,
        to,
        promotion:
          position.board.pawn.has(from) && (to >> 3 === 0 || to >> 3 === 7) ? ('queen' as const) : undefined,
      };
      const after = position.clone();
      after.play(move);
      if (after.isCheckmate()) return makeUci(move);
      first ??= makeUci(move);
    }
  }
  return first!;
}

/** One heartbeat of the agent: a move in every game where it is on move. */
async function playTurns(twin: Twin, agent: TwinAgent): Promise<void> {
  const turns = await twin.call<{ games: { game_id: string; current_fen: string }[] }>(
    'GET',
    '/api/chess/games/my-turn',
    { as: agent },
  );
  for (const game of turns.games)
    await twin.call('POST', '/api/chess/move', {
      as: agent,
      body: { game_id: game.game_id, move_uci: chooseMove(game.current_fen) },
    });
}

let open: Twin[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.map((twin) => twin.close()));
  open = [];
});

async function twinFor(options: Parameters<typeof startTwin>[0] = OPTIONS): Promise<Twin> {
  const twin = await startTwin(options);
  open.push(twin);
  return twin;
}

/** Registers `me`, challenges the room, plays until the game ends; the game as the agent reads it, and the twin's fingerprint. */
async function playOneGame(twin: Twin): Promise<{ game: Record<string, unknown>; fingerprint: string }> {
  const me = await twin.register('my_agent');
  await twin.challenge(me);
  let ended: Record<string, unknown> | undefined;
  await twin.runUntil(
    async () => {
      await playTurns(twin, me);
      const history = await twin.call<{ games: Record<string, unknown>[] }>(
        'GET',
        '/api/chess/games/history',
        { as: me },
      );
      ended = history.games[0];
      return ended !== undefined;
    },
    { within: '1d', step: '5s' },
  );
  return { game: ended!, fingerprint: await twin.fingerprint() };
}

describe('startTwin in manual mode', () => {
  it('registers an onboarded agent that plays a background player to the end and reads the result', async () => {
    const twin = await twinFor();
    const { game } = await playOneGame(twin);
    expect(['win', 'loss', 'draw']).toContain(game['result']);
    expect(typeof game['end_reason']).toBe('string');
    expect(await twin.violations()).toEqual([]);
  });

  it('gives the same fingerprint for the same seed and the same requests, and another for another seed', async () => {
    const a = await playOneGame(await twinFor());
    const b = await playOneGame(await twinFor());
    const c = await playOneGame(await twinFor({ ...OPTIONS, seed: 8 }));
    expect(b).toEqual(a);
    expect(c.fingerprint).not.toBe(a.fingerprint);
  });

  it('moves its clock by advance, set and step, and refuses a time before now in one line', async () => {
    const twin = await twinFor();
    expect(twin.now).toBe('2026-03-01T00:00:00.000Z');
    expect(await twin.advance('5m')).toBe(Date.parse('2026-03-01T00:05:00Z'));
    await twin.set('2026-03-01T01:00:00Z');
    expect(twin.now).toBe('2026-03-01T01:00:00.000Z');
    await expect(twin.set('2026-01-01T00:00:00Z')).rejects.toThrow(
      /^set: 2026-01-01T00:00:00Z is not an instant at or after/,
    );
    await expect(twin.advance('soon')).rejects.toMatchObject({ code: 'twin_option' });
    await expect(twin.runUntil(() => false, { within: '10s' })).rejects.toMatchObject({
      code: 'twin_timeout',
    });
    expect(twin.now).toBe('2026-03-01T01:00:10.000Z');
  });

  it('waits for a game of an agent to end: a player who never moves loses on time', async () => {
    const twin = await twinFor();
    const idle = await twin.register('idle_agent');
    const challenge = await twin.challenge(idle);
    const game = await twin.waitForGameEnd(idle, { within: '2h' });
    expect(challenge.status).toBe('open');
    expect(game.status).toBe('completed');
    expect(game.end_reason).toBe('timeout');
    expect(game.winner_handle).not.toBe('idle_agent');
  });

  it('accepts a challenge on behalf of a second agent, and a snapshot restores to the same fingerprint', async () => {
    const twin = await twinFor({ ...OPTIONS, population: [{ persona: 'poster', count: 1 }] });
    const alice = await twin.register('alice');
    const bob = await twin.register('bob');
    const challenge = await twin.challenge(alice, { opponent: 'bob' });
    const accepted = await twin.accept(bob, challenge.challenge_id);
    expect(accepted.game.status).toBe('active');
    const snapshot = await twin.snapshot();
    const before = await twin.fingerprint();
    await twin.advance('1h');
    expect(await twin.fingerprint()).not.toBe(before);
    await twin.restore(snapshot);
    expect(await twin.fingerprint()).toBe(before);
    expect((await twin.game(accepted.game.game_id, alice)).status).toBe('active');
  });
});

describe('the socketless fetch', () => {
  it('answers the API as the HTTP server does, and keeps /_sim behind the control token', async () => {
    const twin = await twinFor();
    const me = await twin.register('fetcher');
    const whoami = await twin.fetch('http://twin/api/whoami', {
      headers: { authorization: `Bearer ${me.apiKey}` },
    });
    expect(whoami.status).toBe(200);
    expect(((await whoami.json()) as any).agent.handle).toBe('fetcher');
    expect((await twin.fetch('http://twin/_sim/clock')).status).toBe(401);
    const clock = await twin.fetch(
      new Request('http://twin/_sim/clock', { headers: { authorization: `Bearer ${twin.controlToken}` } }),
    );
    expect(((await clock.json()) as any).now).toBe('2026-03-01T00:00:00.000Z');
    const bad = await twin.fetch('http://twin/api/register', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  it('acts out a fault profile on the socket only: twin.fetch and the helpers answer without faults', async () => {
    const faults = { name: 'down', rules: [{ kind: 'error', rate: 1, statuses: [503] }] };
    const twin = await twinFor({ ...OPTIONS, listen: true, faults });
    expect((await fetch(`${twin.apiUrl}/health`)).status).toBe(503);
    expect((await twin.fetch('http://twin/api/health')).status).toBe(200);
    await expect(startTwin({ ...OPTIONS, faults: { rules: [{ kind: 'nonsense' }] } })).rejects.toMatchObject({
      code: 'twin_option',
    });
  });

  it('serves the same twin over a socket when listening', async () => {
    const twin = await twinFor({ ...OPTIONS, listen: true });
    expect(twin.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${twin.apiUrl}/health`);
    expect(health.status).toBe(200);
    await twin.close();
    await expect(fetch(`${twin.apiUrl}/health`)).rejects.toThrow();
    await expect(twin.advance('1s')).rejects.toMatchObject({ code: 'twin_closed' });
  });
});

describe("clock: 'timers' under vitest's fake timers", () => {
  /** An agent loop as authors write it: setInterval every 5 s, fetch through the twin, a move per turn. */
  async function virtualSpan(): Promise<{ fingerprint: string; games: number; wall: number }> {
    const wallStart = wallMs();
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
    const twin = await twinFor({ ...OPTIONS, population: DAY_POPULATION, start: undefined, clock: 'timers' });
    const me = await twin.register('timed_agent');
    const headers = { authorization: `Bearer ${me.apiKey}`, 'content-type': 'application/json' };
    const api = async (path: string, body?: unknown): Promise<any> => {
      const init = body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) };
      return (await twin.fetch(`http://twin/api${path}`, init)).json();
    };
    let challengedAt = -Infinity;
    const loop = setInterval(() => {
      void (async () => {
        const turns = await api('/chess/games/my-turn');
        for (const game of turns.games)
          await api('/chess/move', { game_id: game.game_id, move_uci: chooseMove(game.current_fen) });
        // A new open challenge when nothing is on and the last one has expired (an hour).
        if (turns.games.length === 0 && Date.now() - challengedAt > 3_600_000) {
          challengedAt = Date.now();
          await api('/chess/challenge', {});
        }
      })();
    }, 5000);
    await vi.advanceTimersByTimeAsync(SPAN_MS);
    clearInterval(loop);
    expect(twin.now).toBe('2026-03-01T06:00:00.000Z');
    const history = await twin.call<{ games: unknown[] }>('GET', '/api/chess/games/history?limit=100', {
      as: me,
    });
    const fingerprint = await twin.fingerprint();
    vi.useRealTimers();
    return { fingerprint, games: history.games.length, wall: wallMs() - wallStart };
  }

  it('plays six virtual hours of a 5-second setInterval agent in seconds, twice with the same fingerprint', async () => {
    const first = await virtualSpan();
    const second = await virtualSpan();
    expect(first.games).toBeGreaterThan(0);
    expect(second).toMatchObject({ fingerprint: first.fingerprint, games: first.games });
    expect(first.wall).toBeLessThan(15_000);
    console.log(
      `virtual day: ${Math.round(first.wall)} and ${Math.round(second.wall)} ms of wall time, ${first.games} games`,
    );
  }, 90_000);

  it('refuses to move its clock by hand while it follows the test timers', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
    const twin = await twinFor({ ...OPTIONS, start: undefined, clock: 'timers' });
    await expect(twin.advance('5m')).rejects.toBeInstanceOf(TwinError);
    await expect(twin.step()).rejects.toThrow(/follows the test's timers/);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(twin.now).toBe('2026-03-01T00:01:30.000Z');
  });
});
