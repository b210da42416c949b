import { DEFAULT_RULESET } from '../rules/ruleset.js';
import type { EndReason, GameResult } from '../rules/chess/game.js';
import type { Platform } from '../platform/platform.js';
import { parseScenario, type PopulationGroup, type Scenario } from '../sim/scenario/scenario.js';
import { runScenario } from '../sim/world.js';
import { buildReport } from '../report/report.js';
import { gamesToPgn, type PgnLabels } from '../report/pgn.js';
import { completedSeed, errorMessage, unfinishedSeed, type SeedResult } from '../sweep/seed-result.js';
import { duelFactory, type DuelOptions } from './duel-agent.js';
import type { PlayerSpec } from './players.js';

/**
 * One game of `compare --agent` is one short world: the White player and the Black player, each wrapped
 * by the duel harness (src/compare/duel-agent.ts, an agent kind the world is handed in code), White
 * challenging Black directly at its first heartbeat. A duel is a task for the pool's threads (plain data:
 * the players and the seed); the thread builds the world, runs it and answers with the game it played,
 * read from the platform's game record.
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
/** The source name of a duel scenario, in its errors. */
export const DUEL_SOURCE = 'compare-duel';

/** One duel world for a thread of the pool: the players, the seed, and how its game is labelled in PGN. */
export interface DuelTask {
  seed: number;
  white: PlayerSpec;
  black: PlayerSpec;
  pgn: { event: string } & PgnLabels;
}

/** One duel's game: its result (White's view, as PGN writes it) and how it ended. */
export interface DuelGame {
  result: GameResult;
  ending: EndReason;
}

/** What a duel world played, read from its platform's games when the world ended. */
export interface DuelPlay {
  gamesStarted: number;
  /** The game, when exactly one started and it finished. */
  game: DuelGame | null;
}

/** A duel world's seed result (status, fingerprint, invariants), with its play and its game as PGN when it ended. */
export interface DuelResult extends SeedResult {
  play?: DuelPlay;
  pgn?: string;
}

/** The duel world in which `white` challenges `black`, from `seed`. */
export function duelScenario(white: PlayerSpec, black: PlayerSpec, seed: number): Scenario {
  const raw = {
    name: `duel ${white.name} (white) vs ${black.name} (black)`,
    seed: 1,
    start: '2026-01-01T00:00:00Z',
    duration: `${DUEL_DURATION_MS / 60_000}m`,
    ruleset: { api: { requestsPerDay: QUOTA_LIFTED } },
    // Two groups of one, checked (count, heartbeat) as any scenario's; their agent kind is then the harness.
    population: [0, 1].map(() => ({ persona: 'random', count: 1, heartbeat: HEARTBEAT })),
  };
  const scenario = parseScenario(JSON.stringify(raw), DUEL_SOURCE, String(seed));
  const [whiteGroup, blackGroup] = scenario.population;
  scenario.population = [
    duelGroup(whiteGroup!, white, 'white', DUEL_HANDLES.black),
    duelGroup(blackGroup!, black, 'black', DUEL_HANDLES.white),
  ];
  return scenario;
}

function duelGroup(
  group: PopulationGroup,
  player: PlayerSpec,
  colour: DuelOptions['colour'],
  opponent: string,
): PopulationGroup {
  const wrapped = player.module !== undefined ? { module: player.module } : { persona: player.persona! };
  const options: DuelOptions = {
    ...wrapped,
    ...(player.options ? { options: player.options } : {}),
    colour,
    opponent,
  };
  return { ...group, persona: duelFactory.name, harness: duelFactory, options: { ...options } };
}

/** Runs one duel world (a thread of the pool runs this): a throw is the duel's crash, never the match's. */
export async function runDuel(task: DuelTask): Promise<DuelResult> {
  try {
    const scenario = duelScenario(task.white, task.black, task.seed);
    const outcome = await runScenario(scenario);
    return {
      ...completedSeed(task.seed, buildReport(scenario, outcome)),
      play: duelPlay(outcome.platform),
      pgn: gamesToPgn(outcome.platform, task.pgn.event, task.pgn),
    };
  } catch (error) {
    return unfinishedSeed(task.seed, 'crashed', errorMessage(error));
  }
}

/** The world's games: how many started, and the one game when exactly one started and it finished. */
export function duelPlay(platform: Platform): DuelPlay {
  const games = [...platform.state.games.values()];
  const end = games.length === 1 && games[0]!.status === 'completed' ? games[0]!.end : null;
  return { gamesStarted: games.length, game: end ? { result: end.result, ending: end.reason } : null };
}

/** The duel's game from its result, or why there is none (the world crashed or timed out, or no game finished). */
export function duelGame(result: DuelResult): DuelGame | string {
  if (result.play === undefined) return `${result.status.replace('_', ' ')}: ${result.error ?? 'no detail'}`;
  const { gamesStarted, game } = result.play;
  if (gamesStarted !== 1) return `the duel game never started (${gamesStarted} games started)`;
  return game ?? 'the duel game did not finish inside the world';
}

/** A game's score for the player who had `colour`. */
export function scoreFor(game: DuelGame, colour: 'white' | 'black'): number {
  if (game.result === '1/2-1/2') return 0.5;
  return (game.result === '1-0') === (colour === 'white') ? 1 : 0;
}
