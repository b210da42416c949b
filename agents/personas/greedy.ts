/**
 * greedy (material-greedy): plays like `random` (seeks, accepts and creates challenges) but always plays
 * the move that wins the most material on the spot: the most valuable capture, or a promotion, with a
 * seeded draw among equals. It never looks at the reply, so it takes defended pawns with its queen. It
 * exercises captures and promotions on the move route, and gives a population a player just above random.
 */
import type { MyTurnRow } from '../../src/client/wire.js';
import { gainOfMove } from '../chess/capture-look.js';
import { materialGain, pickBest, playBestMove, type MoveChooser } from './chess-eval.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { RandomPersona, checkRandomOptions } from './random.js';

/** The greedy rule: most material now, seeded among equals. */
export const greedyChoice: MoveChooser = (pos, moves, rng) =>
  pickBest(moves, (move) => materialGain(pos, move), rng);

/** Plays the greedy rule's move in a my-turn game (the bounty hunter plays its games so too). */
export function playGreedyMove(ctx: AgentContext, game: MyTurnRow): Promise<void> {
  return playBestMove(ctx, game, gainOfMove, greedyChoice);
}

export class GreedyPersona extends RandomPersona {
  protected override playTurn(ctx: AgentContext, game: MyTurnRow): Promise<void> {
    return playGreedyMove(ctx, game);
  }
}

export const greedyPersona: PersonaFactory = {
  name: 'greedy',
  description:
    'plays random games but always takes the most material it can on the spot (captures by value, promotions)',
  create: (options) => new GreedyPersona(options),
  checkOptions: (options) => checkRandomOptions(options),
};
