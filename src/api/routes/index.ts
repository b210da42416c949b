import type { Route } from '../types.js';
import { gameRoutes } from './games.js';
import { challengeRoutes } from './old/challenges.js';
import { identityRoutes } from './old/identity.js';
import { leaderboardRoutes } from './old/leaderboards.js';
import { socialRoutes } from './old/social.js';
import { moneyRoutes } from './old/money.js';
import { tournamentRoutes } from './old/tournaments.js';
import { feedRoutes } from './old/feed.js';
import { verifyRoutes } from './old/verify.js';
import { humansRoutes } from './old/humans.js';
import { agentsRoutes } from './old/agents.js';
import { controlRoutes } from './old/control.js';
import { adaptLegacy, type LegacyRoute } from './legacy.js';

/** The route table: one row per route, shared by the in-process and HTTP transports. */
export const ROUTES: readonly Route[] = (
  [
    // converted groups (src/api/contract/<group>.ts + src/api/routes/<group>.ts), one line each:
    ...gameRoutes,
    // legacy rows awaiting conversion:
    ...identityRoutes,
    ...challengeRoutes,
    ...leaderboardRoutes,
    ...socialRoutes,
    ...tournamentRoutes,
    ...moneyRoutes,
    ...feedRoutes,
    ...verifyRoutes,
    ...humansRoutes,
    ...agentsRoutes,
    ...controlRoutes,
  ] as Array<Route | LegacyRoute>
).map(adaptLegacy);
