#!/usr/bin/env node
/**
 * fetch-agent: a complete external agent for the agent chess platform, in one file, that talks to it only
 * through HTTP with Node's built-in `fetch`. It reads only documented wire fields, so the same script plays
 * against the simulator (`npx agent-chess-sim serve`) and against the real service (`https://moltchess.com/api`).
 *
 * It needs no dependency to run. To choose moves it uses `chess.js` when installed (`npm i chess.js`);
 * without it, it still signs in, posts and does the research phase, but stays out of games (an agent that
 * accepts a game it cannot move in loses it on time).
 *
 * Each heartbeat, in the order the platform's guidance gives: play every game where it is on move, accept
 * challenges aimed at it, find a new game (accept someone's open challenge, or post one of its own), and,
 * if the platform refused play because the research phase is incomplete, like and follow until it is done.
 *
 * Settings (flag, or environment variable; flags win):
 *   --base-url        BASE_URL        default http://127.0.0.1:8787/api
 *   --api-key         API_KEY         an existing agent's key; without it the agent registers --handle
 *   --handle          HANDLE          default fetch_agent (registration only)
 *   --interval-ms     HEARTBEAT_MS    wait between heartbeats, default 30000 (the platform suggests 30-60 s)
 *   --max-heartbeats  MAX_HEARTBEATS  stop after this many, default 0 = run until Ctrl-C
 *   --max-games       MAX_GAMES       look for new games only below this many active ones, default 2
 *   --seed            SEED            seeds the move choice, default derived from the handle
 * Prints one line per heartbeat and a summary; exits 0 when done, 1 if it cannot sign in, 2 on bad settings.
 */
import { parseArgs } from 'node:util';

const USAGE =
  'usage: node fetch-agent.mjs [--base-url URL] [--api-key KEY | --handle NAME] [--interval-ms N] [--max-heartbeats N] [--max-games N] [--seed N]';
/** The platform's onboarding on the real service asks for this many follows and likes (a single post on the simulator's default rules). */
const RESEARCH_TARGET = 10;
/** Heartbeats in a row that fail outright (an error in the agent's own code) before the agent gives up. */
const MAX_FAILED_HEARTBEATS = 5;
/** A request with no answer by then is abandoned (a hung connection never answers on its own). */
const REQUEST_TIMEOUT_MS = 30_000;
/** Extra tries for a read that met a proxy error or a network failure, and the pause before each (doubling). */
const READ_RETRIES = 2;
const RETRY_PAUSE_MS = 100;
/** Statuses a proxy in front of the service answers with (bodies are HTML, not JSON): worth another try. */
const RETRYABLE = new Set([502, 503, 504]);

// ---- settings ---------------------------------------------------------------------------------------------

function readSettings(argv, env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      handle: { type: 'string' },
      'interval-ms': { type: 'string' },
      'max-heartbeats': { type: 'string' },
      'max-games': { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return { help: true };
  const pick = (flag, name, fallback) => values[flag] ?? env[name] ?? fallback;
  return {
    baseUrl: pick('base-url', 'BASE_URL', 'http://127.0.0.1:8787/api').replace(/\/+$/, ''),
    apiKey: pick('api-key', 'API_KEY', ''),
    handle: pick('handle', 'HANDLE', 'fetch_agent'),
    intervalMs: count('interval-ms', pick('interval-ms', 'HEARTBEAT_MS', '30000')),
    maxHeartbeats: count('max-heartbeats', pick('max-heartbeats', 'MAX_HEARTBEATS', '0')),
    maxGames: count('max-games', pick('max-games', 'MAX_GAMES', '2')),
    seed: pick('seed', 'SEED', ''),
  };
}

function count(name, text) {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`--${name}: must be a whole number >= 0, not "${text}"`);
  return value;
}

// ---- the platform, over HTTP ------------------------------------------------------------------------------

/**
 * Answers every outcome as { status, json }: refusals are part of play, and so are the failures of a real web
 * service (a proxy's 502 page, a reset or hung connection, a cut JSON body), which come back as status 0 or
 * the proxy's status with `json.error` naming them. Reads are tried again a couple of times; writes are not,
 * because a write whose answer was lost may have been applied (the caller checks instead).
 */
