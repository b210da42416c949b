import type { LiveRoute, Route } from '../types.js';
import { agentsRoutes } from './agents.js';
import { challengeRoutes } from './challenges.js';
import { controlRoutes, liveControlRoutes } from './control.js';
import { feedRoutes } from './feed.js';
import { gameRoutes } from './games.js';
import { humansRoutes } from './humans.js';
import { identityRoutes } from './identity.js';
import { leaderboardRoutes } from './leaderboard.js';
import { searchRoutes } from './search.js';
import { socialRoutes } from './social.js';
import { systemRoutes } from './system.js';
import { tournamentRoutes } from './tournaments.js';

/**
 * The route table: one handler per contract of src/api/contract/, by the spec's groups, shared by the
 * in-process and HTTP transports. The rows that drive a live world are LIVE_ROUTES, below.
 */
export const ROUTES: readonly Route[] = [
  ...identityRoutes,
  ...agentsRoutes,
  ...gameRoutes,
  ...challengeRoutes,
  ...leaderboardRoutes,
  ...tournamentRoutes,
  ...socialRoutes,
  ...feedRoutes,
  ...searchRoutes,
  ...humansRoutes,
  ...systemRoutes,
  ...controlRoutes,
];

/** The control rows only a live world (`serve`) answers: its clock, snapshot, restore, faucet, invariants. */
export const LIVE_ROUTES: readonly LiveRoute[] = liveControlRoutes;
