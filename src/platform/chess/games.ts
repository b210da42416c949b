import type { NormalMove } from 'chessops';
import { fail, invariant } from '../../kernel/errors.js';
import { boardResult, parseMoveFields } from '../../rules/chess/chess.js';
import { rateGame, type RatedPlayer } from '../../rules/chess/elo.js';
import {
  isMoveInTime,
  moveLimitWinner,
  reachedMoveLimit,
  resultFor,
  timeoutWinner,
  turnDeadlineMs,
  whiteScore,
  type Side,
} from '../../rules/chess/game.js';
import type { Platform, PlatformTimer } from '../platform.js';
import { requireResearchDone } from '../guards.js';
import type { Agent, EndReason, Game, MoveRecord } from '../state.js';
import { addLiveGame, dropLiveGame, liveGamesOf } from './live-game-lists.js';
import { GameRecord, type Seating } from './storage/game-record.js';
import type { PackedMoves } from './storage/move-log.js';

/** Starting games, moves, deadlines, game end and rating updates. */
export type { Seating } from './storage/game-record.js';

/** A game that starts now (no stake, or a tournament match). */
export function startGame(p: Platform, seat: Seating): Game {
  const game = createGame(p, seat);
  activateGame(p, game);
  return game;
}

/** A bounty game waits in `pending`, with no deadline, until both deposits settle. */
export function createPendingGame(
  p: Platform,
  seat: Seating & { bountyLamports: number; escrowAddress: string },
): Game {
  const game = createGame(p, seat);
  p.emit({
    type: 'game_created',
    t: p.nowMs,
    gameId: game.id,
    whiteId: game.whiteId,
    blackId: game.blackId,
    bountyLamports: seat.bountyLamports,
  });
  return game;
}

function createGame(p: Platform, seat: Seating): GameRecord {
  const game = new GameRecord(seat, p.state.games.size, p.nowMs, p.moveIds);
  p.state.games.set(game.id, game);
  addLiveGame(p, game.whiteId, game);
  addLiveGame(p, game.blackId, game);
  return game;
}

/** The first turn's deadline starts here, not at creation: a pending game's clock does not run. */
export function activateGame(p: Platform, game: Game): void {
  invariant(game.status === 'pending', `game ${game.id} activated while ${game.status}`);
  game.status = 'active';
  game.startedAtMs = p.nowMs;
  beginTurn(p, game);
  p.emit({
    type: 'game_started',
    t: p.nowMs,
    gameId: game.id,
    whiteId: game.whiteId,
    blackId: game.blackId,
    deadlineMs: game.deadlineMs!,
  });
}

/** A pending game whose funding failed: never played, never rated. */
export function cancelPendingGame(p: Platform, game: Game, reason: string): void {
  invariant(game.status === 'pending', `game ${game.id} cancelled while ${game.status}`);
  game.status = 'cancelled';
  game.cancelReason = reason;
  recordOf(game).retire();
  dropLiveGame(p, game.whiteId, game);
  dropLiveGame(p, game.blackId, game);
  p.emit({ type: 'game_cancelled', t: p.nowMs, gameId: game.id, reason });
}

function beginTurn(p: Platform, game: Game): void {
  p.cancelTimer(game.deadlineTimer);
  game.turnStartedMs = p.nowMs;
  game.deadlineMs = turnDeadlineMs(p.nowMs, p.ruleset);
  game.deadlineTimer = p.setTimer(game.deadlineMs, {
    kind: 'turn_deadline',
    gameId: game.id,
    deadlineMs: game.deadlineMs,
  });
}

export function colorOf(game: Game, agentId: string): Side | undefined {
  if (agentId === game.whiteId) return 'white';
  return agentId === game.blackId ? 'black' : undefined;
}

export function isAgentsTurn(game: Game, agentId: string): boolean {
  return game.status === 'active' && colorOf(game, agentId) === game.sideToMove;
}

export { liveGamesOf } from './live-game-lists.js';

/** An agent's finished games, the latest to finish first. */
export function finishedGamesOf(p: Platform, agentId: string): Game[] {
  return p.state.completedGamesByAgent
    .get(agentId)!
    .map((id) => p.state.games.get(id)!)
    .reverse();
}

