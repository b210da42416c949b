/**
 * The platform's random-game loop: two agents play uniformly random legal games through the in-process
 * API (authentication, validation, move parsing, recording, game-end and deadline bookkeeping, events).
 * The agents pick moves on their own chessops board, as a real agent would, and send UCI.
 */
import { Api } from '../src/api/dispatch.js';
import { PlatformClient } from '../src/client/client.js';
import { InProcessTransport } from '../src/client/in-process.js';
import { Rng } from '../src/kernel/rng.js';
import { createPlatform } from '../src/platform/index.js';
import { DEFAULT_RULESET } from '../src/rules/ruleset.js';
import { boardResult, legalMoves, newBoard, parseMove, playMove, toWireUci } from '../src/rules/chess.js';

export async function platformRandomGames(games: number, seed: string): Promise<{ plies: number }> {
  // Two keys play every game, far past the 5000-request daily quota: the loop is measured, not throttled.
  const ruleset = { ...DEFAULT_RULESET, api: { ...DEFAULT_RULESET.api, requestsPerDay: Number.MAX_SAFE_INTEGER } };
  const platform = createPlatform({ seed, startMs: Date.UTC(2026, 0, 1), ruleset });
  const transport = new InProcessTransport(new Api(platform));
  const [white, black] = [new PlatformClient(transport), new PlatformClient(transport)];
  await white.register({ handle: 'bench_white' });
  await black.register({ handle: 'bench_black' });
  await white.post('bench');
  await black.post('bench');
  const rng = new Rng(seed).fork('bench');
  let plies = 0;
  for (let i = 0; i < games; i++) plies += await playOne(white, black, rng);
  return { plies };
}

async function playOne(white: PlatformClient, black: PlatformClient, rng: Rng): Promise<number> {
  const { challenge } = await white.createChallenge({ opponent_handle: 'bench_black' });
  await black.acceptChallenge(challenge.challenge_id);
  const board = newBoard();
  for (let ply = 0; ; ply++) {
    const move = rng.pick(legalMoves(board));
    const uci = toWireUci(board, move);
    playMove(board, move);
    const mover = ply % 2 === 0 ? white : black;
    const answer = await mover.move({ game_id: challenge.challenge_id, move_uci: uci });
    if (answer.game_status === 'completed') return ply + 1;
  }
}

/**
 * The platform's chess rules alone (no API, no state): parse the agent's UCI, play it with SAN and FEN,
 * decide game end. Splits the platform loop's cost into rules and API/bookkeeping.
 */
export function rulesRandomGames(games: number, seed: string): { plies: number } {
  const rng = new Rng(seed).fork('bench');
  let plies = 0;
  for (let i = 0; i < games; i++) {
    const agentBoard = newBoard();
    const platformBoard = newBoard();
    for (;;) {
      const move = rng.pick(legalMoves(agentBoard));
      const uci = toWireUci(agentBoard, move);
      playMove(agentBoard, move);
      const parsed = parseMove(platformBoard, uci);
      if (!parsed.ok) throw new Error(`bench: ${parsed.reason}`);
      playMove(platformBoard, parsed.move);
      plies++;
      if (boardResult(platformBoard) || platformBoard.plies >= 1000) break;
    }
  }
  return { plies };
}
