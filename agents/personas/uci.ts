/**
 * uci: an external UCI engine binary (a path plus arguments and UCI options, e.g. Debian's `stockfish`)
 * plays as an agent. It finds games like `random`; on its turn it asks its engine at once (real time, in
 * parallel with the world) and submits the answer after a think drawn in virtual time, as a future the
 * world awaits (DESIGN.md, "Engine calls are futures"). When the engine crashes, hangs, talks nonsense or
 * answers an illegal move, the agent simply does not move that position: the platform times it out at the
 * turn deadline, and the run goes on. Reproducible for a given binary with `nodes`; see `uci-engine.ts`.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { MyTurnRow } from '../../src/client/wire.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { RandomPlayer, checkRandomOptions, tolerate, type RandomOptions } from './random.js';
import { UciEngine, type SearchBudget, type UciEngineStats } from '../adapters/uci-engine.js';

export interface UciOptions extends RandomOptions {
  /** The engine executable: a path, or a bare name looked up on PATH. */
  path: string;
  args: string[];
  /** UCI options, sent as `setoption`; Threads defaults to 1 when the engine offers it. */
  options: Record<string, string | number>;
  /** Node budget per move (reproducible). */
  nodes: number;
  /** Wall-clock budget per move instead of `nodes` (not reproducible). */
  movetimeMs: number | undefined;
  /** Real-time bound on the handshake and on each search; past it the engine is killed and restarted. */
  timeoutMs: number;
  /** Simulated think time per move, virtual ms, drawn uniformly; far below the 5-minute deadline. */
  thinkMinMs: number;
  thinkMaxMs: number;
}

type UciOwnOptions = Omit<UciOptions, keyof RandomOptions>;

const UCI_DEFAULTS: Omit<UciOwnOptions, 'path'> = {
  args: [],
  options: {},
  nodes: 50_000,
  movetimeMs: undefined,
  timeoutMs: 10_000,
  thinkMinMs: 2_000,
  thinkMaxMs: 20_000,
};
const OWN_OPTION_NAMES = ['path', ...Object.keys(UCI_DEFAULTS)];

/**
 * Not checkpointable (no `save`/`load`, and its think stays a `later` closure): its answers come from an
 * external program, which a checkpoint may not name and a restore cannot re-ask reproducibly (a `movetimeMs`
 * budget, or another binary on another machine). A world with a uci agent keeps its replay log instead.
 */
export class UciPersona extends RandomPlayer {
  readonly engine: UciEngine;
  readonly #own: UciOwnOptions;
  /** Per game, the position last asked about: never asked twice (a failed answer is not retried). */
  readonly #asked = new Map<string, string>();

  constructor(options: Partial<UciOptions> & { path: string }) {
    super(options);
    this.#own = { ...UCI_DEFAULTS, ...options };
    this.engine = new UciEngine({
      path: this.#own.path,
      args: this.#own.args,
      options: this.#own.options,
      timeoutMs: this.#own.timeoutMs,
    });
  }

  protected override greeting(ctx: AgentContext): string {
    return `Hello, I am ${ctx.handle}. An external UCI engine chooses my moves.`;
  }

  get engineStats(): UciEngineStats {
    return this.engine.stats;
  }

  protected override async playTurn(ctx: AgentContext, game: MyTurnRow): Promise<void> {
    if (this.#asked.get(game.game_id) === game.current_fen) return;
    this.#asked.set(game.game_id, game.current_fen);
    const answer = this.engine.bestMove(game.current_fen, this.#budget());
    ctx.later(ctx.rng.int(this.#own.thinkMinMs, this.#own.thinkMaxMs), async () => {
      const result = await answer;
      if (!result.ok) return; // no move: the turn deadline times this agent out
      this.#asked.delete(game.game_id);
      await tolerate(ctx.client.move({ game_id: game.game_id, move_uci: result.uci }));
    });
  }

  #budget(): SearchBudget {
    return this.#own.movetimeMs !== undefined
      ? { movetimeMs: this.#own.movetimeMs }
      : { nodes: this.#own.nodes };
  }
}

export const uciPersona: PersonaFactory = {
  name: 'uci',
  description: 'an external UCI engine binary plays; a crash or hang of the engine is a timeout of the agent',
  create: (options) => new UciPersona(options as Partial<UciOptions> & { path: string }),
  checkOptions: (options) => [
    ...checkRandomOptions(options, OWN_OPTION_NAMES),
    ...checkPath(options['path']),
    ...checkArgs(options['args']),
    ...checkUciSettings(options['options']),
    ...checkNumberOption(options, 'nodes', 1, 1_000_000_000, true),
    ...checkNumberOption(options, 'movetimeMs', 1, 60_000, true),
    ...checkNumberOption(options, 'timeoutMs', 100, 120_000, true),
    ...checkNumberOption(options, 'thinkMinMs', 0, 299_000, true),
    ...checkNumberOption(options, 'thinkMaxMs', 0, 299_000, true),
    ...checkBudgets(options),
  ],
};

function checkPath(path: unknown): string[] {
  if (typeof path !== 'string' || path.trim() === '')
    return ['path: required, the engine executable (a path or a name on PATH)'];
  return findExecutable(path)
    ? []
    : [`path: no executable "${path}" (not a file with execute permission, nor a name on PATH)`];
}

/** A path with a slash is taken as it is; a bare name is looked up on PATH, as spawn will. */
function findExecutable(path: string): boolean {
  // eslint-disable-next-line no-restricted-properties -- PATH finds the engine's program; it changes no answer
  const searchPath = process.env['PATH'] ?? '';
  const candidates = path.includes('/')
    ? [path]
    : searchPath
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, path));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function checkArgs(args: unknown): string[] {
  if (args === undefined) return [];
  return Array.isArray(args) && args.every((a) => typeof a === 'string')
    ? []
    : ['args: must be a list of strings'];
}

/** Names and values go onto one protocol line each, so a line break would inject a command. */
function checkUciSettings(settings: unknown): string[] {
  if (settings === undefined) return [];
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    return ['options: must be a mapping of UCI option names to values'];
  return Object.entries(settings).flatMap(([name, value]) => {
    const oneLine = (text: string) => text.trim() !== '' && !/[\r\n]/.test(text);
    const valueOk =
      (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && oneLine(value));
    return oneLine(name) && valueOk ? [] : [`options.${name}: must be a number or a one-line string`];
  });
}

function checkBudgets(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (options['nodes'] !== undefined && options['movetimeMs'] !== undefined)
    problems.push('movetimeMs: give nodes or movetimeMs, not both');
  const timeout = (options['timeoutMs'] as number | undefined) ?? UCI_DEFAULTS.timeoutMs;
  const movetime = options['movetimeMs'];
  if (typeof movetime === 'number' && typeof timeout === 'number' && timeout <= movetime)
    problems.push('timeoutMs: must exceed movetimeMs');
  const min = (options['thinkMinMs'] as number | undefined) ?? UCI_DEFAULTS.thinkMinMs;
  const max = (options['thinkMaxMs'] as number | undefined) ?? UCI_DEFAULTS.thinkMaxMs;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    problems.push('thinkMinMs: must not exceed thinkMaxMs');
  return problems;
}
