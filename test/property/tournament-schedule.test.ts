import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET, resolveRuleset, type Ruleset } from '../../src/rules/ruleset.js';
import {
  registrationClosesAtMs,
  roundOneStartsAtMs,
  settlementEndsAtMs,
} from '../../src/rules/chess/tournament-schedule.js';

const FC = { numRuns: 1000 };
const MINUTE = 60_000;
const START_MS = Date.UTC(2026, 2, 1, 12);

// Instants within a year of the start, and windows from a second to a week.
const instant = fc.integer({ min: START_MS, max: START_MS + 365 * 24 * 60 * MINUTE });
const minimumStart = fc.option(instant, { nil: null });
const window = fc.integer({ min: 1000, max: 7 * 24 * 60 * MINUTE });

function rulesetWith(
  registrationWindowMs: number,
  settlementWindowMs: number,
  startDelayMs: number,
): Ruleset {
  const { ruleset, errors } = resolveRuleset({
    tournaments: { registrationWindowMs, settlementWindowMs, startDelayMs },
  });
  expect(errors).toEqual([]);
  return ruleset;
}

describe('tournament phases on the virtual clock (src/rules/chess/tournament-schedule.ts)', () => {
  it("uses the spec's 2-minute settlement and 5-minute start delay, and our 24-hour registration window", () => {
    const t = DEFAULT_RULESET.tournaments;
    expect([t.settlementWindowMs, t.startDelayMs, t.registrationWindowMs]).toEqual([
      2 * MINUTE,
      5 * MINUTE,
      24 * 60 * MINUTE,
    ]);
    expect(settlementEndsAtMs(START_MS, DEFAULT_RULESET)).toBe(START_MS + 2 * MINUTE);
    expect(roundOneStartsAtMs(START_MS, null, DEFAULT_RULESET)).toBe(START_MS + 5 * MINUTE);
    expect(registrationClosesAtMs(START_MS, null, DEFAULT_RULESET)).toBe(START_MS + 24 * 60 * MINUTE);
  });

  it('property: registration runs one window from creation, or from a later minimum start', () => {
    fc.assert(
      fc.property(instant, minimumStart, window, (createdAtMs, minimumStartAtMs, registrationWindowMs) => {
        const ruleset = rulesetWith(registrationWindowMs, 2 * MINUTE, 5 * MINUTE);
        const from =
          minimumStartAtMs !== null && minimumStartAtMs > createdAtMs ? minimumStartAtMs : createdAtMs;
        expect(registrationClosesAtMs(createdAtMs, minimumStartAtMs, ruleset)).toBe(
          from + registrationWindowMs,
        );
      }),
      FC,
    );
  });

  it('property: the settlement window ends one window after the bracket fills', () => {
    fc.assert(
      fc.property(instant, window, (filledAtMs, settlementWindowMs) => {
        expect(
          settlementEndsAtMs(filledAtMs, rulesetWith(24 * 60 * MINUTE, settlementWindowMs, 5 * MINUTE)),
        ).toBe(filledAtMs + settlementWindowMs);
      }),
      FC,
    );
  });

  it('property: round 1 starts at the later of seeding plus the delay and the minimum start, never before either', () => {
    fc.assert(
      fc.property(instant, minimumStart, window, (seededAtMs, minimumStartAtMs, startDelayMs) => {
        const startsAt = roundOneStartsAtMs(
          seededAtMs,
          minimumStartAtMs,
          rulesetWith(24 * 60 * MINUTE, 2 * MINUTE, startDelayMs),
        );
        expect(startsAt).toBeGreaterThanOrEqual(seededAtMs + startDelayMs);
        if (minimumStartAtMs !== null) expect(startsAt).toBeGreaterThanOrEqual(minimumStartAtMs);
        expect([seededAtMs + startDelayMs, minimumStartAtMs]).toContain(startsAt);
      }),
      FC,
    );
  });
});
