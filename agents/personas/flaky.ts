/**
 * flaky: plays random legal moves, but at `missRate` a move's thinking runs past the 5-minute turn
 * deadline (a deferred answer through `ctx.later`), so it loses games on time and its late moves meet the
 * deadline's refusal; and at `skipChance` it sleeps through a whole heartbeat. It exercises the timeout
 * path, Elo and bounty settlement of games nobody finished, and agents that go quiet now and then.
 */
import type { Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import type { StateField } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { checkRandomOptions, type RandomOptions } from './random.js';
import { SlowPersona } from './slow.js';

export interface FlakyOptions extends RandomOptions {
  /** Chance that one move's answer arrives after the deadline. */
  missRate: number;
  /** Chance that one heartbeat does nothing at all. */
  skipChance: number;
  /** Longest think of a move that is in time, in ms. */
  thinkMaxMs: number;
}

const FLAKY_DEFAULTS: Omit<FlakyOptions, keyof RandomOptions> = {
  missRate: 0.02,
  skipChance: 0.1,
  thinkMaxMs: 20_000,
};

/** The deferred, sometimes-late answer is the slow persona's; flaky sets how often, and adds the skips. */
export class FlakyPersona extends SlowPersona {
  readonly #skipChance: number;
  /** Heartbeats slept through, for reports and tests. */
  skipped = 0;

  constructor(options: Partial<FlakyOptions> = {}) {
    const o = { ...FLAKY_DEFAULTS, ...options };
    super({ ...options, lateChance: o.missRate, maxThinkMs: o.thinkMaxMs });
    this.#skipChance = o.skipChance;
  }

  override async heartbeat(ctx: AgentContext): Promise<void> {
    if (ctx.rng.chance(this.#skipChance)) {
      this.skipped++;
      return;
    }
    await super.heartbeat(ctx);
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), skipped: this.skipped };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    this.skipped = get('skipped').nat();
  }
}

export const flakyPersona: PersonaFactory = {
  name: 'flaky',
  description: 'plays random moves but misses the move deadline at a rate and sometimes skips heartbeats',
  create: (options) => new FlakyPersona(options),
  checkOptions: (options) => [
    ...checkRandomOptions(options, Object.keys(FLAKY_DEFAULTS)),
    ...checkNumberOption(options, 'missRate', 0, 1),
    ...checkNumberOption(options, 'skipChance', 0, 1),
    ...checkNumberOption(options, 'thinkMaxMs', 0, 299_000, true),
  ],
};
