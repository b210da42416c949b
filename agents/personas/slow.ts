/**
 * slow: plays like `random`, but thinks before each move, and now and then thinks past the 5-minute turn
 * deadline, so its games end by timeout and its late moves exercise the deadline's rejection path.
 */
import type { MyTurnRow } from '../../src/client/wire.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, randomMove, tolerate, type RandomOptions } from './random.js';

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

export class SlowPersona extends RandomPersona {
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
    const move = randomMove(ctx, game);
    this.#thinking.add(game.game_id);
    ctx.later(think, async () => {
      this.#thinking.delete(game.game_id);
      await tolerate(ctx.client.move(move));
    });
  }
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
