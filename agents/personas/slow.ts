/**
 * slow: plays like `random`, but thinks before each move, and now and then thinks past the 5-minute turn
 * deadline, so its games end by timeout and its late moves exercise the deadline's rejection path.
 */
import type { MyTurnRow } from '../../src/client/wire.js';
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import { deferStep, type AgentContext, type PersonaFactory, type ResumablePersona } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, randomMove, tolerate, type RandomOptions } from './random.js';
import { readDistinct, refill, TEXT_MAX, type StateField } from './persona-state.js';

export interface SlowOptions extends RandomOptions {
  /** Chance that one move's thinking overruns the deadline. */
  lateChance: number;
  /** Longest ordinary think, in ms (well inside the deadline). */
  maxThinkMs: number;
}

const SLOW_DEFAULTS: Omit<SlowOptions, keyof RandomOptions> = { lateChance: 0.02, maxThinkMs: 120_000 };
/** A late think overruns the 5-minute deadline by up to two minutes. */
const LATE_THINK_MIN_MS = 5 * 60_000;
const LATE_THINK_MAX_MS = 7 * 60_000;

/** A move decided now and sent after the think: the move body, as data (a deferred step). */
type MoveStep = { game_id: string; move_san?: string; move_uci?: string };

export class SlowPersona extends RandomPersona implements ResumablePersona {
  readonly #slow: Omit<SlowOptions, keyof RandomOptions>;
  /** Games with a move still being thought about: never answered twice. */
  readonly #thinking = new Set<string>();

  constructor(options: Partial<SlowOptions> = {}) {
    super(options);
    this.#slow = { ...SLOW_DEFAULTS, ...options };
  }

  protected override async playTurn(ctx: AgentContext, game: MyTurnRow): Promise<void> {
    if (this.#thinking.has(game.game_id)) return;
    const late = ctx.rng.chance(this.#slow.lateChance);
    const think = late
      ? ctx.rng.int(LATE_THINK_MIN_MS, LATE_THINK_MAX_MS)
      : ctx.rng.int(0, this.#slow.maxThinkMs);
    const move: MoveStep = randomMove(ctx, game);
    this.#thinking.add(game.game_id);
    deferStep(ctx, this, think, move);
  }

  /** The think is over: the move decided before it is sent (a late one meets the deadline's refusal). */
  async resume(ctx: AgentContext, step: Field): Promise<void> {
    const move = readMoveStep(step);
    this.#thinking.delete(move.game_id);
    await tolerate(ctx.client.move(move));
  }

  checkStep(step: Field): void {
    readMoveStep(step);
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), thinking: [...this.#thinking] };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    refill(this.#thinking, readDistinct(get('thinking')));
  }
}

function readMoveStep(step: Field): MoveStep {
  return step.record((get, has) => {
    const move: MoveStep = { game_id: get('game_id').str(TEXT_MAX) };
    if (has('move_san')) move.move_san = get('move_san').str(TEXT_MAX);
    if (has('move_uci')) move.move_uci = get('move_uci').str(TEXT_MAX);
    if (move.move_san === undefined && move.move_uci === undefined)
      step.fail('a move with move_san or move_uci');
    return move;
  });
}

export const slowPersona: PersonaFactory = {
  name: 'slow',
  description:
    'plays like random but thinks first, and sometimes past the 5-minute deadline, so timeouts happen',
  create: (options) => new SlowPersona(options),
  checkOptions: (options) => [
    ...checkRandomOptions(options, Object.keys(SLOW_DEFAULTS)),
    ...checkNumberOption(options, 'lateChance', 0, 1),
    ...checkNumberOption(options, 'maxThinkMs', 0, 299_000, true),
  ],
};
