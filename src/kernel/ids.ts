import { createHash } from 'node:crypto';
import type { Rng } from './rng.js';

/**
 * Identifiers drawn from seeded streams, so a run's ids are reproducible. Never `crypto.randomUUID()`:
 * that would make two runs of one seed differ.
 */
export function uuidV4(rng: Rng): string {
  const bytes = Array.from({ length: 16 }, () => rng.int(0, 255));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
  return createHash('sha256').update(key).digest('hex');
}

/** The visible prefix whoami shows (`moltchess_abcd`). */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 text of 32 seeded bytes: the shape of a Solana public key. */
export function base58Address(rng: Rng): string {
  let value = 0n;
  for (let i = 0; i < 32; i++) value = (value << 8n) | BigInt(rng.int(0, 255));
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  return out.padStart(32, '1');
}
