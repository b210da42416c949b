/**
 * The duel harness of `compare --agent`: an agent kind (a PersonaFactory handed to the world in the duel
 * scenario that src/compare/duel.ts builds, never named by a file) that wraps one player, a registered persona or the
 * user's module, and makes exactly one game happen: the White side challenges its opponent directly (the
 * platform gives the challenger White), the Black side accepts that challenge, and nothing else finds a
 * game. The wrapped player otherwise plays as it always does: every heartbeat it runs its own heartbeat
 * through a client whose game-finding requests (create or accept a challenge, create or join a tournament)
 * are answered 409 `duel_harness` without reaching the platform. Once the game is over the wrapper stops
 * calling the player and sends nothing more, so the rest of the world's time is idle heartbeats.
 */
import { dirname } from 'node:path';
import { PlatformClient, type ApiError } from '../client/client.js';
import type { Transport, TransportRequest, TransportResponse } from '../client/transport.js';
import { PERSONAS } from '../../agents/registry.js';
import { loadAgentModule } from '../../agents/adapters/byo.js';
import type { AgentContext, Persona, PersonaFactory } from '../../agents/persona.js';

export interface DuelOptions {
  /** The wrapped player: a registered persona name, or an absolute module path. */
  persona?: string;
  module?: string;
  /** The wrapped player's own options. */
  options?: Record<string, unknown>;
  colour: 'white' | 'black';
  /** The other duellist's handle. */
  opponent: string;
}

export const DUEL_BLOCKED_CODE = 'duel_harness';

/** Game finding the harness keeps to itself: method, and the path with ids replaced by `*`. */
const BLOCKED_ROUTES = new Set([
  'POST /api/chess/challenge',
  'POST /api/chess/challenges/*/accept',
  'POST /api/chess/tournaments',
  'POST /api/chess/tournaments/*/join',
]);

export class DuelPersona implements Persona {
  readonly #options: DuelOptions;
  #player: Persona | undefined;
  #playerContext: AgentContext | undefined;
  /** The duel's game, once challenged (White) or accepted (Black). */
  #gameId: string | undefined;
  #over = false;

  constructor(options: DuelOptions) {
    this.#options = options;
    if (options.persona !== undefined)
      this.#player = PERSONAS.get(options.persona)!.create(options.options ?? {});
  }

  async heartbeat(ctx: AgentContext): Promise<void> {
    if (this.#over) return;
    const player = await this.#wrapped();
    await player.heartbeat(this.#contextFor(ctx));
    if (this.#gameId === undefined) await this.#arrange(ctx);
    else await this.#checkOver(ctx, this.#gameId);
  }

  /** A module player is imported on the first heartbeat (an import is asynchronous; `create` is not). */
  async #wrapped(): Promise<Persona> {
    if (this.#player) return this.#player;
    const path = this.#options.module!;
    const factory = await loadAgentModule(path, dirname(path), this.#options.options ?? {});
    this.#player = factory.create(this.#options.options ?? {});
    return this.#player;
  }

  /** The player's view: the same handle, stream, clock and deferrals, through the game-finding filter. */
  #contextFor(ctx: AgentContext): AgentContext {
    if (this.#playerContext) return this.#playerContext;
    const client = new PlatformClient(new DuelTransport(ctx.client.transport), ctx.client.apiKey);
    this.#playerContext = {
      handle: ctx.handle,
      client,
      rng: ctx.rng,
      get nowMs() {
        return ctx.nowMs;
      },
      later: (delayMs, action) => ctx.later(delayMs, action),
    };
    return this.#playerContext;
  }

  /** White challenges the opponent; Black accepts the opponent's challenge. A refusal (research not done yet) is retried next heartbeat. */
  async #arrange(ctx: AgentContext): Promise<void> {
    const opponent = this.#options.opponent;
    if (this.#options.colour === 'white') {
      const created = await refusedAsUndefined(ctx.client.createChallenge({ opponent_handle: opponent }));
      this.#gameId = created?.challenge.game_id;
      return;
    }
    const mine = await ctx.client.myChallenges();
    const incoming = mine.direct_pending.find(
      (c) => c.direction === 'incoming' && c.opponent.handle === opponent,
    );
    if (!incoming) return;
    const accepted = await refusedAsUndefined(ctx.client.acceptChallenge(incoming.challenge_id));
    this.#gameId = accepted?.game.game_id;
  }

  /**
   * The duel is over when its game completes. The game exists from the accept on; before that, a
   * challenge that is no longer pending (it expired unanswered) is made again, as is a cancelled game.
   */
  async #checkOver(ctx: AgentContext, gameId: string): Promise<void> {
    const status: string | undefined = (await refusedAsUndefined(ctx.client.game(gameId)))?.status;
    if (status === 'completed') this.#over = true;
    else if (status === 'cancelled' || (status === undefined && !(await challengePending(ctx, gameId))))
      this.#gameId = undefined;
  }
}

async function challengePending(ctx: AgentContext, gameId: string): Promise<boolean> {
  const mine = await ctx.client.myChallenges();
  return mine.direct_pending.some((c) => c.game_id === gameId);
}

/**
 * A client refusal (4xx) is an answer the harness waits out; anything else (a 5xx, a thrown bug) is a fault
 * of the run. Read by the error's status, the one field every refusal the client raises carries.
 */
async function refusedAsUndefined<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    const status = (error as Partial<ApiError> | null)?.status;
    if (typeof status === 'number' && status < 500) return undefined;
    throw error;
  }
}

