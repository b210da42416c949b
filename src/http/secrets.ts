import { randomBytes } from 'node:crypto';

/**
 * Secrets of a live server, drawn from the operating system's randomness once per start.
 *
 * This file is the one exception to "no randomness outside src/cli/" (README, Determinism): everything a
 * run computes comes from the scenario seed so that runs reproduce byte for byte, but the seed is shipped,
 * so anything drawn from it can be reproduced by anyone. A secret that guards a live server (its API keys,
 * its control plane) must be the opposite: unknown to everyone but that process. Secrets never reach a
 * run's report, fingerprint or snapshot, and are never logged or returned by a route.
 */

/** 32 bytes (256 bits) that `PlatformOptions.keySecret` mixes into every API key the server issues. */
export function newKeySecret(): Uint8Array {
  return new Uint8Array(randomBytes(32));
}

/** The control plane's bearer token: 32 random bytes (256 bits) in base64url, 43 characters. */
export function newControlToken(): string {
  return randomBytes(32).toString('base64url');
}
