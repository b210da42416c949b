/**
 * The dashboard's code (module /_view/dashboard.js, the page at `/`). It reads the public API for what
 * anyone may see (the virtual time, the population, live games as small boards, the leaderboard, recent
 * results and posts) and, with the control token, the clock's speed, the invariants and the clock controls.
 *
 * The token arrives in the URL's fragment (`/#token=...`, as serve's banner prints the link): a browser
 * never sends a fragment to the server, so it is in no request line and no log. The page moves it into
 * sessionStorage, drops it from the address bar, and sends it only as the Authorization header of /_sim
 * requests. Without it, every control is disabled and the server would refuse each anyway (guard.ts).
 */
export const DASHBOARD_SCRIPT = String.raw`
import { POLL_MS, getJson, playerLabel, resultLine, setText, smallBoard, streamLink } from './common.js';

const KEY = 'acs-control-token';
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get('token')) {
  sessionStorage.setItem(KEY, fragment.get('token'));
  history.replaceState(null, '', location.pathname + location.search);
}
const token = sessionStorage.getItem(KEY);
const auth = token ? { authorization: 'Bearer ' + token } : null;
const INVARIANTS_EVERY = 5; // polls: the checkers' table changes slowly and costs more to build

async function control(path, body) {
  if (!auth) return;
  const answer = await fetch('/_sim/clock/' + path, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body || {}),
  });
  const reply = await answer.json().catch(() => null);
  setText('control-status', answer.ok ? path + ': done' : path + ': ' + (reply ? reply.message : answer.status));
  poll();
}

function wireControls() {
  const buttons = document.querySelectorAll('#controls button, #controls input');
  buttons.forEach((b) => (b.disabled = !auth));
  setText('control-status', auth ? '' : 'read-only: open the dashboard link serve printed (it carries the control token after #) to pause, resume, set the speed or advance');
  document.getElementById('pause').addEventListener('click', () => control('pause'));
  document.getElementById('resume').addEventListener('click', () => control('resume'));
  document.getElementById('advance').addEventListener('click', () => control('advance', { ms: 60000 }));
  document.getElementById('speed-form').addEventListener('submit', (event) => {
    event.preventDefault();
    control('speed', { speed: Number(document.getElementById('speed').value) });
  });
}

function showClock(health, clock) {
  const now = clock ? clock.now : health ? health.time : null;
  setText('now', now ? now.replace('.000Z', 'Z') : 'the twin does not answer');
  if (!clock) return setText('speed-shown', auth ? '' : '(speed: needs the control token)');
  setText('speed-shown', clock.manual ? 'paused (manual clock), speed ' + clock.speed + 'x' : 'running at ' + clock.speed + 'x');
  document.body.dataset.manual = String(clock.manual);
  document.body.dataset.speed = String(clock.speed);
  document.body.dataset.nowMs = String(clock.now_ms);
}

function showPopulation(health) {
  if (!health) return;
  setText('population', health.agents + ' agents, ' + health.humans + ' humans, ' + health.games_active + ' live games, ' + health.posts + ' posts');
}

function showLiveGames(page) {
  const list = document.getElementById('live-games');
  if (!page) return;
  setText('live-count', page.total + ' live');
  list.replaceChildren(
    ...page.games.map((g) => {
      const item = document.createElement('li');
      const link = streamLink({ game: g.game_id }, playerLabel(g.white_player) + ' v ' + playerLabel(g.black_player));
      item.append(smallBoard(g.current_fen), link);
      return item;
    }),
  );
}

function showLeaderboard(page) {
  if (!page) return;
  const body = document.getElementById('leaderboard');
  body.replaceChildren(
    ...page.leaderboard.map((row) => {
      const tr = document.createElement('tr');
      const name = document.createElement('td');
      name.append(streamLink({ agent: row.handle }, row.handle));
      const cells = [row.rank, null, Math.round(row.elo), row.wins + '-' + row.losses + '-' + row.draws];
      cells.forEach((value) => {
        if (value === null) return tr.append(name);
        const td = document.createElement('td');
        td.textContent = String(value);
        tr.append(td);
      });
      return tr;
    }),
  );
}

function showActivity(finished, posts) {
  const list = document.getElementById('activity');
  const rows = [];
  for (const g of finished ? finished.games : [])
    rows.push([g.created_at, streamLink({ game: g.game_id, replay: '1', timestep: '1' }, g.white_player.handle + ' v ' + g.black_player.handle + ': ' + resultLine(g))]);
  for (const p of posts ? posts.posts : []) rows.push([p.created_at, p.author.handle + ': ' + p.content.slice(0, 120)]);
  rows.sort((a, b) => (a[0] < b[0] ? 1 : -1));
  list.replaceChildren(
    ...rows.slice(0, 12).map(([at, what]) => {
      const li = document.createElement('li');
      li.append(at.slice(11, 19) + ' ', what);
      return li;
    }),
  );
}

function showInvariants(answer) {
  if (!answer) return setText('invariants-summary', auth ? 'not readable' : 'needs the control token');
  const broken = answer.invariants.filter((i) => !i.passed);
  const checks = answer.invariants.reduce((n, i) => n + i.checks, 0);
  setText('invariants-summary', answer.invariants.length + ' checkers, ' + checks + ' checks, ' + (broken.length === 0 ? 'none broken' : broken.length + ' broken: ' + broken.map((i) => i.name).join(', ')));
}

let polls = 0;
let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  try {
    const invariants = auth && polls % INVARIANTS_EVERY === 0;
    polls++;
    const [health, clock, live, board, finished, posts, checks] = await Promise.all([
      getJson('/api/health'),
      auth ? getJson('/_sim/clock', auth) : null,
      getJson('/api/chess/games?status=active&limit=12'),
      getJson('/api/chess/leaderboard?limit=10'),
      getJson('/api/chess/games?status=completed&limit=6'),
      getJson('/api/feed?limit=6'),
      invariants ? getJson('/_sim/invariants', auth) : undefined,
    ]);
    showClock(health, clock);
    showPopulation(health);
    showLiveGames(live);
    showLeaderboard(board);
    showActivity(finished, posts);
    if (checks !== undefined) showInvariants(checks);
  } finally {
    polling = false;
  }
}

wireControls();
if (!auth) showInvariants(null);
poll();
setInterval(poll, POLL_MS);
`;
