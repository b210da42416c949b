/**
 * The agent under test: a small chess bot for the agent chess platform. It knows only a base URL, an API key
 * and a `fetch` (the twin's socketless one in tests, the global one in production).
 *
 * Each tick it moves where it is on move (a mate in one, else the biggest capture, else its first legal move),
 * accepts direct challenges whose stake it can afford, joins open tournaments if asked to, and opens a
 * challenge when it has nothing to do. A move may "think" first; it stops thinking a margin before the turn
 * deadline, which is what keeps it from losing on time.
 */
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeUci } from 'chessops/util';
import type { NormalMove } from 'chessops';

export interface AgentOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** How long a move is thought about (default 0). */
  thinkMs?: number;
  /** Stop thinking this long before the turn deadline (default 30 s); 0 ignores the deadline. */
  deadlineMarginMs?: number;
  /** Accept direct challenges with a stake up to this (default 0.1 SOL). */
  maxBountySol?: number;
  joinTournaments?: boolean;
  /** Open a challenge when idle (default true). */
  seek?: boolean;
}

interface TurnRow {
  game_id: string;
  current_fen: string;
  turn_deadline_at: string | null;
}

const VALUE: Record<string, number> = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };

/** The move this agent plays in a position (UCI). */
export function chooseMove(fen: string): string {
  const position = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  let best: { move: NormalMove; score: number } | undefined;
  for (const [from, targets] of position.allDests()) {
    for (const to of targets) {
      const promotes = position.board.pawn.has(from) && (to >> 3 === 0 || to >> 3 === 7);
      const move: NormalMove = promotes ? { from, to, promotion: 'queen' } : { from, to };
      const after = position.clone();
      after.play(move);
      const taken = position.board.get(to);
      const score = after.isCheckmate() ? 100 : taken ? VALUE[taken.role]! : 0;
      if (!best || score > best.score) best = { move, score };
    }
  }
  if (!best) throw new Error(`no legal move in ${fen}`);
  return makeUci(best.move);
}

export class Agent {
  readonly #o: Required<Omit<AgentOptions, 'fetch'>> & { fetch: typeof fetch };
  readonly #thinking = new Set<string>();
  readonly #joined = new Set<string>();

  constructor(options: AgentOptions) {
    this.#o = {
      thinkMs: 0,
      deadlineMarginMs: 30_000,
      maxBountySol: 0.1,
      joinTournaments: false,
      seek: true,
      fetch: globalThis.fetch,
      ...options,
    };
  }

  async tick(): Promise<void> {
    const turns = await this.#get<{ games: TurnRow[] }>('/chess/games/my-turn');
    for (const game of turns.games) if (!this.#thinking.has(game.game_id)) void this.#play(game);
    await this.#answerChallenges();
    if (this.#o.joinTournaments) await this.#joinTournaments();
    if (this.#o.seek && turns.games.length === 0 && !(await this.#busy()))
      await this.#post('/chess/challenge', {});
  }

  async #play(game: TurnRow): Promise<void> {
    this.#thinking.add(game.game_id);
    try {
      const think = this.#thinkTime(game.turn_deadline_at);
      if (think > 0) await new Promise((resolve) => setTimeout(resolve, think));
      await this.#post('/chess/move', { game_id: game.game_id, move_uci: chooseMove(game.current_fen) });
    } finally {
      this.#thinking.delete(game.game_id);
    }
  }

  /** The think time, cut to end a margin before the deadline (Date.now() is the twin's time under fake timers). */
  #thinkTime(deadline: string | null): number {
    const { thinkMs, deadlineMarginMs } = this.#o;
    if (deadlineMarginMs === 0 || deadline === null) return thinkMs;
    return Math.max(0, Math.min(thinkMs, Date.parse(deadline) - Date.now() - deadlineMarginMs));
  }

  async #answerChallenges(): Promise<void> {
    const mine = await this.#get<{
      direct_pending: { challenge_id: string; direction: string; bounty_sol: number | null }[];
    }>('/chess/challenges/mine');
    for (const challenge of mine.direct_pending)
      if (challenge.direction === 'incoming' && (challenge.bounty_sol ?? 0) <= this.#o.maxBountySol)
        await this.#post(`/chess/challenges/${challenge.challenge_id}/accept`);
  }

  async #joinTournaments(): Promise<void> {
    const open = await this.#get<{ tournaments: { id: string }[] }>('/chess/tournaments/open');
    for (const { id } of open.tournaments.filter((t) => !this.#joined.has(t.id))) {
      this.#joined.add(id);
      await this.#post(`/chess/tournaments/${id}/join`);
    }
  }

  async #busy(): Promise<boolean> {
    const mine = await this.#get<{ outgoing_open: unknown[]; direct_pending: unknown[] }>(
      '/chess/challenges/mine',
    );
    return mine.outgoing_open.length + mine.direct_pending.length > 0;
  }

  #get<T>(path: string): Promise<T> {
    return this.#send<T>('GET', path);
  }

  #post<T>(path: string, body?: unknown): Promise<T> {
    return this.#send<T>('POST', path, body);
  }

  async #send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#o.apiKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const answer = await this.#o.fetch(`${this.#o.baseUrl}/api${path}`, init);
    return (await answer.json()) as T;
  }
}
