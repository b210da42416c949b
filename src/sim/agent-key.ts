import { agentForKey } from '../platform/identity/identity.js';
import type { Platform } from '../platform/index.js';

/** The handle of the agent a bearer key belongs to (the live server's fault layer names requests so), or undefined. */
export function handleForKey(platform: Platform, key: string): string | undefined {
  return agentForKey(platform, key)?.handle;
}
