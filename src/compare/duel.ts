import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { DEFAULT_RULESET } from '../rules/ruleset.js';
import type { GameResult } from '../rules/chess/game.js';
import type { SeedResult } from '../sweep/seed-result.js';
import { packageRoot } from '../sweep/version.js';
import type { PlayerSpec } from './players.js';

/**
 * One game of `compare --agent` is one short world: the White player and the Black player, each wrapped
 * by the duel harness (src/compare/duel-agent.ts), White challenging Black directly at its first
 * heartbeat. Worlds are scenarios run by the sweep's own seed runner, so a duel on the pool is exactly a
 * `run` of its scenario text, and its result is read from the report's headline metrics.
 *
 * Decisions (docs/rules.md, Simulation):
 * - Heartbeats every 30-60 s, as the platform's skill tells agents to poll (as `run --agent`).
 * - The world lasts the move limit times the turn limit plus an hour (84 h under the default rules): each
 *   ply happens within the turn limit or the game ends on time, so every duel game ends inside the world.
 *   After the game the harness sends nothing, so the idle hours cost only empty heartbeats.
 * - The daily request quota is lifted (as in scenarios/smoke.yaml): a duel measures play, not throttling.
 * - Group 0 is always White, so the handles are duel_0001 (White) and duel_0002 (Black) and, within a
 *   pair, each player draws in its White game from the stream the other drew from in its own.
 */
export const DUEL_HANDLES = { white: 'duel_0001', black: 'duel_0002' } as const;
const HEARTBEAT = { min: '30s', max: '60s' };
const ARRANGE_MS = 60 * 60_000;
const DUEL_DURATION_MS = DEFAULT_RULESET.game.moveLimitPlies * DEFAULT_RULESET.game.turnLimitMs + ARRANGE_MS;
const QUOTA_LIFTED = 100_000;
/** The source name of a duel scenario, in its errors (its module paths are absolute). */
export const DUEL_SOURCE = 'compare-duel.yaml';

/** The duel scenario in which `white` challenges `black`; the seed is the task's. */
export function duelScenarioText(white: PlayerSpec, black: PlayerSpec): string {
  const raw = {
    name: `duel ${white.name} (white) vs ${black.name} (black)`,
    seed: 1,
    start: '2026-01-01T00:00:00Z',
    duration: `${DUEL_DURATION_MS / 60_000}m`,
    ruleset: { api: { requestsPerDay: QUOTA_LIFTED } },
    population: [duelGroup(white, 'white'), duelGroup(black, 'black')],
  };
  return stringify(raw);
}

function duelGroup(player: PlayerSpec, colour: 'white' | 'black'): Record<string, unknown> {
  const wrapped = player.module !== undefined ? { module: player.module } : { persona: player.persona };
  const opponent = colour === 'white' ? DUEL_HANDLES.black : DUEL_HANDLES.white;
  const options = { ...wrapped, ...(player.options ? { options: player.options } : {}), colour, opponent };
  return { module: duelModuleFile(), count: 1, heartbeat: HEARTBEAT, options };
}

/**
 * The compiled harness module. Worlds on the pool's threads load plain JavaScript, so under vitest (this
 * module is then the .ts source) the scenario still names the build in dist/, as the pool's worker does.
 */
export function duelModuleFile(): string {
  if (import.meta.url.endsWith('.js')) return fileURLToPath(new URL('./duel-agent.js', import.meta.url));
  const built = join(packageRoot(), 'dist', 'src', 'compare', 'duel-agent.js');
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  return built;
}

/** One duel's game: its result (White's view, as PGN writes it) and how it ended. */
export interface DuelGame {
  result: GameResult;
  ending: string;
}

/** The duel's game from its seed result, or why there is none (the world crashed or timed out, or no game finished). */
export function duelGame(result: SeedResult): DuelGame | string {
  const m = result.metrics;
  if (m === null) return `${result.status.replace('_', ' ')}: ${result.error ?? 'no detail'}`;
  if (m['games_started'] !== 1)
    return `the duel game never started (${m['games_started'] ?? 0} games started)`;
  if (m['games_completed'] !== 1) return 'the duel game did not finish inside the world';
  const ending =
    Object.keys(m)
      .find((key) => key.startsWith('ending_') && m[key] === 1)
      ?.slice('ending_'.length) ?? 'unknown';
  if (m['white_wins'] === 1) return { result: '1-0', ending };
  if (m['black_wins'] === 1) return { result: '0-1', ending };
  return { result: '1/2-1/2', ending };
}

/** A game's score for the player who had `colour`. */
export function scoreFor(game: DuelGame, colour: 'white' | 'black'): number {
  if (game.result === '1/2-1/2') return 0.5;
  return (game.result === '1-0') === (colour === 'white') ? 1 : 0;
}
