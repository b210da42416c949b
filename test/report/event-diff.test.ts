import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diffEventLogs, eventDiffText } from '../../src/report/event-diff.js';
import { EventLogWriter, eventLogLines } from '../../src/report/event-log.js';
import { cli, tempDir, writeScenario } from '../sweep/helpers.js';

async function* lines(texts: readonly string[]): AsyncIterable<string> {
  for (const text of texts) yield text;
}

const ev = (type: string, t: number, extra = '') => `{${extra}"t":${t},"type":"${type}"}`;

describe('diffEventLogs', () => {
  it('finds nothing in identical logs and counts their types', async () => {
    const log = [ev('a', 0), ev('b', 1000), ev('a', 2000)];
    const d = await diffEventLogs(lines(log), lines(log));
    expect(d.first).toBeNull();
    expect(d.events).toEqual({ a: 3, b: 3 });
    expect(d.counts).toEqual([
      { type: 'a', a: 2, b: 2 },
      { type: 'b', a: 1, b: 1 },
    ]);
  });

  it('names the first differing event with three shared events before it and up to four of each log from it', async () => {
    const shared = Array.from({ length: 6 }, (_, i) => ev('move', i * 1000));
    const a = [...shared, ev('move', 6000, '"x":1,'), ev('move', 7000), ev('end', 8000)];
    const b = [...shared, ev('move', 6000, '"x":2,'), ev('resign', 7500)];
    const d = await diffEventLogs(lines(a), lines(b));
    expect(d.first!.line).toBe(7);
    expect(d.first!.before.map((e) => e.line)).toEqual([4, 5, 6]);
    expect(d.first!.a.map((e) => e.text)).toEqual(a.slice(6));
    expect(d.first!.b.map((e) => e.text)).toEqual(b.slice(6));
    expect(d.counts).toEqual([
      { type: 'end', a: 1, b: 0 },
      { type: 'move', a: 8, b: 7 },
      { type: 'resign', a: 0, b: 1 },
    ]);
    const text = eventDiffText(d, { a: 'A.jsonl', b: 'B.jsonl' }).join('\n');
    expect(text).toContain(
      'first difference: event 7 (line 7 of each log), virtual time A 1970-01-01T00:00:06.000Z, B 1970-01-01T00:00:06.000Z',
    );
    expect(text).toMatch(/^resign +0 +1 +\+1$/m);
  });

  it('reports a log that ends early as the difference at the first event it lacks', async () => {
    const a = [ev('a', 0), ev('a', 1)];
    const d = await diffEventLogs(lines(a), lines([...a, ev('b', 2)]));
    expect(d.first).toMatchObject({ line: 3, a: [], b: [{ line: 3 }] });
    expect(eventDiffText(d, { a: 'A', b: 'B' })).toContain('  A (log A ends after event 2)');
  });

  it('reads back a gzip log written in several members as the text written', async () => {
    const file = join(tempDir(), 'log.jsonl.gz');
    // a member once 10 characters are waiting: one per line here
    const writer = new EventLogWriter(file, 10);
    const text = Array.from({ length: 5 }, (_, i) => `${ev('a', i)}\n`);
    for (const piece of text) writer.write(piece);
    writer.close();
    const members = readFileSync(file).toString('latin1').split('\x1f\x8b\x08').length - 1;
    expect(members).toBe(5);
    const back: string[] = [];
    for await (const line of eventLogLines(file)) back.push(line);
    expect(`${back.join('\n')}\n`).toBe(text.join(''));
  });
});

/**
 * `run --events` and `diff` through the CLI (dist/): two seeds of a one-hour scenario of a few random
 * players (well under a second each when idle; the 120 s limit is for a loaded machine).
 */
describe('run --events and diff', () => {
  it('writes the log the fingerprint hashes; diff of two seeds names the first differing event (exit 1), of one seed twice exits 0', async () => {
    const dir = tempDir();
    const scenario = writeScenario(dir, 'diffed');
    const run = (seed: string, out: string, events: string) =>
      cli(['run', scenario, '--seed', seed, '--out', join(dir, out), '--no-progress', '--events', events]);
    const [one, oneAgain, two] = await Promise.all([
      run('1', 'one', join(dir, 'one', 'events.jsonl.gz')),
      run('1', 'again', join(dir, 'again.jsonl')),
      run('2', 'two', join(dir, 'two', 'events.jsonl.gz')),
    ]);
    for (const r of [one, oneAgain, two]) expect(r.code, r.stderr).toBe(0);

    const report = JSON.parse(readFileSync(join(dir, 'one', 'report.json'), 'utf8')) as {
      fingerprint: string;
      counts: { events: number };
    };
    const plain = readFileSync(join(dir, 'again.jsonl'));
    expect(`sha256:${createHash('sha256').update(plain).digest('hex')}`).toBe(report.fingerprint);
    expect(gunzipSync(readFileSync(join(dir, 'one', 'events.jsonl.gz'))).equals(plain)).toBe(true);

    const same = await cli(['diff', join(dir, 'one'), join(dir, 'again.jsonl')]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('the logs are identical');
    expect(same.stdout).toContain(`(${report.counts.events} events)`);

    const differ = await cli(['diff', join(dir, 'one'), join(dir, 'two')]);
    expect(differ.code, differ.stderr).toBe(1);
    const firstA = plain.toString('utf8').split('\n')[0]!;
    // the seeds draw different ids from the first registration on
    expect(differ.stdout).toMatch(
      /^first difference: event 1 \(line 1 of each log\), virtual time A 2026-01-01T00:00:00\.000Z, B 2026-01-01T00:00:00\.000Z$/m,
    );
    expect(differ.stdout).toContain(`  A 1  ${firstA}`);
    expect(differ.stdout).toMatch(/^agent_registered +\d+ +\d+ +0$/m);

    writeFileSync(join(dir, 'bad.jsonl'), 'not json\n');
    const bad = await cli(['diff', join(dir, 'bad.jsonl'), join(dir, 'again.jsonl')]);
    const missing = await cli(['diff', join(dir, 'nowhere'), join(dir, 'again.jsonl')]);
    for (const r of [bad, missing]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(bad.stderr).toMatch(/^agent-chess-sim diff: log A, line 1: not an event/);
    expect(missing.stderr).toMatch(/nowhere: no such file or folder/);
  }, 120_000);
});
