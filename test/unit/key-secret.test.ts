import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Api } from '../../src/api/dispatch.js';
import { newControlToken, newKeySecret } from '../../src/http/secrets.js';
import { apiKey } from '../../src/kernel/ids.js';
import { Rng } from '../../src/kernel/rng.js';
import { createPlatform } from '../../src/platform/index.js';
import { loadScenarioFile } from '../../src/sim/scenario/scenario.js';
import { wirePlatform } from '../../src/sim/wiring.js';
import { World } from '../../src/sim/world.js';
import { START_MS } from '../helpers/world.js';

/**
 * API keys of a live server: the seed is shipped, so keys drawn from it alone are reproducible by anyone
 * who starts a second server. A per-start secret is mixed in; without one (every `run`), keys and the
 * stream they come from are exactly what they always were, so reports and golden fingerprints hold.
 */
const KEY_FORMAT = /^moltchess_[a-z0-9]{40}$/;
const SEED = 'key-secret-test';

/** The key derivation before secrets existed, written out independently of src/kernel/ids.ts. */
function oldSeededKeys(seed: string, count: number): string[] {
  const stream = new Rng(seed).fork('platform').fork('api-keys');
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: count }, () => {
    let key = 'moltchess_';
    for (let i = 0; i < 40; i++) key += alphabet[stream.int(0, alphabet.length - 1)];
    return key;
  });
}

/** The documented keyed form: HMAC-SHA256(secret, seeded key), reduced to 40 base-36 characters. */
function keyedFrom(secret: Uint8Array, seededKey: string): string {
  const digest = BigInt(`0x${createHmac('sha256', secret).update(seededKey).digest('hex')}`);
  return `moltchess_${(digest % 36n ** 40n).toString(36).padStart(40, '0')}`;
}

/** Registers agents and a human (both draw from the key stream) through the route table; returns their keys. */
function issuedKeys(api: Pick<Api, 'handle'>): string[] {
  const keys: string[] = [];
  for (const handle of ['alice', 'bob', 'carol']) {
    const answer = api.handle({ method: 'POST', path: '/api/register', headers: {}, body: { handle } });
    keys.push((answer.body as { api_key: string }).api_key);
  }
  const human = api.handle({ method: 'POST', path: '/_sim/humans', headers: {}, body: { username: 'hana' } });
  keys.push((human.body as { api_key: string }).api_key);
  return keys;
}

function platformKeys(keySecret?: Uint8Array): string[] {
  return issuedKeys(wirePlatform({ seed: SEED, startMs: START_MS, keySecret }).api);
}

const secretOf = (byte: number) => new Uint8Array(32).fill(byte);

describe('API keys with a per-start secret', () => {
  it('without a secret, are exactly the seeded keys of before', () => {
    expect(platformKeys()).toEqual(oldSeededKeys(SEED, 4));
    expect(apiKey(new Rng('k'))).toBe(apiKey(new Rng('k'), undefined));
  });

  it('with the same seed and the same secret, are the same keys', () => {
    expect(platformKeys(secretOf(7))).toEqual(platformKeys(secretOf(7)));
  });

  it('with the same seed and another secret, share no key with the seeded ones or each other', () => {
    const seeded = platformKeys();
    const first = platformKeys(secretOf(1));
    const second = platformKeys(secretOf(2));
    expect(new Set([...seeded, ...first, ...second]).size).toBe(12);
  });

  it('are the HMAC of the seeded draw, so the key stream advances exactly as without a secret', () => {
    const secret = newKeySecret();
    const seeded = oldSeededKeys(SEED, 4);
    expect(platformKeys(secret)).toEqual(seeded.map((key) => keyedFrom(secret, key)));
  });

  it('keep the format: moltchess_ and 40 lower-case alphanumerics, and authenticate', () => {
    const { api } = wirePlatform({ seed: SEED, startMs: START_MS, keySecret: newKeySecret() });
    const keys = issuedKeys(api);
    for (const key of keys) expect(key).toMatch(KEY_FORMAT);
    for (let i = 0; i < 200; i++) expect(apiKey(new Rng(String(i)), secretOf(i))).toMatch(KEY_FORMAT);
    const whoami = api.handle({
      method: 'GET',
      path: '/api/whoami',
      headers: { authorization: `Bearer ${keys[0]}` },
    });
    expect(whoami.status).toBe(200);
  });

  it('reach the platform through WorldOptions, and stay seeded without them', () => {
    const scenario = loadScenarioFile('scenarios/smoke.yaml');
    const secret = newKeySecret();
    const keyed = issuedKeys(new World(scenario, { keySecret: secret }).api);
    const plain = issuedKeys(new World(scenario).api);
    expect(plain).toEqual(oldSeededKeys(scenario.seed, 4));
    expect(keyed).toEqual(plain.map((key) => keyedFrom(secret, key)));
  });

  it('never expose the secret on the platform object', () => {
    const secret = secretOf(0xab);
    const platform = createPlatform({ seed: SEED, startMs: START_MS, keySecret: secret });
    const visible = JSON.stringify(Object.entries(platform).map(([name]) => name));
    expect(visible).not.toMatch(/secret/i);
    expect(Object.values(platform)).not.toContain(secret);
  });
});

describe('secrets of a live server', () => {
  it('draws a fresh 32-byte key secret and a 256-bit base64url control token each time', () => {
    const [a, b] = [newKeySecret(), newKeySecret()];
    expect(a).toBeInstanceOf(Uint8Array);
    expect(a.length).toBe(32);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    const token = newControlToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newControlToken()).not.toBe(token);
  });
});
