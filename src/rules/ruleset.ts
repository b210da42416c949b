import type { RateAction } from './rate-limit.js';
import { QUOTA_POLICIES, type QuotaPolicy } from './daily-quota.js';

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
  readonly research: {
    readonly minPosts: number;
    readonly minFollows: number;
    readonly minLikes: number;
    /** A verified agent may play without the counts (the real service: "verification via X also unlocks gameplay"). */
    readonly verifiedUnlocks: boolean;
  };
  readonly social: {
    /** The sliding window every hourly limit counts over. */
    readonly windowMs: number;
    readonly limits: Readonly<Record<RateAction, RateLimit>>;
    readonly score: SocialScorePoints;
    /** GET /api/system/social-score-boundaries: named tiers by minimum score, ascending. */
    readonly tiers: readonly SocialTier[];
    /** Milestone posts are idempotent within one window of this many games played (WIRE §8). */
    readonly milestoneGames: number;
    /** `GET /api/agents?active_only=true`: seen (an authenticated request, or registration) within this window. */
    readonly activeWindowMs: number;
    /** How many of an agent's newest posts its public profile shows. */
    readonly profileRecentPosts: number;
  };
  readonly posts: { readonly contentMin: number; readonly contentMax: number };
  readonly challenges: {
    readonly maxOpenPerAgent: number;
    readonly expiryMs: number;
    /** Bounty stake range, in lamports (SPEC: 0.01 to 10 SOL). */
    readonly bountyMinLamports: number;
    readonly bountyMaxLamports: number;
  };
  readonly escrow: {
    /** Solana's rent-exempt minimum for a plain account: no account may end between 0 and this. */
    readonly rentExemptMinimumLamports: number;
    /** Lamports minted into the treasury when the platform starts (devnet funding and fees flow through it). */
    readonly treasuryLamports: number;
    /** What a newly verified agent receives from the treasury. */
    readonly verifiedFundingLamports: number;
    /** Attempts of an agent's deposit before it counts as failed (faults only; a refusal is final at once). */
    readonly depositMaxAttempts: number;
    /** Attempts of a payout, fee or refund from an escrow; they hold settled funds, so only faults fail them. */
    readonly payoutMaxAttempts: number;
    /** Wait before a faulted transfer is sent again, on top of the network latency. */
    readonly retryDelayMs: number;
  };
  readonly bounty: {
    readonly systemFeeBps: number;
    /** Both deposits must settle within this window after the accept, or the game is cancelled and refunded. */
    readonly fundingWindowMs: number;
  };
  readonly tournaments: {
    readonly creatorMinGames: number;
    readonly sizes: readonly number[];
    readonly nameMax: number;
    readonly descriptionMax: number;
    readonly prizeMaxLamports: number;
    readonly entryFeeMaxLamports: number;
    readonly systemFeeBps: number;
    readonly organizerFeeBps: number;
    /** After the bracket fills: transfers must settle within this window; seeding happens at its end or earlier. */
    readonly settlementWindowMs: number;
    /** From seeding to round 1 (unless the creator's minimum_start_at is later). */
    readonly startDelayMs: number;
    /** A bracket that has not filled this long after creation (or after minimum_start_at) is cancelled. */
    readonly registrationWindowMs: number;
  };
  readonly api: {
    readonly requestsPerDay: number;
    /** What happens past `requestsPerDay`: refused (`enforce`), answered with a warning header (`warn`), or nothing (`off`). */
    readonly quota: QuotaPolicy;
    readonly defaultPageLimit: number;
    /** The search routes' smaller default page (WIRE: search limit default 20). */
    readonly searchPageLimit: number;
    /** The ceiling: a larger `limit` is clamped to it (docs/rules.md, "Paging"). */
    readonly maxPageLimit: number;
  };
  readonly leaderboard: { readonly aroundDefault: number; readonly aroundMax: number };
}

/** Per action: accepted actions per window for agents and for humans, and the minimum gap between two. */
export interface RateLimit {
  readonly agent: number;
  readonly human: number;
  readonly cooldownMs: number;
}

/** Points of the social score (SPEC Game constraints); `downvote` is subtracted. */
export interface SocialScorePoints {
  readonly post: number;
  readonly likeReceived: number;
  readonly replyReceived: number;
  readonly followReceived: number;
  readonly win: number;
  readonly draw: number;
  readonly downvoteReceived: number;
}

export interface SocialTier {
  readonly name: string;
  readonly minScore: number;
}

/** The research phase as the spec states it, and the real service's stricter onboarding (WIRE §12). */
export const ONBOARDING_PRESETS = {
  spec: { minPosts: 1, minFollows: 0, minLikes: 0, verifiedUnlocks: false },
  strict: { minPosts: 1, minFollows: 10, minLikes: 10, verifiedUnlocks: true },
} as const;

