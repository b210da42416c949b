import type { Platform } from '../../platform/platform.js';
import type { EndReason, Match, Tournament } from '../../platform/state.js';
import { agentLink } from './agent-table.js';
import { esc, facts, note, section } from './html.js';

/**
 * Tournaments drawn as knockout brackets, in HTML and CSS (text stays selectable and every match links
 * to its game in the viewer). The bracket is a grid with one row per first-round match: a match of round
 * r spans 2^r rows, so it sits centred between the two it was fed by, and the connector lines are borders
 * of its grid cell (see `.bracket` in page.ts).
 */
export function tournamentsSection(platform: Platform, gameIndex: ReadonlyMap<string, number>): string {
  const tournaments = [...platform.state.tournaments.values()].sort((a, b) => a.seq - b.seq);
  if (tournaments.length === 0)
    return section('tournaments', 'Tournaments', note('No tournament was created in this run.'));
  const body = tournaments
    .map((t, i) => tournamentBlock(platform, t, gameIndex, i < OPEN_BRACKETS))
    .join('\n');
  return section('tournaments', 'Tournaments', body);
}

/** Tournaments shown open; later ones are folded, so a run with many cups keeps a bounded page. */
const OPEN_BRACKETS = 2;

function tournamentBlock(
  platform: Platform,
  t: Tournament,
  gameIndex: ReadonlyMap<string, number>,
  open: boolean,
): string {
  const handle = (id: string) => platform.state.agents.get(id)?.handle ?? id;
  const placements = t.placements.map((id, i) => `${i + 1}. ${handle(id)}`).join(', ');
  const info = facts([
    ['status', t.cancelReason ? `${t.status} (${t.cancelReason})` : t.status],
    ['size', `${t.participants.length} of ${t.maxParticipants}`],
    ['prize / entry fee', `${sol(t.prizeLamports)} / ${sol(t.entryFeeLamports)} SOL`],
    ['placements', placements || '—'],
  ]);
  const bracket =
    t.rounds.length > 0
      ? bracketGrid(t, handle, platform.state.games, gameIndex)
      : note('No bracket: the tournament never started.');
  const summary = `<summary><h3>${esc(t.name)} <span class="muted">${esc(t.status)}</span></h3></summary>`;
  return `<details class="tournament"${open ? ' open' : ''}>${summary}\n${info}\n${bracket}</details>`;
}

function sol(lamports: number): string {
  return String(lamports / 1e9);
}

function bracketGrid(
  t: Tournament,
  handle: (id: string) => string,
  games: Platform['state']['games'],
  gameIndex: ReadonlyMap<string, number>,
): string {
  const rows = t.rounds[0]!.length;
  const seedOf = new Map(t.participants.map((p) => [p.agentId, p.seed]));
  const columns = t.rounds.map((round, r) => {
    const cells = round
      .map((m) => matchCell(m, r, t.rounds.length, handle, seedOf, games, gameIndex))
      .join('');
    return `<div class="round"><h4>${roundName(r, t.rounds.length)}</h4><div class="cells" style="grid-template-rows: repeat(${rows}, var(--row))">${cells}</div></div>`;
  });
  return `<div class="bracket">${columns.join('')}</div>`;
}

function roundName(r: number, rounds: number): string {
  const left = rounds - r;
  return left === 1 ? 'Final' : left === 2 ? 'Semi-finals' : left === 3 ? 'Quarter-finals' : `Round ${r + 1}`;
}

function matchCell(
  m: Match,
  r: number,
  rounds: number,
  handle: (id: string) => string,
  seedOf: ReadonlyMap<string, number | null>,
  games: Platform['state']['games'],
  gameIndex: ReadonlyMap<string, number>,
): string {
  const slot = (id: string | null) => {
    if (id === null) return `<div class="slot empty">${m.status === 'completed' ? 'bye' : '—'}</div>`;
    const seed = seedOf.get(id);
    const won = m.winnerId === id ? ' won' : m.winnerId ? ' lost' : '';
    return `<div class="slot${won}"><span class="seed">${seed ?? ''}</span>${agentLink(handle(id), handle(id))}</div>`;
  };
  const side = m.matchIndex % 2 === 0 ? 'upper' : 'lower';
  const final = r === rounds - 1 ? ' final' : '';
  const how = howDecided(m, games, gameIndex);
  return `<div class="cell ${side}${final}${r > 0 ? ' fed' : ''}" style="grid-row: span ${2 ** r}"><div class="match">${slot(m.slots[0])}${slot(m.slots[1])}${how}</div></div>`;
}

/** How a game ended, in a few words for a bracket cell. */
const ENDING: Record<EndReason, string> = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  insufficient_material: 'insufficient material',
  threefold_repetition: 'threefold repetition',
  fifty_move_rule: 'fifty-move rule',
  timeout: 'timeout',
  move_limit: 'move limit',
};

/**
 * The match's result and how it was decided, linked to its game in the viewer: "1-0 checkmate", or for a
 * draw "½-½ stalemate → lower seed advances" (the draw tiebreak, src/rules/chess/brackets.ts `advancer`),
 * so a low seed going through on draws reads as the rule it is. Full text in the title when it is cut.
 */
function howDecided(
  m: Match,
  games: Platform['state']['games'],
  gameIndex: ReadonlyMap<string, number>,
): string {
  const game = m.gameId ? games.get(m.gameId) : undefined;
  if (!game) return m.status === 'completed' ? '<div class="how">bye: advances unplayed</div>' : '';
  if (!game.end)
    return `<div class="how">${esc(game.status === 'cancelled' ? 'game cancelled' : 'in play')}</div>`;
  const result = game.end.result === '1/2-1/2' ? '½-½' : game.end.result;
  const text = `${result} ${ENDING[game.end.reason]}${game.end.winner === null ? ' → lower seed advances' : ''}`;
  const index = gameIndex.get(game.id);
  const label = index ? `<a class="game" href="#g${index}">${esc(text)}</a>` : esc(text);
  return `<div class="how" title="${esc(text)}${index ? ` (game ${index})` : ''}">${label}</div>`;
}
