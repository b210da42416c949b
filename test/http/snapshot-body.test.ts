import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../../src/http/server.js';
import { readSnapshotBody } from '../../src/http/snapshot-body.js';

/** A pause after every test, so every slice boundary is crossed; counts the yields. */
function everyStep() {
  const counted = { yields: 0 };
  return {
    counted,
    slicing: {
      startSlice: () => () => true,
      yieldNow: () => {
        counted.yields++;
        return Promise.resolve();
      },
    },
  };
}

const NEVER = { startSlice: () => () => false, yieldNow: () => Promise.resolve() };

function usageOf(count: number): Record<string, unknown> {
  const usage: Record<string, unknown> = {};
  for (let i = 0; i < count; i++)
    usage[`agent_${i}`] = { dayIndex: 0, requestsToday: i % 7, totalRequests: i, lastUsedMs: null };
  return usage;
}

/** A snapshot-shaped body: the state is large and nested, the usage has more entries than one parse takes. */
function snapshotLike(): Record<string, unknown> {
  return {
    success: true,
    format: 'agent-chess-sim/live-snapshot@3',
    scenario: { name: 'a "quoted" {name} [x]', population: [{ persona: 'poller', count: 3 }] },
    keySecret: null,
    nowMs: 5,
    inputs: [{ kind: 'request', request: { method: 'POST', path: '/api/x', body: { t: 'a,b:}{' } } }],
    usage: usageOf(4500),
    state: { agents: Array.from({ length: 300 }, (_, i) => ({ id: `a${i}`, bio: 'say "}" or \\ ]' })) },
  };
}

function withoutState(value: Record<string, unknown>): Record<string, unknown> {
  const { state: _state, ...rest } = value;
  return rest;
}

async function read(text: string, slicing = NEVER) {
  return readSnapshotBody(Buffer.from(text, 'utf8'), slicing);
}

describe('the restore body reader', () => {
  it('reads every member but the state, as JSON.parse does, usage split across several parses', async () => {
    const value = snapshotLike();
    const { counted, slicing } = everyStep();
    const read1 = await read(JSON.stringify(value, null, 2), slicing);
    expect(read1).toEqual({ body: withoutState(value) });
    expect(counted.yields).toBeGreaterThan(3); // the scans and the three usage parses yielded
  });

  it('keeps the last of a repeated key, and multi-byte text, as JSON.parse does', async () => {
    const text =
      '{"usage":{"a":{"n":1}},"format":"f é ✓","state":[1,{"x":"]"}],"usage":{"b":{"n":2},"b":{"n":3}}}';
    expect(await read(text)).toEqual({ body: { format: 'f é ✓', usage: { b: { n: 3 } } } });
  });

  it('does not parse the state: a balanced but invalid state value is left out unread', async () => {
    expect(await read('{"format":"f","state":{"x": tru, "y": [nul]}}')).toEqual({ body: { format: 'f' } });
  });

  it('gives readJsonBody’s refusal for bodies that are not one JSON object', async () => {
    for (const text of [
      '{"format":"f","usage":{}',
      '{"format":"f"} trailing',
      '{"format":"f",}',
      '{"format" "f"}',
      '{"format":"f", x "state":1}',
      '{"format":"f","usage":{"a":1,}}',
    ]) {
      const answer = await read(text);
      expect(answer, text).toEqual(readJsonBody(text));
      expect('refusal' in answer, text).toBe(true);
    }
  });

  it('refuses nesting deeper than the body limit anywhere, in the state too', async () => {
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    const answer = await read(`{"format":"f","state":${deep}}`);
    expect(answer).toEqual(readJsonBody(`{"format":"f","state":${deep}}`));
    expect(JSON.stringify(answer)).toContain('nested deeper than 32 levels');
  });

  it('names a non-finite number inside the usage from the top, as readJsonBody does', async () => {
    const text = `{"format":"f","usage":${JSON.stringify(usageOf(2500)).replace('"totalRequests":2400', '"totalRequests":1e999')},"state":{}}`;
    const answer = await read(text);
    expect(JSON.stringify(answer)).toContain('usage.agent_2400.totalRequests: numbers must be finite');
  });

  it('keeps an id named __proto__ as an entry', async () => {
    const answer = await read('{"usage":{"__proto__":{"n":1},"a":{"n":2}}}');
    const usage = (answer as { body: { usage: Record<string, unknown> } }).body.usage;
    expect(Object.keys(usage)).toEqual(['__proto__', 'a']);
  });

  it('reads a usage that is not an object, and an empty body, as readJsonBody does', async () => {
    expect(await read('{"usage":5,"state":{}}')).toEqual({ body: { usage: 5 } });
    expect(await read('{}')).toEqual({ body: {} });
    expect(await read(' [1,2] ')).toEqual({ body: [1, 2] }); // not a snapshot: the restore refuses it
    expect(await read('')).toEqual(readJsonBody(''));
  });
});