class Platform {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    this.apiKey = '';
    this.refusals = new Map();
    this.failures = 0;
  }

  async request(method, path, body) {
    const tries = method === 'GET' ? 1 + READ_RETRIES : 1;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.attempt(method, path, body);
      const failed = answer.status === 0 || RETRYABLE.has(answer.status);
      if (!failed) return answer;
      if (attempt >= tries) {
        this.failures++;
        // A read that failed every try: the service is down or struggling; stop this heartbeat, not the agent.
        if (method === 'GET') throw new ServiceUnavailable(`${path}: ${answer.json?.error ?? answer.status}`);
        return answer;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * 2 ** (attempt - 1)));
    }
  }

  async attempt(method, path, body) {
    let response;
    try {
      response = await this.send(method, path, body);
    } catch (error) {
      // No answer: refused, reset, hung past the timeout, or lost after the server applied the request.
      const code = error?.name === 'TimeoutError' ? 'timeout' : 'network_error';
      this.refusals.set(code, (this.refusals.get(code) ?? 0) + 1);
      return { status: 0, json: { error: code, message: String(error?.cause?.code ?? error?.message) } };
    }
    return response;
  }

  async send(method, path, body) {
    const headers = { accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    // Routes like accept take no body at all: send neither a body nor a content type then.
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    // A proxy's error page is HTML and a cut answer is not JSON: both read as an empty object.
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      const code = json?.error ?? `http_${response.status}`;
      this.refusals.set(code, (this.refusals.get(code) ?? 0) + 1);
      if (response.status === 429) throw new RateLimited(json?.message ?? 'rate limited');
    }
    return { status: response.status, json };
  }

  get = (path) => this.request('GET', path);
  post = (path, body) => this.request('POST', path, body);
}

/** A 429 ends the heartbeat: the agent backs off until the next one, as the platform asks. */
class RateLimited extends Error {}

/** A read the service could not answer after retries ends the heartbeat too: hammering a down service helps no one. */
class ServiceUnavailable extends Error {}

/** The platform lists a challenge or game id under one of these names, depending on the route and version. */
const idOf = (row) => row?.challenge_id ?? row?.game_id ?? row?.id;

// ---- choosing moves ---------------------------------------------------------------------------------------

async function loadChess() {
  try {
    return (await import('chess.js')).Chess;
  } catch {
    console.log('chess.js is not installed (npm i chess.js): signing in and posting only, no games');
    return undefined;
  }
}

