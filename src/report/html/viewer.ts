import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The game viewer: lichess's PGN viewer (`@lichess-org/pgn-viewer`), inlined from the npm package's own
 * prebuilt files (one ES module bundle with chessground, chessops and snabbdom inside, and one stylesheet
 * with the board and pieces as data: URIs), read once per process. The page embeds games.pgn once, as a
 * JSON string; the browser splits it into games and the viewer parses only the game picked.
 */
export interface ViewerAssets {
  /** The bundle with its `export { x as default }` turned into `const LichessPgnViewer = x;`. */
  script: string;
  css: string;
}

let cached: ViewerAssets | undefined;

export function viewerAssets(): ViewerAssets {
  cached ??= loadAssets();
  return cached;
}

const PACKAGE = '@lichess-org/pgn-viewer';
const SCRIPT_FILE = 'lichess-pgn-viewer.min.js';

function loadAssets(): ViewerAssets {
  const dist = packageDist();
  const bundle = readFileSync(join(dist, SCRIPT_FILE), 'utf8');
  const css = readFileSync(join(dist, 'lichess-pgn-viewer.css'), 'utf8');
  return { script: bindDefaultExport(bundle), css };
}

/**
 * The package's dist/ folder, looked up in the node_modules folders Node would search from here. The
 * package exports its files to `import` only, and an ES module's own resolve cannot be written in the run
 * command's CommonJS bundle (run-bundle.ts), so the folder is found the same way by hand.
 */
function packageDist(): string {
  const searched = createRequire(import.meta.url).resolve.paths(PACKAGE) ?? [];
  const dist = searched
    .map((dir) => join(dir, PACKAGE, 'dist'))
    .find((dir) => existsSync(join(dir, SCRIPT_FILE)));
  if (dist === undefined) throw new Error(`${PACKAGE} is not installed: run npm ci`);
  return dist;
}

/**
 * An inline module cannot be imported from, so the bundle's default export becomes a local binding that
 * the page's own code, appended to the same module, calls. A bundle of another shape fails loudly here
 * rather than shipping a page whose viewer silently never starts.
 */
export function bindDefaultExport(bundle: string): string {
  const pattern = /export\s*\{\s*([\w$]+)\s+as\s+default\s*\}\s*;?\s*$/;
  const match = pattern.exec(bundle);
  if (!match)
    throw new Error(
      '@lichess-org/pgn-viewer: lichess-pgn-viewer.min.js no longer ends with `export { x as default }`; update src/report/html/viewer.ts',
    );
  return `${bundle.slice(0, match.index)}\nconst LichessPgnViewer = ${match[1]};\n`;
}

/** The viewer's markup (the filter, the picker, the board), which PAGE_SCRIPT finds by id; inside a `#games` section. */
export const VIEWER_MARKUP = `<div class="viewer-bar"><label>filter <input id="game-filter" type="search" placeholder="handle, ending, #number"></label>
<select id="game-picker" aria-label="game"></select> <span id="game-status" class="muted"></span></div>
<div id="game-viewer"></div>`;

/**
 * The page's own code, appended to the viewer bundle in one module script. It reads the embedded PGN,
 * fills the game picker (every game of games.pgn, unfinished ones too; filterable by handle, ending or
 * number), shows a game in the viewer, and follows links: `#g12` opens the 12th game of games.pgn (`#g12.30`
 * at its 30th ply), `#games=handle` filters the picker to one agent's games,
 * `#agent-handle` opens that agent's section.
 */
export const PAGE_SCRIPT = String.raw`
const pgnText = JSON.parse(document.getElementById('pgn-data').textContent);
const games = pgnText.trim() === '' ? [] : pgnText.trim().split(/\n\n(?=\[Event )/);
const picker = document.getElementById('game-picker');
const filter = document.getElementById('game-filter');
const status = document.getElementById('game-status');
const board = document.getElementById('game-viewer');

function tag(pgn, name) {
  const m = new RegExp('^\\[' + name + ' "([^"]*)"\\]', 'm').exec(pgn);
  return m ? m[1] : '?';
}
const labels = games.map((pgn, i) =>
  '#' + (i + 1) + ' ' + tag(pgn, 'White') + ' - ' + tag(pgn, 'Black') + ' ' + tag(pgn, 'Result') + ' (' + (tag(pgn, 'Result') === '*' ? 'unfinished' : tag(pgn, 'EndReason').replace(/_/g, ' ')) + ')');

function fillPicker(text) {
  const needle = text.trim().toLowerCase();
  picker.replaceChildren();
  let shown = 0;
  labels.forEach((label, i) => {
    if (needle && !label.toLowerCase().includes(needle)) return;
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = label;
    picker.append(option);
    shown++;
  });
  status.textContent = shown + ' of ' + games.length + ' games';
}

function showGame(i, ply = 0) {
  if (!(i >= 0 && i < games.length)) return;
  const el = document.createElement('div');
  board.replaceChildren(el);
  LichessPgnViewer(el, {
    pgn: games[i],
    lichess: false,
    showClocks: false,
    initialPly: ply,
    menu: { practiceWithComputer: { enabled: false }, analysisBoard: { enabled: false }, getPgn: { enabled: true } },
  });
  picker.value = String(i);
  board.dataset.game = String(i + 1);
  board.dataset.ply = String(ply);
}

function follow() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (!picker && !hash.startsWith('agent-')) return;
  const gameAt = /^g(\d+)(?:\.(\d+))?$/.exec(hash);
  if (gameAt) {
    showGame(Number(gameAt[1]) - 1, Number(gameAt[2] ?? 0));
    document.getElementById('games').scrollIntoView();
  } else if (hash.startsWith('games=')) {
    filter.value = hash.slice(6);
    fillPicker(filter.value);
    if (picker.options.length > 0) showGame(Number(picker.options[0].value));
    document.getElementById('games').scrollIntoView();
  } else if (hash.startsWith('agent-')) {
    const section = document.getElementById(hash);
    if (section && section.tagName === 'DETAILS') section.open = true;
  }
}

// A run without finished games has no viewer section: only the agent links remain to follow.
if (picker) {
  filter.addEventListener('input', () => fillPicker(filter.value));
  picker.addEventListener('change', () => showGame(Number(picker.value)));
  fillPicker('');
  if (games.length > 0) showGame(0);
}
window.addEventListener('hashchange', follow);
follow();
`;
