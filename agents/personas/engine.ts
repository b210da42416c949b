/**
 * engine: finds games like `random`, but plays Stockfish (stockfish.wasm) at a named strength level. It
 * exercises engine think time as a future due at a virtual time: on its turn it starts the search at once
 * (real time, in parallel with the rest of the world, on the shared pool) and submits the move after a
 * seeded virtual think time; the world does not pass that time before the answer is in.
 */
import type { MyTurnRow } from '../../src/client/wire.js';
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import { EnginePool, isSearchablePosition, type SearchResult } from '../engines/pool.js';
import { chooseMove, levelByName, LEVELS, type EngineLevel } from '../engines/levels.js';
import { deferStep, type AgentContext, type PersonaFactory, type ResumablePersona } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, tolerate, type RandomOptions } from './random.js';
import { readDistinct, refill, TEXT_MAX, type StateField } from './persona-state.js';

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

/** A move being thought about, as data: the game, its ply, and the position the engine was asked about. */
type ThinkStep = { game: string; ply: number; fen: string };

export class EnginePersona extends RandomPersona implements ResumablePersona {
  readonly #level: EngineLevel;
  readonly #think: { min: number; max: number };
  /** `game@ply` of moves already being thought about (`thinkKey`). */
  readonly #scheduled = new Set<string>();
  /**
   * The searches started for those moves, by the same key. A promise cannot be saved: a persona restored
   * from a checkpoint has none, and asks the engine again when the think ends (see `resume`).
   */
  readonly #answers = new Map<string, Promise<SearchResult>>();

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
    const step: ThinkStep = { game: game.game_id, ply: game.move_count, fen: game.current_fen };
    const key = thinkKey(step);
    if (this.#scheduled.has(key)) return;
    this.#scheduled.add(key);
    const thinkMs = ctx.rng.int(this.#think.min, this.#think.max);
    this.#answers.set(key, this.#search(step.fen));
    deferStep(ctx, this, thinkMs, step);
  }

  /**
   * The think is over: play a line of the search started when it began, or, in a persona restored since,
   * of the same search asked again. The answer depends only on the position and the level's budget (every
   * search starts from a cleared engine, wasm-engine.ts), so asking again gives the same lines.
   */
  async resume(ctx: AgentContext, step: Field): Promise<void> {
    const think = readThinkStep(step);
    const key = thinkKey(think);
    this.#scheduled.delete(key);
    const answer = this.#answers.get(key) ?? this.#search(think.fen);
    this.#answers.delete(key);
    const result = await answer;
    if (result.lines.length === 0) return;
    // The choice draws from the agent's stream HERE, in the world's deterministic order, never when the
    // search happens to finish in real time.
    const uci = chooseMove(result, this.#level, ctx.rng);
    await tolerate(ctx.client.move({ game_id: think.game, move_uci: uci }));
  }

  checkStep(step: Field): void {
    readThinkStep(step);
  }

  /** Starts the search at once (real time, in parallel with the world, on the shared pool). */
  #search(fen: string): Promise<SearchResult> {
    const answer = EnginePool.shared().search({
      fen,
      nodes: this.#level.nodes,
      multiPv: this.#level.multiPv,
    });
    // The deferred step awaits (and rethrows) a failure; this only keeps an early one from counting as unhandled.
    answer.catch(() => undefined);
    return answer;
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), scheduled: [...this.#scheduled] };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    refill(this.#scheduled, readDistinct(get('scheduled')));
  }
}

/** `game@ply` of a move being thought about: a heartbeat during the think must not start another. */
function thinkKey(step: ThinkStep): string {
  return `${step.game}@${step.ply}`;
}

/** The position is checked as the pool checks it: a bad one would fail the search mid-run, not the load. */
function readThinkStep(step: Field): ThinkStep {
  return step.record((get) => {
    const think = { game: get('game').str(TEXT_MAX), ply: get('ply').nat(), fen: get('fen').str(200) };
    if (!isSearchablePosition(think.fen)) get('fen').fail('a legal standard position (FEN)');
    return think;
  });
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
