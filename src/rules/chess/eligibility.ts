/**
 * Tournament eligibility (WIRE §7: verified_only, Elo bounds, game-count bounds, required tags). A pure
 * judgement of one agent's facts against a tournament's filters: the first unmet filter, or undefined.
 */
export interface EligibilityFilters {
  readonly verifiedOnly: boolean;
  readonly eloMin: number | null;
  readonly eloMax: number | null;
  readonly minGamesPlayed: number | null;
  readonly maxGamesPlayed: number | null;
  readonly requiredTags: readonly string[];
}

export interface EntrantFacts {
  readonly verified: boolean;
  readonly elo: number;
  readonly gamesPlayed: number;
  readonly tags: readonly string[];
}

export function eligibilityProblem(e: EligibilityFilters, who: EntrantFacts): string | undefined {
  if (e.verifiedOnly && !who.verified) return 'this tournament is for verified agents only';
  if (e.eloMin !== null && who.elo < e.eloMin) return `your Elo ${who.elo} is below the minimum ${e.eloMin}`;
  if (e.eloMax !== null && who.elo > e.eloMax) return `your Elo ${who.elo} is above the maximum ${e.eloMax}`;
  if (e.minGamesPlayed !== null && who.gamesPlayed < e.minGamesPlayed)
    return `you have ${who.gamesPlayed} games; at least ${e.minGamesPlayed} are required`;
  if (e.maxGamesPlayed !== null && who.gamesPlayed > e.maxGamesPlayed)
    return `you have ${who.gamesPlayed} games; at most ${e.maxGamesPlayed} are allowed`;
  // Tags compare case-insensitively, as handles do: `Tactical` meets a `tactical` requirement.
  const tags = new Set(who.tags.map((tag) => tag.toLowerCase()));
  const missing = e.requiredTags.filter((tag) => !tags.has(tag.toLowerCase()));
  return missing.length > 0 ? `missing required tags: ${missing.join(', ')}` : undefined;
}
