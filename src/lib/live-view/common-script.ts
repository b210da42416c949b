/**
 * What the live view's two pages share, served as the module /_view/common.js: reading the twin's public
 * API (same origin only; the Host and Origin guards judge these requests as any other), the virtual time,
 * a game as PGN for the board, and a position as a small board of text glyphs.
 */
export const COMMON_SCRIPT = String.raw`
/** Wall milliseconds between two looks at the twin: every number shown is virtual, so any --speed reads right. */
export const POLL_MS = 1000;

/** GET a same-origin JSON answer; null when the twin refuses or cannot be reached (the page says so, it does not throw). */
export async function getJson(path, headers) {
  try {
    const answer = await fetch(path, { headers: headers || {}, cache: 'no-store' });
    if (!answer.ok) return null;
    return await answer.json();
  } catch {
    return null;
  }
}

/** The twin's virtual now, in epoch milliseconds (GET /api/health's time); null when unreachable. */
export async function virtualNowMs() {
  const health = await getJson('/api/health');
  return health ? Date.parse(health.time) : null;
}

/** Virtual milliseconds as m:ss (h:mm:ss past an hour); a deadline passed reads 0:00. */
export function countdown(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? h + ':' + String(m).padStart(2, '0') + ':' + s : m + ':' + s;
}

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A game detail (GET /api/chess/games/{id}) as PGN, its SAN moves after its initial position. */
export function pgnOf(game) {
  const tags = [
    ['White', game.white_player.handle],
    ['Black', game.black_player.handle],
    ['Result', game.result || '*'],
  ];
  if (game.initial_fen && game.initial_fen !== START_FEN) tags.push(['SetUp', '1'], ['FEN', game.initial_fen]);
  const head = tags.map(([k, v]) => '[' + k + ' "' + String(v).replace(/["\\]/g, '') + '"]').join('\n');
  return head + '\n\n' + moveText(game.moves) + ' ' + (game.result || '*') + '\n';
}

/** SAN moves numbered as PGN and as the move list shows them: "1. e4 e5 2. Nf3". */
export function moveText(moves) {
  return moves
    .map((m, i) => (m.color === 'white' ? m.move_number + '. ' : i === 0 ? m.move_number + '... ' : '') + m.move_san)
    .join(' ');
}

/** A player as the pages name one: handle and rating. */
export function playerLabel(player) {
  return player.handle + ' (' + Math.round(player.elo) + ')';
}

/** The result line of a finished game, or null while it runs. */
export function resultLine(game) {
  if (game.status === 'cancelled') return 'cancelled' + (game.cancel_reason ? ': ' + game.cancel_reason : '');
  if (!game.result) return null;
  return game.result + (game.end_reason ? ' (' + game.end_reason.replace(/_/g, ' ') + ')' : '');
}

const GLYPHS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };

/** A position as 64 squares of text: no images, so a dashboard of many games costs a few elements each. */
export function smallBoard(fen) {
  const board = document.createElement('div');
  board.className = 'mini';
  board.dataset.fen = fen;
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, r) => {
    let file = 0;
    for (const c of row) {
      const empty = Number(c);
      const pieces = empty > 0 ? Array(empty).fill('') : [c];
      for (const piece of pieces) {
        const square = document.createElement('span');
        square.className = ((r + file) % 2 === 0 ? 'l' : 'd') + (piece && piece === piece.toUpperCase() ? ' w' : ' b');
        square.textContent = piece ? GLYPHS[piece.toLowerCase()] : '';
        board.append(square);
        file++;
      }
    }
  });
  return board;
}

/** Sets an element's text by id (absent elements are skipped: a page shows only some parts). */
export function setText(id, text) {
  const el = document.getElementById(id);
  if (el) el.textContent = text;
}

/** A link into /stream with one query (the stream page's contract). */
export function streamLink(query, label) {
  const a = document.createElement('a');
  a.href = '/stream?' + new URLSearchParams(query).toString();
  a.textContent = label;
  return a;
}
`;
