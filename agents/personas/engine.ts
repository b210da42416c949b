/**
 * engine: finds games like `random`, but plays Stockfish (stockfish.wasm) at a named strength level. It
 * exercises engine think time as a future due at a virtual time: on its turn it starts the search at once
 * (real time, in parallel with the rest of the world, on the shared pool) and submits the move after a
 * seeded virtual think time; the world does not pass that time before the answer is in.
 */
import type { MyTurnRow } from '../../src/client/wire.js';
import { EnginePool } from '../engines/pool.js';
import { chooseMove, levelByName, LEVELS, type EngineLevel } from '../engines/levels.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, tolerate, type RandomOptions } from './random.js';

export interface EngineOptions extends RandomOptions {
  /** A level name from LEVELS (`sf-1` weakest ... `sf-8` strongest). */
  level: string;
  /** Virtual think time per move, drawn uniformly in [thinkMinMs, thinkMaxMs]; far below the 5-minute deadline. */
  thinkMinMs: number;
  thinkMaxMs: number;
}

type EngineOwnOptions = Omit<EngineOptions, keyof RandomOptions>;

const ENGINE_DEFAULTS: EngineOwnOptions = { level: 'sf-4', thinkMinMs: 2_000, thinkMaxMs: 20_000 };
/** The longest think allowed: a second inside the 5-minute turn deadline. */
const MAX_THINK_MS = 299_000;

export class EnginePersona extends RandomPersona {
  readonly #level: EngineLevel;
  readonly #think: { min: number; max: number };
  /** `game@ply` of moves already being thought about: a heartbeat during the think must not start another. */
  readonly #scheduled = new Set<string>();

  constructor(options: Partial<EngineOptions> = {}) {
    super(options);
    const own = { ...ENGINE_DEFAULTS, ...options };
    const level = levelByName(own.level);
    if (!level) throw new Error(`engine persona: unknown level ${own.level}`);
    this.#level = level;
    this.#think = { min: own.thinkMinMs, max: own.thinkMaxMs };
  }

  protected override greeting(ctx: AgentContext): string {
    return `Hello, I am ${ctx.handle}. I play with a Stockfish engine at level ${this.#level.name}.`;
  }

  /** The level this agent plays at (reports and tests read it). */
  get level(): EngineLevel {
    return this.#level;
  }

  protected override async playTurn(ctx: AgentContext, game: MyTurnRow): Promise<void> {
    const key = `${game.game_id}@${game.move_count}`;
    if (this.#scheduled.has(key)) return;
    this.#scheduled.add(key);
    const thinkMs = ctx.rng.int(this.#think.min, this.#think.max);
    const answer = EnginePool.shared().search({
      fen: game.current_fen,
      nodes: this.#level.nodes,
      multiPv: this.#level.multiPv,
    });
    // The deferred action awaits (and rethrows) a failure; this only keeps an early one from counting as unhandled.
    answer.catch(() => undefined);
    ctx.later(thinkMs, async () => {
      this.#scheduled.delete(key);
      const result = await answer;
      if (result.lines.length === 0) return;
      // The choice draws from the agent's stream HERE, in the world's deterministic order, never when the
      // search happens to finish in real time.
      const uci = chooseMove(result, this.#level, ctx.rng);
      await tolerate(ctx.client.move({ game_id: game.game_id, move_uci: uci }));
    });
  }
}

export const enginePersona: PersonaFactory = {
  name: 'engine',
  description:
    'finds games like random, plays stockfish.wasm at a named level with a seeded virtual think time',
  create: (options) => new EnginePersona(options),
  checkOptions: (options) => checkEngineOptions(options),
};

export function checkEngineOptions(options: Record<string, unknown>): string[] {
  const problems = checkRandomOptions(options, Object.keys(ENGINE_DEFAULTS));
  const level = options['level'];
  if (level !== undefined && (typeof level !== 'string' || !levelByName(level))) {
    problems.push(`level: must be one of ${LEVELS.map((l) => l.name).join(', ')}`);
  }
  problems.push(...checkNumberOption(options, 'thinkMinMs', 0, MAX_THINK_MS, true));
  problems.push(...checkNumberOption(options, 'thinkMaxMs', 0, MAX_THINK_MS, true));
  const min = options['thinkMinMs'] ?? ENGINE_DEFAULTS.thinkMinMs;
  const max = options['thinkMaxMs'] ?? ENGINE_DEFAULTS.thinkMaxMs;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    problems.push('thinkMinMs: must not exceed thinkMaxMs');
  return problems;
}
