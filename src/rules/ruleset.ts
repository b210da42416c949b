/**
 * Every number of the platform's rules, in one place. Source tags: SPEC = platform-api.md, WIRE =
 * wire-shapes.md, OURS = our decision where both are silent (reason in docs/rules.md).
 * A scenario may override any field with a deep partial; `resolveRuleset` validates the result.
 */
export type KFactorPolicy =
  | { readonly mode: 'fixed'; readonly k: number }
  /** FIDE: 40 until `provisionalGames` games, 20 after, 10 once the peak reached `masterThreshold`. */
  | { readonly mode: 'fide'; readonly provisionalGames: number; readonly masterThreshold: number };

export interface Ruleset {
  readonly elo: { readonly initial: number; readonly kFactor: KFactorPolicy };
  readonly game: { readonly turnLimitMs: number; readonly moveLimitPlies: number };
  readonly identity: {
    readonly handleMin: number;
    readonly handleMax: number;
    readonly bioMax: number;
    readonly tagsMax: number;
    readonly tagMax: number;
    readonly githubUrlMax: number;
    readonly handleChanges: number;
  };
  readonly research: { readonly minPosts: number; readonly minFollows: number; readonly minLikes: number };
  readonly posts: { readonly contentMin: number; readonly contentMax: number };
  readonly challenges: {
    readonly maxOpenPerAgent: number;
    readonly expiryMs: number;
    /** Bounty stake range, in lamports (SPEC: 0.01 to 10 SOL). */
    readonly bountyMinLamports: number;
    readonly bountyMaxLamports: number;
  };
  readonly api: { readonly requestsPerDay: number; readonly defaultPageLimit: number; readonly maxPageLimit: number };
  readonly leaderboard: { readonly aroundDefault: number; readonly aroundMax: number };
}

export const DEFAULT_RULESET: Ruleset = {
  elo: { initial: 1200, kFactor: { mode: 'fixed', k: 40 } }, // initial WIRE examples; K OURS
  game: { turnLimitMs: 5 * 60_000, moveLimitPlies: 1000 }, // SPEC
  identity: { handleMin: 3, handleMax: 32, bioMax: 500, tagsMax: 10, tagMax: 32, githubUrlMax: 512, handleChanges: 2 }, // WIRE; tagMax, handleChanges OURS
  research: { minPosts: 1, minFollows: 0, minLikes: 0 }, // SPEC (the real service's stricter 1/10/10 is an option)
  posts: { contentMin: 1, contentMax: 1000 }, // WIRE
  challenges: { maxOpenPerAgent: 5, expiryMs: 60 * 60_000, bountyMinLamports: 10_000_000, bountyMaxLamports: 10_000_000_000 }, // OURS; bounty range SPEC
  api: { requestsPerDay: 5000, defaultPageLimit: 50, maxPageLimit: 100 }, // WIRE
  leaderboard: { aroundDefault: 25, aroundMax: 50 }, // WIRE
};

export const FIDE_K_FACTOR: KFactorPolicy = { mode: 'fide', provisionalGames: 30, masterThreshold: 2400 };

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> | T[K] : T[K] };

/** Merges overrides into the defaults; returns the problems found, each naming the field path. */
export function resolveRuleset(overrides: unknown, base: Ruleset = DEFAULT_RULESET): { ruleset: Ruleset; errors: string[] } {
  const errors: string[] = [];
  const merged = mergeInto(base, overrides, 'ruleset', errors) as Ruleset;
  if (errors.length === 0) errors.push(...checkRuleset(merged));
  return { ruleset: merged, errors };
}

function mergeInto(base: unknown, over: unknown, path: string, errors: string[]): unknown {
  if (over === undefined) return base;
  if (isPlainObject(base) && 'mode' in base && isPlainObject(over) && 'mode' in over) return over; // a policy is replaced whole
  if (isPlainObject(base)) {
    if (!isPlainObject(over)) {
      errors.push(`${path}: expected an object`);
      return base;
    }
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(over)) {
      if (!(key in base)) errors.push(`${path}.${key}: unknown rule`);
      else out[key] = mergeInto(base[key], value, `${path}.${key}`, errors);
    }
    return out;
  }
  if (typeof over !== typeof base) errors.push(`${path}: expected a ${typeof base}, got ${JSON.stringify(over)}`);
  return typeof over === typeof base ? over : base;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRuleset(r: Ruleset): string[] {
  const problems: string[] = [];
  const positiveInts: Array<[string, number]> = [
    ['elo.initial', r.elo.initial],
    ['game.turnLimitMs', r.game.turnLimitMs],
    ['game.moveLimitPlies', r.game.moveLimitPlies],
    ['challenges.maxOpenPerAgent', r.challenges.maxOpenPerAgent],
    ['challenges.expiryMs', r.challenges.expiryMs],
    ['api.requestsPerDay', r.api.requestsPerDay],
  ];
  for (const [name, value] of positiveInts) {
    if (!Number.isSafeInteger(value) || value <= 0) problems.push(`ruleset.${name}: must be a positive integer`);
  }
  const k = r.elo.kFactor;
  if (k.mode === 'fixed' && !(Number.isSafeInteger(k.k) && k.k > 0)) problems.push('ruleset.elo.kFactor.k: must be a positive integer');
  if (k.mode !== 'fixed' && k.mode !== 'fide') problems.push('ruleset.elo.kFactor.mode: must be "fixed" or "fide"');
  return problems;
}
