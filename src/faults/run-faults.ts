import type { Transport } from '../client/transport.js';
import { FaultInjector } from './decide.js';
import { Parking } from './parking.js';
import type { FaultProfile } from './profile.js';
import { FaultTally } from './tally.js';
import { FaultyTransport } from './transport.js';

/** What a report reads of the faults of a run (or of a serve session): the profile and who met what. */
export interface FaultsMet {
  profile: FaultProfile;
  tally: FaultTally;
}

/** A module agent's step that threw: recorded in its verdict instead of ending the run. */
export interface AgentCrash {
  atMs: number;
  /** One line: the error's name and message. */
  error: string;
}

/**
 * A run's fault injection, in one piece the world holds: the injector (decisions), the tally (what each
 * agent met) and the parking (virtual time passing mid-request). Built only for a profile with rules, so a
 * run without one keeps its old code path and its old draws.
 */
export class RunFaults {
  readonly injector: FaultInjector;
  readonly tally = new FaultTally();
  readonly parking: Parking;
  readonly #nowMs: () => number;

  constructor(
    profile: FaultProfile,
    seed: string,
    startMs: number,
    nowMs: () => number,
    schedule: (delayMs: number, wake: () => Promise<void>) => void,
  ) {
    this.injector = new FaultInjector(profile, seed, startMs);
    this.parking = new Parking(schedule);
    this.#nowMs = nowMs;
  }

  /** One agent's transport under the profile, disarmed until the agent has signed up. */
  transportFor(inner: Transport, handle: string): FaultyTransport {
    return new FaultyTransport(inner, handle, this.injector, this.tally, {
      nowMs: this.#nowMs,
      wait: (delayMs) => this.parking.wait(delayMs),
    });
  }
}

/** "<ErrorName>: <message>" on one line, at most 300 characters, for a crash record. */
export function crashLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `thrown value: ${String(error)}`;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
