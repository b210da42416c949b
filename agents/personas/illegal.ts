/**
 * illegal (illegal-move sender): plays like `random`, but at `badChance` a turn also carries one bad
 * submission: an illegal move, malformed text, SAN and UCI naming different moves, a move after its own
 * (out of turn), or a move in somebody else's game. Each must come back `bad_request` and change nothing;
 * it then plays a legal move (or already has), so its games go on. It exercises every refusal path of
 * POST /api/chess/move and keeps a tally of what came back, so a run shows any refusal that went wrong.
 */
import { makeSan } from 'chessops/san';
import { makeSquare, makeUci } from 'chessops/util';
import { ApiError } from '../../src/client/client.js';
import type { MyTurnRow } from '../../src/client/wire.js';
import type { Json } from '../../src/kernel/checkpoint.js';
import { legalMoves, toWireUci, type Board } from '../../src/rules/chess/chess.js';
import { boardFromFen } from './chess-eval.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, randomMove, tolerate, type RandomOptions } from './random.js';
import { pairsOf, readCounts, refillMap, TEXT_MAX, type StateField } from './persona-state.js';

export const BAD_KINDS = ['illegal', 'malformed', 'mismatch', 'out_of_turn', 'foreign_game'] as const;
export type BadKind = (typeof BAD_KINDS)[number];

/** Text no parser should take for a move: bad squares, bad pieces, too many parts, prose. */
export const MALFORMED_MOVES: readonly string[] = [
  'e9e4',
  'i2i4',
  'Zf3',
  'e2e4e5',
  'O-O-O-O',
  'Nf3x',
  '1. e4',
  'e7e8k',
  'move e4 please',
  'xx',
  '♘f3',
  'e2e4e6e7e8e1e2e3',
];

export interface IllegalOptions extends RandomOptions {
  /** Chance that a turn carries one bad submission. */
  badChance: number;
  /** Which kinds it sends (default: all). */
  kinds: BadKind[];
}

const ILLEGAL_DEFAULTS: Omit<IllegalOptions, keyof RandomOptions> = { badChance: 0.5, kinds: [...BAD_KINDS] };

export interface IllegalStats {
  sent: Record<BadKind, number>;
  /** Refused with `bad_request`, as they must be. */
  refused: number;
  /** The `reason` field of those refusals (illegal_move, not_your_turn, not_a_player, ...). */
  reasons: Map<string, number>;
  /** Anything else: `<kind>: accepted` or `<kind>: <other code>`. Should stay empty. */
  unexpected: string[];
}

type MoveBody = { game_id: string; move_san?: string; move_uci?: string };

export class IllegalPersona extends RandomPersona {
  readonly #o: Omit<IllegalOptions, keyof RandomOptions>;
  readonly stats: IllegalStats = { sent: zeroCounts(), refused: 0, reasons: new Map(), unexpected: [] };

  constructor(options: Partial<IllegalOptions> = {}) {
    super(options);
    this.#o = { ...ILLEGAL_DEFAULTS, ...options };
  }

  protected override async playTurn(ctx: AgentContext, game: MyTurnRow): Promise<void> {
    const kind = ctx.rng.chance(this.#o.badChance) ? ctx.rng.pick(this.#o.kinds) : undefined;
    if (kind !== undefined && kind !== 'out_of_turn') {
      const body = kind === 'foreign_game' ? await foreignGameMove(ctx) : badMoveIn(ctx, game, kind);
      await this.#submitBad(ctx, body ? kind : 'malformed', body ?? badMoveIn(ctx, game, 'malformed'));
    }
    const played = await tolerate(ctx.client.move(randomMove(ctx, game)));
    // Out of turn: right after its own move, it answers for the opponent too.
    if (kind === 'out_of_turn' && played?.game_status === 'active') {
      const board = boardFromFen(played.move.fen_after);
      await this.#submitBad(ctx, kind, {
        game_id: game.game_id,
        move_uci: toWireUci(board, ctx.rng.pick(legalMoves(board))),
      });
    }
  }

  /** Sends one bad submission and tallies the answer. A 429 ends the heartbeat uncounted, as for any request. */
  async #submitBad(ctx: AgentContext, kind: BadKind, body: MoveBody): Promise<void> {
    try {
      await ctx.client.move(body);
      this.stats.sent[kind]++;
      this.stats.unexpected.push(`${kind}: accepted ${JSON.stringify(body)}`);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.code === 'rate_limit_exceeded')
        throw error;
      this.stats.sent[kind]++;
      if (error.code !== 'bad_request') {
        this.stats.unexpected.push(`${kind}: ${error.code}`);
        return;
      }
      this.stats.refused++;
      const reason = (error.body as { reason?: string }).reason ?? 'none';
      this.stats.reasons.set(reason, (this.stats.reasons.get(reason) ?? 0) + 1);
    }
  }

  protected override saveState(): Record<string, Json> {
    const { sent, refused, reasons, unexpected } = this.stats;
    return {
      ...super.saveState(),
      sent: { ...sent },
      refused,
      reasons: pairsOf(reasons),
      unexpected: [...unexpected],
    };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    const stats = this.stats;
    get('sent').record((kind) => {
      for (const k of BAD_KINDS) stats.sent[k] = kind(k).nat();
    });
    stats.refused = get('refused').nat();
    refillMap(
      stats.reasons,
      readCounts(get('reasons'), (reason) => reason.str(TEXT_MAX)),
    );
    stats.unexpected.length = 0;
    for (const line of get('unexpected').list((text) => text.str())) stats.unexpected.push(line);
  }
}

