/**
 * The machinery of the HTTP load (section `http`, bench/http-split.ts): the twin and the bare baseline
 * servers, a keep-alive JSON client, and the agents' loop. Hundreds of agents register, post once, pair up
 * by direct challenge, then poll my-turn and move as fast as the server answers, re-challenging when a
 * game ends. The virtual clock never moves here, so no deadline fires; the daily quota is lifted so the
 * loop is measured, not throttled. The load itself runs in a child process (bench/load-client.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildServer } from '../src/http/server.js';
import { Rng } from '../src/kernel/rng.js';
import type { Platform } from '../src/platform/platform.js';
import { legalMoves, newBoard, toWireUci } from '../src/rules/chess/chess.js';
import { ONBOARDING_PRESETS, resolveRuleset, type DeepPartial, type Ruleset } from '../src/rules/ruleset.js';
import { wirePlatform } from '../src/sim/wiring.js';
import { percentile } from './figures.js';

// --- a keep-alive JSON client over http.request -----------------------------------------------------------

/** The answer fields this load reads; the rest of a JSON answer passes through unread. */
export interface AnswerBody {
  error?: string;
  api_key?: string;
  challenge?: { challenge_id: string };
  games?: { game_id: string; current_fen: string }[];
  game_status?: string;
}

export interface Answer {
  status: number;
  body: AnswerBody | null;
}

/** What the agents' loop needs of a client: bench/raw-load.ts's RawClient is the cheaper one (P3). */
export interface JsonClient {
  send(method: string, path: string, options?: { body?: unknown; apiKey?: string }): Promise<Answer>;
  close(): void;
}

/** One keep-alive socket pool per server: every worker reuses a connection instead of opening one per request. */
export class LoopbackClient implements JsonClient {
  readonly #agent: http.Agent;
  readonly #port: number;

