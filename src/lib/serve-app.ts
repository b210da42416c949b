import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { FaultProfile } from '../faults/profile.js';
import { LiveServer, type SessionReportWriter } from '../http/live-server.js';
import { buildServer } from '../http/server.js';
import type { LiveWorld } from '../sim/live.js';
import type { ScenarioWithSource } from '../sim/scenario/scenario.js';
import { liveViewPages } from './live-view/pages.js';
import { withQuotaNotices } from './quota-notices.js';

/**
 * `serve`'s server as a library: the live world behind its `/_sim` controls (LiveServer), the HTTP server
 * with its guards, the live view's pages and the quota notices. The command owns what it may not hand
 * down: the wall clock, the port, the console and the signals.
 */
export interface ServeAppOptions {
  /** The scenario and its source record, as the live world runs it (a snapshot carries them). */
  own: ScenarioWithSource;
  faults?: FaultProfile;
  sessionReport?: SessionReportWriter;
  clock: { manual: boolean; speed: number };
  /** The wall clock the server paces its slices and answer turns by (the caller's: nothing below the CLI reads it). */
  wallClockMs: () => number;
  guard: { controlToken: string; host: string; allowHost: readonly string[]; allowOrigin: readonly string[] };
  log: boolean;
  /** A console line: an agent passed the daily quota under `warn`. */
  onQuotaLine: (line: string) => void;
}

export function serveApp(
  world: LiveWorld,
  options: ServeAppOptions,
): { live: LiveServer; app: FastifyInstance } {
  const live = new LiveServer(world, {
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.sessionReport ? { sessionReport: options.sessionReport } : {}),
    clock: options.clock,
    realTime: true, // the caller's clock drives it whenever it is not manual (paused)
    own: options.own,
    wallClockMs: options.wallClockMs,
  });
  const { controlToken, host, allowHost, allowOrigin } = options.guard;
  const guard = {
    controlToken,
    allowedHosts: [host, ...allowHost, ...wildcardHosts(host)],
    allowedOrigins: [...allowOrigin],
  };
  const app = buildServer(withQuotaNotices(live, options.onQuotaLine), {
    logger: options.log,
    guard,
    virtualNowMs: () => live.current.nowMs,
    largeBodies: live.largeBodies(),
    faults: live.httpFaults,
    pages: liveViewPages(),
    wallClockMs: options.wallClockMs,
  });
  return { live, app };
}

/** A wildcard bind answers on every interface: the machine's own addresses are then names of this server. */
function wildcardHosts(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [];
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The host as a URL writes it (an IPv6 address in brackets). */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
