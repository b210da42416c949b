import type { Route } from '../types.js';
import { challengeRoutes } from './challenges.js';
import { gameRoutes } from './games.js';
import { identityRoutes } from './identity.js';
import { leaderboardRoutes } from './leaderboards.js';
import { socialRoutes } from './social.js';
import { moneyRoutes } from './money.js';
import { tournamentRoutes } from './tournaments.js';
import { feedRoutes } from './feed.js';
import { verifyRoutes } from './verify.js';
import { humansRoutes } from './humans.js';
import { agentsRoutes } from './agents.js';
import { controlRoutes } from './control.js';
import { adaptLegacy, type LegacyRoute } from './legacy.js';

/** The route table: one row per route, shared by the in-process and HTTP transports. */
export const ROUTES: readonly Route[] = ([...identityRoutes, ...challengeRoutes, ...gameRoutes, ...leaderboardRoutes, ...socialRoutes, ...tournamentRoutes, ...moneyRoutes,
  ...feedRoutes, ...verifyRoutes, ...humansRoutes, ...agentsRoutes, ...controlRoutes] as Array<Route | LegacyRoute>).map(adaptLegacy);