  constructor(port: number, sockets: number) {
    this.#port = port;
    // maxFreeSockets defaults to 256: between rounds every socket is idle, and the excess would be closed
    // and reopened all at once at the next round's start, which shows up as seconds-long p99 outliers.
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  send(method: string, path: string, options: { body?: unknown; apiKey?: string } = {}): Promise<Answer> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {};
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
    return new Promise((resolve, reject) => {
      const request = http.request(
        { agent: this.#agent, host: '127.0.0.1', port: this.#port, method, path, headers },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: text ? (JSON.parse(text) as AnswerBody) : null,
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

// --- recording --------------------------------------------------------------------------------------------

export const REQUEST_KINDS = ['poll', 'move', 'challenge', 'accept', 'bare'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** What one round measured: per-kind request durations (ms), games finished, and any non-200 answers. */
export class LoadRecorder {
  readonly durations = new Map<RequestKind, number[]>(REQUEST_KINDS.map((k) => [k, []]));
  /** "kind status error_code" -> count; a healthy run has none. */
  readonly unexpected = new Map<string, number>();
  gamesCompleted = 0;

  async timed(kind: RequestKind, send: () => Promise<Answer>): Promise<Answer> {
    const start = performance.now();
    const answer = await send();
    this.durations.get(kind)!.push(performance.now() - start);
    if (answer.status !== 200) {
      const key = `${kind} ${answer.status} ${answer.body?.error ?? ''}`.trim();
      this.unexpected.set(key, (this.unexpected.get(key) ?? 0) + 1);
    }
    return answer;
  }

  count(kind: RequestKind): number {
    return this.durations.get(kind)!.length;
  }

  requests(): number {
    return REQUEST_KINDS.reduce((sum, kind) => sum + this.count(kind), 0);
  }

  all(): number[] {
    return REQUEST_KINDS.flatMap((kind) => this.durations.get(kind)!);
  }
}

/** Nearest-rank percentile (bench/figures.ts), exported here too for the load test. */
export { percentile };

/**
 * A round ends at a wall-clock deadline or once a count is reached, whichever comes first. A move count
 * alone is no bound (stalled games never reach it), so a rule needs seconds or requests.
 */
export interface StopRule {
  seconds?: number;
  moves?: number;
  requests?: number;
}

function stopper(rule: StopRule, recorder: LoadRecorder): () => boolean {
  if (rule.seconds === undefined && rule.requests === undefined)
    throw new Error('load: unbounded round (give seconds or requests)');
  const deadline = rule.seconds === undefined ? Infinity : performance.now() + rule.seconds * 1000;
  return () =>
    performance.now() >= deadline ||
    (rule.moves !== undefined && recorder.count('move') >= rule.moves) ||
    (rule.requests !== undefined && recorder.requests() >= rule.requests);
}

export interface RoundResult {
  recorder: LoadRecorder;
  ms: number;
}

async function runRound(
  workers: number,
  rule: StopRule,
  step: (worker: number, recorder: LoadRecorder) => Promise<void>,
): Promise<RoundResult> {
  const recorder = new LoadRecorder();
  const done = stopper(rule, recorder);
  const start = performance.now();
  const loop = async (worker: number) => {
    while (!done()) await step(worker, recorder);
  };
  await Promise.all(Array.from({ length: workers }, (_, worker) => loop(worker)));
  return { recorder, ms: performance.now() - start };
}

// --- servers ----------------------------------------------------------------------------------------------

export interface Served {
  app: FastifyInstance;
  port: number;
}

async function listen(app: FastifyInstance): Promise<Served> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** The load ruleset: no daily quota, and the research phase is one post (the spec's own preset, stated here). */
const LOAD_RULESET_OVERRIDES = {
  api: { requestsPerDay: Number.MAX_SAFE_INTEGER },
  research: ONBOARDING_PRESETS.spec,
};

export async function startTwin(
  seed: string,
  overrides: DeepPartial<Ruleset> = {},
): Promise<Served & { platform: Platform }> {
  const base = resolveRuleset(LOAD_RULESET_OVERRIDES);
  const { ruleset, errors } = resolveRuleset(overrides, base.ruleset);
  if (base.errors.length + errors.length > 0)
    throw new Error(`load ruleset: ${[...base.errors, ...errors].join('; ')}`);
  const { platform, api } = wirePlatform({ seed, startMs: Date.UTC(2026, 0, 1), ruleset });
  return { ...(await listen(buildServer(api))), platform };
}

/**
 * A my-turn answer with one game, as the twin writes it: the body of the bare server's `/bare-sized` route,
 * so the bytes an answer carries can be told apart from the work of finding it.
 */
export const MY_TURN_SIZED_ANSWER = {
  games: [
    {
      game_id: '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
      id: '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
      current_fen: 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
      move_count: 4,
      my_color: 'white',
      white_player: { handle: 'load_agent_0123', elo: 1200 },
      black_player: { handle: 'load_agent_0124', elo: 1200 },
      turn_deadline_at: '2026-01-01T00:05:00.000Z',
    },
  ],
  total: 1,
};

/** The baseline: fastify with one JSON route (and the same route answering a my-turn answer's bytes). */
export async function startBare(): Promise<Served> {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ ok: true }));
  app.get('/bare-sized', async () => MY_TURN_SIZED_ANSWER);
  return listen(app);
}

// --- the twin's agents ------------------------------------------------------------------------------------

interface LoadAgent {
  handle: string;
  apiKey: string;
  rng: Rng;
}

/** A challenger and its fixed opponent; the pair's phase says who acts next outside the game itself. */
interface Pair {
  challenger: LoadAgent;
  opponent: LoadAgent;
  phase: 'needs_challenge' | 'challenged' | 'playing';
  challengeId: string | null;
}

export interface LoadWorld {
  agents: LoadAgent[];
  pairs: Pair[];
}

/** Registers and posts once for every agent (all at once), then pairs them: agent 2i challenges agent 2i+1. */
export async function enrolAgents(client: JsonClient, count: number, seed: string): Promise<LoadWorld> {
  if (count < 2 || count % 2 !== 0) throw new Error(`load: agents must be an even number >= 2, got ${count}`);
  const rng = new Rng(seed).fork('load');
  const handles = Array.from({ length: count }, (_, i) => `load_${String(i).padStart(4, '0')}`);
  const agents = await Promise.all(handles.map((handle) => enrolOne(client, handle, rng.fork(handle))));
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i += 2)
    pairs.push({
      challenger: agents[i]!,
      opponent: agents[i + 1]!,
      phase: 'needs_challenge',
      challengeId: null,
    });
  return { agents, pairs };
}

async function enrolOne(client: JsonClient, handle: string, rng: Rng): Promise<LoadAgent> {
  const registered = await client.send('POST', '/api/register', { body: { handle } });
  if (registered.status !== 200)
    throw new Error(`load: register ${handle}: ${registered.status} ${JSON.stringify(registered.body)}`);
  const apiKey = registered.body!.api_key!;
  const posted = await client.send('POST', '/api/social/post', {
    apiKey,
    body: { content: `${handle} is here to play.` },
  });
  if (posted.status !== 200)
    throw new Error(`load: post ${handle}: ${posted.status} ${JSON.stringify(posted.body)}`);
  return { handle, apiKey, rng };
}

/** One step of one agent: its pair duty if it has one (challenge or accept), else a my-turn poll and its moves. */
async function agentStep(
  client: JsonClient,
  pair: Pair,
  agent: LoadAgent,
  recorder: LoadRecorder,
): Promise<void> {
  if (pair.phase === 'needs_challenge' && agent === pair.challenger) return challenge(client, pair, recorder);
  if (pair.phase === 'challenged' && agent === pair.opponent) return accept(client, pair, recorder);
  const turn = await recorder.timed('poll', () =>
    client.send('GET', '/api/chess/games/my-turn', { apiKey: agent.apiKey }),
  );
  for (const game of turn.body?.games ?? []) await move(client, pair, agent, game, recorder);
}

async function challenge(client: JsonClient, pair: Pair, recorder: LoadRecorder): Promise<void> {
  const body = { opponent_handle: pair.opponent.handle };
  const answer = await recorder.timed('challenge', () =>
    client.send('POST', '/api/chess/challenge', { apiKey: pair.challenger.apiKey, body }),
  );
  if (answer.status !== 200) return; // stays needs_challenge: the next step tries again
  pair.challengeId = answer.body!.challenge!.challenge_id;
  pair.phase = 'challenged';
}

async function accept(client: JsonClient, pair: Pair, recorder: LoadRecorder): Promise<void> {
  const path = `/api/chess/challenges/${encodeURIComponent(pair.challengeId!)}/accept`;
  const answer = await recorder.timed('accept', () =>
    client.send('POST', path, { apiKey: pair.opponent.apiKey }),
  );
  if (answer.status === 200) pair.phase = 'playing';
}

/** A uniformly random legal move on the agent's own board, parsed from the FEN my-turn returned. */
async function move(
  client: JsonClient,
  pair: Pair,
  agent: LoadAgent,
  game: { game_id: string; current_fen: string },
  recorder: LoadRecorder,
): Promise<void> {
  const board = newBoard(game.current_fen);
  const uci = toWireUci(board, agent.rng.pick(legalMoves(board)));
  const body = { game_id: game.game_id, move_uci: uci };
  const answer = await recorder.timed('move', () =>
    client.send('POST', '/api/chess/move', { apiKey: agent.apiKey, body }),
  );
  if (answer.status !== 200 || answer.body!.game_status === 'active') return;
  recorder.gamesCompleted++;
  pair.phase = 'needs_challenge';
}

/** Every agent loops (pair duty, or poll and move) until the stop rule holds; a round leaves the pairs where they are. */
export function runTwinRound(client: JsonClient, world: LoadWorld, rule: StopRule): Promise<RoundResult> {
  const seats = world.pairs.flatMap((pair) =>
    [pair.challenger, pair.opponent].map((agent) => ({ pair, agent })),
  );
  return runRound(seats.length, rule, (worker, recorder) =>
    agentStep(client, seats[worker]!.pair, seats[worker]!.agent, recorder),
  );
}

/** The same closed loop against the bare route: each worker sends its next request when the last one answers. */
export function runBareRound(client: JsonClient, workers: number, rule: StopRule): Promise<RoundResult> {
  return runRound(workers, rule, async (_worker, recorder) => {
    await recorder.timed('bare', () => client.send('GET', '/bare'));
  });
}
