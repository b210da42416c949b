/**
 * random: posts once (the research phase), then on every heartbeat plays a uniformly random legal move in
 * each game where it is on move, accepts direct challenges aimed at it, accepts open challenges, and
 * creates open and direct challenges, some with a bounty when `bountyShare` > 0 (its wallet then runs
 * down and up, and insufficient_balance refusals happen naturally). It writes its moves in every notation real agents use (SAN with and
 * without check marks, `0-0`, UCI, both fields at once) so the platform's move parsing is exercised.
 */
import type { NormalMove } from 'chessops';
import { ApiError } from '../../src/client/client.js';
import type { MyTurnRow } from '../../src/client/wire.js';
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import { legalMoves, playForSan, toWireUci, type Board } from '../../src/rules/chess/chess.js';
import { positionFromFen } from '../../src/rules/chess/fen-reader.js';
import { turnMoves } from '../chess/fen-moves.js';
import { quietOn429 } from './social.js';
import type { AgentContext, Persona, PersonaFactory } from '../persona.js';
import { checkNumberOption } from '../options.js';
import type { StateField } from './persona-state.js';

export interface RandomOptions {
  /** Stop seeking new games while this many are live. */
  maxGames: number;
  /** Chance per heartbeat of looking for a new game when below maxGames. */
  seekChance: number;
  /** Of new challenges, the share aimed at a named opponent. */
  directShare: number;
  /** Of new challenges, the share that carry a bounty (0 = never; no draw is spent then). */
  bountyShare: number;
  /** Bounty range in SOL; each stake is drawn in whole milli-SOL. */
  bountyMinSol: number;
  bountyMaxSol: number;
}

export const RANDOM_DEFAULTS: RandomOptions = {
  maxGames: 3,
  seekChance: 0.5,
  directShare: 0.3,
  bountyShare: 0,
  bountyMinSol: 0.01,
  bountyMaxSol: 0.1,
};

/**
 * random's play, and what every persona built on it does each heartbeat. It keeps its state for a
 * checkpoint (`saveState`) but does not offer one: `RandomPersona` does, and `uci`, whose engine is an
 * external program, extends this class so that it never seems checkpointable.
 */
export class RandomPlayer implements Persona {
  protected readonly options: RandomOptions;
  #posted = false;

  constructor(options: Partial<RandomOptions> = {}) {
    this.options = { ...RANDOM_DEFAULTS, ...options };
  }

  /**
   * A 429 (the daily quota, most likely) ends this heartbeat: the agent waits for the next one. The beat's
   * own promise is returned, not awaited in an async function of its own: a crowd beats by the hundred
   * thousand, and each async layer is a promise and an await more.
   */
  heartbeat(ctx: AgentContext): Promise<void> {
    return quietOn429(this.#beat(ctx));
  }

  async #beat(ctx: AgentContext): Promise<void> {
    if (!this.#posted) {
      await ctx.client.post(this.greeting(ctx));
      this.#posted = true;
    }
    const turn = await ctx.client.myTurn();
    for (const game of turn.games) await this.playTurn(ctx, game);
    await this.answerDirectChallenges(ctx);
    await this.seekGame(ctx);
  }

  /** The fields of its saved record; a subclass adds its own to its parent's. */
  protected saveState(): Record<string, Json> {
    return { posted: this.#posted };
  }

  /** Reads the fields `saveState` wrote; a subclass reads its parent's first, then its own. */
  protected loadState(get: StateField): void {
    this.#posted = get('posted').bool();
  }

  /** The research-phase post; personas that play differently say so. */
  protected greeting(ctx: AgentContext): string {
    return `Hello, I am ${ctx.handle}. I play random legal moves.`;
  }

  /** Plays now (the move's own promise, as `heartbeat` returns its beat's); the slow persona thinks first. */
  protected playTurn(ctx: AgentContext, game: MyTurnRow): Promise<unknown> {
    return tolerate(ctx.client.move(randomMove(ctx, game)));
  }

  private async answerDirectChallenges(ctx: AgentContext): Promise<void> {
    const mine = await ctx.client.myChallenges();
    for (const incoming of mine.direct_pending.filter((c) => c.direction === 'incoming')) {
      await tolerate(ctx.client.acceptChallenge(incoming.challenge_id));
    }
  }

  protected async seekGame(ctx: AgentContext): Promise<void> {
    if (!ctx.rng.chance(this.options.seekChance)) return;
    const live = await ctx.client.games({ player_handle: ctx.handle, status: 'active', limit: 1 });
    if (live.total >= this.options.maxGames) return;
    const open = (await ctx.client.openChallenges({ limit: 20 })).challenges.filter(
      (c) => c.challenger.handle !== ctx.handle,
    );
    if (open.length > 0 && ctx.rng.chance(0.6)) {
      await tolerate(ctx.client.acceptChallenge(ctx.rng.pick(open).challenge_id));
      return;
    }
    const opponent = ctx.rng.chance(this.options.directShare) ? await pickOpponent(ctx) : undefined;
    const bounty = this.drawBounty(ctx);
    await tolerate(
      ctx.client.createChallenge({
        ...(opponent ? { opponent_handle: opponent } : {}),
        ...(bounty ? { bounty_sol: bounty } : {}),
      }),
    );
  }

  /** A stake in whole milli-SOL (so the decimal is exact), or undefined for a plain challenge. */
  private drawBounty(ctx: AgentContext): number | undefined {
    const o = this.options;
    if (o.bountyShare <= 0 || !ctx.rng.chance(o.bountyShare)) return undefined;
    return ctx.rng.int(Math.round(o.bountyMinSol * 1000), Math.round(o.bountyMaxSol * 1000)) / 1000;
  }
}

/** random, checkpointable: its state is one flat record, each persona built on it adding its own fields. */
export class RandomPersona extends RandomPlayer {
  save(): Json {
    return this.saveState();
  }

