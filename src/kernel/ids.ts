import { createHmac, hash } from 'node:crypto';
import type { Rng } from './rng.js';

/**
 * Identifiers drawn from seeded streams, so a run's ids are reproducible. Never crypto's random UUIDs:
 * that would make two runs of one seed differ.
 */
export function uuidV4(rng: Rng): string {
  // Four 32-bit draws rather than sixteen byte draws: ids are minted on every move.
  const a = rng.int(0, 0xffffffff);
  const b = (rng.int(0, 0xffffffff) & 0xffff0fff) | 0x4000; // version 4
  const c = ((rng.int(0, 0xffffffff) & 0x3fffffff) | 0x80000000) >>> 0; // RFC 4122 variant bits 10xx
  const d = rng.int(0, 0xffffffff);
  // One flat string from char codes, passed as arguments: built by concatenation, an id would stay a rope of
  // a dozen pieces (about 400 bytes instead of 56), kept as long as the record that holds it; from an array
  // (fromCharCode.apply) it took twice as long.
  // prettier-ignore
  return String.fromCharCode(
    hex(a, 28), hex(a, 24), hex(a, 20), hex(a, 16), hex(a, 12), hex(a, 8), hex(a, 4), hex(a, 0), DASH,
    hex(b, 28), hex(b, 24), hex(b, 20), hex(b, 16), DASH,
    hex(b, 12), hex(b, 8), hex(b, 4), hex(b, 0), DASH,
    hex(c, 28), hex(c, 24), hex(c, 20), hex(c, 16), DASH,
    hex(c, 12), hex(c, 8), hex(c, 4), hex(c, 0),
    hex(d, 28), hex(d, 24), hex(d, 20), hex(d, 16), hex(d, 12), hex(d, 8), hex(d, 4), hex(d, 0),
  );
}

/** Draws from its stream per uuidV4 id (src/kernel/replayable-ids.ts skips ids by this many draws). */
export const UUID_DRAWS = 4;
const HEX_CODES = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const DASH = 45;

/** The char code of the hex digit of `word`'s four bits from bit `shift` up. */
function hex(word: number, shift: number): number {
  return HEX_CODES[(word >>> shift) & 0xf]!;
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
