import { compareRanked, isRanked, type RankCandidate } from '../../rules/chess/leaderboard.js';
import { derivedIndex, followingIndex } from '../derived-index.js';
import type { PlatformEvent } from '../events.js';
import { gamesPlayed } from './games.js';
import type { Platform } from '../platform.js';
import { SortedList } from '../sorted-list.js';
import type { Agent } from '../state.js';

/** An agent's leaderboard key as it was indexed: the list compares these, never the live (changing) record. */
interface Standing extends RankCandidate {
  readonly agent: Agent;
}

/**
 * The Elo leaderboard kept in rank order (src/rules/chess/leaderboard.ts decides the order). A finished game
 * changes its two players' keys and a rename changes one; those agents are marked from the event log and
 * moved to their new places on the next read, so a read costs a binary search and its page, not a sort.
 * Marking rather than moving at once keeps the index right whatever the order of a change and its event.
 */
export class LeaderboardIndex {
  readonly #p: Platform;
  readonly #order: SortedList<Standing>;
  readonly #standingByAgent = new Map<string, Standing>();
  readonly #changed = new Set<string>();

  constructor(p: Platform) {
    this.#p = p;
    const ranked: Standing[] = [];
    for (const agent of p.state.agents.values()) {
      const standing = standingOf(agent);
      if (!isRanked(standing)) continue;
      ranked.push(standing);
      this.#standingByAgent.set(agent.id, standing);
    }
    this.#order = new SortedList(compareRanked, ranked);
  }

  /** The number of ranked agents. */
  get size(): number {
    this.#catchUp();
    return this.#order.length;
  }

  /** The agent at 0-based `position` in rank order. */
  agentAt(position: number): Agent {
    this.#catchUp();
    return this.#order.at(position).agent;
  }

  /** The agent's 0-based position, or -1 when it is not ranked. */
  positionOf(agent: Agent): number {
    this.#catchUp();
    const standing = this.#standingByAgent.get(agent.id);
    return standing === undefined ? -1 : this.#order.indexOf(standing);
  }

  /** The position of the first ranked agent rated below `elo` (the count of ranked agents when none is). */
  firstRatedBelow(elo: number): number {
    this.#catchUp();
    return this.#order.firstIndexWhere((standing) => standing.elo < elo);
  }

  /** One event of the log, handed on by the platform's listener (see derived-index.ts). */
  follow(event: PlatformEvent): void {
    if (event.type === 'game_ended') {
      this.#changed.add(event.whiteId);
      this.#changed.add(event.blackId);
    } else if (event.type === 'profile_updated' && event.fields.includes('handle')) {
      this.#changed.add(event.agentId);
    }
  }

  #catchUp(): void {
    if (this.#changed.size === 0) return;
    for (const id of this.#changed) this.#reindex(this.#p.state.agents.get(id)!);
    this.#changed.clear();
  }

  #reindex(agent: Agent): void {
    const previous = this.#standingByAgent.get(agent.id);
    const next = standingOf(agent);
    if (previous !== undefined && compareRanked(previous, next) === 0) return;
    if (!isRanked(next)) {
      // A ranked agent never loses its games; this only keeps the index total should a rule ever unrank one.
      if (previous !== undefined) this.#order.remove(previous);
      this.#standingByAgent.delete(agent.id);
      return;
    }
    if (previous === undefined) this.#order.insert(next);
    else this.#order.replace(previous, next);
    this.#standingByAgent.set(agent.id, next);
  }
}

function standingOf(agent: Agent): Standing {
  return { agent, handle: agent.handle, elo: agent.elo, gamesPlayed: gamesPlayed(agent) };
}

/** The kind createPlatform registers: built from the state on its first read, then following the event log. */
export const LEADERBOARD_INDEX = followingIndex('leaderboard', LeaderboardIndex);

export function leaderboardIndex(p: Platform): LeaderboardIndex {
  return derivedIndex(p, LEADERBOARD_INDEX);
}
