import type { Platform } from './platform.js';

/**
 * Read indexes derived from the state, one of each kind per platform, built on the first read that needs
 * it and kept current from the event log afterwards (as notifications and activity are). They live beside
 * the platform, never in `p.state`: they are derived data, so no snapshot or fingerprint sees them.
 */
const indexesByPlatform = new WeakMap<Platform, Map<IndexBuilder<unknown>, unknown>>();

export type IndexBuilder<T> = (p: Platform) => T;

export function derivedIndex<T>(p: Platform, build: IndexBuilder<T>): T {
  let indexes = indexesByPlatform.get(p);
  if (indexes === undefined) {
    indexes = new Map();
    indexesByPlatform.set(p, indexes);
  }
  let index = indexes.get(build) as T | undefined;
  if (index === undefined) {
    index = build(p);
    indexes.set(build, index);
  }
  return index;
}
