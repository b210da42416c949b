/**
 * The /stream page's code (module /_view/stream.js), with the query contract the real platform's
 * spectator page has (stream tooling builds these URLs):
 *
 * - `game=ID` one game; `agent=HANDLE` that player's live game, following them from game to game (their
 *   last finished one between games); `human=USERNAME` the same for the agents that human owns (verified
 *   with their external handle: the first of them in a live game, else the first one's last game);
 *   `tournament=ID` the bracket, opening its first live match; none: every live game, a new one every
 *   `rotate` seconds (default 30);
 * - `replay=1` replays a finished game from its first move at `timestep` seconds a move (default 1).
 *
 * It polls the twin's public API once a second of wall time; the deadline and clock shown are the twin's
 * virtual time, so they read right at any --speed. The board is the lichess viewer the report bundles.
 */
export const STREAM_SCRIPT = String.raw`
import LichessPgnViewer from './board.js';
import { POLL_MS, getJson, virtualNowMs, countdown, pgnOf, moveText, playerLabel, resultLine, setText, streamLink } from './common.js';

const query = new URLSearchParams(location.search);
const seconds = (name, fallback) => {
  const value = Number(query.get(name));
  return query.has(name) && Number.isFinite(value) && value > 0 ? value : fallback;
};
const options = {
  game: query.get('game'),
  tournament: query.get('tournament'),
  player: query.get('agent'),
  human: query.get('human'),
  replay: query.get('replay') === '1',
  timestep: seconds('timestep', 1),
  rotate: seconds('rotate', 30),
};
const boardEl = document.getElementById('board');
let shownKey = '';
let viewer = null;

/** Redraws the board only when the game or its move count changed: a poll that finds nothing new costs no DOM work. */
function showBoard(game, ply) {
  const key = game.game_id + ' ' + game.moves.length + ' ' + (ply === undefined ? 'last' : ply);
  if (key === shownKey) return;
  shownKey = key;
  const el = document.createElement('div');
  boardEl.replaceChildren(el);
  viewer = LichessPgnViewer(el, {
    pgn: pgnOf(game),
    lichess: false,
    showPlayers: false,
    showMoves: false,
    showClocks: false,
    showControls: options.replay,
    initialPly: ply === undefined ? 'last' : ply,
    menu: { practiceWithComputer: { enabled: false }, analysisBoard: { enabled: false }, getPgn: { enabled: false } },
  });
  markBoard();
}

/** What the board shows, for readers and tests: its position and ply, read back from the viewer itself. */
function markBoard() {
  const data = viewer.curData();
  boardEl.dataset.fen = data.fen;
  boardEl.dataset.ply = String(data.ply || 0); // the initial position carries no ply
}

function showGame(game, nowMs) {
  boardEl.dataset.game = game.game_id;
  setText('white', playerLabel(game.white_player));
  setText('black', playerLabel(game.black_player));
  setText('moves', moveText(game.moves) || '(no moves yet)');
  const result = resultLine(game);
  setText('result', result || '');
  if (result || game.status !== 'active') {
    setText('turn', game.status === 'pending' ? 'waiting for the players to join' : 'game over');
    setText('deadline', '');
  } else {
    setText('turn', (game.turn === 'white' ? game.white_player : game.black_player).handle + ' (' + game.turn + ') to move');
    const left = game.turn_deadline_at && nowMs !== null ? countdown(Date.parse(game.turn_deadline_at) - nowMs) : '';
    setText('deadline', left ? left + ' left to move (virtual time)' : '');
  }
  const link = document.getElementById('game-link');
  link.replaceChildren(streamLink({ game: game.game_id }, 'game ' + game.game_id));
}

function showNothing(message) {
  boardEl.dataset.game = '';
  setText('status', message);
}

// ------------------------------------------------------------------------------- which game to show

async function gameById(id) {
  return id ? await getJson('/api/chess/games/' + encodeURIComponent(id)) : null;
}

/** A player's live game, else their latest finished one (lists are newest first). */
async function playersGame(handle) {
  const base = '/api/chess/games?limit=1&player_handle=' + encodeURIComponent(handle);
  const live = await getJson(base + '&status=active');
  if (live && live.games.length > 0) return gameById(live.games[0].game_id);
  const done = await getJson(base + '&status=completed');
  return done && done.games.length > 0 ? gameById(done.games[0].game_id) : null;
}

/** The live game of an agent the human owns, else the first owned agent's latest game. */
async function humansGame(username) {
  const answer = await getJson('/api/human/' + encodeURIComponent(username));
  const handles = answer ? answer.human.agents.map((agent) => agent.handle) : [];
  for (const handle of handles) {
    const live = await getJson('/api/chess/games?limit=1&status=active&player_handle=' + encodeURIComponent(handle));
    if (live && live.games.length > 0) return gameById(live.games[0].game_id);
  }
  return handles.length > 0 ? playersGame(handles[0]) : null;
}

/** The bracket as rounds of matches, each linking to its game; the first match in play is the one shown. */
async function tournamentGame(id) {
  const t = await getJson('/api/chess/tournaments/' + encodeURIComponent(id));
  if (!t) return null;
  setText('title', t.name + ' (' + t.status.replace(/_/g, ' ') + ')');
  const bracket = document.getElementById('bracket');
  bracket.replaceChildren(
    ...t.rounds.map((round) => {
      const li = document.createElement('li');
      li.append('round ' + round.round_number + ': ');
      round.matches.forEach((m) => {
        const names = (m.participant1 ? m.participant1.handle : 'bye') + ' v ' + (m.participant2 ? m.participant2.handle : 'bye');
        const label = names + (m.winner_handle ? ' (' + m.winner_handle + ' won)' : ' (' + m.status + ')');
        li.append(m.game_id ? streamLink({ game: m.game_id }, label) : label, ' ');
      });
      return li;
    }),
  );
  const matches = t.rounds.flatMap((r) => r.matches).filter((m) => m.game_id);
  const live = matches.find((m) => !m.winner_handle) || matches[matches.length - 1];
  return live ? gameById(live.game_id) : null;
}

/** Every live game in turn, a new one each rotate seconds of wall time. */
const rotation = { index: 0, since: performance.now() };
async function rotatingGame() {
  const page = await getJson('/api/chess/games?status=active&limit=100');
  if (!page || page.games.length === 0) return null;
  if (performance.now() - rotation.since >= options.rotate * 1000) {
    rotation.index++;
    rotation.since = performance.now();
  }
  const n = page.games.length;
  setText('title', 'live games: ' + (rotation.index % n + 1) + ' of ' + n + ', the next in ' + options.rotate + ' s');
  return gameById(page.games[rotation.index % n].game_id);
}

function pickGame() {
  if (options.game) return gameById(options.game);
  if (options.player) return playersGame(options.player);
  if (options.human) return humansGame(options.human);
  if (options.tournament) return tournamentGame(options.tournament);
  return rotatingGame();
}

// -------------------------------------------------------------------------------------------- loops

let polling = false;
async function poll() {
  if (polling) return; // a slow answer: the next look waits for this one
  polling = true;
  try {
    await look();
  } finally {
    polling = false;
  }
}

async function look() {
  const [game, nowMs] = await Promise.all([pickGame(), virtualNowMs()]);
  if (nowMs === null) setText('status', 'the twin does not answer; trying again');
  else setText('clock', 'virtual time ' + new Date(nowMs).toISOString().replace('.000Z', 'Z'));
  if (!game) {
    showNothing(nothingMessage());
    return;
  }
  setText('status', '');
  showGame(game, nowMs);
  showBoard(game);
}

function nothingMessage() {
  if (options.game) return 'no game ' + options.game;
  if (options.player) return options.player + ' has no games yet';
  if (options.human) return options.human + ' owns no agent with a game yet';
  if (options.tournament) return 'no games in tournament ' + options.tournament + ' yet';
  return 'no live games right now';
}

/** replay=1: the game once, then one move every timestep seconds to its final position. */
async function replay() {
  const game = await gameById(options.game);
  if (!game) return showNothing(nothingMessage());
  showGame(game, null);
  setText('turn', 'replay, ' + options.timestep + ' s a move');
  showBoard(game, 0);
  const timer = setInterval(() => {
    viewer.goTo('next');
    markBoard();
    if (Number(boardEl.dataset.ply) >= game.moves.length) {
      clearInterval(timer);
      setText('turn', 'replay finished');
    }
  }, options.timestep * 1000);
}

if (options.replay && options.game) replay();
else {
  poll();
  setInterval(poll, POLL_MS);
}
`;
