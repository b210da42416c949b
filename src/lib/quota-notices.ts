import type { ApiRequest } from '../api/types.js';
import type { LiveServer } from '../http/live-server.js';
import type { RequestHandler } from '../http/server.js';
import { toIso } from '../kernel/clock.js';
import { QUOTA_WARNING_HEADER } from '../rules/daily-quota.js';
import { DAY_MS } from '../rules/rate-limit.js';
import type { LiveWorld } from '../sim/live.js';

/**
 * The live server as the HTTP layer sees it, plus one console line per agent and virtual UTC day the first
 * time that agent is answered past the daily quota under `warn` (the answer's warning header says so).
 */
export function withQuotaNotices(live: LiveServer, write: (line: string) => void): RequestHandler {
  const noticed = new Set<string>();
  return {
    handle: async (request: ApiRequest) => {
      const response = await live.handle(request);
      if (response.headers?.[QUOTA_WARNING_HEADER] !== undefined)
        noticeQuota(live.current, request, noticed, write);
      return response;
    },
  };
}

function noticeQuota(
  world: LiveWorld,
  request: ApiRequest,
  noticed: Set<string>,
  write: (line: string) => void,
): void {
  const actor = world.world.api.actorOf(request);
  if (!actor) return;
  const day = toIso(Math.floor(world.nowMs / DAY_MS) * DAY_MS).slice(0, 10);
  const key = `${actor.id} ${day}`;
  if (noticed.has(key)) return;
  noticed.add(key);
  const limit = world.scenario.ruleset.api.requestsPerDay;
  write(
    `quota: ${actor.kind} ${actor.handle} passed the daily request quota of ${limit} on ${day} (virtual UTC day); served anyway (quota policy warn), the real service may refuse with 429 until 00:00 UTC`,
  );
}
