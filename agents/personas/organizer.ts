/**
 * organizer: plays like `random` (many games at once) until it has the games a creator needs, then runs
 * tournaments one after another: it funds the prize, sets the entry fee and split, and waits for each to
 * finish before creating the next. It exercises tournament creation, the 100-game rule and prize funding.
 */
import type { Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { TEXT_MAX, type StateField } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, tolerate, type RandomOptions } from './random.js';

export interface OrganizerOptions extends RandomOptions {
  /** Bracket sizes of successive tournaments, used in turn. */
  sizes: number[];
  prizeSol: number;
  entryFeeSol: number;
  topFour: boolean;
  organizerFee: boolean;
  maxTournaments: number;
  /** Games it plays before it tries to create (the platform's rule is 100; a scenario may lower both). */
  minGames: number;
}

const ORGANIZER_DEFAULTS: Omit<OrganizerOptions, keyof RandomOptions> = {
  sizes: [8],
  prizeSol: 1,
  entryFeeSol: 0.05,
  topFour: true,
  organizerFee: true,
  maxTournaments: 3,
  minGames: 100,
};

export class OrganizerPersona extends RandomPersona {
  readonly #o: Omit<OrganizerOptions, keyof RandomOptions>;
  #created = 0;
  #current: string | null = null;

  constructor(options: Partial<OrganizerOptions> = {}) {
    super({ maxGames: 30, seekChance: 1, ...options });
    this.#o = { ...ORGANIZER_DEFAULTS, ...options };
  }

  override async heartbeat(ctx: AgentContext): Promise<void> {
    await super.heartbeat(ctx);
    if (this.#created >= this.#o.maxTournaments || (await this.#running(ctx))) return;
    const me = await ctx.client.agentWhoami();
    if ((me.agent as { chess_games_played?: number }).chess_games_played! < this.#o.minGames) return;
    await this.#create(ctx);
  }

  /** Stops seeking new games once it organizes: its own games would otherwise crowd the tournament. */
  protected override async seekGame(ctx: AgentContext): Promise<void> {
    if (this.#created === 0) await super.seekGame(ctx);
  }

  async #running(ctx: AgentContext): Promise<boolean> {
    if (this.#current === null) return false;
    const { tournament } = await ctx.client.tournament(this.#current);
    if (tournament.status === 'completed' || tournament.status === 'cancelled') this.#current = null;
    return this.#current !== null;
  }

  async #create(ctx: AgentContext): Promise<void> {
    const size = this.#o.sizes[this.#created % this.#o.sizes.length]!;
    const created = await tolerate(
      ctx.client.createTournament({
        name: `${ctx.handle} cup ${this.#created + 1}`,
        max_participants: size,
        prize_sol: this.#o.prizeSol,
        entry_fee_sol: this.#o.entryFeeSol,
        prize_distribution: this.#o.topFour ? 'top_four' : 'winner_only',
        organizer_fee_enabled: this.#o.organizerFee,
      }),
    );
    if (!created) return;
    this.#created++;
    this.#current = created.tournament.id;
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), created: this.#created, current: this.#current };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    this.#created = get('created').nat();
    this.#current = get('current').nullOr((id) => id.str(TEXT_MAX));
  }
}

export const organizerPersona: PersonaFactory = {
  name: 'organizer',
  description:
    'plays many random games until it may create tournaments, then funds and runs them one after another',
  create: (options) => new OrganizerPersona(options),
  checkOptions: (options) => {
    const problems = [...checkRandomOptions(options, Object.keys(ORGANIZER_DEFAULTS))];
    const sizes = options['sizes'];
    if (
      sizes !== undefined &&
      (!Array.isArray(sizes) ||
        sizes.length === 0 ||
        !sizes.every((n) => [8, 16, 32, 64].includes(n as number)))
    ) {
      problems.push('sizes: must be a list of 8, 16, 32 or 64');
    }
    problems.push(
      ...checkNumberOption(options, 'prizeSol', 0, 100),
      ...checkNumberOption(options, 'entryFeeSol', 0, 10),
    );
    problems.push(
      ...checkNumberOption(options, 'maxTournaments', 0, 1000, true),
      ...checkNumberOption(options, 'minGames', 0, 100_000, true),
    );
    for (const flag of ['topFour', 'organizerFee'])
      if (options[flag] !== undefined && typeof options[flag] !== 'boolean')
        problems.push(`${flag}: must be true or false`);
    return problems;
  },
};
