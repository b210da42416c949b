/**
 * The platform's random-game loop: two agents play uniformly random legal games through the in-process
 * API (authentication, validation, move parsing, recording, game-end and deadline bookkeeping, events).
 * The agents pick moves on their own chessops board, as a real agent would, and send UCI: an agent needs
 * the legal moves and the position after each move, not the SAN, FEN and repetition counts the platform
 * keeps. They list their moves exactly as the tight bare loop does (its LegalMoves, chessops' ctx and dests),
 * so the agents' half of the loop costs what the baseline's move generation costs and P1's ratio is what
 * the platform's side of each move costs, not the platform library's own faster move listing.
 */
import type { PlatformClient } from '../src/client/client.js';
import { Rng } from '../src/kernel/rng.js';
import type { Platform } from '../src/platform/index.js';
import { wirePlatform } from '../src/sim/wiring.js';
import { DEFAULT_RULESET } from '../src/rules/ruleset.js';
import { boardResult, newBoard, parseMove, playMove, toWireUci } from '../src/rules/chess/chess.js';
import { LegalMoves } from './bare-chessops-tight.js';

export async function platformRandomGames(games: number, seed: string): Promise<{ plies: number }> {
  const loop = await PlatformLoop.start(seed);
  let plies = 0;
  for (let i = 0; i < games; i++) plies += await loop.playGame();
  return { plies };
}

/** Two registered agents on a fresh platform, playing random games against each other. */
export class PlatformLoop {
  readonly platform: Platform;
  readonly #white: PlatformClient;
  readonly #black: PlatformClient;
  readonly #rng: Rng;

  private constructor(platform: Platform, white: PlatformClient, black: PlatformClient, rng: Rng) {
    this.platform = platform;
    this.#white = white;
    this.#black = black;
    this.#rng = rng;
  }

  static async start(seed: string): Promise<PlatformLoop> {
    // Two keys play every game, far past the 5000-request daily quota: the loop is measured, not throttled.
    const ruleset = {
      ...DEFAULT_RULESET,
      api: { ...DEFAULT_RULESET.api, requestsPerDay: Number.MAX_SAFE_INTEGER },
    };
    const wired = wirePlatform({ seed, startMs: Date.UTC(2026, 0, 1), ruleset });
    const platform = wired.platform;
    const [white, black] = [wired.client(), wired.client()];
    await white.register({ handle: 'bench_white' });
    await black.register({ handle: 'bench_black' });
    await white.post('bench');
    await black.post('bench');
    return new PlatformLoop(platform, white, black, new Rng(seed).fork('bench'));
  }

  /**
   * One game, challenge to end; returns its plies. With `maxPaceMs`, the clock moves 1 ms to that long
   * before each move (time a game's moves are apart); without, every move lands at one instant.
   */
  async playGame(maxPaceMs = 0): Promise<number> {
    const { challenge } = await this.#white.createChallenge({ opponent_handle: 'bench_black' });
    await this.#black.acceptChallenge(challenge.challenge_id);
    const board = newBoard();
    const legal = new LegalMoves();
    for (let ply = 0; ; ply++) {
      if (maxPaceMs > 0) this.platform.advanceTo(this.platform.nowMs + this.#rng.int(1, maxPaceMs));
      legal.fill(board.pos, board.pos.ctx());
      const move = this.#rng.pick(legal.moves);
      const uci = toWireUci(board, move);
      board.pos.play(move);
      const mover = ply % 2 === 0 ? this.#white : this.#black;
      const answer = await mover.move({ game_id: challenge.challenge_id, move_uci: uci });
      if (answer.game_status === 'completed') return ply + 1;
    }
  }
}

/**
 * The platform's chess rules alone (no API, no state): parse the agent's UCI, play it with SAN and FEN,
 * decide game end. Splits the platform loop's cost into rules and API/bookkeeping.
 */
export function rulesRandomGames(games: number, seed: string): { plies: number } {
  const rng = new Rng(seed).fork('bench');
  let plies = 0;
  const legal = new LegalMoves();
  for (let i = 0; i < games; i++) {
    const agentBoard = newBoard();
    const platformBoard = newBoard();
    for (;;) {
      legal.fill(agentBoard.pos, agentBoard.pos.ctx());
      const move = rng.pick(legal.moves);
      const uci = toWireUci(agentBoard, move);
      agentBoard.pos.play(move);
      const parsed = parseMove(platformBoard, uci);
      if (!parsed.ok) throw new Error(`bench: ${parsed.reason}`);
      playMove(platformBoard, parsed.move);
      plies++;
      if (boardResult(platformBoard) || platformBoard.plies >= 1000) break;
    }
  }
  return { plies };
}
