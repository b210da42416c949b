import { moveSans } from '../platform/chess/games.js';
import type { Platform } from '../platform/platform.js';
import type { EndReason, Game } from '../platform/state.js';
import type { MovetextSource } from './movetexts-ahead.js';
import { deadlineComment, movetext, UNFINISHED } from './pgn-movetext.js';

/**
 * PGN of every game that was played or is still being played, in the order the games were created:
 * finished games with their result, unfinished ones (still active, or waiting for bounty deposits, when the
 * run ended) with `*`. Cancelled games never started and are left out. The Seven Tag Roster, then the
 * virtual start (`UTCDate`, `UTCTime`), `TimeControl`, the players' ratings before the game, the
 * termination, our precise end reason and the game id. Decisions in docs/rules.md (Reports).
 */
const TERMINATION: Record<EndReason, string> = {
  checkmate: 'normal',
  stalemate: 'normal',
  insufficient_material: 'normal',
  threefold_repetition: 'normal',
  fifty_move_rule: 'normal',
  timeout: 'time forfeit',
  move_limit: 'adjudication',
};

/**
 * How a caller other than `run` labels its games (`compare --agent`'s duels): players by name instead of
 * handle (src/report/agent-names.ts), and tags that replace the tag of the same key or are added after the
 * others.
 */
export interface PgnLabels {
  names?: Readonly<Record<string, string>>;
  tags?: ReadonlyArray<readonly [string, string]>;
}

/** `ahead`: movetexts already written for finished games (movetexts-ahead.ts); any other is written here. */
export function gamesToPgn(
  platform: Platform,
  eventName: string,
  labels: PgnLabels = {},
  ahead?: MovetextSource,
): string {
  return pgnGames(platform)
    .map((g) => gameToPgn(platform, g, eventName, labels, ahead))
    .join('\n');
}

/** The games games.pgn lists, in order: every game but the cancelled ones, by creation. */
function pgnGames(platform: Platform): Game[] {
  return [...platform.state.games.values()]
    .filter((g) => g.status !== 'cancelled')
    .sort((a, b) => a.seq - b.seq);
}

export function gameToPgn(
  platform: Platform,
  game: Game,
  eventName: string,
  labels: PgnLabels = {},
  ahead?: MovetextSource,
): string {
  const comment = deadlineComment(platform.ruleset.game.turnLimitMs);
  const result = game.end?.result ?? UNFINISHED;
  // The SAN list alone: a finished game keeps its moves packed, and its full records are rebuilt only on demand.
  const moves = ahead?.movetextOf(game, result) ?? movetext(moveSans(game), result, comment);
  return `${gameHeader(platform, game, eventName, labels)}\n\n${moves}\n`;
}

function gameHeader(platform: Platform, game: Game, eventName: string, labels: PgnLabels): string {
  return withTags(gameTags(platform, game, eventName, labels.names ?? {}), labels.tags ?? [])
    .map(([k, v]) => `[${k} "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`)
    .join('\n');
}

function withTags(
  tags: Array<[string, string]>,
  extra: ReadonlyArray<readonly [string, string]>,
): Array<[string, string]> {
  const out = tags.map(([k, v]): [string, string] => [k, extra.find(([key]) => key === k)?.[1] ?? v]);
  for (const [k, v] of extra) if (!tags.some(([key]) => key === k)) out.push([k, v]);
  return out;
}

function gameTags(
  platform: Platform,
  game: Game,
  eventName: string,
  names: Readonly<Record<string, string>>,
): Array<[string, string]> {
  const handle = (id: string) => {
    const h = platform.state.agents.get(id)!.handle;
    return names[h] ?? h;
  };
  const start = new Date(game.startedAtMs ?? game.createdAtMs).toISOString();
  const date = start.slice(0, 10).replace(/-/g, '.');
  const { event, round } = eventAndRound(platform, game, eventName);
  const end = game.end;
  return [
    ['Event', event],
    ['Site', 'agent-chess-sim'],
    ['Date', date],
    ['Round', round],
    ['White', handle(game.whiteId)],
    ['Black', handle(game.blackId)],
    ['Result', end?.result ?? UNFINISHED],
    ['UTCDate', date],
    ['UTCTime', start.slice(11, 19)],
    // No game clock: each move has its own deadline, which no PGN time-control form expresses (the movetext comment says it).
    ['TimeControl', '-'],
    ...(end ? ratingTags(end.whiteEloBefore, end.blackEloBefore) : []),
    ['Termination', end ? TERMINATION[end.reason] : 'unterminated'],
    ...(end ? [['EndReason', end.reason] as [string, string]] : []),
    ['GameId', game.id],
  ];
}

/** Ratings before the game, known only once it ended (an unfinished game's players may have played others since). */
function ratingTags(white: number, black: number): Array<[string, string]> {
  return [
    ['WhiteElo', String(white)],
    ['BlackElo', String(black)],
  ];
}

/** A tournament game: the tournament's name and its bracket round (1 = first round). A casual game: the run's name and `-`. */
function eventAndRound(platform: Platform, game: Game, eventName: string): { event: string; round: string } {
  if (game.tournamentId === null) return { event: eventName, round: '-' };
  const t = platform.state.tournaments.get(game.tournamentId)!;
  const round = t.rounds.findIndex((matches) => matches.some((m) => m.gameId === game.id)) + 1;
  return { event: t.name, round: round > 0 ? String(round) : '?' };
}
