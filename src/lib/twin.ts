import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { InvariantResult } from '../api/contract/control.js';
import type { ChallengeView } from '../api/contract/challenges.js';
import type { EscrowFields, GameDetail, GameSummary } from '../api/contract/games.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { parseDurationMs, parseIsoInstant, toIso } from '../kernel/clock.js';
import type { FaultProfile } from '../faults/profile.js';
import { faultProfileFrom } from '../faults/profile-file.js';
import { guardCheck } from '../http/guard.js';
import { LiveServer } from '../http/live-server.js';
import { newControlToken, newKeySecret } from '../http/secrets.js';
import { buildServer, type RequestHandler } from '../http/server.js';
import type { QuotaPolicy } from '../rules/daily-quota.js';
import { LiveWorld, UNSLICED, type LiveSnapshot } from '../sim/live.js';
import type { ScenarioWithSource } from '../sim/scenario/scenario.js';
import {
  DEFAULT_SERVE_SCENARIO,
  loadServeScenario,
  readMapping,
  serveScenarioFromRecord,
  wholeSecondIso,
  type ResearchPreset,
  type ServeChoices,
} from './serve-scenario.js';
import { socketlessFetch } from './socketless-fetch.js';
import { globalTestClock, type TestClock } from './test-clock.js';

/**
 * The twin inside a test: `startTwin()` runs the same live world and HTTP server as `serve`, in the test's
 * own process, and hands back what a test needs to drive it (README, "Testing your agent").
 */

/** A duration as scenario files write it (`90s`, `5m`, `2h`, `1d`) or milliseconds. */
export type Duration = string | number;

export interface TwinOptions {
  /** A scenario file, or a scenario record as its YAML would parse (default: `serve`'s population). */
  scenario?: string | Record<string, unknown>;
  /** Replaces the scenario's population (scenario-file entries; `[]` for a twin with no background agents). */
  population?: readonly Record<string, unknown>[];
  /** Overrides the scenario's seed. */
  seed?: string | number;
  /** The virtual clock's start, UTC (default: the scenario's, else DEFAULT_TWIN_START; under `clock: 'timers'`, the test clock's now). */
  start?: string;
  /** Past the daily request quota: warn (default), enforce (429) or off, as `serve --quota`. */
  quota?: QuotaPolicy;
  /** Onboarding before play: strict (default, the real service's) or spec, as `serve --research`. */
  research?: ResearchPreset;
  /**
   * `manual` (default): the clock moves only through advance, set, step and runUntil (and /_sim/clock).
   * `timers`: the virtual clock follows `Date.now()` of the test (install fake timers first); the world catches
   * up whenever it is looked at. A custom clock gives both halves of that explicitly.
   */
  clock?: 'manual' | 'timers' | TestClock;
  /** Listen on a TCP port (default true); false serves only `twin.fetch`. */
  listen?: boolean;
  /** Port to listen on (default 0: a free one). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** The /_sim control token (default: 32 random bytes). */
  controlToken?: string;
  /**
   * A fault profile (`serve --faults`): a YAML or JSON file, or the profile as a record. It is acted out on
   * the socket only (latency, 5xx, resets, ...); `twin.fetch` and the helpers answer without faults.
   */
  faults?: string | Record<string, unknown>;
}

/** Where a twin with no scenario start of its own begins in `manual` mode: a fixed instant, so runs repeat. */
export const DEFAULT_TWIN_START = '2026-01-01T00:00:00Z';

/** An agent registered through the twin: its key is what the agent under test is configured with. */
export interface TwinAgent {
  handle: string;
  agentId: string;
  apiKey: string;
  walletAddress: string;
}

export interface RegisterOptions {
  bio?: string;
  tags?: string[];
  /** Pass the research phase: publish the verification text and verify, plus one post (default true). */
  onboard?: boolean;
  /** Lamports minted into the wallet (the simulator's faucet), for stakes and tournament fees. */
  lamports?: number;
}

export interface ChallengeOptions {
  /** A direct challenge to this handle; without one the challenge is open to anyone. */
  opponent?: string;
  /** A stake in SOL each side deposits (a bounty game). */
  bountySol?: number;
}

