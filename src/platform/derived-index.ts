import type { PlatformEvent } from './events.js';
import type { Platform } from './platform.js';

/**
 * Read indexes derived from the state, one of each kind per platform. `createPlatform` registers every kind
 * (src/platform/index.ts), so the platform's wiring is read in one place; an index is built from the state
 * on the first read that needs it, and from then on follows the event log (as notifications and activity
 * do). They live beside the platform, never in `p.state`: they are derived data, so no snapshot or
 * fingerprint sees them.
 */
export interface DerivedIndexKind<T> {
  /** Names the kind in the error a read of an unregistered kind throws. */
  readonly name: string;
  /** The index of the state as it is now. */
  build(p: Platform): T;
  /** Keeps a built index current: called with every event emitted after the build. */
  follow(index: T, event: PlatformEvent): void;
}

/** An index class that follows the event log itself (every kind today): its kind is its name and class. */
export function followingIndex<T extends { follow(event: PlatformEvent): void }>(
  name: string,
  Index: new (p: Platform) => T,
): DerivedIndexKind<T> {
  return { name, build: (p) => new Index(p), follow: (index, event) => index.follow(event) };
}

/** Each platform's registered kinds, to their index once built (undefined until its first read). */
const indexesByPlatform = new WeakMap<Platform, Map<DerivedIndexKind<unknown>, unknown>>();

export function registerDerivedIndex<T>(p: Platform, kind: DerivedIndexKind<T>): void {
  let indexes = indexesByPlatform.get(p);
  if (indexes === undefined) {
    indexes = new Map();
    indexesByPlatform.set(p, indexes);
  }
  indexes.set(kind, undefined);
}

/** The platform's index of this kind, built now if this is its first read. */
export function derivedIndex<T>(p: Platform, kind: DerivedIndexKind<T>): T {
  const indexes = indexesByPlatform.get(p);
  const key = kind as DerivedIndexKind<unknown>;
  if (indexes === undefined || !indexes.has(key))
    throw new Error(`read index "${kind.name}" is not registered (createPlatform registers each kind)`);
  let index = indexes.get(key) as T | undefined;
  if (index === undefined) {
    const built = kind.build(p);
    p.onEvent((event) => kind.follow(built, event));
    indexes.set(key, built);
    index = built;
  }
  return index;
}
