import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputLog } from '../../src/sim/live-input-log.js';
import type { LiveInput } from '../../src/sim/live-snapshot.js';

/** The live world's compact input log writes back exactly the inputs it was given (consecutive advances as one). */
const usage = fc.record({
  dayIndex: fc.nat(),
  requestsToday: fc.nat(),
  totalRequests: fc.nat(),
  lastUsedMs: fc.option(fc.nat(), { nil: null }),
});
const request = fc.record(
  {
    method: fc.constantFrom('POST', 'PATCH', 'DELETE'),
    path: fc.constantFrom('/api/agents/profile', '/api/social/post', '/api/chess/games/a b/move'),
    body: fc.jsonValue(),
    actorId: fc.constantFrom('a1', 'b2', 'c3'),
    usage,
  },
  { requiredKeys: ['method', 'path'] },
);
const input: fc.Arbitrary<LiveInput> = fc.oneof(
  fc.record({ kind: fc.constant('advance' as const), toMs: fc.nat() }),
  fc.record({ kind: fc.constant('request' as const), request }),
  fc.record({
    kind: fc.constant('airdrop' as const),
    handle: fc.string(),
    lamports: fc.integer({ min: 1, max: 1e12 }),
  }),
);

/** What the log must write: the inputs, each advance right after another replacing it. */
function merged(inputs: LiveInput[]): LiveInput[] {
  const out: LiveInput[] = [];
  for (const entry of inputs) {
    if (entry.kind === 'advance' && out.at(-1)?.kind === 'advance') out.pop();
    out.push(entry);
  }
  return out;
}

describe('InputLog', () => {
  it('writes back the JSON of every input it kept, advances in a row merged', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 30 }), (inputs) => {
        const log = new InputLog();
        for (const entry of inputs) log.add(entry);
        const expected = merged(inputs);
        expect(log.length).toBe(expected.length);
        expect(log.toJson()).toBe(JSON.stringify(JSON.parse(JSON.stringify(expected))));
      }),
    );
  });

  it('keeps a body with non-ASCII text and escapes as it came', () => {
    const log = new InputLog();
    const body = { bio: 'caf\u00e9 \u56fd\u9645 \u{1F468}\u200d\u{1F469} "quoted" \\ \n', odd: '\ud800' };
    log.add({ kind: 'request', request: { method: 'PATCH', path: '/api/agents/profile', body } });
    expect(JSON.parse(log.toJson())).toEqual([
      { kind: 'request', request: { method: 'PATCH', path: '/api/agents/profile', body } },
    ]);
  });
});
