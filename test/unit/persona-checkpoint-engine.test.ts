import { afterAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../../agents/engines/pool.js';
import { enginePersona } from '../../agents/personas/engine.js';
import { CheckpointError, Field } from '../../src/kernel/checkpoint.js';
import { STANDARD_START_FEN } from '../../src/rules/chess/chess.js';
import { endState, swapAll, twin, type Twin } from '../helpers/persona-twin.js';

/**
 * The engine persona's checkpoint (issue 25). Its think is a deferred step saved as data (game, ply, FEN);
 * the search started with it is a promise and is not saved. A persona restored mid-think asks the engine
 * again when the think ends. Proof that this changes nothing: twin worlds, the second restored while engine
 * thinks are pending AND given a new, cold pool, so every answer after the swap is a search run afresh.
 */
const SCENARIO = `
name: engine-checkpoint
seed: 27
start: 2026-03-01T00:00:00Z
duration: 1h
population:
  - persona: engine
    count: 4
    heartbeat: { min: 20s, max: 40s }
    options: { level: sf-2, thinkMinMs: 2000, thinkMaxMs: 20000, maxGames: 2 }
`;
const START_MS = Date.UTC(2026, 2, 1);
const RUN_ON_MS = 6 * 60_000;

afterAll(() => EnginePool.shared().close());

function enginePending(t: Twin): number {
  return t.agents.reduce((sum, { persona }) => sum + persona.pending, 0);
}

describe('engine personas restored mid-think', () => {
  it('ask the engine again and play on exactly as the personas that kept their searches', async () => {
    EnginePool.shared(1);
    const [kept, swapped] = [await twin(SCENARIO), await twin(SCENARIO)];
    // The first virtual second from 5 minutes in at which engine thinks are pending.
    let swapMs = START_MS + 5 * 60_000;
    for (; swapMs < START_MS + 15 * 60_000; swapMs += 1_000) {
      for (const t of [kept, swapped]) await t.world.runUntil(swapMs);
      if (enginePending(swapped) > 0) break;
    }
    const pendingAtSwap = enginePending(swapped);
    await kept.world.runUntil(swapMs + RUN_ON_MS);

    swapAll(swapped);
    EnginePool.shared().close(); // the old personas' searches die with it; the restored ones never had them
    const cold = EnginePool.shared(1);
    await swapped.world.runUntil(swapMs + RUN_ON_MS);

    expect(pendingAtSwap).toBeGreaterThan(0);
    expect(cold.stats().searches).toBeGreaterThanOrEqual(pendingAtSwap);
    expect(endState(swapped)).toEqual(endState(kept));
    expect(swapped.world.platform.state.games.size).toBeGreaterThan(0);
  });
});

describe('an engine persona refuses a tampered state or step', () => {
  const step = { game: 'g1', ply: 0, fen: STANDARD_START_FEN };
  const bad: Array<[unknown, string]> = [
    [{ ...step, ply: -1 }, 'step.ply: must be an integer in 0..'],
    [
      { ...step, fen: 'rnbqkbnr/8/8/8/8/8/8/8 w - - 0 1' },
      'step.fen: must be a legal standard position (FEN)',
    ],
    [{ ...step, fen: `${STANDARD_START_FEN}\nquit` }, 'step.fen: must be a legal standard position (FEN)'],
    [{ ...step, nodes: 1 }, 'step.nodes: is not a field this version reads'],
    [{ game: 'g1', ply: 0 }, 'step.fen: must be a string'],
  ];
  for (const [data, message] of bad)
    it(`step ${JSON.stringify(data).slice(0, 60)}`, () => {
      const persona = enginePersona.create({ level: 'sf-1' });
      expect(() => persona.checkStep!(Field.root(data, 'step'))).toThrow(CheckpointError);
      expect(() => persona.checkStep!(Field.root(data, 'step'))).toThrow(message);
    });

  it('accepts its own step, and refuses a repeated think key or an unknown field in its state', () => {
    const persona = enginePersona.create({ level: 'sf-1' });
    persona.checkStep!(Field.root(step, 'step'));
    const state = { ...(persona.save!() as object), scheduled: ['g1@0', 'g1@0'] };
    expect(() => enginePersona.create({}).load!(Field.root(state))).toThrow(
      'checkpoint.scheduled[1]: must be an item not listed before it',
    );
    expect(() =>
      enginePersona.create({}).load!(Field.root({ ...state, scheduled: [], level: 'sf-8' })),
    ).toThrow('checkpoint.level: is not a field this version reads');
  });
});
