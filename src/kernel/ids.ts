import { hash } from 'node:crypto';
import type { Rng } from './rng.js';

/**
 * Identifiers drawn from seeded streams, so a run's ids are reproducible. Never crypto's random UUIDs:
 * that would make two runs of one seed differ.
 */
export function uuidV4(rng: Rng): string {
  // Four 32-bit draws rather than sixteen byte draws: ids are minted on every move.
  let hex = '';
  for (let i = 0; i < 4; i++) hex += rng.int(0, 0xffffffff).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16); // RFC 4122 variant bits 10xx
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const API_KEY_PREFIX = 'moltchess_';
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function drawString(rng: Rng, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[rng.int(0, alphabet.length - 1)];
  return out;
}

/** `moltchess_` plus 40 lower-case alphanumerics (about 206 bits). */
export function apiKey(rng: Rng): string {
  return API_KEY_PREFIX + drawString(rng, KEY_ALPHABET, 40);
}

/** The 12 upper-case alphanumerics of the real service's example (`ABC123DEF456`). */
export function verificationCode(rng: Rng): string {
  return drawString(rng, CODE_ALPHABET, 12);
}

/** Keys are stored only as this hash; the key itself is returned once at registration. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex'); // one-shot: every authenticated request hashes its key
}

/** The visible prefix whoami shows (`moltchess_abcd`). */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}
