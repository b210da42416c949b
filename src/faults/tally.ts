import type { FaultKind } from './profile.js';

/** What one agent met: faults by kind, requests it sent again after a fault, and when each fault happened. */
export interface AgentFaults {
  byKind: Map<FaultKind, number>;
  /** Requests identical (method, path, body) to the agent's previous faulted request: its retries. */
  retried: number;
  /** Virtual times of every fault but latency, in order: what "a fault was active" is measured against. */
  timesMs: number[];
}

/**
 * Faults met, per agent, as the transports report them. Latency is counted but kept out of `timesMs`: under
 * a production-like profile every request is slowed a little, and "a game lost while a fault was active"
 * should name the games a failure touched.
 */
export class FaultTally {
  readonly byAgent = new Map<string, AgentFaults>();
  readonly #lastFaulted = new Map<string, string>();

  #agent(handle: string): AgentFaults {
    let own = this.byAgent.get(handle);
    if (own === undefined) {
      own = { byKind: new Map(), retried: 0, timesMs: [] };
      this.byAgent.set(handle, own);
    }
    return own;
  }

  /** One fault met by `handle` at `nowMs`, on the request whose signature is `signature`. */
  met(handle: string, kind: FaultKind, nowMs: number, signature: string): void {
    const own = this.#agent(handle);
    own.byKind.set(kind, (own.byKind.get(kind) ?? 0) + 1);
    if (kind === 'latency') return;
    own.timesMs.push(nowMs);
    this.#lastFaulted.set(handle, signature);
  }

  /** Every request an agent sends under a profile passes here first, so a repeat of a faulted one counts as a retry. */
  sent(handle: string, signature: string): void {
    const last = this.#lastFaulted.get(handle);
    if (last === undefined) return;
    if (last === signature) this.#agent(handle).retried++;
    this.#lastFaulted.delete(handle);
  }

  /** True when `handle` met a fault (not latency) within [fromMs, toMs]. */
  faultBetween(handle: string, fromMs: number, toMs: number): boolean {
    const times = this.byAgent.get(handle)?.timesMs;
    if (!times || times.length === 0) return false;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! < fromMs) lo = mid + 1;
      else hi = mid;
    }
    return lo < times.length && times[lo]! <= toMs;
  }
}

/** A request's identity for retry counting. */
export function requestSignature(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${body === undefined ? '' : JSON.stringify(body)}`;
}
