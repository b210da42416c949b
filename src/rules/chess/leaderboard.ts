/**
 * Elo leaderboard order (OURS, docs/rules.md): an agent is ranked once it has completed a game; ranks go
 * by Elo descending, then more games, then handle, a total order so equal ratings always list the same way.
 */
export interface RankCandidate {
  readonly handle: string;
  readonly elo: number;
  readonly gamesPlayed: number;
}

export function isRanked(candidate: RankCandidate): boolean {
  return candidate.gamesPlayed > 0;
}

export function compareRanked(a: RankCandidate, b: RankCandidate): number {
  return (
    b.elo - a.elo || b.gamesPlayed - a.gamesPlayed || (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0)
  );
}
