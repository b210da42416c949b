import { describeCrossCheck } from '../../escrow/cross-check-result.js';
import { MovetextsAhead } from '../../report/movetexts-ahead.js';
import { deadlineComment } from '../../report/pgn-movetext.js';
import { renderRunReport, type RunContext } from '../../report/write.js';
import { World, type RunOutcome, type WorldOptions } from '../../sim/world.js';
import { MatchScore } from './match-score.js';
import type { RunPlan } from '../../sim/run-plan.js';

/** How the caller slices a run: its own budget per slice (wall time, in the CLI), its stop, its progress. */
export interface SliceHooks {
  /** Called as each slice starts; the slice ends, between two instants, once the predicate answers true. */
  startSlice(): () => boolean;
  /** True once the caller wants the run to stop (Ctrl-C): the run ends at the slice's end. */
  stopped(): boolean;
  /** After each slice: how much of the run is done, 0 to 1 (virtual time, or `--agent`'s games). */
  onProgress(fraction: number): void;
}

/**
 * One `run` of a plan, as a library: the world, the games and moves played so far (for a progress line),
 * `--agent`'s match, and the report once the world has ended. The command owns the wall clock and the
 * signals and hands them in as SliceHooks.
 */
export class PlannedRun {
  readonly world: World;
  readonly match: MatchScore | undefined;
  games = 0;
  moves = 0;
  readonly #plan: RunPlan;
  /** games.pgn's movetexts, written on a second thread as games end (none where no thread is built). */
  readonly #movetexts: MovetextsAhead | undefined;

  /** `onScoreLine`: `--agent`'s score line after each of its games. */
  constructor(plan: RunPlan, options: WorldOptions, onScoreLine: (line: string) => void) {
    this.#plan = plan;
    this.world = new World(plan.scenario, options);
    const { platform } = this.world;
    this.#movetexts = MovetextsAhead.start(platform, deadlineComment(platform.ruleset.game.turnLimitMs));
    this.match = plan.match ? new MatchScore(this.world, plan.match.games, onScoreLine) : undefined;
    this.world.platform.onEvent((event) => {
      if (event.type === 'move_played') this.moves++;
      else if (event.type === 'game_ended') {
        this.games++;
        this.match?.onGameEnded(event.whiteId, event.blackId, event.result);
      }
    });
  }

  /** The share of the scenario's virtual time that has passed, at most 1. */
  get fractionOfTime(): number {
    const { scenario } = this.#plan;
    return Math.min(1, (this.world.platform.nowMs - scenario.startMs) / scenario.durationMs);
  }

  /**
   * Runs the world to the scenario's end (or `--agent`'s last game) in slices, yielding to the event loop
   * between them so that the caller's signals are heard. A world run in slices executes the same events in
   * the same order as in one call (World.runSlice), so slicing never changes a report. Returns false when
   * the caller stopped it. A ScenarioError (an agent module that does not load) is thrown before any event.
   */
  async runInSlices(hooks: SliceHooks): Promise<boolean> {
    const { scenario } = this.#plan;
    const endMs = scenario.startMs + scenario.durationMs;
    const match = this.match;
    const fraction = () =>
      Math.max(
        (this.world.platform.nowMs - scenario.startMs) / scenario.durationMs,
        match?.fractionDone ?? 0,
      );
    for (;;) {
      const sliceOver = hooks.startSlice();
      const done = await this.world.runSlice(
        endMs,
        () => hooks.stopped() || match?.finished === true || sliceOver(),
      );
      hooks.onProgress(fraction());
      if (done) return true;
      if (match?.finished) {
        this.#endScenarioNow();
        return true;
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (hooks.stopped()) return false;
    }
  }

  /**
   * `run --agent` ends at the instant the agent finished its last game: the scenario (built in memory for
   * this run, and read by the world only when it ends) is cut there, so the report's end and duration say
   * how long the match took. The slice stopped between instants, so the same arguments end at the same one.
   */
  #endScenarioNow(): void {
    const { scenario } = this.#plan;
    scenario.durationMs = this.world.platform.nowMs - scenario.startMs;
  }

  /** Ends the world (final checks, fingerprint); the outcome and what the report adds to it. */
  async finish(): Promise<{ outcome: RunOutcome; context: RunContext }> {
    const outcome = await this.world.run();
    return { outcome, context: this.#context(outcome) };
  }

  #context(outcome: RunOutcome): RunContext {
    const replay = this.#plan.replay;
    const match = this.match ? { match: this.match.toReport() } : {};
    if (!outcome.crossCheck) return { replay, ...match };
    const crossCheck = { passed: outcome.crossCheck.passed, line: describeCrossCheck(outcome.crossCheck) };
    return { replay, crossCheck, ...match };
  }

  /** The report set of a finished run: the model and its files by name. */
  render(outcome: RunOutcome, context: RunContext): ReturnType<typeof renderRunReport> {
    try {
      return renderRunReport(this.#plan.scenario, outcome, context, this.#movetexts);
    } finally {
      this.close();
    }
  }

  /** Stops the movetexts' thread: after the report, or when the run stops without one. */
  close(): void {
    this.#movetexts?.close();
  }
}
