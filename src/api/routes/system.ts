import { healthCounts, scoreBoundaries } from '../../platform/identity/agents.js';
import * as C from '../contract/system.js';
import { boundariesView, healthView } from '../profile-views.js';
import { implement, type Route } from '../types.js';

/** Service health and platform constants (WIRE §11). Both are public reads. */
export const systemRoutes: Route[] = [
  implement(C.socialScoreBoundaries, ({ platform }) => boundariesView(scoreBoundaries(platform))),
  implement(C.health, ({ platform }) => healthView(platform, healthCounts(platform))),
];
