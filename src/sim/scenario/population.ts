import type { Rng } from '../../kernel/rng.js';
import { standardNormal } from '../../../agents/engines/strength.js';

/**
 * The pure arithmetic of a population spec: splitting a total among persona shares, and giving each agent
 * its own heartbeat period from a distribution. The scenario loader and the world call these; nothing here
 * touches the platform.
 */

export const HEARTBEAT_DISTRIBUTIONS = ['uniform', 'lognormal'] as const;
export type HeartbeatDistribution = (typeof HEARTBEAT_DISTRIBUTIONS)[number];

/** A distribution of per-agent heartbeat periods, bounded by the group's min and max. */
export interface HeartbeatPeriodSpec {
  distribution: HeartbeatDistribution;
  /** Only for lognormal: the median period (defaults to the geometric mean of min and max). */
  medianMs: number;
}

/**
 * An agent polls every `period` give or take this fraction, so agents that drew the same period still
 * drift apart instead of polling in lockstep (OURS).
 */
export const PERIOD_JITTER = 0.1;
/** Each tail of a lognormal reaches its bound at this z (the 99th percentile) (OURS). */
const LOGNORMAL_BOUND_Z = 2.326;
/** Lognormal draws outside [min, max] are drawn again, this many times at most, then clamped: every loop is bounded. */
const MAX_REDRAWS = 16;

/**
 * Largest-remainder apportionment: each share gets the floor of its quota `total * share`, and the seats
 * left over go to the largest fractional remainders, ties to the earlier share. The counts always sum to
 * `total` and each is within one of its quota. Shares must be positive and sum to 1 (the loader checks; they are normalised here).
 */
export function apportion(total: number, shares: readonly number[]): number[] {
  // Normalised, so shares that sum to 1 only within float tolerance still leave fewer seats over than shares.
  const sum = shares.reduce((a, b) => a + b, 0);
  const quotas = shares.map((share) => (total * share) / sum);
  const counts = quotas.map((q) => Math.floor(q));
  const left = total - counts.reduce((sum, n) => sum + n, 0);
  const byRemainder = quotas
    .map((q, i) => ({ i, remainder: q - Math.floor(q) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let k = 0; k < left; k++) counts[byRemainder[k]!.i]!++;
  return counts;
}

/** The default lognormal median: the geometric mean of the bounds, so both tails are equally long. */
export function defaultMedianMs(minMs: number, maxMs: number): number {
  return Math.round(Math.sqrt(minMs * maxMs));
}

/**
 * One agent's heartbeat period in [minMs, maxMs], drawn from `rng`. Lognormal is two-piece: below the median
 * the spread is set by min, above it by max, each bound at its side's 99th percentile; so the median holds
 * wherever it lies, and with the default median (the geometric mean) the two pieces are one lognormal.
 */
export function drawPeriodMs(spec: HeartbeatPeriodSpec, minMs: number, maxMs: number, rng: Rng): number {
  if (spec.distribution === 'uniform') return rng.int(minMs, maxMs);
  const median = Math.min(Math.max(spec.medianMs, minMs), maxMs);
  const sigmaBelow = Math.log(median / minMs) / LOGNORMAL_BOUND_Z;
  const sigmaAbove = Math.log(maxMs / median) / LOGNORMAL_BOUND_Z;
  let period = median;
  for (let tries = 0; tries < MAX_REDRAWS; tries++) {
    const z = standardNormal(rng);
    period = median * Math.exp(z * (z < 0 ? sigmaBelow : sigmaAbove));
    if (period >= minMs && period <= maxMs) break;
  }
  return Math.round(Math.min(Math.max(period, minMs), maxMs));
}

/** The range an agent with this period draws each heartbeat delay from: the period +- the jitter, within the group's bounds. */
export function periodRange(
  periodMs: number,
  minMs: number,
  maxMs: number,
): { minMs: number; maxMs: number } {
  const low = Math.max(minMs, Math.round(periodMs * (1 - PERIOD_JITTER)));
  const high = Math.min(maxMs, Math.round(periodMs * (1 + PERIOD_JITTER)));
  return { minMs: low, maxMs: high };
}
