/**
 * cautious: plays like `random` (seeks, accepts and creates challenges) but never hangs material to a
 * one-move capture: it scores each move by what it wins now less what the opponent can then win with one
 * capture (a static look, see chess-eval.ts), and plays the best score, a seeded draw among equals. When
 * every move loses something it plays the least-bad one. It exercises the move route with a player that
 * is hard for `random` and `greedy` to beat, so Elo spreads in mixed populations.
 */
import type { MyTurnRow } from '../../src/client/wire.js';
import { netGainOfMove } from '../chess/capture-look.js';
import { netGain, pickBest, playBestMove, type MoveChooser } from './chess-eval.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { RandomPersona, checkRandomOptions } from './random.js';

/**
 * The cautious rule. A move with a non-negative balance never leaves a piece the opponent wins material
 * by taking (net of what the move itself won), so whenever such a move exists the best score is one of them.
 */
export const cautiousChoice: MoveChooser = (pos, moves, rng) =>
  pickBest(moves, (move) => netGain(pos, move), rng);

export class CautiousPersona extends RandomPersona {
  protected override playTurn(ctx: AgentContext, game: MyTurnRow): Promise<void> {
    return playBestMove(ctx, game, netGainOfMove, cautiousChoice);
  }
}

export const cautiousPersona: PersonaFactory = {
  name: 'cautious',
  description: 'plays random games but never hangs material to a one-move capture when a safe move exists',
  create: (options) => new CautiousPersona(options),
  checkOptions: (options) => checkRandomOptions(options),
};
