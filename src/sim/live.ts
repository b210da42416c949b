import { createHash } from 'node:crypto';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { toIso } from '../kernel/clock.js';
import { requireAgent } from '../platform/identity.js';
import { stateFingerprint } from '../platform/snapshot.js';
import { airdrop } from '../platform/transfers.js';
import type { Scenario } from './scenario.js';
import { World } from './world.js';

/**
 * A world that runs on demand, as `serve` runs it: the clock advances when told, and requests from outside
 * (an agent under test, a person with curl) land between the world's own events.
 *
 * Snapshot and restore work by replay. The world is deterministic given its scenario and everything that
 * reached it from outside, so a snapshot is the scenario plus that input log (clock advances, requests,
 * airdrops), with a hash of the full state to check against. Restoring builds a fresh world and replays the
 * log: personas' private state, pending timers, rng streams and the event fingerprint all come back exactly
 * as they were, with nothing to serialise by hand, and the restored world then continues exactly as the
 * original would. The cost is replay time, proportional to the history.
 */
export type LiveInput =
  | { kind: 'advance'; toMs: number }
  | { kind: 'request'; request: ApiRequest }
  | { kind: 'airdrop'; handle: string; lamports: number };

export interface LiveSnapshot {
  format: 'agent-chess-sim/live-snapshot@1';
  scenario: Scenario;
  nowMs: number;
  now: string;
  /** SHA-256 of the platform's canonical state (usage counters included) at the snapshot. */
  stateHash: string;
  /** The event-log fingerprint at the snapshot. */
  fingerprint: string;
  /** Everything that reached the world from outside, in order. Requests carry their keys: keep snapshots private. */
  inputs: LiveInput[];
  /** The platform's whole state at the snapshot, as canonical JSON data, for reading; restore replays `inputs`. */
  state: unknown;
}

export class SnapshotError extends Error {}

export class LiveWorld {
  readonly world: World;
  readonly #inputs: LiveInput[] = [];

  private constructor(world: World) {
    this.world = world;
  }

  /** A world with its population registered, at the scenario's start. */
  static async start(scenario: Scenario): Promise<LiveWorld> {
    const live = new LiveWorld(new World(scenario));
    await live.world.populate();
    return live;
  }

  get nowMs(): number {
    return this.world.platform.nowMs;
  }

  /** Runs the world up to `toMs`; a time not after now does nothing. */
  async advanceTo(toMs: number): Promise<void> {
    if (!Number.isSafeInteger(toMs) || toMs <= this.nowMs) return;
    await this.world.runUntil(toMs);
    const last = this.#inputs.at(-1);
    // Consecutive advances with nothing between them are one advance: the world runs the same events.
    if (last?.kind === 'advance') last.toMs = toMs;
    else this.#inputs.push({ kind: 'advance', toMs });
  }

  /** Moves to the next platform deadline or timer (a turn deadline, an expiry, a transfer landing), if any. */
  async stepToNextTimer(): Promise<number | null> {
    const due = this.world.platform.nextTimerDueMs();
    if (due === undefined) return null;
    await this.advanceTo(Math.max(due, this.nowMs + 1));
    return due;
  }

  /** A request from outside: recorded, then answered by the route table. */
  handle(request: ApiRequest): ApiResponse {
    const copy: ApiRequest = JSON.parse(JSON.stringify(request)) as ApiRequest;
    this.#inputs.push({ kind: 'request', request: copy });
    return this.world.api.handle(copy);
  }

  /** Mints SOL-devnet lamports into an agent's wallet (the simulator's faucet). */
  airdrop(handle: string, lamports: number): string {
    const agent = requireAgent(this.world.platform, handle);
    airdrop(this.world.platform, agent.walletAddress, lamports);
    this.#inputs.push({ kind: 'airdrop', handle: agent.handle, lamports });
    return agent.walletAddress;
  }

  snapshot(): LiveSnapshot {
    const state = stateFingerprint(this.world.platform, { includeUsage: true });
    return {
      format: 'agent-chess-sim/live-snapshot@1',
      scenario: this.world.scenario,
      nowMs: this.nowMs,
      now: toIso(this.nowMs),
      stateHash: sha256(state),
      fingerprint: this.world.fingerprintSoFar(),
      inputs: JSON.parse(JSON.stringify(this.#inputs)) as LiveInput[],
      state: JSON.parse(state) as unknown,
    };
  }

  /** Rebuilds the world by replaying the snapshot's inputs; refuses a snapshot whose replay does not match it. */
  static async restore(snapshot: LiveSnapshot): Promise<LiveWorld> {
    if (snapshot?.format !== 'agent-chess-sim/live-snapshot@1' || !Array.isArray(snapshot.inputs)) {
      throw new SnapshotError('not a live snapshot (format agent-chess-sim/live-snapshot@1)');
    }
    const live = await LiveWorld.start(snapshot.scenario);
    for (const input of snapshot.inputs) await live.#replay(input);
    if (live.nowMs !== snapshot.nowMs || stateHash(live.world) !== snapshot.stateHash) {
      throw new SnapshotError('the replayed world differs from the snapshot (was it edited, or made by another version?)');
    }
    return live;
  }

  async #replay(input: LiveInput): Promise<void> {
    if (input.kind === 'advance') await this.advanceTo(input.toMs);
    else if (input.kind === 'request') this.handle(input.request);
    else this.airdrop(input.handle, input.lamports);
  }
}

function stateHash(world: World): string {
  return sha256(stateFingerprint(world.platform, { includeUsage: true }));
}

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}
