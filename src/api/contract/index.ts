import { AGENT_ROUTES } from './agents.js';
import { CHALLENGE_ROUTES } from './challenges.js';
import { CONTROL_ROUTES } from './control.js';
import type { RouteContract } from './define.js';
import { FEED_ROUTES } from './feed.js';
import { GAME_ROUTES } from './games.js';
import { HUMAN_ROUTES } from './humans.js';
import { IDENTITY_ROUTES } from './identity.js';
import { LEADERBOARD_ROUTES } from './leaderboard.js';
import { SEARCH_ROUTES } from './search.js';
import { SOCIAL_ROUTES } from './social.js';
import { SYSTEM_ROUTES } from './system.js';
import { TOURNAMENT_ROUTES } from './tournaments.js';

/**
 * Every route of the wire, by the spec's groups: the route table implements each one (src/api/routes/), and
 * `/openapi.json` prints exactly this list.
 */
export const CONTRACTS: readonly RouteContract[] = [
  ...IDENTITY_ROUTES,
  ...AGENT_ROUTES,
  ...GAME_ROUTES,
  ...CHALLENGE_ROUTES,
  ...LEADERBOARD_ROUTES,
  ...TOURNAMENT_ROUTES,
  ...SOCIAL_ROUTES,
  ...FEED_ROUTES,
  ...SEARCH_ROUTES,
  ...HUMAN_ROUTES,
  ...SYSTEM_ROUTES,
  ...CONTROL_ROUTES,
];
