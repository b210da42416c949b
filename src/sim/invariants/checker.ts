import type { PlatformEvent } from '../../platform/events.js';
import type { Field, Json } from '../../kernel/checkpoint.js';
import { parts } from './checker-state.js';

/**
 * The base of every invariant checker (src/sim/invariants/invariants.ts, src/sim/invariants/social-invariants.ts): it counts
 * checks and keeps the first few violations. A checker keeps its own model, built only from the event log,
 * and imports no rule: a bug in a rule must not be able to hide itself by being reused.
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

/** A checker with checks that need the whole run (or the whole platform) once, at the end. */
export interface FinalCheck {
  finalCheck(t: number): void;
}

export function hasFinalCheck<T extends object>(checker: T): checker is T & FinalCheck {
  return typeof (checker as Partial<FinalCheck>).finalCheck === 'function';
}

const KEEP_VIOLATIONS = 20;

export abstract class Checker {
  abstract readonly name: string;
  abstract readonly description: string;
  checks = 0;
  violationCount = 0;
  readonly violations: Violation[] = [];
  protected eventIndex = 0;
  /**
   * Whether `check` reads `move_played` events, nearly all of a log: the suite calls a checker that does not
   * only for the other events (InvariantSuite.observe). True unless a checker says otherwise, so a new
   * checker, and a user's, sees every event.
   */
  readonly readsMoves: boolean = true;

  observe(event: PlatformEvent, index: number): void {
    this.eventIndex = index;
    this.check(event);
  }

  /** The log's last event so far, for the final checks of a checker the suite did not call for it. */
  lastEventWas(index: number): void {
    this.eventIndex = index;
  }

  protected abstract check(event: PlatformEvent): void;

  protected expect(condition: boolean, t: number, message: () => string): void {
    if (!this.held(condition)) this.violated(t, message);
  }

  /**
   * `expect` for the checks run on every move: counts the check and answers whether it held, and the caller
   * reports a failure with `violated`. No message closure is made for a check that holds (nearly all), and
   * `check` captures nothing, so no context is made for each event it reads either.
   */
  protected held(condition: boolean): boolean {
    this.checks++;
    return condition;
  }

  /**
   * A check that `held` answered false for: counted, and kept among the first few (a message given as a
   * function is written only then).
   */
  protected violated(t: number, message: string | (() => string)): void {
    this.violationCount++;
    if (this.violations.length < KEEP_VIOLATIONS)
      this.violations.push({
        t,
        event: this.eventIndex,
        message: typeof message === 'string' ? message : message(),
      });
  }

  /**
   * The checker's own model (what it rebuilt from the log so far) as checkpoint data, and its loader: a
   * checker restored from it into a fresh one on a platform with the same state checks on as if it had
   * seen every event. Every checker states its model, even an empty one (`null`).
   */
  protected abstract saveModel(): Json;
  /** A generator where a model may be large (it pauses between rows), else a plain function. */
  protected abstract loadModel(field: Field): Generator<void, void> | void;

  save(): Json {
    return {
      checks: this.checks,
      violationCount: this.violationCount,
      violations: this.violations.map(({ t, event, message }) => ({ t, event, message })),
      model: this.saveModel(),
    };
  }

  /** Replaces this checker's counts and model with saved ones; `eventIndex` is the last event it saw. */
  *load(field: Field, eventIndex: number): Generator<void, void> {
    const [checks, count, violations, model] = parts(field, [
      'checks',
      'violationCount',
      'violations',
      'model',
    ]);
    this.checks = checks!.nat();
    this.violationCount = count!.int(0, this.checks);
    const kept = violations!.list((v) =>
      v.record((get) => ({
        t: get('t').int(),
        event: get('event').int(0, eventIndex),
        message: get('message').str(),
      })),
    );
    // A checker keeps the first violations, up to KEEP_VIOLATIONS.
    if (kept.length !== Math.min(KEEP_VIOLATIONS, this.violationCount))
      violations!.fail(`the first min(${KEEP_VIOLATIONS}, violationCount) violations`);
    this.violations.splice(0, this.violations.length, ...kept);
    this.eventIndex = eventIndex;
    const steps = this.loadModel(model!);
    if (steps) yield* steps;
  }

  result(): InvariantResult {
    const { name, description, checks, violationCount, violations } = this;
    return {
      name,
      description,
      passed: violationCount === 0,
      checks,
      violationCount,
      violations: [...violations],
    };
  }
}
