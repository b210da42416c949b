import type { PlatformEvent } from '../../platform/events.js';

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

  observe(event: PlatformEvent, index: number): void {
    this.eventIndex = index;
    this.check(event);
  }

  protected abstract check(event: PlatformEvent): void;

  protected expect(condition: boolean, t: number, message: () => string): void {
    this.checks++;
    if (condition) return;
    this.violationCount++;
    if (this.violations.length < KEEP_VIOLATIONS)
      this.violations.push({ t, event: this.eventIndex, message: message() });
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
