import { derivedIndex, followingIndex } from '../derived-index.js';
import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';

/**
 * What each actor has liked, by actor id, so that a feed row's `has_liked` is two lookups of ids the
 * platform already holds. The state keeps likes as `${actorId}>${targetId}` keys; asking that set built and
 * hashed a new key string for every row of every page, which was the largest single cost of a crowd's feed
 * reads. Likes are never taken back, so the index only grows: built from the state on its first read, then
 * kept current by `liked` events.
 */
export class LikeIndex {
  readonly #targetsByActor = new Map<string, Set<string>>();

  constructor(p: Platform) {
    for (const key of p.state.likes) {
      const cut = key.indexOf('>');
      this.#add(key.slice(0, cut), key.slice(cut + 1));
    }
  }

  has(actorId: string, targetId: string): boolean {
    return this.likedBy(actorId).has(targetId);
  }

  /**
   * The ids of everything one actor has liked, live (not a copy): a response that lists many posts asks
   * once for its viewer, then reads each row's `has_liked` off the set.
   */
  likedBy(actorId: string): ReadonlySet<string> {
    return this.#targetsByActor.get(actorId) ?? NOTHING_LIKED;
  }

  /** One event of the log, handed on by the platform's listener (see derived-index.ts). */
  follow(event: PlatformEvent): void {
    if (event.type === 'liked') this.#add(event.actorId, event.targetId);
  }

  #add(actorId: string, targetId: string): void {
    let targets = this.#targetsByActor.get(actorId);
    if (targets === undefined) {
      targets = new Set();
      this.#targetsByActor.set(actorId, targets);
    }
    targets.add(targetId);
  }
}

const NOTHING_LIKED: ReadonlySet<string> = new Set();

/** The kind createPlatform registers: built from the state on its first read, then following the event log. */
export const LIKE_INDEX = followingIndex('likes', LikeIndex);

export function likeIndex(p: Platform): LikeIndex {
  return derivedIndex(p, LIKE_INDEX);
}