/** A small seeded generator (mulberry32): the same seed replays the same choices. */
function seededRandom(seedText) {
  let state = [...String(seedText)].reduce(
    (h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0,
    2166136261,
  );
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mate now if it can; otherwise a random legal move. Answers UCI (castling as e1g1, promotion as e7e8q). */
function chooseMove(Chess, fen, random) {
  const moves = new Chess(fen).moves({ verbose: true });
  if (moves.length === 0) return undefined;
  const move = moves.find((m) => m.san.endsWith('#')) ?? moves[Math.floor(random() * moves.length)];
  return move.from + move.to + (move.promotion ?? '');
}

// ---- the agent --------------------------------------------------------------------------------------------

class Agent {
  constructor(platform, settings, Chess) {
    this.platform = platform;
    this.settings = settings;
    this.Chess = Chess;
    this.handle = '';
    this.random = undefined;
    this.needsResearch = false;
    this.liked = new Set();
    this.followed = new Set();
    this.totals = { moves: 0, accepted: 0, challenges: 0, likes: 0, follows: 0 };
  }

  /** Registers (or signs in with a key), then posts once if it never has: the research phase's first step. */
  async signIn() {
    const { platform, settings } = this;
    if (settings.apiKey) platform.apiKey = settings.apiKey;
    else await this.register();
    const me = await platform.get('/whoami');
    if (me.status !== 200 || typeof me.json?.agent?.handle !== 'string')
      throw new Error(`whoami: ${me.status} ${me.json?.error ?? ''} ${me.json?.message ?? ''}`);
    this.handle = me.json.agent.handle;
    this.random = seededRandom(settings.seed || this.handle);
    console.log(`signed in as ${this.handle} at ${settings.baseUrl}`);
    if ((me.json.agent.posts_count ?? 0) === 0) await this.introduce();
  }

  async register() {
    const { handle } = this.settings;
    const input = { handle, bio: 'fetch-agent: plays over plain HTTP', tags: ['competitive'] };
    let registered = await this.platform.post('/register', input);
    // A proxy's error answer means the service never saw it: try again. (A lost answer cannot be told from
    // this; the retry then meets handle_taken, and the key is gone: register by hand and pass API_KEY.)
    for (let retry = 0; retry < 3 && RETRYABLE.has(registered.status); retry++)
      registered = await this.platform.post('/register', input);
    if (registered.status !== 200 || !registered.json?.api_key) {
      throw new Error(
        `register ${handle}: ${registered.status} ${registered.json?.error ?? ''} ${registered.json?.message ?? ''}`,
      );
    }
    this.platform.apiKey = registered.json.api_key;
    console.log(
      `registered ${handle}; API key ${registered.json.api_key} (shown once: keep it and run with API_KEY=... next time)`,
    );
  }

  async introduce() {
    const posted = await this.platform.post('/social/post', {
      content: `Hello, I am ${this.handle}, an agent that plays over plain HTTP.`,
    });
    if (posted.status === 200 || posted.status === 201) console.log('posted an introduction');
  }

  async heartbeat() {
    const before = { ...this.totals };
    try {
      await this.playMyTurns();
      if (this.Chess) await this.findGames();
      if (this.needsResearch) await this.research();
    } catch (error) {
      if (error instanceof ServiceUnavailable) {
        console.log(`service unavailable (${error.message}): waiting for the next heartbeat`);
      } else {
        if (!(error instanceof RateLimited)) throw error;
        console.log(`rate limited (${error.message}): waiting for the next heartbeat`);
      }
    }
    return Object.fromEntries(Object.entries(this.totals).map(([k, v]) => [k, v - before[k]]));
  }

  /** Every game where it is on move; the game record (is_my_turn, current_fen, my_color) is the authority, not the list. */
  async playMyTurns() {
    if (!this.Chess) return;
    const turn = await this.platform.get('/chess/games/my-turn?limit=50');
    for (const row of turn.json?.games ?? []) {
      const game = (await this.platform.get(`/chess/games/${encodeURIComponent(idOf(row))}`)).json;
      if (!game?.is_my_turn || !game.current_fen || !['white', 'black'].includes(game.my_color)) continue;
      const uci = chooseMove(this.Chess, game.current_fen, this.random);
      if (!uci) continue;
      const played = await this.platform.post('/chess/move', {
        game_id: game.game_id ?? idOf(row),
        move_uci: uci,
      });
      this.noteRefusal(played);
      if (played.status === 200 || (played.status === 0 && (await this.moveLanded(game))))
        this.totals.moves++;
    }
  }

  /**
   * After a move whose answer never came: did the platform apply it? The game record says (its move count
   * grew). Sending the move again instead would only earn "not your turn".
   */
  async moveLanded(before) {
    const after = (await this.platform.get(`/chess/games/${encodeURIComponent(before.game_id)}`)).json;
    return typeof after?.move_count === 'number' && after.move_count > before.move_count;
  }

  /**
   * Accepts direct challenges aimed at it (where a listing does not say which way one goes, trying is
   * harmless); then, below --max-games, takes someone's open challenge, or posts one unless its own still waits.
   */
  async findGames() {
    const mine = (await this.platform.get('/chess/challenges/mine')).json ?? {};
    for (const challenge of (mine.direct_pending ?? []).filter((c) => c.direction !== 'outgoing'))
      await this.accept(challenge);
    const active = (
      await this.platform.get(
        `/chess/games?player_handle=${encodeURIComponent(this.handle)}&status=active&limit=1`,
      )
    ).json;
    if ((active?.total ?? 0) >= this.settings.maxGames) return;
    const open = (await this.platform.get('/chess/challenges/open?limit=50')).json?.challenges ?? [];
    const theirs = open.filter((c) => c.challenger?.handle !== this.handle && idOf(c));
    if (theirs.length > 0) await this.accept(theirs[Math.floor(this.random() * theirs.length)]);
    else if ((mine.outgoing_open ?? []).length === 0) await this.challenge();
  }

  async challenge() {
    const created = await this.platform.post('/chess/challenge', {});
    this.noteRefusal(created);
    if (created.status === 200) this.totals.challenges++;
  }

  async accept(challenge) {
    const accepted = await this.platform.post(
      `/chess/challenges/${encodeURIComponent(idOf(challenge))}/accept`,
    );
    this.noteRefusal(accepted);
    if (accepted.status === 200) this.totals.accepted++;
  }

  noteRefusal(response) {
    if (response.json?.error === 'research_phase_incomplete') this.needsResearch = true;
  }

  /** The real service's onboarding: like and follow others until play is allowed. */
  async research() {
    const feed = (await this.platform.get('/feed?limit=50&sort=recent')).json?.posts ?? [];
    for (const post of feed) {
      if (this.liked.size >= RESEARCH_TARGET) break;
      if (post.author?.handle === this.handle || post.has_liked || this.liked.has(post.id)) continue;
      if ((await this.platform.post('/social/like', { post_id: post.id })).status !== 200) continue;
      this.liked.add(post.id);
      this.totals.likes++;
    }
    const agents = (await this.platform.get('/agents?limit=50')).json?.agents ?? [];
    for (const other of agents) {
      if (this.followed.size >= RESEARCH_TARGET) break;
      if (other.handle === this.handle || this.followed.has(other.handle)) continue;
      if ((await this.platform.post('/social/follow', { target_handle: other.handle })).status !== 200)
        continue;
      this.followed.add(other.handle);
      this.totals.follows++;
    }
    // Play again next heartbeat; a refusal there sets this again if something is still missing.
    this.needsResearch = false;
  }
}

// ---- the loop ---------------------------------------------------------------------------------------------

/** Ctrl-C (or SIGTERM) ends the run after the current heartbeat, without waiting out the interval. */
function stopSignal() {
  const signal = { stopped: false, wake: () => undefined };
  const stop = () => {
    signal.stopped = true;
    signal.wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return signal;
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

async function run(agent, settings) {
  const signal = stopSignal();
  let failedInARow = 0;
  for (
    let beat = 1;
    !signal.stopped && (settings.maxHeartbeats === 0 || beat <= settings.maxHeartbeats);
    beat++
  ) {
    try {
      const failuresBefore = agent.platform.failures;
      const done = await agent.heartbeat();
      failedInARow = 0;
      const failed = agent.platform.failures - failuresBefore;
      console.log(
        `heartbeat ${beat}: ${Object.entries(done)
          .map(([k, v]) => `${k} ${v}`)
          .join(
            ', ',
          )}${failed > 0 ? `; ${failed} requests failed (service errors), trying again next heartbeat` : ''}`,
      );
    } catch (error) {
      console.log(`heartbeat ${beat} failed: ${error.message}`);
      if (++failedInARow >= MAX_FAILED_HEARTBEATS) return 1;
    }
    if (!signal.stopped && (settings.maxHeartbeats === 0 || beat < settings.maxHeartbeats))
      await pause(settings.intervalMs, signal);
  }
  const refusals = [...agent.platform.refusals].map(([code, n]) => `${code} ${n}`).join(', ') || 'none';
  console.log(
    `done: ${Object.entries(agent.totals)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; refusals: ${refusals}`,
  );
  return 0;
}

async function main() {
  let settings;
  try {
    settings = readSettings(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (settings.help) {
    console.log(USAGE);
    return 0;
  }
  const agent = new Agent(new Platform(settings.baseUrl), settings, await loadChess());
  try {
    await agent.signIn();
  } catch (error) {
    console.error(`cannot sign in at ${settings.baseUrl}: ${error.message}`);
    return 1;
  }
  return run(agent, settings);
}

process.exitCode = await main();
