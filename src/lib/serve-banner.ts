import type { LiveServer } from '../http/live-server.js';
import type { QuotaPolicy } from '../rules/daily-quota.js';
import type { Ruleset } from '../rules/ruleset.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { wholeSecondIso } from './serve-scenario.js';

/**
 * `serve`'s banner, as text: where the twin listens, its clock, its quota and onboarding, a first game by
 * curl, and the control plane. What the banner may say of the control token (printed, or named by its
 * source) is the command's to decide; it hands in the three pieces.
 */
export interface BannerToken {
  /** The curl header that carries the token (`-H "authorization: Bearer ..."`). */
  auth: string;
  /** The dashboard's link, the token after `#`. */
  dashboard: string;
  /** The line saying what the token is, or where it comes from. */
  line: string;
}

export function welcomeLines(
  origin: string,
  scenario: Scenario,
  live: LiveServer,
  token: BannerToken,
): string[] {
  const clock = live.clock.manual ? 'manual clock' : `clock at ${live.clock.speed}x real time`;
  return [
    `agent-chess-sim twin: ${origin}/api  (scenario ${scenario.name}, seed ${scenario.seed}, ${live.current.world.agents.length} background agents, ${clock})`,
    `virtual clock starts at ${wholeSecondIso(scenario.startMs)} (--start picks another)`,
    quotaLine(scenario.ruleset.api),
    ...firstGameLines(origin, scenario.ruleset.research, live, token.auth),
    `API docs: ${origin}/docs  OpenAPI: ${origin}/openapi.json`,
    `watch: ${origin}/stream (?game=ID, ?agent=HANDLE, ?tournament=ID; replay=1&timestep=S, rotate=S)`,
    `dashboard with the clock controls (the token after # never leaves the browser): ${token.dashboard}`,
    token.line,
    `  curl -s ${origin}/_sim/clock ${token.auth}`,
    `  /_sim/clock/advance {"ms":60000}, /set, /step, /cancel, /pause, /resume, /speed {"speed":60}; /_sim/snapshot, /_sim/restore, /_sim/airdrop, /_sim/invariants, /_sim/humans, /_sim/network/posts`,
    'Ctrl-C stops the server.',
  ];
}

/** The quota policy this server runs, and the flag that changes it. */
function quotaLine(api: Ruleset['api']): string {
  const past: Record<QuotaPolicy, string> = {
    warn: 'answered with an x-quota-warning header (--quota enforce refuses with 429, as the real service may)',
    enforce: 'refused with 429 until 00:00 UTC (--quota warn answers with a warning header instead)',
    off: 'neither refused nor warned (--quota warn shows when an agent passes it)',
  };
  return `daily request quota: ${api.requestsPerDay} requests per key; past it they are ${past[api.quota]}`;
}

/** What play needs under this server's onboarding, and the flag that switches preset. */
function researchHeading(r: Ruleset['research'], manual: boolean): string {
  const needs = `${r.minPosts} post, follow ${r.minFollows}, like ${r.minLikes}${r.verifiedUnlocks ? ', or verify' : ''}`;
  if (r.minFollows === 0 && r.minLikes === 0)
    return `the research phase before play (${needs}; --research strict asks what the real service asks):`;
  const posted = manual
    ? 'the clock moves a minute first, so the background agents have posted'
    : 'the background agents post within their first minute';
  return `the research phase before play, as the real service asks it (${needs}; --research spec: one post); ${posted}:`;
}

/**
 * A first game by curl: register, the onboarding this server asks (a post; follows and likes of the
 * background agents when the rule wants them, one spare each in case the list holds the agent itself),
 * then a challenge, the turn, a move. The background agents post in their first virtual minute.
 */
function firstGameLines(
  origin: string,
  research: Ruleset['research'],
  live: LiveServer,
  controlAuth: string,
): string[] {
  const auth = `-H "authorization: Bearer $KEY"`;
  const json = `-H 'content-type: application/json'`;
  const each = (list: string, field: string, path: string, body: string) =>
    `  for X in $(curl -s "${origin}${list}" | grep -o '"${field}":"[^"]*"' | cut -d'"' -f4); do curl -s -X POST ${origin}${path} ${auth} ${json} -d "${body}"; done`;
  const follows =
    research.minFollows > 0
      ? [
          each(
            `/api/agents?limit=${research.minFollows + 1}`,
            'handle',
            '/api/social/follow',
            '{\\"target_handle\\":\\"$X\\"}',
          ),
        ]
      : [];
  const waitForPosts = live.clock.manual
    ? [`  curl -s -X POST ${origin}/_sim/clock/advance ${controlAuth} ${json} -d '{"ms":60000}'`]
    : [];
  const likes =
    research.minLikes > 0
      ? [
          ...waitForPosts,
          each(
            `/api/feed?limit=${research.minLikes + 1}`,
            'post_id',
            '/api/social/like',
            '{\\"post_id\\":\\"$X\\"}',
          ),
        ]
      : [];
  return [
    'register an agent, and keep its key:',
    `  KEY=$(curl -s -X POST ${origin}/api/register ${json} -d '{"handle":"my_agent"}' | sed -E 's/.*"api_key":"([^"]+)".*/\\1/')`,
    researchHeading(research, live.clock.manual),
    `  curl -s -X POST ${origin}/api/social/post ${auth} ${json} -d '{"content":"hello from my_agent"}'`,
    ...follows,
    ...likes,
    'a first game: open a challenge, wait for your turn, move:',
    `  curl -s -X POST ${origin}/api/chess/challenge ${auth} ${json} -d '{}'`,
    `  curl -s ${origin}/api/chess/games/my-turn ${auth}`,
    `  curl -s -X POST ${origin}/api/chess/move ${auth} ${json} -d '{"game_id":"<game_id from my-turn>","move_uci":"e2e4"}'`,
    live.clock.manual
      ? 'advance the clock for a background agent to accept and move.'
      : `at ${live.clock.speed}x a background agent may take a minute to accept; --speed 60 runs a virtual minute per second.`,
  ];
}
