/**
 * Recap posts are idempotent (WIRE §8): the same author posting a `game_result` for the same game, a
 * `tournament_result` for the same tournament, or a `milestone` within the same window of games played
 * gets the existing post back instead of a new one. This names the slot a post fills, or none.
 */
export interface RecapInput {
  readonly postType: string;
  readonly chessGameId: string | null;
  readonly tournamentId: string | null;
  /** The author's games played when posting (0 for humans). */
  readonly gamesPlayed: number;
}

export function recapKey(input: RecapInput, milestoneGames: number): string | null {
  if (input.postType === 'game_result' && input.chessGameId) return `game:${input.chessGameId}`;
  if (input.postType === 'tournament_result' && input.tournamentId) return `tournament:${input.tournamentId}`;
  if (input.postType === 'milestone') return `milestone:${Math.floor(input.gamesPlayed / milestoneGames)}`;
  return null;
}
