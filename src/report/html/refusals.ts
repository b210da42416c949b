import type { Platform } from '../../platform/platform.js';
import type { World } from '../../sim/world.js';

/**
 * When each 429 happened. A refused request changes no state and emits no platform event, so nothing
 * after the run can tell when the rate limits bit: the time has to be taken as the answer goes out. This
 * watcher wraps the world's route table (the in-process transport calls `api.handle` for every request)
 * and notes the virtual time and the limit the body names, as `CountingTransport` counts them. It changes
 * no answer and draws no random number, so a watched run has the same fingerprint as an unwatched one.
 *
 * A run that was not watched still gets the 429 totals by limit (report.json has them), just not over time.
 */
export interface RefusalLog {
  readonly entries: Array<{ atMs: number; action: string }>;
}

const LOGS = new WeakMap<Platform, RefusalLog>();

/** Call before `world.run()`. The log is also found later by the world's platform (see `refusalLogOf`). */
export function watchRefusals(world: World): RefusalLog {
  const existing = LOGS.get(world.platform);
  if (existing) return existing;
  const log: RefusalLog = { entries: [] };
  const api = world.api;
  const handle = api.handle.bind(api);
  api.handle = (request, as) => {
    const response = handle(request, as);
    if (response.status === 429) log.entries.push({ atMs: world.platform.nowMs, action: limitName(response.body) });
    return response;
  };
  LOGS.set(world.platform, log);
  return log;
}

export function refusalLogOf(platform: Platform): RefusalLog | undefined {
  return LOGS.get(platform);
}

function limitName(body: unknown): string {
  return String((body as { action?: unknown } | null)?.action ?? 'unknown');
}