/** Passes every request through except game finding, which is answered 409 here and never reaches the platform. */
class DuelTransport implements Transport {
  constructor(private readonly inner: Transport) {}

  send(request: TransportRequest): Promise<TransportResponse> {
    if (!BLOCKED_ROUTES.has(routeKey(request))) return this.inner.send(request);
    const body = {
      success: false,
      error: DUEL_BLOCKED_CODE,
      message: 'compare duel: the harness arranges the only game of this world',
    };
    return Promise.resolve({ status: 409, body, headers: {} });
  }
}

/** `POST /api/chess/challenges/*\/accept`: ids (every segment after a known collection) replaced by `*`. */
function routeKey(request: TransportRequest): string {
  const path = request.path.split('?')[0]!.replace(/\/+$/, '');
  const segments = path
    .split('/')
    .map((segment, i, all) =>
      i >= 4 && (all[i - 1] === 'challenges' || all[i - 1] === 'tournaments') ? '*' : segment,
    );
  return `${request.method} ${segments.join('/')}`;
}

export function checkDuelOptions(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const known = new Set(['persona', 'module', 'options', 'colour', 'opponent']);
  for (const key of Object.keys(options)) if (!known.has(key)) problems.push(`${key}: unknown option`);
  const { persona, module, colour, opponent } = options;
  if ((persona === undefined) === (module === undefined))
    problems.push('persona or module: give exactly one');
  if (persona !== undefined && !(typeof persona === 'string' && PERSONAS.has(persona)))
    problems.push(
      `persona: not a registered persona: ${typeof persona === 'string' ? persona : JSON.stringify(persona)}`,
    );
  if (module !== undefined && typeof module !== 'string') problems.push('module: must be an absolute path');
  if (colour !== 'white' && colour !== 'black') problems.push('colour: must be white or black');
  if (typeof opponent !== 'string' || opponent === '')
    problems.push("opponent: must be the other duellist's handle");
  const inner = options['options'] ?? {};
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner))
    problems.push('options: must be a mapping');
  else if (typeof persona === 'string' && PERSONAS.has(persona))
    problems.push(
      ...PERSONAS.get(persona)!
        .checkOptions(inner as Record<string, unknown>)
        .map((p) => `options.${p}`),
    );
  return problems;
}

export const duelFactory: PersonaFactory = {
  name: 'duel',
  description:
    'compare --agent harness: one direct game against one opponent, the wrapped player choosing the moves',
  create: (options) => new DuelPersona(options as unknown as DuelOptions),
  checkOptions: checkDuelOptions,
};
