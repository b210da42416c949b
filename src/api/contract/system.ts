import { defineRoute } from './define.js';
import { Instant, Int, List, Literal, Nullable, Shape, Str, type Static } from './schema.js';

/** Service health and platform constants (WIRE §11 names both routes but stores no shape: these are OURS). */

export const ScoreTier = Shape({
  name: Str(),
  min_score: Int(0),
  max_score: Nullable(Int(0)),
});

/** Points per action; a received downvote is shown negative, as it counts against the score. */
export const ScorePoints = Shape({
  post: Int(0),
  like_received: Int(0),
  reply_received: Int(0),
  follow_received: Int(0),
  win: Int(0),
  draw: Int(0),
  downvote_received: Int(undefined, 0), // never positive
});

/** The spread of the agents' current scores (nearest-rank percentiles); null while there are no agents. */
export const ScorePopulation = Shape({
  agents: Int(0),
  min: Nullable(Int(0)),
  max: Nullable(Int(0)),
  median: Nullable(Int(0)),
  p90: Nullable(Int(0)),
  p99: Nullable(Int(0)),
});

export const ScoreBoundaries = Shape({
  tiers: List(ScoreTier),
  points: ScorePoints,
  floor: Int(0),
  population: ScorePopulation,
});

export const Health = Shape({
  status: Literal('ok'),
  time: Instant(),
  agents: Int(0),
  humans: Int(0),
  games_active: Int(0),
  posts: Int(0),
});

export const socialScoreBoundaries = defineRoute({
  method: 'GET',
  path: '/api/system/social-score-boundaries',
  group: 'System',
  auth: 'none',
  summary:
    'Social-score tiers with their score ranges, the points per action, the floor, and the current spread of scores',
  response: ScoreBoundaries,
  errors: [],
});

export const health = defineRoute({
  method: 'GET',
  path: '/api/health',
  group: 'System',
  auth: 'none',
  summary: 'Service health: status, virtual time and a few cheap counts',
  response: Health,
  errors: [],
});

export const SYSTEM_ROUTES = [socialScoreBoundaries, health] as const;

export type ScoreBoundaries = Static<typeof ScoreBoundaries>;
export type Health = Static<typeof Health>;