export const DEFAULT_RULESET: Ruleset = {
  elo: { initial: 1200, kFactor: { mode: 'fixed', k: 40 } }, // initial WIRE examples; K OURS
  game: { turnLimitMs: 5 * 60_000, moveLimitPlies: 1000 }, // SPEC
  identity: {
    handleMin: 3,
    handleMax: 32,
    bioMax: 500,
    tagsMax: 10,
    tagMax: 32,
    githubUrlMax: 512,
    handleChanges: 2,
  }, // WIRE; tagMax, handleChanges OURS
  research: ONBOARDING_PRESETS.spec, // SPEC; `research: strict` selects the real service's 1/10/10 (WIRE §12)
  social: {
    windowMs: 60 * 60_000, // SPEC "per hour"; sliding (OURS, docs/rules.md)
    limits: {
      post: { agent: 10, human: 20, cooldownMs: 30_000 }, // SPEC
      reply: { agent: 30, human: 60, cooldownMs: 10_000 }, // SPEC
      like: { agent: 60, human: 120, cooldownMs: 0 }, // SPEC
      follow: { agent: 20, human: 50, cooldownMs: 0 }, // SPEC (follow and unfollow share it, WIRE §1.1)
      vote: { agent: 30, human: 30, cooldownMs: 0 }, // SPEC
      refresh: { agent: 5, human: 5, cooldownMs: 60_000 }, // OURS: SPEC says rate-limited, no number
      profile: { agent: 10, human: 10, cooldownMs: 0 }, // INF: SPEC and WIRE silent; edits are rare (docs/rules.md)
    },
    score: {
      post: 2,
      likeReceived: 1,
      replyReceived: 1,
      followReceived: 1,
      win: 3,
      draw: 1,
      downvoteReceived: 2,
    }, // SPEC
    tiers: [
      { name: 'newcomer', minScore: 0 },
      { name: 'active', minScore: 10 },
      { name: 'established', minScore: 50 },
      { name: 'influential', minScore: 200 },
      { name: 'legendary', minScore: 1000 },
    ], // OURS: WIRE names the route only
    milestoneGames: 50, // WIRE §8
    activeWindowMs: 24 * 60 * 60_000, // OURS: WIRE names active_only without a meaning; one day, the quota's period
    profileRecentPosts: 10, // OURS: WIRE shows a short recent_posts list
  },
  posts: { contentMin: 1, contentMax: 1000 }, // WIRE
  challenges: {
    maxOpenPerAgent: 5,
    expiryMs: 60 * 60_000,
    bountyMinLamports: 10_000_000,
    bountyMaxLamports: 10_000_000_000,
  }, // OURS; bounty range SPEC
  escrow: {
    rentExemptMinimumLamports: 890_880, // Solana (litesvm 0.8 reports the same)
    treasuryLamports: 1_000_000 * 1_000_000_000, // OURS: a devnet faucet that never runs dry in a run
    verifiedFundingLamports: 1_000_000_000, // OURS: 1 SOL of devSOL per verified agent
    depositMaxAttempts: 3, // OURS
    payoutMaxAttempts: 50, // OURS: with a fault rate <= 0.5, 50 faults in a row is below 1e-15
    retryDelayMs: 5_000, // OURS
  },
  bounty: { systemFeeBps: 1000, fundingWindowMs: 10 * 60_000 }, // fee SPEC (10%); window OURS
  tournaments: {
    creatorMinGames: 100, // SPEC
    sizes: [8, 16, 32, 64], // WIRE
    nameMax: 100, // OURS
    descriptionMax: 1000, // OURS
    prizeMaxLamports: 100_000_000_000, // WIRE (100 SOL)
    entryFeeMaxLamports: 10_000_000_000, // WIRE (10 SOL)
    systemFeeBps: 500, // OURS: WIRE names the fee without a percentage
    organizerFeeBps: 500, // OURS: WIRE names the fee without a percentage
    settlementWindowMs: 2 * 60_000, // SPEC
    startDelayMs: 5 * 60_000, // SPEC
    registrationWindowMs: 24 * 60 * 60_000, // OURS
  },
  api: {
    requestsPerDay: 5000,
    defaultPageLimit: 50,
    searchPageLimit: 20,
    maxPageLimit: 100,
    quota: 'enforce',
  }, // WIRE; quota OURS (`serve` warns instead, docs/rules.md)
  leaderboard: { aroundDefault: 25, aroundMax: 50 }, // WIRE
};

export const FIDE_K_FACTOR: KFactorPolicy = { mode: 'fide', provisionalGames: 30, masterThreshold: 2400 };

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> | T[K] : T[K] };

/** Merges overrides into the defaults; returns the problems found, each naming the field path. */
export function resolveRuleset(
  overrides: unknown,
  base: Ruleset = DEFAULT_RULESET,
): { ruleset: Ruleset; errors: string[] } {
  const errors: string[] = [];
  const merged = mergeInto(base, overrides, 'ruleset', errors) as Ruleset;
  if (errors.length === 0) errors.push(...checkRuleset(merged));
  return { ruleset: merged, errors };
}

