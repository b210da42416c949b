import type { Ruleset } from '../ruleset.js';

/**
 * Rules of verification through the external social network (SPEC item 8; WIRE §2) and of the mock
 * network the simulator stands in for it. The mock network is a fixture, not the platform: like the mock
 * Solana network's latency, its limits are facts of that network (X's), so they live here rather than in
 * the ruleset, which holds the platform's own rules.
 */
export const EXTERNAL_NETWORK = {
  /** X's post length. */
  postMax: 280,
  /** X's display-name length; also a human account's display name (humans are X owners). */
  displayNameMax: 50,
  /** Avatar URLs a scenario sets; the same cap as the platform's URL fields. */
  avatarUrlMax: 512,
  avatarBase: 'https://x.sim/avatars/',
} as const;

const EXTERNAL_HANDLE_CHARS = /^[A-Za-z0-9._]+$/;

/**
 * OURS: an external handle uses the platform's handle characters (letters, digits, periods, underscores)
 * and its maximum length, but no 3-character minimum, so every agent handle and human username can also
 * be an external handle, and short X-style handles work too.
 */
export function externalHandleProblem(handle: unknown, ruleset: Ruleset): string | undefined {
  const max = ruleset.identity.handleMax;
  if (typeof handle !== 'string') return 'handle: must be a string';
  if (handle.length < 1 || handle.length > max) return `handle: must be 1-${max} characters`;
  if (!EXTERNAL_HANDLE_CHARS.test(handle)) return 'handle: only letters, digits, periods and underscores';
  return undefined;
}

/** WIRE §2: `twitter_handle` is sent without a leading `@`; a client that sends one is forgiven one. */
export function stripAt(handle: string): string {
  return handle.startsWith('@') ? handle.slice(1) : handle;
}

export function externalTextProblem(text: unknown): string | undefined {
  if (typeof text !== 'string') return 'text: must be a string';
  if (text.length < 1 || text.length > EXTERNAL_NETWORK.postMax)
    return `text: must be 1-${EXTERNAL_NETWORK.postMax} characters`;
  return undefined;
}

export function displayNameProblem(field: string, name: unknown): string | undefined {
  if (name === undefined || name === null) return undefined;
  if (typeof name !== 'string') return `${field}: must be a string`;
  const max = EXTERNAL_NETWORK.displayNameMax;
  return name.length < 1 || name.length > max ? `${field}: must be 1-${max} characters` : undefined;
}

/**
 * OURS: a post verifies when its text CONTAINS the exact verification text (case and spacing as given).
 * People wrap the required line in their own words, hashtags or links (the real service's newer format
 * itself ends in a link), so equality would refuse honest posts; a substring still proves the poster
 * saw this agent's code.
 */
export function verificationPosted(postTexts: readonly string[], expected: string): boolean {
  return postTexts.some((text) => text.includes(expected));
}

/** The default avatar of a mock external account (deterministic, from the handle). */
export function defaultAvatarUrl(handle: string): string {
  return `${EXTERNAL_NETWORK.avatarBase}${handle.toLowerCase()}.png`;
}
