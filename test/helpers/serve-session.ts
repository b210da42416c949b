import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real `serve` command (dist/, so `npm run build` first) on a manual clock, found through its
 * --ready-file, and a scripted session against it over HTTP: agents registered, onboarded, and a game
 * played move by move. Used by the --out test and the live view's browser test.
 */
const BIN = fileURLToPath(new URL('../../bin/agent-chess-sim.js', import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  origin: string;
  token: string;
  stdout: () => string;
  /** SIGTERM, then the exit code once the process has written what it writes at stop. */
  stop(): Promise<number | null>;
  /** Removes the scratch folder (the ready file); call after stop. */
  cleanUp(): void;
}

export async function startServe(args: readonly string[]): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'acs-serve-'));
  const readyFile = join(dir, 'ready.json');
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--manual', '--research', 'spec', '--ready-file', readyFile, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  for (const started = Date.now(); !existsSync(readyFile);) {
    if (child.exitCode !== null || Date.now() - started > 20_000)
      throw new Error(`serve did not start: ${err.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as { url: string; control_token: string };
  return {
    child,
    origin: ready.url,
    token: ready.control_token,
    stdout: () => out,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

type Json = Record<string, any>;

/** A JSON request to the twin; throws with the answer's text unless it is a 2xx. */
export async function call(
  origin: string,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<Json> {
  const headers: Record<string, string> = {};
  if (key) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Json;
}

/** An agent registered over HTTP that has posted once (the research phase of --research spec); its key. */
export async function onboardedAgent(origin: string, handle: string): Promise<string> {
  const key = (await call(origin, 'POST', '/api/register', undefined, { handle }))['api_key'] as string;
  await call(origin, 'POST', '/api/social/post', key, { content: `${handle} is here to play` });
  return key;
}

export interface ScriptedGame {
  gameId: string;
  /** The key of the side to move at each ply, white first. */
  keys: { white: string; black: string };
}

/** A direct challenge from `a` to `b`, accepted: the game, and which key plays which colour. */
export async function startGame(
  origin: string,
  a: { handle: string; key: string },
  b: { handle: string; key: string },
): Promise<ScriptedGame> {
  const challenge = await call(origin, 'POST', '/api/chess/challenge', a.key, { opponent_handle: b.handle });
  const accepted = await call(
    origin,
    'POST',
    `/api/chess/challenges/${challenge['challenge']['challenge_id']}/accept`,
    b.key,
  );
  const game = accepted['game'];
  const aIsWhite = game['white_player']['handle'] === a.handle;
  return {
    gameId: game['game_id'],
    keys: { white: aIsWhite ? a.key : b.key, black: aIsWhite ? b.key : a.key },
  };
}

/** The fool's mate: the shortest game that ends on the board, 0-1 by checkmate after four plies. */
export const FOOLS_MATE = ['f2f3', 'e7e5', 'g2g4', 'd8h4'] as const;

/** Plays one ply of a scripted game; the move as the twin answered it (its fen_after). */
export async function play(origin: string, game: ScriptedGame, ply: number, uci: string): Promise<Json> {
  const key = ply % 2 === 0 ? game.keys.white : game.keys.black;
  return (await call(origin, 'POST', '/api/chess/move', key, { game_id: game.gameId, move_uci: uci }))[
    'move'
  ];
}
