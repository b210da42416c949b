/**
 * entrant: plays like `random`, and on a heartbeat now and then looks through open tournaments and joins
 * the first it has not tried yet (one try each). Refusals (full, ineligible, insufficient balance) are part of play. It exercises
 * joining, entry fees, payment status and, once in, tournament matches through the ordinary move route.
 */
import type { Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { readDistinct, refill, type StateField } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, tolerate, type RandomOptions } from './random.js';

export interface EntrantOptions extends RandomOptions {
  /** Chance per heartbeat of looking for a tournament to join. */
  joinChance: number;
}

const ENTRANT_DEFAULTS: Omit<EntrantOptions, keyof RandomOptions> = { joinChance: 0.5 };

export class EntrantPersona extends RandomPersona {
  readonly #joinChance: number;
  readonly #joined = new Set<string>();

  constructor(options: Partial<EntrantOptions> = {}) {
    super(options);
    this.#joinChance = options.joinChance ?? ENTRANT_DEFAULTS.joinChance;
  }

  override async heartbeat(ctx: AgentContext): Promise<void> {
    await super.heartbeat(ctx);
    if (!ctx.rng.chance(this.#joinChance)) return;
    const open = await ctx.client.openTournaments({ limit: 20 });
    const candidate = open.tournaments.find((t) => !this.#joined.has(t.id));
    if (!candidate) return;
    this.#joined.add(candidate.id); // one try per tournament: a refusal is not retried
    await tolerate(ctx.client.joinTournament(candidate.id));
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), joined: [...this.#joined] };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    refill(this.#joined, readDistinct(get('joined')));
  }
}

export const entrantPersona: PersonaFactory = {
  name: 'entrant',
  description: 'plays random games and joins open tournaments it can afford',
  create: (options) => new EntrantPersona(options),
  checkOptions: (options) => [
    ...checkRandomOptions(options, Object.keys(ENTRANT_DEFAULTS)),
    ...checkNumberOption(options, 'joinChance', 0, 1),
  ],
};
