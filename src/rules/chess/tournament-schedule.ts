import type { Ruleset } from '../ruleset.js';

/**
 * When a tournament's phases end, on the virtual clock. SPEC: a filled bracket gets a 2-minute settlement
 * window; after seeding, round 1 starts 5 minutes later, or at the creator's later minimum_start_at.
 * OURS: registration stays open 24 h from creation, or from minimum_start_at when that is later.
 */
export function registrationClosesAtMs(
  createdAtMs: number,
  minimumStartAtMs: number | null,
  ruleset: Ruleset,
): number {
  return Math.max(createdAtMs, minimumStartAtMs ?? 0) + ruleset.tournaments.registrationWindowMs;
}

export function settlementEndsAtMs(filledAtMs: number, ruleset: Ruleset): number {
  return filledAtMs + ruleset.tournaments.settlementWindowMs;
}

export function roundOneStartsAtMs(
  seededAtMs: number,
  minimumStartAtMs: number | null,
  ruleset: Ruleset,
): number {
  return Math.max(seededAtMs + ruleset.tournaments.startDelayMs, minimumStartAtMs ?? 0);
}
