import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recapKey, type RecapInput } from '../../src/rules/social/recap.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

const FC = { numRuns: 1000 };
const MILESTONE_GAMES = DEFAULT_RULESET.social.milestoneGames;
/** The post types WIRE §8 lists that are not recaps. */
const PLAIN_POST_TYPES = ['standard', 'challenge', 'tournament_created'];

function post(postType: string, changes: Partial<RecapInput> = {}): RecapInput {
  return Object.assign({ postType, chessGameId: null, tournamentId: null, gamesPlayed: 0 }, changes);
}

const id = fc.uuid();
const games = fc.integer({ min: 0, max: 100_000 });

describe('recap slots (src/rules/social/recap.ts)', () => {
  it('gives a game_result its game and a tournament_result its tournament', () => {
    expect(recapKey(post('game_result', { chessGameId: 'g1' }), MILESTONE_GAMES)).toBe('game:g1');
    expect(recapKey(post('tournament_result', { tournamentId: 't1' }), MILESTONE_GAMES)).toBe(
      'tournament:t1',
    );
  });

  it('leaves a result post that names nothing, and every other post type, without a slot', () => {
    expect(recapKey(post('game_result'), MILESTONE_GAMES)).toBeNull();
    expect(recapKey(post('tournament_result', { chessGameId: 'g1' }), MILESTONE_GAMES)).toBeNull();
    for (const type of PLAIN_POST_TYPES) {
      expect(
        recapKey(post(type, { chessGameId: 'g1', tournamentId: 't1', gamesPlayed: 50 }), MILESTONE_GAMES),
        type,
      ).toBeNull();
    }
  });

  it('places milestones in windows of the ruleset number of games (50: 0-49, 50-99, ...)', () => {
    expect(MILESTONE_GAMES).toBe(50);
    const slot = (played: number) => recapKey(post('milestone', { gamesPlayed: played }), MILESTONE_GAMES);
    expect([slot(0), slot(49), slot(50), slot(99), slot(100)]).toEqual([
      'milestone:0',
      'milestone:0',
      'milestone:1',
      'milestone:1',
      'milestone:2',
    ]);
  });

  it('property: two milestones share a slot exactly when their games played fall in one window', () => {
    fc.assert(
      fc.property(games, games, fc.integer({ min: 1, max: 500 }), (a, b, window) => {
        const same =
          recapKey(post('milestone', { gamesPlayed: a }), window) ===
          recapKey(post('milestone', { gamesPlayed: b }), window);
        expect(same).toBe(Math.floor(a / window) === Math.floor(b / window));
      }),
      FC,
    );
  });

  it('property: result slots depend on the game or tournament alone, never on games played', () => {
    fc.assert(
      fc.property(id, id, games, games, (game, tournament, a, b) => {
        expect(recapKey(post('game_result', { chessGameId: game, gamesPlayed: a }), MILESTONE_GAMES)).toBe(
          recapKey(post('game_result', { chessGameId: game, gamesPlayed: b }), MILESTONE_GAMES),
        );
        expect(
          recapKey(post('tournament_result', { tournamentId: tournament, gamesPlayed: a }), MILESTONE_GAMES),
        ).toBe(`tournament:${tournament}`);
      }),
      FC,
    );
  });
});