function zeroCounts(): Record<BadKind, number> {
  return Object.fromEntries(BAD_KINDS.map((k) => [k, 0])) as Record<BadKind, number>;
}

/** A bad submission for a game where it is on move (kinds illegal, malformed, mismatch). */
export function badMoveIn(
  ctx: AgentContext,
  game: MyTurnRow,
  kind: Exclude<BadKind, 'out_of_turn' | 'foreign_game'>,
): MoveBody {
  const board = boardFromFen(game.current_fen);
  const legal = legalMoves(board);
  if (kind === 'illegal') return { game_id: game.game_id, move_uci: illegalUci(ctx, board) };
  if (kind === 'mismatch' && legal.length >= 2) {
    const [a, b] = ctx.rng.shuffle(legal);
    return { game_id: game.game_id, move_san: makeSan(board.pos, a!), move_uci: toWireUci(board, b!) };
  }
  const text = ctx.rng.pick(MALFORMED_MOVES);
  return ctx.rng.chance(0.5)
    ? { game_id: game.game_id, move_san: text }
    : { game_id: game.game_id, move_uci: text };
}

/**
 * Well-formed UCI that is not a legal move: one of its own pieces to a square none of its legal moves
 * reaches. From-to pairs of legal moves are avoided in both castling spellings and with or without a
 * promotion letter, since the platform reads those leniently.
 */
export function illegalUci(ctx: AgentContext, board: Board): string {
  const legal = new Set<string>();
  for (const move of legalMoves(board))
    for (const uci of [makeUci(move), toWireUci(board, move)]) legal.add(uci.slice(0, 4));
  const own = [...board.pos.board[board.pos.turn]];
  for (let attempt = 0; attempt < 64; attempt++) {
    const text = makeSquare(ctx.rng.pick(own)) + makeSquare(ctx.rng.int(0, 63));
    if (!legal.has(text)) return text;
  }
  return 'a1a1'; // from and to the same square: never a legal move
}

/** A legal-looking move in an active game between two other agents, or undefined when there is none. */
async function foreignGameMove(ctx: AgentContext): Promise<MoveBody | undefined> {
  const { games } = await ctx.client.games({ status: 'active', limit: 20 });
  const others = games.filter(
    (g) => g.white_player.handle !== ctx.handle && g.black_player.handle !== ctx.handle,
  );
  if (others.length === 0) return undefined;
  const game = ctx.rng.pick(others);
  const board = boardFromFen(game.current_fen);
  const legal = legalMoves(board);
  return legal.length === 0
    ? undefined
    : { game_id: game.game_id, move_uci: toWireUci(board, ctx.rng.pick(legal)) };
}

export const illegalPersona: PersonaFactory = {
  name: 'illegal',
  description:
    'plays random games but also sends illegal, malformed, mismatched, out-of-turn and foreign-game moves',
  create: (options) => new IllegalPersona(options),
  checkOptions: (options) => {
    const problems = [
      ...checkRandomOptions(options, Object.keys(ILLEGAL_DEFAULTS)),
      ...checkNumberOption(options, 'badChance', 0, 1),
    ];
    const kinds = options['kinds'];
    const known = (k: unknown) => (BAD_KINDS as readonly unknown[]).includes(k);
    if (kinds !== undefined && (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every(known))) {
      problems.push(`kinds: must be a non-empty list of ${BAD_KINDS.join(', ')}`);
    }
    return problems;
  },
};
