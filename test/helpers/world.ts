import { expect } from 'vitest';
import type { Api } from '../../src/api/dispatch.js';
import { HTTP_STATUS_BY_CODE } from '../../src/api/errors.js';
import type { ApiResponse, QueryValue } from '../../src/api/types.js';
import { ApiError, type PlatformClient } from '../../src/client/client.js';
import type { Transport } from '../../src/client/transport.js';
import type { ErrorCode } from '../../src/kernel/errors.js';
import type { Platform } from '../../src/platform/index.js';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import { resolveRuleset } from '../../src/rules/ruleset.js';
import type { NetworkConditions } from '../../src/escrow/network.js';
import { solToLamports } from '../../src/kernel/money.js';
import { airdrop } from '../../src/platform/money/transfers.js';
import { wirePlatform, type WiredPlatform } from '../../src/sim/wiring.js';

/**
 * Shared test fixtures: a fresh platform behind the route table, typed clients on the in-process
 * transport, and small helpers to register agents, start games and play lines of moves.
 */
export const START_MS = Date.UTC(2026, 2, 1, 12, 0, 0);
export const TURN_MS = 5 * 60_000;

export interface WorldOptions {
  seed?: string;
  startMs?: number;
  /** A deep partial of the ruleset, resolved with `resolveRuleset` (a bad override fails the test). */
  rules?: unknown;
  /** Mock Solana network conditions (latency, faults); the default settles in 400-2500 ms. */
  network?: NetworkConditions;
  /** Keep the ledger journal for a litesvm cross-check. */
  journal?: boolean;
}

export interface TestAgent {
  handle: string;
  id: string;
  apiKey: string;
  client: PlatformClient;
}

export interface RawRequest {
  method: string;
  path: string;
  key?: string;
  headers?: Record<string, string | undefined>;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

export class TestWorld {
  readonly platform: Platform;
  readonly api: Api;
  /** The route table, with every answer checked against its contract (a fault throws in the test). */
  readonly transport: Transport;
  readonly #wired: WiredPlatform;

  constructor(options: WorldOptions = {}) {
    const { ruleset, errors } = resolveRuleset(options.rules ?? {});
    if (errors.length > 0) throw new Error(`bad ruleset override: ${errors.join('; ')}`);
    this.#wired = wirePlatform({
      seed: options.seed ?? 'test-seed',
      startMs: options.startMs ?? START_MS,
      ruleset,
      network: options.network,
      ledgerJournal: options.journal ?? false,
      checkWire: 'throw',
    });
    this.platform = this.#wired.platform;
    this.api = this.#wired.api;
    this.transport = this.#wired.transport;
  }

  get nowMs(): number {
    return this.platform.nowMs;
  }

  client(apiKey?: string): PlatformClient {
    return this.#wired.client(apiKey);
  }

  /** A request straight through the route table, with an optional bearer key. */
  raw(request: RawRequest): ApiResponse {
    const headers = {
      ...(request.key !== undefined ? { authorization: `Bearer ${request.key}` } : {}),
      ...(request.headers ?? {}),
    };
    return this.api.handle({
      method: request.method,
      path: request.path,
      query: request.query ?? {},
      headers,
      body: request.body,
    });
  }

  /** Registers an agent and, unless `post: false`, completes its research phase with one post. */
  async agent(
    handle: string,
    options: { post?: boolean; bio?: string; tags?: string[] } = {},
  ): Promise<TestAgent> {
    const client = this.client();
    const input = {
      handle,
      ...(options.bio !== undefined ? { bio: options.bio } : {}),
      ...(options.tags ? { tags: options.tags } : {}),
    };
    const registered = await client.register(input);
    if (options.post !== false) await client.post(`hello from ${handle}`);
    return { handle, id: registered.agent_id, apiKey: registered.api_key, client };
  }

  /** `white` challenges `black` directly and `black` accepts: returns the game id. */
  async game(white: TestAgent, black: TestAgent): Promise<string> {
    const created = await white.client.createChallenge({ opponent_handle: black.handle });
    const accepted = await black.client.acceptChallenge(created.challenge.challenge_id);
    return accepted.game.game_id;
  }

  /** Plays `moves` alternately, White first unless the game already has an odd number of plies. */
  async play(gameId: string, white: TestAgent, black: TestAgent, moves: readonly string[]): Promise<void> {
    for (const text of moves) {
      const detail = await white.client.game(gameId);
      const mover = detail.move_count % 2 === 0 ? white : black;
      await mover.client.move({ game_id: gameId, move_san: text });
    }
  }

  /** `count` posted agents named `${prefix}1`, `${prefix}2`, ..., each given `sol` by airdrop when above 0. */
  async agents(count: number, options: { prefix?: string; sol?: number } = {}): Promise<TestAgent[]> {
    const out: TestAgent[] = [];
    for (let i = 1; i <= count; i++) {
      const agent = await this.agent(`${options.prefix ?? 'player'}${i}`);
      if ((options.sol ?? 0) > 0) this.airdrop(agent, options.sol!);
      out.push(agent);
    }
    return out;
  }

  /** Mints SOL into an agent's wallet, as a scenario airdrop does. */
  airdrop(agent: TestAgent, sol: number): void {
    airdrop(this.platform, this.platform.state.agents.get(agent.id)!.walletAddress, solToLamports(sol)!);
  }

  /** An agent's wallet balance in lamports, straight from the ledger. */
  balance(agent: TestAgent): number {
    return this.platform.ledger.balance(this.platform.state.agents.get(agent.id)!.walletAddress);
  }

  /** Moves virtual time (fires due platform timers). */
  advanceTo(ms: number): void {
    this.platform.advanceTo(ms);
  }

  advanceBy(ms: number): void {
    this.platform.advanceTo(this.platform.nowMs + ms);
  }

  fingerprint(includeUsage = false): string {
    return stateFingerprint(this.platform, { includeUsage });
  }
}

/** Every transfer lands exactly 1 s after it is queued, and none is lost: money timings become exact. */
export const FIXED_NETWORK: NetworkConditions = { latencyMinMs: 1000, latencyMaxMs: 1000, faultRate: 0 };

export function newWorld(options: WorldOptions = {}): TestWorld {
  return new TestWorld(options);
}

/** Fool's mate: the shortest checkmate, Black wins. */
export const FOOLS_MATE = ['f3', 'e5', 'g4', 'Qh4#'] as const;

/** Awaits a client call that must fail, and checks its wire code and the registry's status for it. */
export async function expectApiError(call: Promise<unknown>, code: ErrorCode): Promise<ApiError> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${code}, but the call succeeded`).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect(error.code).toBe(code);
  expect(error.status).toBe(HTTP_STATUS_BY_CODE[code]);
  return error;
}

/** Like `expectApiError`, and the platform state (usage counters aside) is the same afterwards. */
export async function expectRejectedUnchanged(
  world: TestWorld,
  call: () => Promise<unknown>,
  code: ErrorCode,
): Promise<ApiError> {
  const before = world.fingerprint();
  const error = await expectApiError(call(), code);
  expect(world.fingerprint()).toBe(before);
  return error;
}

/** A raw response must be an error with this code and the registry's status. */
export function expectErrorResponse(response: ApiResponse, code: ErrorCode): void {
  expect((response.body as { error?: unknown }).error).toBe(code);
  expect(response.status).toBe(HTTP_STATUS_BY_CODE[code]);
}
