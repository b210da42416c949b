import type { PageRoute } from '../../http/server.js';
import { viewerAssets } from '../../report/html/viewer.js';
import { COMMON_SCRIPT } from './common-script.js';
import { DASHBOARD_SCRIPT } from './dashboard-script.js';
import { STREAM_SCRIPT } from './stream-script.js';
import { LIVE_VIEW_CSS } from './style.js';

/**
 * serve's live view: the dashboard at `/` and the spectator page at `/stream`, with their scripts and
 * stylesheet under /_view/. Everything is served by the twin itself, so the policy below lets a page load
 * nothing from anywhere else: no inline script at all (`script-src 'self'`), no inline style element, no
 * frame, no form target, and requests to this origin only (`connect-src 'self'`), which the Host and Origin
 * guards then judge as every other request. The board is the lichess viewer report.html bundles
 * (src/report/html/viewer.ts), served as a module of its own so a browser keeps it between page loads.
 */
export const LIVE_VIEW_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src data:',
  'font-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML = 'text/html; charset=utf-8';
const SCRIPT = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** Pages are read fresh (their data is not in them, but a new serve may ship a new page); assets for a few minutes. */
const PAGE_HEADERS = { 'content-security-policy': LIVE_VIEW_CSP, 'cache-control': 'no-cache' };
const ASSET_HEADERS = { 'cache-control': 'max-age=300', 'x-content-type-options': 'nosniff' };

export function liveViewPages(): PageRoute[] {
  let board: string | undefined;
  let css: string | undefined;
  const page = (path: string, body: string): PageRoute => ({
    path,
    contentType: HTML,
    headers: PAGE_HEADERS,
    body: () => body,
  });
  const asset = (path: string, contentType: string, body: () => string): PageRoute => ({
    path,
    contentType,
    headers: ASSET_HEADERS,
    body,
  });
  return [
    page('/', DASHBOARD_PAGE),
    page('/stream', STREAM_PAGE),
    // The viewer is read on first use only: a server nobody watches never loads it.
    asset(
      '/_view/board.js',
      SCRIPT,
      () => (board ??= `${viewerAssets().script}export default LichessPgnViewer;\n`),
    ),
    asset('/_view/view.css', CSS, () => (css ??= `${viewerAssets().css}\n${LIVE_VIEW_CSS}`)),
    asset('/_view/common.js', SCRIPT, () => COMMON_SCRIPT),
    asset('/_view/stream.js', SCRIPT, () => STREAM_SCRIPT),
    asset('/_view/dashboard.js', SCRIPT, () => DASHBOARD_SCRIPT),
  ];
}

/** The document around a page's body: its stylesheet, one module script, and a data: icon (no favicon request). */
function shell(title: string, script: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/_view/view.css">
<script type="module" src="${script}"></script>
</head>
<body>
${body}
</body>
</html>
`;
}

const STREAM_PAGE = shell(
  'agent-chess-sim: stream',
  '/_view/stream.js',
  `<header><a href="/">dashboard</a> <span id="title">stream</span> <span id="clock"></span></header>
<main class="stream">
<section class="board-side">
<p class="player" id="black"></p>
<div id="board" data-game=""></div>
<p class="player" id="white"></p>
</section>
<section class="info">
<p id="status"></p>
<p><strong id="turn"></strong> <span id="deadline"></span></p>
<p id="result"></p>
<p id="game-link"></p>
<h2>Moves</h2>
<p id="moves"></p>
<ul id="bracket"></ul>
</section>
</main>`,
);

const DASHBOARD_PAGE = shell(
  'agent-chess-sim: dashboard',
  '/_view/dashboard.js',
  `<header><strong>agent-chess-sim twin</strong> <a href="/stream">watch live games</a> <a href="/docs">API docs</a></header>
<main class="dashboard">
<section>
<h2>Clock</h2>
<p><span id="now"></span> <span id="speed-shown"></span></p>
<div id="controls">
<button id="pause" type="button">Pause</button>
<button id="resume" type="button">Resume</button>
<button id="advance" type="button">Advance 1 min</button>
<form id="speed-form"><label>speed <input id="speed" type="number" min="0.001" max="100000" step="any" value="60"></label> <button type="submit">Set speed</button></form>
</div>
<p id="control-status"></p>
<h2>Population</h2>
<p id="population"></p>
<h2>Invariants so far</h2>
<p id="invariants-summary"></p>
</section>
<section>
<h2>Live games <span id="live-count"></span></h2>
<ul id="live-games" class="minis"></ul>
</section>
<section>
<h2>Leaderboard</h2>
<table><thead><tr><th>#</th><th>agent</th><th>Elo</th><th>W-L-D</th></tr></thead><tbody id="leaderboard"></tbody></table>
<h2>Recent activity</h2>
<ul id="activity"></ul>
</section>
</main>`,
);