export interface RunUntilOptions {
  /** Give up (TwinError `twin_timeout`) when the predicate is still false this much virtual time later. */
  within: Duration;
  /** How far the clock moves between two looks (default 1s). */
  step?: Duration;
}

export interface WaitForGameOptions {
  /** The game to wait for (default: the agent's first game not over when the wait begins, or the next one it starts). */
  gameId?: string;
  /** Default 1d. */
  within?: Duration;
  /** Default 1s. */
  step?: Duration;
}

/** The answer to an accept: the game, and its stake and escrow fields (null for a plain game). */
export type AcceptAnswer = { success: true; game: GameSummary } & EscrowFields;

/** An answer of the twin's API as a helper reads it. */
export interface TwinAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string>;
}

export interface TwinRequestOptions {
  /** Call as this agent (its key as a bearer token), or with this API key. */
  as?: TwinAgent | string;
  body?: unknown;
  /** Send the control token (the /_sim routes). */
  control?: boolean;
}

/** A refusal of the library itself, with a stable code: a bad option, a helper's request refused, a wait that ran out. */
export class TwinError extends Error {
  constructor(
    readonly code: 'twin_option' | 'twin_clock' | 'twin_request' | 'twin_timeout' | 'twin_closed',
    message: string,
    readonly answer?: TwinAnswer,
  ) {
    super(message);
    this.name = 'TwinError';
  }
}

/** Starts a twin; `await using twin = await startTwin()` closes it at the end of the block. */
export async function startTwin(options: TwinOptions = {}): Promise<Twin> {
  const testClock = clockOf(options.clock);
  const loaded = twinScenario(options, testClock);
  const world = await LiveWorld.start(loaded, { keySecret: newKeySecret() });
  const faults = faultProfileOf(options.faults);
  const live = new LiveServer(world, {
    clock: { manual: true, speed: 1 },
    own: loaded,
    ...(faults ? { faults } : {}),
  });
  const twin = new Twin(live, options.controlToken ?? newControlToken(), testClock);
  if (options.listen !== false) await twin.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  return twin;
}

function clockOf(clock: TwinOptions['clock']): TestClock | undefined {
  if (clock === undefined || clock === 'manual') return undefined;
  if (clock === 'timers') return globalTestClock();
  if (typeof clock.now !== 'function' || typeof clock.sleep !== 'function')
    throw new TwinError('twin_option', "clock: 'manual', 'timers', or an object with now() and sleep(ms)");
  return clock;
}

function faultProfileOf(faults: TwinOptions['faults']): FaultProfile | undefined {
  if (faults === undefined) return undefined;
  const loaded = faultProfileFrom(faults);
  if (typeof loaded === 'string') throw new TwinError('twin_option', `faults: ${loaded}`);
  return loaded;
}

function twinScenario(options: TwinOptions, testClock: TestClock | undefined): ScenarioWithSource {
  const choices: ServeChoices = {
    seed: options.seed === undefined ? undefined : String(options.seed),
    start: options.start,
    quota: options.quota,
    research: options.research,
  };
  const defaultStart = testClock ? wholeSecondIso(testClock.now()) : DEFAULT_TWIN_START;
  const scenario = options.scenario ?? DEFAULT_SERVE_SCENARIO;
  if (typeof scenario === 'string' && options.population === undefined) {
    const startMs = parseIsoInstant(defaultStart) ?? 0;
    return loadServeScenario(scenario, choices, startMs);
  }
  const own = typeof scenario === 'string' ? readMapping(scenario) : scenario;
  if (own === undefined) return loadServeScenario(scenario as string, choices, 0); // the loader says what is wrong
  const record = options.population ? { ...own, population: options.population } : own;
  return serveScenarioFromRecord(
    record,
    typeof scenario === 'string' ? scenario : 'startTwin scenario',
    choices,
    defaultStart,
  );
}

/** A running twin. Every helper goes through the same route table an agent's requests do. */
export class Twin {
  /** `http://127.0.0.1:PORT` (empty when started with `listen: false`). */
  url = '';
  /** A `fetch` served without a socket: give it to an agent that takes a `fetch` (needed under fake timers). */
  readonly fetch: typeof fetch;
  readonly #live: LiveServer;
  readonly #controlToken: string;
  readonly #handler: RequestHandler;
  readonly #testClock: TestClock | undefined;
  /** Under `clock: 'timers'`: the test clock's reading and the virtual time that stand for each other. */
  #origin = { testMs: 0, virtualMs: 0 };
  #catchingUp: Promise<void> = Promise.resolve();
  #app: FastifyInstance | undefined;
  #closed = false;