/** A game by id, or not_found. */
export function requireGame(p: Platform, id: string): Game {
  return p.state.games.get(id) ?? fail('not_found', `no game "${id}"`);
}

export interface MoveInput {
  game_id: string;
  move_san?: string | null;
  move_uci?: string | null;
}

/** POST /api/chess/move. Checks run in precedence order; any refusal leaves the game untouched. */
export function submitMove(p: Platform, agent: Agent, input: MoveInput): { game: Game; move: MoveRecord } {
  const game = requireGame(p, input.game_id);
  requireResearchDone(p, agent);
  const color =
    colorOf(game, agent.id) ??
    fail('bad_request', 'you are not a player in this game', { reason: 'not_a_player' });
  if (game.status !== 'active') refuseInactive(game);
  invariant(isMoveInTime(p.nowMs, game.deadlineMs!), 'an overdue turn reached the move route unsettled');
  if (color !== game.sideToMove) fail('bad_request', 'it is not your turn', { reason: 'not_your_turn' });
  const parsed = parseMoveFields(game.board, input.move_san ?? undefined, input.move_uci ?? undefined);
  if (!parsed.ok) fail('bad_request', `illegal move: ${parsed.reason}`, { reason: 'illegal_move' });
  const deadlineBeaten = game.deadlineMs!;
  const move = recordOf(game).play(parsed.move as NormalMove, p.nowMs);
  const ended = settleAfterMove(p, game);
  if (!ended) beginTurn(p, game);
  p.emit({
    type: 'move_played',
    t: p.nowMs,
    gameId: game.id,
    agentId: agent.id,
    ply: game.plies,
    uci: move.uci,
    san: move.san,
    deadlineMs: deadlineBeaten,
    nextDeadlineMs: ended ? null : game.deadlineMs,
  });
  if (ended) emitGameEnded(p, game);
  return { game, move };
}

function refuseInactive(game: Game): never {
  if (game.end?.reason === 'timeout') {
    fail('bad_request', 'the 5-minute move deadline passed; the game was completed by timeout', {
      reason: 'deadline_passed',
    });
  }
  fail('bad_request', `the game is ${game.status}`, { reason: 'game_not_active' });
}

/**
 * The SAN of every move of a game, in order: what a PGN export needs. Cheaper than reading `moves` of a
 * finished game, which rebuilds every record (FEN, UCI, flags) from the packed log.
 */
export function moveSans(game: Game): string[] {
  return recordOf(game).sans();
}

/** What a game's SAN list is replayed from (replaySans), as plain data another thread can take. */
export interface MovetextInput {
  readonly moves: PackedMoves;
  readonly initialFen: string;
  /** The result games.pgn gives the game (its end's, or the mark of an unfinished game). */
  readonly result: string;
}

/** A game's MovetextInput with `result` (src/report/movetexts-ahead.ts sends it to its thread). */
export function movetextInput(game: Game, result: string): MovetextInput {
  return { ...recordOf(game).sanReplay(), result };
}

/** Every game the platform makes is a GameRecord; the state's Game type shows only its fields. */
function recordOf(game: Game): GameRecord {
  if (!(game instanceof GameRecord)) throw new Error(`game ${game.id} is not a platform game record`);
  return game;
}

/**
 * Ends the game if the move ended it. Precedence (OURS): the board (mate, then the automatic draws) before
 * the move limit, so a mate on the 1000th half-move is a mate.
 */
function settleAfterMove(p: Platform, game: Game): boolean {
  const board = boardResult(game.board);
  if (board) {
    finishGame(p, game, board.winner, board.ending);
    return true;
  }
  if (reachedMoveLimit(game.plies, p.ruleset)) {
    const white = p.state.agents.get(game.whiteId)!;
    const black = p.state.agents.get(game.blackId)!;
    finishGame(p, game, moveLimitWinner(white.elo, black.elo), 'move_limit');
    return true;
  }
  return false;
}

/** Platform timer: the side to move missed its deadline. Stale timers (the turn moved on) do nothing. */
export function onTurnDeadline(p: Platform, timer: PlatformTimer): void {
  if (timer.kind !== 'turn_deadline') return;
  const game = p.state.games.get(timer.gameId);
  if (!game || game.status !== 'active' || game.deadlineMs !== timer.deadlineMs) return;
  finishGame(p, game, timeoutWinner(game.sideToMove), 'timeout');
  emitGameEnded(p, game);
}

