import type { Platform } from '../platform/platform.js';
import type { EndReason, Game } from '../platform/state.js';

/**
 * PGN of every completed game, in the order the games started. Seven-tag roster plus the players'
 * ratings before the game, the termination, and our precise end reason.
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

export function gamesToPgn(platform: Platform, eventName: string): string {
  const games = [...platform.state.games.values()].filter((g) => g.status === 'completed').sort((a, b) => a.seq - b.seq);
  return games.map((g, i) => gameToPgn(platform, g, eventName, i + 1)).join('\n');
}

export function gameToPgn(platform: Platform, game: Game, eventName: string, round: number): string {
  const end = game.end!;
  const handle = (id: string) => platform.state.agents.get(id)!.handle;
  const date = new Date(game.createdAtMs).toISOString();
  const tags: Array<[string, string]> = [
    ['Event', eventName],
    ['Site', 'agent-chess-sim'],
    ['Date', date.slice(0, 10).replace(/-/g, '.')],
    ['Round', String(round)],
    ['White', handle(game.whiteId)],
    ['Black', handle(game.blackId)],
    ['Result', end.result],
    ['WhiteElo', String(end.whiteEloBefore)],
    ['BlackElo', String(end.blackEloBefore)],
    ['UTCTime', date.slice(11, 19)],
    ['Termination', TERMINATION[end.reason]],
    ['EndReason', end.reason],
    ['GameId', game.id],
  ];
  const header = tags.map(([k, v]) => `[${k} "${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`).join('\n');
  return `${header}\n\n${wrap(movetext(game))}\n`;
}

function movetext(game: Game): string {
  const tokens: string[] = [];
  game.moves.forEach((m, i) => {
    if (i % 2 === 0) tokens.push(`${m.moveNumber}.`);
    tokens.push(m.san);
  });
  tokens.push(game.end!.result);
  return tokens.join(' ');
}

/** PGN export format keeps lines under 80 characters. */
function wrap(text: string, width = 79): string {
  const lines: string[] = [];
  let line = '';
  for (const token of text.split(' ')) {
    if (line && line.length + 1 + token.length > width) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
