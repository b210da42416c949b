import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, Fingerprint } from '../../src/kernel/canonical.js';
import { CheckpointError, Field, type Json } from '../../src/kernel/checkpoint.js';
import { Sha256 } from '../../src/kernel/sha256.js';
import { mutateJson, replacementJson } from '../helpers/json-mutate.js';

/** Text of every width UTF-8 has (1 to 4 bytes), lone surrogates included (JSON escapes them). */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    maxLength: 3,
  }),
  // Now and then a long value, so a sequence crosses the fingerprint's chunk size (8,192 characters).
  fc.string({ minLength: 2000, maxLength: 3000 }),
);

/** Events as the platform emits them (flat, a `type`, optional fields), and now and then a nested value. */
const event = fc.oneof(
  { weight: 8, arbitrary: fc.record(
      { type: fc.constantFrom('move_played', 'liked', 'post_created'), t: fc.nat(), id: text, note: fc.option(text), n: fc.double({ noNaN: true, noDefaultInfinity: true }) },
      { requiredKeys: ['type', 't', 'id'] },
    ) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('tournament_completed'), placements: fc.array(text, { maxLength: 4 }) }) },
); // prettier-ignore

/** The fingerprint of `events` with its text sink, saved after `split` events and loaded into a new one. */
function interrupted(events: readonly unknown[], split: number): { digest: string; text: string } {
  let text = '';
  const sink = (chunk: string) => (text += chunk);
  const first = new Fingerprint(sink, { exportable: true });
  for (const e of events.slice(0, split)) first.add(e);
  // Through text, as a snapshot file would carry it.
  const saved = JSON.parse(canonicalJson(first.save())) as unknown;
  const second = Fingerprint.load(Field.root(saved), sink);
  for (const e of events.slice(split)) second.add(e);
  return { digest: second.digest(), text };
}

function digestOf(events: readonly unknown[], exportable: boolean): { digest: string; lines: number } {
  const fingerprint = new Fingerprint(undefined, { exportable });
  for (const e of events) fingerprint.add(e);
  return { digest: fingerprint.digest(), lines: fingerprint.lines };
}

describe('an exportable fingerprint saved and loaded mid-stream', () => {
  it('gives the uninterrupted digest, the node-crypto digest and the same sink text', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.nat(), (events, at) => {
        const split = at % (events.length + 1);
        const node = digestOf(events, false);
        expect(digestOf(events, true)).toEqual(node);
        const resumed = interrupted(events, split);
        expect(resumed.digest).toBe(node.digest);
        expect(`sha256:${createHash('sha256').update(resumed.text).digest('hex')}`).toBe(node.digest);
      }),
      { numRuns: 100 },
    );
  });

  it('saves the same state after a load as before it, and a digest in between changes nothing', () => {
    const fingerprint = new Fingerprint(undefined, { exportable: true });
    for (let i = 0; i < 500; i++) fingerprint.add({ type: 'liked', t: i, id: `é${i}` });
    const mid = fingerprint.digest();
    fingerprint.add({ type: 'liked', t: 500, id: 'x' });
    const saved = fingerprint.save();
    const loaded = Fingerprint.load(Field.root(saved));
    expect(canonicalJson(loaded.save())).toBe(canonicalJson(saved));
    expect(loaded.lines).toBe(501);
    expect(loaded.digest()).toBe(fingerprint.digest());
    expect(loaded.digest()).not.toBe(mid);
  });

  it('refuses to save node-crypto state', () => {
    expect(() => new Fingerprint().save()).toThrow('exportable');
    expect(new Fingerprint().exportable).toBe(false);
    expect(new Fingerprint(undefined, { exportable: true }).exportable).toBe(true);
  });
});

describe('SHA-256 with exportable state', () => {
  it('equals node crypto for any bytes fed in any pieces, across block and padding edges', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.nat(300), { maxLength: 5 }),
        (bytes, cuts) => {
          const hash = new Sha256();
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            const end = Math.min(cut, bytes.length);
            if (end < at) continue;
            hash.update(bytes.subarray(at, end));
            at = end;
          }
          hash.update(bytes.subarray(at));
          expect(hash.hexDigest()).toBe(createHash('sha256').update(bytes).digest('hex'));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('loading a tampered fingerprint state', () => {
  const fingerprint = new Fingerprint(undefined, { exportable: true });
  for (let i = 0; i < 30; i++) fingerprint.add({ type: 'liked', t: i, id: `p${i}` });
  const saved = fingerprint.save();

  it('names the wrong field', () => {
    const bad = (patch: (s: { [k: string]: Json }) => void) => {
      const copy = JSON.parse(JSON.stringify(saved)) as { [k: string]: Json };
      patch(copy);
      return () => Fingerprint.load(Field.root(copy));
    };
    expect(bad((s) => (s['extra'] = 1))).toThrow('checkpoint.extra: is not a field this version reads');
    expect(bad((s) => (s['lines'] = -1))).toThrow('checkpoint.lines');
    expect(bad((s) => (s['pending'] = 'half a line'))).toThrow('checkpoint.pending');
    expect(bad((s) => ((s['sha256'] as { words: Json[] }).words.length = 7))).toThrow(
      'checkpoint.sha256.words',
    );
    expect(bad((s) => ((s['sha256'] as { words: Json[] }).words[0] = 2 ** 32))).toThrow(
      'checkpoint.sha256.words[0]',
    );
    expect(bad((s) => ((s['sha256'] as { bytes: Json }).bytes = 3))).toThrow('checkpoint.sha256.tail');
  });

  it('throws only CheckpointError, whatever is changed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(40), { minLength: 1, maxLength: 4 }),
        replacementJson,
        (path, replacement) => {
          const tampered = mutateJson(saved, path, replacement);
          try {
            Fingerprint.load(Field.root(tampered)).digest();
          } catch (error) {
            if (!(error instanceof CheckpointError)) throw error;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