  constructor(live: LiveServer, controlToken: string, testClock: TestClock | undefined) {
    this.#live = live;
    this.#controlToken = controlToken;
    this.#testClock = testClock;
    this.#rebase();
    this.#handler = { handle: (request) => this.#answer(request) };
    this.fetch = socketlessFetch(
      this.#handler,
      guardCheck({ controlToken }),
      live.largeBodies().map((route) => route.path),
    );
  }

  /** The /_sim control token (`Authorization: Bearer <token>`). */
  get controlToken(): string {
    return this.#controlToken;
  }

  /** The API's base URL, `url + '/api'`. */
  get apiUrl(): string {
    return this.url ? `${this.url}/api` : '';
  }

  /** Virtual now in milliseconds (under `clock: 'timers'`, where the test clock says the world is). */
  get nowMs(): number {
    return this.#testClock ? this.#followedMs() : this.#live.nowMs;
  }

  /** Virtual now as an ISO instant. */
  get now(): string {
    return toIso(this.nowMs);
  }

  async listen(port: number, host: string): Promise<void> {
    const app = buildServer(this.#handler, {
      guard: { controlToken: this.#controlToken, allowedHosts: [host] },
      virtualNowMs: () => this.#live.nowMs,
      largeBodies: this.#live.largeBodies(),
      faults: this.#live.httpFaults,
    });
    await app.listen({ port, host });
    this.#app = app;
    const address = app.server.address() as AddressInfo;
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  // ------------------------------------------------------------------------------------------ requests

  /** One API call through the route table, as an agent (or with the control token); never throws on a refusal. */
  async request<T = unknown>(
    method: string,
    path: string,
    options: TwinRequestOptions = {},
  ): Promise<TwinAnswer<T>> {
    this.#open();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = typeof options.as === 'string' ? options.as : options.as?.apiKey;
    if (options.control) headers['authorization'] = `Bearer ${this.#controlToken}`;
    else if (key) headers['authorization'] = `Bearer ${key}`;
    const answer = await this.#handler.handle({ method, path, headers, body: options.body });
    const body = (answer.text === undefined ? answer.body : JSON.parse(answer.text)) as T;
    return { status: answer.status, body, headers: answer.headers ?? {} };
  }

  /** `request`, for a call a helper needs to succeed: a refusal is a TwinError `twin_request` naming it. */
  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: TwinRequestOptions = {},
  ): Promise<T> {
    const answer = await this.request<T>(method, path, options);
    if (answer.status < 400) return answer.body;
    const refusal = answer.body as { error?: unknown; message?: unknown };
    const code = typeof refusal.error === 'string' ? refusal.error : 'error';
    const message = typeof refusal.message === 'string' ? refusal.message : JSON.stringify(answer.body);
    throw new TwinError('twin_request', `${method} ${path}: ${answer.status} ${code}: ${message}`, answer);
  }

  /** Registers an agent and, unless `onboard: false`, passes its research phase so it may play at once. */
  async register(handle: string, options: RegisterOptions = {}): Promise<TwinAgent> {
    const registered = await this.call<{
      agent_id: string;
      api_key: string;
      wallet_address: string;
      verification_tweet_format: string;
    }>('POST', '/api/register', { body: { handle, bio: options.bio, tags: options.tags } });
    const agent: TwinAgent = {
      handle,
      agentId: registered.agent_id,
      apiKey: registered.api_key,
      walletAddress: registered.wallet_address,
    };
    if (options.onboard !== false) await this.#onboard(agent, registered.verification_tweet_format);
    if (options.lamports) await this.airdrop(agent, options.lamports);
    return agent;
  }

