import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/kernel/checkpoint.js';
import type { PlatformEvent } from '../../src/platform/events.js';
import { createPlatform } from '../../src/platform/index.js';
import { Checker } from '../../src/sim/invariants/checker.js';
import { InvariantSuite } from '../../src/sim/invariants/invariants.js';

/**
 * The suite shows a move only to the checkers that read moves (Checker.readsMoves); a checker that does
 * not still sees every other event, and its final check names the log's last event, as when it saw all.
 */
class Recorder extends Checker {
  readonly description = 'records what it is shown; its final check always fails';
  readonly seen: string[] = [];

  constructor(
    readonly name: string,
    override readonly readsMoves: boolean,
  ) {
    super();
  }

  protected check(event: PlatformEvent): void {
    this.seen.push(event.type);
  }

  finalCheck(t: number): void {
    this.expect(false, t, () => 'final');
  }

  protected saveModel(): Json {
    return null;
  }

  protected loadModel(): void {}
}

describe('which checkers a move is shown to', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const registered = { type: 'agent_registered', t: t0, agentId: 'a', handle: 'a', elo: 1200 } as const;
  const move = {
    type: 'move_played',
    t: t0 + 1,
    gameId: 'g',
    agentId: 'a',
    ply: 1,
    uci: 'e2e4',
    san: 'e4',
    deadlineMs: t0 + 300_000,
    nextDeadlineMs: t0 + 300_001,
  } as const;

  it('a checker that reads no moves sees the rest, and its final violation names the last event', () => {
    const suite = new InvariantSuite(createPlatform({ seed: 's', startMs: t0 }));
    const all = new Recorder('all_events', true);
    const noMoves = new Recorder('no_moves', false);
    suite.add([all, noMoves]);
    suite.observe(registered);
    suite.observe(move);
    suite.observe(move);
    expect(all.seen).toEqual(['agent_registered', 'move_played', 'move_played']);
    expect(noMoves.seen).toEqual(['agent_registered']);
    const results = suite.finish(t0 + 2);
    for (const name of ['all_events', 'no_moves'])
      expect(results.find((r) => r.name === name)?.violations).toEqual([
        { t: t0 + 2, event: 2, message: 'final' },
      ]);
  });

  it('the built-in checkers that read moves are those whose checks count moves', () => {
    const suite = new InvariantSuite(createPlatform({ seed: 's', startMs: t0 }));
    suite.observe(move);
    const checked = suite
      .results()
      .filter((r) => r.checks > 0)
      .map((r) => r.name);
    expect(checked).toEqual(['one_result_per_game', 'deadlines_exact', 'research_phase_held']);
  });
});
