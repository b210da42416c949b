import { describe, expect, it } from 'vitest';
import { readJsonBody } from '../../src/http/server.js';
import { readSnapshotBody, StateDropper } from '../../src/http/snapshot-body.js';
import { LazyJson } from '../../src/kernel/lazy-json.js';

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
    format: 'agent-chess-sim/live-snapshot@4',
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

  it('reads a large checkpoint a piece at a time, nested lists and objects equal to JSON.parse', async () => {
    // Over a megabyte: a list of 6,000 rows, one row alone larger than a parse's share, awkward text, a
    // `__proto__` key (an own property, as JSON.parse makes it), empty containers.
    const rows = Array.from({ length: 6_000 }, (_, i) => ({
      id: `r${i}`,
      text: 'a,b:}{ ] "q" é',
      n: [i, -i, 0.5],
    }));
    const huge = { blob: 'x'.repeat(700_000), list: [[], {}, [[1, [2]]]] };
    const checkpoint = JSON.parse(
      JSON.stringify({ format: 'c@1', platform: { tables: { rows, huge } }, agents: [] }).replace(
        '"agents":[]',
        '"agents":[],"__proto__":{"polluted":true}',
      ),
    ) as Record<string, unknown>;
    const value = { format: 'f', checkpoint, state: { rows } };
    const { counted, slicing } = everyStep();
    const answer = await read(JSON.stringify(value), slicing);
    const body = (answer as { body: { format: string; checkpoint: LazyJson } }).body;
    expect(Object.keys(body)).toEqual(['format', 'checkpoint']);
    // Kept as a LazyJson (its rows parsed when read, so they die young), equal to JSON.parse once read whole.
    expect(body.checkpoint).toBeInstanceOf(LazyJson);
    const whole = body.checkpoint.toPlain() as Record<string, unknown>;
    expect(whole).toEqual(checkpoint);
    expect(Object.hasOwn(whole, '__proto__')).toBe(true);
    expect(body.checkpoint.keys()).toEqual(Object.keys(checkpoint));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(counted.yields).toBeGreaterThan(4); // several parses, each a unit of a slice
    const refused = JSON.stringify({ format: 'f', checkpoint: { ...checkpoint, deep: { n: 1 } } }).replace(
      '{"n":1}',
      '{"n":1e999}',
    );
    expect(await read(refused)).toEqual(readJsonBody(refused.replace(/,?"state":[^]*$/, '')));
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

/** The body as the dropper passes it on, fed in pieces of `size` bytes. */
async function dropped(text: string, size: number): Promise<{ out: string; received: number }> {
  const bytes = Buffer.from(text, 'utf8');
  const dropper = new StateDropper();
  const parts: Buffer[] = [];
  dropper.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => dropper.on('end', resolve));
  for (let i = 0; i < bytes.length; i += size) dropper.write(bytes.subarray(i, i + size));
  dropper.end();
  await ended;
  return { out: Buffer.concat(parts).toString('utf8'), received: dropper.receivedEncodedLength };
}

describe('the state dropped while the restore body arrives', () => {
  const bodies = [
    JSON.stringify(snapshotLike(), null, 1),
    '{"usage":{"a":{"n":1}},"st\\u0061te":{"k":"}"},"state":[1,{"x":"]"}],"format":"\\"state\\":"}',
    '{"format":"f","state":{"x": tru, "y": [nul]}}',
    `{"format":"f","state":${'['.repeat(40)}${']'.repeat(40)}}`,
    '{"format":"f","state":{"a":1}} trailing',
    '{"format":"f","state":{"a":1',
    '  [1,{"state":2}] ',
    '{"a":"state","b":{"state":{"deep":1}}}',
  ];

  it('writes null for each top-level state value, whatever the piece sizes, and counts every byte received', async () => {
    const whole = JSON.stringify(snapshotLike());
    for (const size of [1, 7, 4096, whole.length]) {
      const { out, received } = await dropped(whole, size);
      expect(JSON.parse(out), `pieces of ${size}`).toEqual({ ...snapshotLike(), state: null });
      expect(received).toBe(Buffer.byteLength(whole));
    }
    expect((await dropped('{"a":1,"state" : {"b":[2]} ,"c":3}', 3)).out).toBe('{"a":1,"state" :null,"c":3}');
  });

  it('leaves a nested state, a string "state" value and a body that is not an object alone', async () => {
    for (const text of [bodies[6]!, bodies[7]!]) expect((await dropped(text, 5)).out).toBe(text);
  });

  it('changes no answer of the reader: dropped or not, each body reads (or is refused) the same', async () => {
    for (const text of bodies) {
      const { out } = await dropped(text, 3);
      expect(await read(out), text.slice(0, 60)).toEqual(await read(text));
    }
  });
});
