import type { PlatformEvent } from '../platform/events.js';
import type { Platform } from '../platform/platform.js';

/**
 * Independent checkers of the platform's rules. They keep their own model, built only from the event log,
 * and compare it with the platform after every event. They import no rule: a bug in a rule must not be
 * able to hide itself by being reused here.
 */
export interface Violation {
  t: number;
  event: number;
  message: string;
}

export interface InvariantResult {
  name: string;
  description: string;
  passed: boolean;
  checks: number;
  violationCount: number;
  /** The first few violations, enough to start debugging. */
  violations: Violation[];
}

const KEEP_VIOLATIONS = 20;

abstract class Checker {
  abstract readonly name: string;
  abstract readonly description: string;
  checks = 0;
  violationCount = 0;
  readonly violations: Violation[] = [];
  protected eventIndex = 0;

  observe(event: PlatformEvent, index: number): void {
    this.eventIndex = index;
    this.check(event);
  }

  protected abstract check(event: PlatformEvent): void;

  protected expect(condition: boolean, t: number, message: () => string): void {
    this.checks++;
    if (condition) return;
    this.violationCount++;
    if (this.violations.length < KEEP_VIOLATIONS) this.violations.push({ t, event: this.eventIndex, message: message() });
  }

  result(): InvariantResult {
    const { name, description, checks, violationCount, violations } = this;
    return { name, description, passed: violationCount === 0, checks, violationCount, violations: [...violations] };
  }
}

/** Ratings replayed from the log match the platform's, equal-K changes cancel, and the sum never drifts. */
class EloConservation extends Checker {
  readonly name = 'elo_conservation';
  readonly description = 'rating changes of equal-K games cancel exactly; ratings and their sum match a replay of the log';
  #ratings = new Map<string, number>();
  #expectedSum = 0;

  constructor(private readonly platform: Platform) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'agent_registered') {
      this.#ratings.set(e.agentId, e.elo);
      this.#expectedSum += e.elo;
    }
    if (e.type !== 'game_ended') return;
    if (e.equalK) this.expect(e.whiteDelta + e.blackDelta === 0, e.t, () => `game ${e.gameId}: ${e.whiteDelta} + ${e.blackDelta} != 0`);
    this.expect(this.#ratings.get(e.whiteId) === e.whiteEloBefore && this.#ratings.get(e.blackId) === e.blackEloBefore, e.t, () => `game ${e.gameId}: ratings before differ from the replay`);
    this.#ratings.set(e.whiteId, e.whiteEloBefore + e.whiteDelta);
    this.#ratings.set(e.blackId, e.blackEloBefore + e.blackDelta);
    this.#expectedSum += e.whiteDelta + e.blackDelta;
    for (const id of [e.whiteId, e.blackId]) {
      const actual = this.platform.state.agents.get(id)?.elo;
      this.expect(actual === this.#ratings.get(id), e.t, () => `agent ${id}: platform rating ${actual} != replayed ${this.#ratings.get(id)}`);
    }
  }

  /** The whole-population sum, checked at the end of a run (O(agents), so not after every event). */
  finalCheck(t: number): void {
    let sum = 0;
    for (const agent of this.platform.state.agents.values()) sum += agent.elo;
    this.expect(sum === this.#expectedSum, t, () => `sum of ratings ${sum} != expected ${this.#expectedSum}`);
  }
}

/** A game ends once, and nothing is played after it ends. */
class OneResultPerGame extends Checker {
  readonly name = 'one_result_per_game';
  readonly description = 'every game ends at most once, and no move is accepted after it ended';
  #ended = new Set<string>();

  protected check(e: PlatformEvent): void {
    if (e.type === 'move_played') this.expect(!this.#ended.has(e.gameId), e.t, () => `game ${e.gameId}: move after the end`);
    if (e.type !== 'game_ended') return;
    this.expect(!this.#ended.has(e.gameId), e.t, () => `game ${e.gameId}: ended twice`);
    this.#ended.add(e.gameId);
  }
}

/** Every turn lasts exactly the turn limit: moves land strictly before it, timeouts exactly at it. */
class DeadlinesExact extends Checker {
  readonly name = 'deadlines_exact';
  readonly description = 'moves are accepted only before the turn deadline; a timeout happens exactly at it; deadlines are turn start + limit';
  #deadline = new Map<string, number>();

  constructor(private readonly turnLimitMs: number) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'game_started') {
      this.expect(e.deadlineMs === e.t + this.turnLimitMs, e.t, () => `game ${e.gameId}: first deadline ${e.deadlineMs} != start + limit`);
      this.#deadline.set(e.gameId, e.t + this.turnLimitMs);
    } else if (e.type === 'move_played') this.checkMove(e);
    else if (e.type === 'game_ended') this.checkEnd(e);
  }

  private checkMove(e: Extract<PlatformEvent, { type: 'move_played' }>): void {
    const deadline = this.#deadline.get(e.gameId);
    this.expect(deadline !== undefined && e.t < deadline, e.t, () => `game ${e.gameId}: move at ${e.t} not before deadline ${deadline}`);
    this.expect(e.deadlineMs === deadline, e.t, () => `game ${e.gameId}: platform deadline ${e.deadlineMs} != ${deadline}`);
    if (e.nextDeadlineMs !== null) {
      this.expect(e.nextDeadlineMs === e.t + this.turnLimitMs, e.t, () => `game ${e.gameId}: next deadline not move time + limit`);
    }
    this.#deadline.set(e.gameId, e.t + this.turnLimitMs);
  }

  private checkEnd(e: Extract<PlatformEvent, { type: 'game_ended' }>): void {
    const deadline = this.#deadline.get(e.gameId);
    if (e.reason === 'timeout') this.expect(e.t === deadline, e.t, () => `game ${e.gameId}: timeout at ${e.t}, deadline was ${deadline}`);
    this.#deadline.delete(e.gameId);
  }
}

/** Nobody challenges, accepts or moves before completing the research phase. */
class ResearchPhaseHeld extends Checker {
  readonly name = 'research_phase_held';
  readonly description = 'no agent creates or accepts a challenge, or moves, before its required posts';
  #posts = new Map<string, number>();

  constructor(private readonly minPosts: number) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'post_created') this.#posts.set(e.agentId, (this.#posts.get(e.agentId) ?? 0) + 1);
    const actor = e.type === 'challenge_created' ? e.challengerId : e.type === 'challenge_accepted' || e.type === 'move_played' ? e.agentId : undefined;
    if (actor === undefined) return;
    this.expect((this.#posts.get(actor) ?? 0) >= this.minPosts, e.t, () => `agent ${actor}: ${e.type} before ${this.minPosts} post(s)`);
  }
}

export class InvariantSuite {
  readonly #elo: EloConservation;
  readonly #checkers: Checker[];
  #index = 0;

  constructor(platform: Platform) {
    this.#elo = new EloConservation(platform);
    this.#checkers = [
      this.#elo,
      new OneResultPerGame(),
      new DeadlinesExact(platform.ruleset.game.turnLimitMs),
      new ResearchPhaseHeld(platform.ruleset.research.minPosts),
    ];
    platform.onEvent((event) => this.observe(event));
  }

  observe(event: PlatformEvent): void {
    const index = this.#index++;
    for (const checker of this.#checkers) checker.observe(event, index);
  }

  finish(t: number): InvariantResult[] {
    this.#elo.finalCheck(t);
    return this.results();
  }

  results(): InvariantResult[] {
    return this.#checkers.map((c) => c.result());
  }

  get failed(): boolean {
    return this.#checkers.some((c) => c.violationCount > 0);
  }
}
