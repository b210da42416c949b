import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addLiveGame, dropLiveGame, liveGamesOf } from '../../src/platform/chess/live-game-lists.js';
import { createPlatform } from '../../src/platform/index.js';
import type { Game } from '../../src/platform/state.js';

const AGENTS = ['a', 'b'];
const GAMES = 4;

/** A step: a game joins or leaves an agent's live games, or an agent's list is read. */
const stepArb = fc.tuple(
  fc.constantFrom('add', 'drop', 'read' as const),
  fc.constantFrom(...AGENTS),
  fc.integer({ min: 0, max: GAMES - 1 }),
);

/**
 * The lists beside the state (src/platform/chess/live-game-lists.ts) must always read as the state's sets of
 * ids would, in the same order, whenever each agent's list was first made.
 */
describe('live game lists', () => {
  it('read as the state’s sets, in order, after any joins and leaves, whenever first read', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 10, maxLength: 60 }), (steps) => {
        const p = createPlatform({ seed: 'lists', startMs: Date.UTC(2026, 0, 1) });
        const games: Game[] = [];
        for (let i = 0; i < GAMES; i++) {
          const game = { id: `g${i}` } as Game;
          games.push(game);
          p.state.games.set(game.id, game);
        }
        for (const agent of AGENTS) p.state.liveGamesByAgent.set(agent, new Set());
        const fromState = (agent: string) =>
          [...p.state.liveGamesByAgent.get(agent)!].map((id) => p.state.games.get(id)!);
        // Once an agent's list is made (its first read), it is checked after every later step.
        const made = new Set<string>();
        for (const [op, agent, index] of steps) {
          const game = games[index]!;
          if (op === 'add' && !p.state.liveGamesByAgent.get(agent)!.has(game.id)) addLiveGame(p, agent, game);
          else if (op === 'drop') dropLiveGame(p, agent, game);
          else if (op === 'read') made.add(agent);
          for (const known of made) expect(liveGamesOf(p, known)).toEqual(fromState(known));
        }
        for (const agent of AGENTS) expect(liveGamesOf(p, agent)).toEqual(fromState(agent));
      }),
    );
  });
});
