import { createHmac, hash } from 'node:crypto';
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

const KEY_LENGTH = 40;
const KEY_SPACE = 36n ** BigInt(KEY_LENGTH);

/**
 * `moltchess_` plus 40 lower-case alphanumerics (about 206 bits), drawn from the seeded stream. With a
 * secret (a live server's, drawn at start), the key is HMAC-SHA256(secret, seeded key) in base 36: the
 * seed is shipped, so a seeded key alone is reproducible by anyone; the secret makes it unguessable. The
 * seeded draw happens either way, so the stream advances exactly as it does without a secret.
 */
export function apiKey(rng: Rng, secret?: Uint8Array): string {
  const seeded = API_KEY_PREFIX + drawString(rng, KEY_ALPHABET, KEY_LENGTH);
  return secret === undefined ? seeded : API_KEY_PREFIX + keyedDigest(secret, seeded);
}

/** 40 base-36 characters of HMAC-SHA256: 256 bits reduced mod 36^40 (the bias is under 2^-49). */
function keyedDigest(secret: Uint8Array, seededKey: string): string {
  const digest = createHmac('sha256', secret).update(seededKey).digest('hex');
  return (BigInt(`0x${digest}`) % KEY_SPACE).toString(36).padStart(KEY_LENGTH, '0');
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
