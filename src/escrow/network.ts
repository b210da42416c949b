import type { Rng } from '../kernel/rng.js';

/**
 * Conditions of the mock Solana network: how long a queued transfer takes to settle, and how often an
 * attempt is lost. These describe the world, not the platform's rules, so scenarios set them beside the
 * ruleset (`escrow:` in a scenario file), and every draw comes from a seeded stream.
 */
export interface NetworkConditions {
  readonly latencyMinMs: number;
  readonly latencyMaxMs: number;
  /** Chance that one attempt of a transfer is lost in flight (0 to 0.5). */
  readonly faultRate: number;
}

// OURS: devnet confirmations take about half a second to a few seconds.
export const DEFAULT_NETWORK: NetworkConditions = { latencyMinMs: 400, latencyMaxMs: 2_500, faultRate: 0 };

/** Above this a payout could plausibly exhaust its retries, and "nothing lost" would rest on luck. */
export const MAX_FAULT_RATE = 0.5;

export function checkNetwork(n: NetworkConditions): string[] {
  const problems: string[] = [];
  if (!Number.isSafeInteger(n.latencyMinMs) || n.latencyMinMs < 0)
    problems.push('latency.min: must be a duration of 0 or more');
  if (!Number.isSafeInteger(n.latencyMaxMs) || n.latencyMaxMs < n.latencyMinMs)
    problems.push('latency.max: must not be less than latency.min');
  if (!(typeof n.faultRate === 'number' && n.faultRate >= 0 && n.faultRate <= MAX_FAULT_RATE)) {
    problems.push(`faultRate: must be a number from 0 to ${MAX_FAULT_RATE}`);
  }
  return problems;
}

/** When one attempt lands, from the latency stream. */
export function drawLatencyMs(n: NetworkConditions, latency: Rng): number {
  return latency.int(n.latencyMinMs, n.latencyMaxMs);
}

/** Whether one attempt is lost, from the fault stream (its own stream, so faults never shift latencies). */
export function drawFault(n: NetworkConditions, faults: Rng): boolean {
  return n.faultRate > 0 && faults.chance(n.faultRate);
}