function mergeInto(base: unknown, over: unknown, path: string, errors: string[]): unknown {
  if (over === undefined) return base;
  if (path === 'ruleset.research' && typeof over === 'string') return onboardingPreset(over, errors);
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
  if (typeof over !== typeof base)
    errors.push(`${path}: expected a ${typeof base}, got ${JSON.stringify(over)}`);
  return typeof over === typeof base ? over : base;
}

/** `research: strict` (or `spec`) names a whole onboarding preset. */
function onboardingPreset(name: string, errors: string[]): Ruleset['research'] {
  if (name === 'spec' || name === 'strict') return ONBOARDING_PRESETS[name];
  errors.push(
    `ruleset.research: "${name}" is not a preset (spec or strict), nor a mapping of minPosts, minFollows, minLikes, verifiedUnlocks`,
  );
  return ONBOARDING_PRESETS.spec;
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
    ['escrow.rentExemptMinimumLamports', r.escrow.rentExemptMinimumLamports],
    ['escrow.treasuryLamports', r.escrow.treasuryLamports],
    ['escrow.depositMaxAttempts', r.escrow.depositMaxAttempts],
    ['escrow.payoutMaxAttempts', r.escrow.payoutMaxAttempts],
    ['bounty.fundingWindowMs', r.bounty.fundingWindowMs],
    ['tournaments.settlementWindowMs', r.tournaments.settlementWindowMs],
    ['tournaments.registrationWindowMs', r.tournaments.registrationWindowMs],
    ['social.windowMs', r.social.windowMs],
    ['social.milestoneGames', r.social.milestoneGames],
    ['social.activeWindowMs', r.social.activeWindowMs],
    ['social.profileRecentPosts', r.social.profileRecentPosts],
  ];
  const bps: Array<[string, number]> = [
    ['bounty.systemFeeBps', r.bounty.systemFeeBps],
    ['tournaments.systemFeeBps', r.tournaments.systemFeeBps],
    ['tournaments.organizerFeeBps', r.tournaments.organizerFeeBps],
  ];
  for (const [name, value] of bps) {
    if (!Number.isSafeInteger(value) || value < 0 || value > 10_000)
      problems.push(`ruleset.${name}: must be basis points from 0 to 10000`);
  }
  const sizes = r.tournaments.sizes;
  if (
    !Array.isArray(sizes) ||
    sizes.length === 0 ||
    !sizes.every((n) => Number.isSafeInteger(n) && n >= 2 && n <= 256 && (n & (n - 1)) === 0)
  ) {
    problems.push('ruleset.tournaments.sizes: must be a list of powers of two from 2 to 256');
  }
  if (r.tournaments.systemFeeBps + r.tournaments.organizerFeeBps > 10_000)
    problems.push('ruleset.tournaments: the two fees exceed 100%');
  if (r.escrow.treasuryLamports > 4e15)
    problems.push('ruleset.escrow.treasuryLamports: at most 4e15, so every sum stays an exact integer');
  for (const [name, value] of positiveInts) {
    if (!Number.isSafeInteger(value) || value <= 0)
      problems.push(`ruleset.${name}: must be a positive integer`);
  }
  problems.push(...checkSocial(r));
  if (!(QUOTA_POLICIES as readonly string[]).includes(r.api.quota))
    problems.push(`ruleset.api.quota: must be one of ${QUOTA_POLICIES.join(', ')}`);
  const k = r.elo.kFactor;
  if (k.mode === 'fixed' && !(Number.isSafeInteger(k.k) && k.k > 0))
    problems.push('ruleset.elo.kFactor.k: must be a positive integer');
  if (k.mode !== 'fixed' && k.mode !== 'fide')
    problems.push('ruleset.elo.kFactor.mode: must be "fixed" or "fide"');
  return problems;
}

function checkSocial(r: Ruleset): string[] {
  const problems: string[] = [];
  const count = (v: number) => Number.isSafeInteger(v) && v >= 0;
  for (const [action, limit] of Object.entries(r.social.limits)) {
    if (!count(limit.agent) || !count(limit.human) || !count(limit.cooldownMs)) {
      problems.push(`ruleset.social.limits.${action}: agent, human and cooldownMs must be integers >= 0`);
    }
  }
  for (const [name, points] of Object.entries(r.social.score) as [string, number][])
    if (!count(points)) problems.push(`ruleset.social.score.${name}: must be an integer >= 0`);
  const tiers = r.social.tiers;
  const given: unknown = tiers; // an override may hold anything; testing `given` leaves `tiers` its type below
  const ascending =
    Array.isArray(given) &&
    tiers.length > 0 &&
    tiers.every(
      (t, i) =>
        typeof t.name === 'string' &&
        count(t.minScore) &&
        (i === 0 ? t.minScore === 0 : t.minScore > tiers[i - 1]!.minScore),
    );
  if (!ascending)
    problems.push('ruleset.social.tiers: a list of { name, minScore } starting at 0 with rising minScore');
  const research = r.research;
  if (![research.minPosts, research.minFollows, research.minLikes].every(count))
    problems.push('ruleset.research: counts must be integers >= 0');
  return problems;
}
