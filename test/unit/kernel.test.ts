import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock, parseDurationMs, toIso } from '../../src/kernel/clock.js';
import { Scheduler } from '../../src/kernel/scheduler.js';
import { Rng } from '../../src/kernel/rng.js';
import { UUID_PATTERN, apiKey, hashApiKey, uuidV4, verificationCode } from '../../src/kernel/ids.js';
import { deriveKeypair } from '../../src/escrow/ledger.js';
import { lamportsToSol, solToLamports } from '../../src/kernel/money.js';

describe('scheduler', () => {
  it('orders by due time, then by insertion order', async () => {
    const s = new Scheduler<string>(new VirtualClock(0));
    s.at(20, 'c');
    s.at(10, 'a');
    s.at(20, 'd');
    s.at(10, 'b');
    const seen: string[] = [];
    await s.runUntilIdle((p) => void seen.push(p));
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
  });

  it('cancels, and runUntil stops at the bound leaving the clock there', async () => {
    const clock = new VirtualClock(0);
    const s = new Scheduler<string>(clock);
    const id = s.at(5, 'cancelled');
    s.at(7, 'kept');
    s.at(50, 'later');
    s.cancel(id);
    const seen: string[] = [];
    await s.runUntil(30, (p) => void seen.push(p));
    expect(seen).toEqual(['kept']);
    expect(clock.nowMs).toBe(30);
    expect(s.size).toBe(1);
    expect(s.peekDueMs()).toBe(50);
  });

  it('never schedules into the past and refuses a runaway loop', async () => {
    const clock = new VirtualClock(100);
    const s = new Scheduler<number>(clock);
    s.at(10, 1);
    expect(s.peekDueMs()).toBe(100);
    const forever = (n: number) => void s.after(1, n + 1);
    await expect(s.runUntilIdle(forever, 1000)).rejects.toThrow(/exceeded 1000 events/);
  });

  it('refuses to move the clock backwards', () => {
    const clock = new VirtualClock(10);
    expect(() => clock.advanceTo(9)).toThrow();
  });
});

describe('rng streams', () => {
  it('a fork depends only on the seed and its name, not on other draws', () => {
    const a = new Rng('seed');
    const b = new Rng('seed');
    for (let i = 0; i < 100; i++) b.fork('noise').float();
    b.float();
    expect(a.fork('agent:x').float()).toBe(b.fork('agent:x').float());
    expect(new Rng('seed').fork('agent:y').float()).not.toBe(new Rng('seed').fork('agent:x').float());
    expect(new Rng('other').fork('agent:x').float()).not.toBe(new Rng('seed').fork('agent:x').float());
  });

  it('int stays in range and covers it', () => {
    const rng = new Rng('r');
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(rng.int(3, 7));
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });
});

describe('ids', () => {
  it('draws valid, reproducible UUID v4s, keys and codes', () => {
    const ids = Array.from({ length: 200 }, (_, i) => uuidV4(new Rng('ids').fork(String(i))));
    for (const id of ids) expect(id).toMatch(UUID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
    expect(uuidV4(new Rng('same'))).toBe(uuidV4(new Rng('same')));
    expect(apiKey(new Rng('k'))).toMatch(/^moltchess_[a-z0-9]{40}$/);
    expect(verificationCode(new Rng('c'))).toMatch(/^[A-Z0-9]{12}$/);
    expect(deriveKeypair(new Rng('w')).address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(deriveKeypair(new Rng('w')).address).toBe(deriveKeypair(new Rng('w')).address);
    expect(hashApiKey('moltchess_a')).not.toContain('moltchess');
  });
});

describe('money', () => {
  it('converts SOL to lamports exactly', () => {
    expect(solToLamports(0.01)).toBe(10_000_000);
    expect(solToLamports(0.1 + 0.2)).toBeUndefined(); // 0.30000000000000004 has more than 9 decimals
    expect(solToLamports('10')).toBe(10_000_000_000);
    expect(solToLamports(1e-9)).toBe(1);
    expect(solToLamports(-1)).toBeUndefined();
    expect(solToLamports(Number.NaN)).toBeUndefined();
    expect(lamportsToSol(123_456_789)).toBe(0.123456789);
  });
});

describe('durations', () => {
  it('parses units', () => {
    expect(parseDurationMs('24h')).toBe(86_400_000);
    expect(parseDurationMs('90s')).toBe(90_000);
    expect(parseDurationMs('5m')).toBe(300_000);
    expect(parseDurationMs('250ms')).toBe(250);
    expect(parseDurationMs(1000)).toBe(1000);
    expect(parseDurationMs('soon')).toBeUndefined();
  });
});

describe('canonical JSON and fingerprints', async () => {
  const { canonicalJson, Fingerprint } = await import('../../src/kernel/canonical.js');
  it('sorts keys at every level and hashes flat and nested values the same way', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
    const flat = { type: 'x', t: 5, id: 'q"', none: null, skipped: undefined, yes: true };
    const a = new Fingerprint();
    a.add(flat);
    const b = new Fingerprint();
    b.add(JSON.parse(canonicalJson(flat)));
    expect(a.digest()).toBe(b.digest());
    const c = new Fingerprint();
    c.add({ ...flat, t: 6 });
    expect(c.digest()).not.toBe(a.digest());
  });
});

describe('toIso', () => {
  it("writes Date's ISO text, whatever instants it wrote before (its cache keeps them by their low bits)", () => {
    const instants = fc.oneof(
      fc.integer({ min: 0, max: 253_402_300_799_999 }),
      fc.integer({ min: -10_000_000, max: 10_000_000 }),
      fc.constantFrom(1_767_225_600_000, 1_767_225_600_000 + 1024, 1_767_225_600_000 + 2048),
    );
    fc.assert(
      fc.property(fc.array(instants, { minLength: 1, maxLength: 40 }), (list) => {
        for (const ms of [...list, ...list]) expect(toIso(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });
});