function finishGame(p: Platform, game: Game, winner: Side | null, reason: EndReason): void {
  const white = p.state.agents.get(game.whiteId)!;
  const black = p.state.agents.get(game.blackId)!;
  const result = resultFor(winner);
  const update = rateGame(ratedPlayer(white), ratedPlayer(black), whiteScore(result), p.ruleset.elo.kFactor);
  game.end = {
    result,
    reason,
    winner,
    endedAtMs: p.nowMs,
    whiteEloBefore: white.elo,
    blackEloBefore: black.elo,
    whiteDelta: update.whiteDelta,
    blackDelta: update.blackDelta,
    equalK: update.equalK,
  };
  applyRating(white, update.whiteDelta, winner === null ? 'draw' : winner === 'white' ? 'win' : 'loss');
  applyRating(black, update.blackDelta, winner === null ? 'draw' : winner === 'black' ? 'win' : 'loss');
  game.status = 'completed';
  p.cancelTimer(game.deadlineTimer);
  game.deadlineTimer = null;
  recordOf(game).retire();
  retireLiveGame(p, game, game.whiteId);
  retireLiveGame(p, game, game.blackId);
}

function ratedPlayer(agent: Agent): RatedPlayer {
  return { rating: agent.elo, gamesPlayed: gamesPlayed(agent), peakRating: agent.peakElo };
}

function retireLiveGame(p: Platform, game: Game, agentId: string): void {
  dropLiveGame(p, agentId, game);
  p.state.completedGamesByAgent.get(agentId)!.push(game.id);
}

function applyRating(agent: Agent, delta: number, outcome: 'win' | 'loss' | 'draw'): void {
  agent.elo += delta;
  agent.peakElo = Math.max(agent.peakElo, agent.elo);
  if (outcome === 'win') agent.wins++;
  else if (outcome === 'loss') agent.losses++;
  else agent.draws++;
}

function emitGameEnded(p: Platform, game: Game): void {
  const end = game.end!;
  p.emit({
    type: 'game_ended',
    t: p.nowMs,
    gameId: game.id,
    whiteId: game.whiteId,
    blackId: game.blackId,
    result: end.result,
    reason: end.reason,
    plies: game.plies,
    whiteEloBefore: end.whiteEloBefore,
    blackEloBefore: end.blackEloBefore,
    whiteDelta: end.whiteDelta,
    blackDelta: end.blackDelta,
    equalK: end.equalK,
  });
  p.gameEnded(game); // bounty payouts and tournament advancement follow the result
}

/** A player's games (or everyone's), newest first; reads the per-agent indexes so polling stays cheap. */
export function listGames(p: Platform, playerId: string | null, status: Game['status'] | undefined): Game[] {
  let games: Game[];
  if (playerId === null) games = [...p.state.games.values()];
  else {
    const live = status === 'completed' ? [] : liveGamesOf(p, playerId);
    const done =
      status === 'pending' || status === 'active' ? [] : p.state.completedGamesByAgent.get(playerId)!;
    games = [...live];
    for (const id of done) games.push(p.state.games.get(id)!);
  }
  if (status) games = games.filter((g) => g.status === status);
  return newestFirst(games);
}

/**
 * Sorts games by seq, newest first, in place. A player's list is mostly two or three games (an agent asking
 * whether it may seek another), which insertion sorts without the work array Array.prototype.sort makes
 * per call (some 70 MB allocated over a smoke run); seqs are unique, so the order is the same.
 */
function newestFirst(games: Game[]): Game[] {
  if (games.length > 8) return games.sort((a, b) => b.seq - a.seq);
  for (let i = 1; i < games.length; i++) {
    const game = games[i]!;
    let j = i - 1;
    for (; j >= 0 && games[j]!.seq < game.seq; j--) games[j + 1] = games[j]!;
    games[j + 1] = game;
  }
  return games;
}

export function gamesPlayed(agent: Agent): number {
  return agent.wins + agent.losses + agent.draws;
}
