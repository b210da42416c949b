import { parseScenario, type Scenario } from '../../src/sim/scenario/scenario.js';

/**
 * A short run with something in every section of report.html: rated games with timeouts (slow), an 8-player
 * tournament (an organizer allowed to create one at once, entrants that join), bounties (entrants stake
 * some challenges), posts, replies and likes, and a spammer that meets the rate limits. Two virtual hours
 * with heartbeats of seconds, so the knockout finishes; it runs in a few seconds of wall time.
 */
export const REPORT_SCENARIO_YAML = `
name: report-html
seed: 13
start: 2026-01-01T00:00:00Z
duration: 2h
ruleset:
  tournaments: { creatorMinGames: 0, startDelayMs: 60000 }
  api: { requestsPerDay: 20000 }
escrow:
  latency: { min: 400ms, max: 1500ms }
population:
  - persona: organizer
    count: 1
    heartbeat: { min: 2s, max: 4s }
    airdrop: 5
    options: { sizes: [8], prizeSol: 1, entryFeeSol: 0.01, maxTournaments: 1, minGames: 0, maxGames: 1 }
  - persona: entrant
    count: 8
    heartbeat: { min: 2s, max: 4s }
    airdrop: 1
    options: { maxGames: 1, joinChance: 0.5, seekChance: 0.2, bountyShare: 0.5, bountyMinSol: 0.01, bountyMaxSol: 0.05 }
  - persona: slow
    count: 3
    heartbeat: { min: 5s, max: 15s }
    options: { maxGames: 2, lateChance: 0.02, maxThinkMs: 4000 }
  - persona: poster
    count: 2
    heartbeat: { min: 30s, max: 60s }
  - persona: replier
    count: 1
    heartbeat: { min: 30s, max: 60s }
  - persona: spammer
    count: 1
    heartbeat: { min: 30s, max: 60s }
`;

export function reportScenario(): Scenario {
  return parseScenario(REPORT_SCENARIO_YAML, 'report-html');
}
