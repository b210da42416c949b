import { derivedIndex, followingIndex } from '../derived-index.js';
import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import type { Challenge } from '../state.js';

/**
 * Open challenges by the agents they involve, and the open public ones, each oldest first (the order of
 * `p.state.openChallengeIds`), so that a challenge list or a limit check reads one agent's few challenges
 * instead of every open one. Kept from the event log: created challenges join; accepted and expired ones
 * leave (the only ways out of `open`, both through `closeChallenge` in src/platform/chess/challenges.ts).
 */
export class ChallengeIndex {
  readonly #p: Platform;
  /** Open challenges naming the agent as challenger or as opponent, by agent id. */
  readonly #openByAgent = new Map<string, Set<string>>();
  /** Open challenges any agent may accept. */
  readonly #openPublic = new Set<string>();

  constructor(p: Platform) {
    this.#p = p;
    for (const id of p.state.openChallengeIds) this.#join(p.state.challenges.get(id)!);
  }

  /** The agent's open challenges, outgoing and incoming, direct and public, oldest first. */
  involving(agentId: string): Challenge[] {
    const ids = this.#openByAgent.get(agentId);
    return ids === undefined ? [] : this.#challenges(ids);
  }

  /** How many open public challenges there are. */
  get publicCount(): number {
    return this.#openPublic.size;
  }

  /** Open public challenges at positions `start` (inclusive) to `end` (exclusive), oldest first. */
  publicSlice(start: number, end: number): Challenge[] {
    const rows: Challenge[] = [];
    let position = 0;
    for (const id of this.#openPublic) {
      if (position >= end) break;
      if (position++ >= start) rows.push(this.#p.state.challenges.get(id)!);
    }
    return rows;
  }

  #challenges(ids: Set<string>): Challenge[] {
    const rows: Challenge[] = [];
    for (const id of ids) rows.push(this.#p.state.challenges.get(id)!);
    return rows;
  }

  /** One event of the log, handed on by the platform's listener (see derived-index.ts). */
  follow(event: PlatformEvent): void {
    if (event.type === 'challenge_created') this.#join(this.#p.state.challenges.get(event.challengeId)!);
    else if (event.type === 'challenge_accepted' || event.type === 'challenge_expired')
      this.#leave(this.#p.state.challenges.get(event.challengeId)!);
  }

  #join(challenge: Challenge): void {
    for (const agentId of partiesOf(challenge)) {
      const ids = this.#openByAgent.get(agentId);
      if (ids === undefined) this.#openByAgent.set(agentId, new Set([challenge.id]));
      else ids.add(challenge.id);
    }
    if (challenge.opponentId === null) this.#openPublic.add(challenge.id);
  }

  #leave(challenge: Challenge): void {
    for (const agentId of partiesOf(challenge)) this.#openByAgent.get(agentId)?.delete(challenge.id);
    this.#openPublic.delete(challenge.id);
  }
}

function partiesOf(challenge: Challenge): string[] {
  return challenge.opponentId === null
    ? [challenge.challengerId]
    : [challenge.challengerId, challenge.opponentId];
}

/** The kind createPlatform registers: built from the state on its first read, then following the event log. */
export const CHALLENGE_INDEX = followingIndex('open challenges', ChallengeIndex);

export function challengeIndex(p: Platform): ChallengeIndex {
  return derivedIndex(p, CHALLENGE_INDEX);
}

/** The agent's open challenges, outgoing and incoming, oldest first: the "mine" list and the per-agent limit read these. */
export function openChallengesInvolving(p: Platform, agentId: string): Challenge[] {
  return challengeIndex(p).involving(agentId);
}

/**
 * One page of the open public challenges, oldest first, and their number; with `challengerId`, only that
 * agent's (read off its own few challenges).
 */
export function openPublicChallengesPage(
  p: Platform,
  limit: number,
  offset: number,
  challengerId?: string,
): { rows: Challenge[]; total: number } {
  const index = challengeIndex(p);
  if (challengerId === undefined)
    return { rows: index.publicSlice(offset, offset + limit), total: index.publicCount };
  const own = index
    .involving(challengerId)
    .filter((c) => c.challengerId === challengerId && c.opponentId === null);
  return { rows: own.slice(offset, offset + limit), total: own.length };
}
