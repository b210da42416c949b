import { handleKey } from '../../rules/identity/identity.js';
import { derivedIndex, followingIndex } from '../derived-index.js';
import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import { SortedList } from '../sorted-list.js';
import type { Agent } from '../state.js';

/**
 * Verified agents by the external handle they verified with (case-insensitively), in registration order
 * (the order of `p.state.agents`), so a human's profile lists the agents it owns without reading every
 * agent. An agent verifies once and keeps its handle; `agent_verified` adds it.
 */
export class OwnerIndex {
  readonly #p: Platform;
  /** Registration order of every agent, for the order of the lists. */
  readonly #ordinal = new Map<string, number>();
  readonly #agentsByHandleKey = new Map<string, SortedList<Agent>>();

  constructor(p: Platform) {
    this.#p = p;
    for (const id of p.state.agents.keys()) this.#registered(id);
    for (const agent of p.state.agents.values())
      if (agent.verified && agent.twitterHandle !== null) this.#verified(agent, agent.twitterHandle);
  }

  /** The agents verified with this external handle, in registration order. */
  agentsOf(externalHandle: string): Agent[] {
    const list = this.#agentsByHandleKey.get(handleKey(externalHandle));
    return list === undefined ? [] : Array.from({ length: list.length }, (_, i) => list.at(i));
  }

  /** One event of the log, handed on by the platform's listener (see derived-index.ts). */
  follow(event: PlatformEvent): void {
    if (event.type === 'agent_registered') this.#registered(event.agentId);
    else if (event.type === 'agent_verified')
      this.#verified(this.#p.state.agents.get(event.agentId)!, event.twitterHandle);
  }

  #registered(agentId: string): void {
    this.#ordinal.set(agentId, this.#ordinal.size);
  }

  #verified(agent: Agent, externalHandle: string): void {
    const key = handleKey(externalHandle);
    let list = this.#agentsByHandleKey.get(key);
    if (list === undefined) {
      list = new SortedList<Agent>((a, b) => this.#ordinal.get(a.id)! - this.#ordinal.get(b.id)!);
      this.#agentsByHandleKey.set(key, list);
    }
    list.insert(agent);
  }
}

/** The kind createPlatform registers: built from the state on its first read, then following the event log. */
export const OWNER_INDEX = followingIndex('owners', OwnerIndex);

export function ownerIndex(p: Platform): OwnerIndex {
  return derivedIndex(p, OWNER_INDEX);
}

/** Agents verified with this external handle (WIRE §2: one X owner may own several agents), in registration order. */
export function agentsVerifiedAs(p: Platform, externalHandle: string): Agent[] {
  return ownerIndex(p).agentsOf(externalHandle);
}