  /** Verification on the mock external network (unlocks play under either preset), and a first post. */
  async #onboard(agent: TwinAgent, verificationText: string): Promise<void> {
    await this.call('POST', '/_sim/network/posts', {
      control: true,
      body: { handle: agent.handle, text: verificationText },
    });
    await this.call('POST', '/api/verify', { as: agent, body: { twitter_handle: agent.handle } });
    await this.call('POST', '/api/social/post', {
      as: agent,
      body: { content: `hello from ${agent.handle}` },
    });
  }

  /** Opens a challenge on the agent's behalf: the challenge as its wire view (`challenge_id`, `status`, `expires_at`). */
  async challenge(agent: TwinAgent, options: ChallengeOptions = {}): Promise<ChallengeView> {
    const body = { opponent_handle: options.opponent ?? null, bounty_sol: options.bountySol ?? null };
    const answer = await this.call<{ challenge: ChallengeView }>('POST', '/api/chess/challenge', {
      as: agent,
      body,
    });
    return answer.challenge;
  }

  /** Accepts a challenge on the agent's behalf: the answer carries the `game` (its `game_id`) and any escrow. */
  accept(agent: TwinAgent, challengeId: string): Promise<AcceptAnswer> {
    return this.call('POST', `/api/chess/challenges/${encodeURIComponent(challengeId)}/accept`, {
      as: agent,
    });
  }

  /** A game as its player (or anyone, without `as`) reads it. */
  game(gameId: string, as?: TwinAgent): Promise<GameDetail> {
    return this.call<GameDetail>('GET', `/api/chess/games/${encodeURIComponent(gameId)}`, as ? { as } : {});
  }

  /** Mints lamports into an agent's wallet (the simulator's faucet); returns the new balance. */
  async airdrop(agent: TwinAgent | string, lamports: number): Promise<number> {
    this.#open();
    await this.#catchUp();
    const handle = typeof agent === 'string' ? agent : agent.handle;
    return this.#live.airdrop(handle, lamports).balanceLamports;
  }

  // ------------------------------------------------------------------------------------------ the clock

  /** Moves the clock forward, running every world event on the way; returns the new virtual now. */
  async advance(duration: Duration): Promise<number> {
    return this.set(this.#live.nowMs + durationOf(duration, 'advance'));
  }

  /** Moves the clock to an instant (ISO or milliseconds), not before now. */
  async set(time: string | number): Promise<number> {
    this.#manualOnly('set');
    const toMs = typeof time === 'number' ? time : parseIsoInstant(time);
    if (toMs === undefined || !Number.isSafeInteger(toMs) || toMs < this.#live.nowMs)
      throw new TwinError('twin_clock', `set: ${String(time)} is not an instant at or after ${this.now}`);
    await this.#live.advanceTo(toMs);
    return this.#live.nowMs;
  }

  /** Moves to the next platform deadline or timer (a turn deadline, an expiry, a transfer); null when none is due. */
  async step(): Promise<number | null> {
    this.#manualOnly('step');
    return this.#live.stepToNextTimer();
  }

  /**
   * Looks at `predicate`, and until it holds moves the clock by `step` (in `manual` mode) or waits `step` on
   * the test's timers (in `timers` mode, where the test's own timer calls move time). Returns the virtual
   * time at which it held; a TwinError `twin_timeout` when `within` ran out first.
   */
  async runUntil(predicate: () => boolean | Promise<boolean>, options: RunUntilOptions): Promise<number> {
    const within = durationOf(options.within, 'within');
    const step = Math.max(1, durationOf(options.step ?? 1000, 'step'));
    const deadline = this.nowMs + within;
    for (;;) {
      this.#open();
      if (await predicate()) return this.nowMs;
      const left = deadline - this.nowMs;
      if (left <= 0)
        throw new TwinError(
          'twin_timeout',
          `runUntil: not true within ${String(options.within)} (virtual ${toIso(deadline)})`,
        );
      if (this.#testClock) await this.#testClock.sleep(Math.min(step, left));
      else await this.advance(Math.min(step, left));
    }
  }

  /**
   * Waits (as runUntil) for a game of the agent to end, and returns it as the agent reads it (result,
   * end_reason, winner_handle, moves). Without `gameId`: the agent's first game not over when the wait
   * begins, else the next game it starts.
   */
  async waitForGameEnd(agent: TwinAgent, options: WaitForGameOptions = {}): Promise<GameDetail> {
    let gameId = options.gameId ?? (await this.#unfinishedGameOf(agent));
    let ended: GameDetail | undefined;
    const within = options.within ?? '1d';
    await this.runUntil(
      async () => {
        gameId ??= await this.#unfinishedGameOf(agent);
        if (gameId === undefined) return false;
        // A challenge's id names its game, which exists once the challenge is accepted.
        const answer = await this.request<GameDetail>(
          'GET',
          `/api/chess/games/${encodeURIComponent(gameId)}`,
          {
            as: agent,
          },
        );
        if (answer.status === 404) return false;
        const game = answer.body;
        if (answer.status >= 400 || (game.status !== 'completed' && game.status !== 'cancelled'))
          return false;
        ended = game;
        return true;
      },
      { within, step: options.step ?? 1000 },
    );
    return ended!;
  }

  async #unfinishedGameOf(agent: TwinAgent): Promise<string | undefined> {
    const handle = encodeURIComponent(agent.handle);
    for (const status of ['active', 'pending']) {
      const page = await this.call<{ games: { game_id: string }[] }>(
        'GET',
        `/api/chess/games?player_handle=${handle}&status=${status}`,
      );
      if (page.games[0]) return page.games[0].game_id;
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------- world state

  /** Everything a restore needs, the key secret included: keep it with the test, never publish it. */
  async snapshot(): Promise<LiveSnapshot> {
    this.#open();
    await this.#catchUp();
    return JSON.parse(this.#live.snapshotText()) as LiveSnapshot;
  }

  /** Replaces the world with a snapshot's (of this twin or another); agents' keys are the snapshot's. */
  async restore(snapshot: LiveSnapshot | string): Promise<void> {
    this.#open();
    await this.#catchUp();
    await this.#live.restore(typeof snapshot === 'string' ? JSON.parse(snapshot) : snapshot);
    this.#rebase();
  }

  /** Every invariant checker's result so far (a passed flag, checks, the first violations). */
  async invariants(): Promise<InvariantResult[]> {
    this.#open();
    await this.#catchUp();
    return this.#live.invariantResults();
  }

  /** The invariant results that failed; empty when every checker passed. */
  async violations(): Promise<InvariantResult[]> {
    return (await this.invariants()).filter((result) => !result.passed);
  }

  /** The fingerprint of the world's event log so far: the same seed and requests give the same one. */
  async fingerprint(): Promise<string> {
    this.#open();
    await this.#catchUp();
    return this.#live.current.world.fingerprintSoFar();
  }

  /** Stops the HTTP server (if any) and any clock job; later helper calls throw `twin_closed`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#live.cancel();
    await this.#app?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ------------------------------------------------------------------------------------- internals

  /** Every request (socket, socketless or a helper's): the world first catches up with the test clock. */
  async #answer(request: ApiRequest): Promise<ApiResponse> {
    await this.#catchUp();
    return this.#live.handle(request);
  }

  #followedMs(): number {
    const clock = this.#testClock!;
    return this.#origin.virtualMs + Math.max(0, clock.now() - this.#origin.testMs);
  }

  #rebase(): void {
    if (this.#testClock) this.#origin = { testMs: this.#testClock.now(), virtualMs: this.#live.nowMs };
  }

  /** Under `clock: 'timers'`, runs the world up to the test clock's now; catch-ups queue, one at a time. */
  #catchUp(): Promise<void> {
    if (!this.#testClock) return Promise.resolve();
    const next = this.#catchingUp.then(async () => {
      const target = this.#followedMs();
      if (target <= this.#live.nowMs) return;
      await this.#live.exclusive('advance', () => this.#live.current.advanceTo(target, UNSLICED));
    });
    this.#catchingUp = next.catch(() => undefined);
    return next;
  }

  #manualOnly(what: string): void {
    this.#open();
    if (this.#testClock)
      throw new TwinError(
        'twin_clock',
        `${what}: this twin's clock follows the test's timers (clock: 'timers'); advance those instead (vi.advanceTimersByTimeAsync)`,
      );
  }

  #open(): void {
    if (this.#closed) throw new TwinError('twin_closed', 'this twin was closed');
  }
}

function durationOf(value: Duration, what: string): number {
  const ms = parseDurationMs(value);
  if (ms === undefined)
    throw new TwinError(
      'twin_option',
      `${what}: ${String(value)} is not a duration (90s, 5m, 2h, 1d or milliseconds)`,
    );
  return ms;
}