  load(state: Field): void {
    state.record((get) => this.loadState(get));
  }
}

async function pickOpponent(ctx: AgentContext): Promise<string | undefined> {
  const board = await ctx.client.leaderboard({ limit: 100 });
  const others = board.leaderboard.map((r) => r.handle).filter((h) => h !== ctx.handle);
  return others.length > 0 ? ctx.rng.pick(others) : undefined;
}

type MoveBody = { game_id: string; move_san?: string; move_uci?: string };

/**
 * A uniformly random legal move, written in a randomly chosen notation. The platform's plain FEN is read on
 * a MailBoard (fen-moves.ts), which gives chessops' moves in chessops' order, so the draw picks the same move.
 */
export function randomMove(ctx: AgentContext, game: MyTurnRow): MoveBody {
  const turn = turnMoves(game.current_fen);
  if (turn !== undefined) {
    const move = ctx.rng.pick(turn.moves);
    return spelled(
      ctx,
      game,
      () => turn.uci(move),
      () => turn.san(move),
    );
  }
  const board = boardFromFen(game.current_fen);
  const move = ctx.rng.pick(legalMoves(board));
  // The platform's SAN writer plays the move on this turn's throwaway board, so the UCI text is written first.
  return spelled(
    ctx,
    game,
    () => toWireUci(board, move),
    () => playForSan(board, move as NormalMove),
  );
}

/** The move body in a notation drawn from `ctx.rng`: UCI, SAN with or without marks, 0-0, or both fields. */
function spelled(ctx: AgentContext, game: MyTurnRow, uci: () => string, san: () => string): MoveBody {
  switch (ctx.rng.int(0, 4)) {
    case 0:
      return { game_id: game.game_id, move_uci: uci() };
    case 1:
      return { game_id: game.game_id, move_san: san().replace(/[+#]$/, '') };
    case 2:
      return { game_id: game.game_id, move_san: san().replace(/O/g, '0') };
    case 3: {
      const wireUci = uci();
      return { game_id: game.game_id, move_san: san(), move_uci: wireUci };
    }
    default:
      return { game_id: game.game_id, move_san: san() };
  }
}

/** The agent's own view of a position: a parsed FEN, without the repetition history the platform keeps. */
function boardFromFen(fen: string): Board {
  return { pos: positionFromFen(fen), repetitions: new Map(), plies: 0 };
}

/**
 * Refusals an agent expects in a busy world (a challenge taken a moment earlier, a game that just ended)
 * are part of play; the world counts them by code. Anything else is a bug and propagates.
 */
export function tolerate<T>(request: Promise<T>): Promise<T | undefined> {
  // A catch on the request, not an async function: one promise fewer on every move a crowd sends.
  return request.catch(expectedRefusal);
}

function expectedRefusal(error: unknown): undefined {
  if (error instanceof ApiError && error.status < 500) return undefined;
  throw error;
}

export const randomPersona: PersonaFactory = {
  name: 'random',
  description:
    'posts once, creates and accepts open and direct challenges, plays uniformly random legal moves',
  create: (options) => new RandomPersona(options),
  checkOptions: (options) => checkRandomOptions(options),
};

export function checkRandomOptions(options: Record<string, unknown>, extra: string[] = []): string[] {
  const known = new Set([...Object.keys(RANDOM_DEFAULTS), ...extra]);
  const problems = Object.keys(options)
    .filter((k) => !known.has(k))
    .map((k) => `${k}: unknown option`);
  problems.push(...checkNumberOption(options, 'maxGames', 1, 1000, true));
  problems.push(...checkNumberOption(options, 'seekChance', 0, 1));
  problems.push(...checkNumberOption(options, 'directShare', 0, 1));
  problems.push(...checkNumberOption(options, 'bountyShare', 0, 1));
  problems.push(...checkNumberOption(options, 'bountyMinSol', 0.01, 10));
  problems.push(...checkNumberOption(options, 'bountyMaxSol', 0.01, 10));
  const min = (options['bountyMinSol'] as number | undefined) ?? RANDOM_DEFAULTS.bountyMinSol;
  const max = (options['bountyMaxSol'] as number | undefined) ?? RANDOM_DEFAULTS.bountyMaxSol;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    problems.push('bountyMinSol: must not exceed bountyMaxSol');
  return problems;
}
