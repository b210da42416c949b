import { describe, expect, it } from 'vitest';
import { AnswerTurns } from '../../src/http/answer-turns.js';

/**
 * The direct GETs' turns (src/http/answer-turns.ts): answers keep their arrival order, and the event loop
 * turns between them (where libuv accepts a connection) after a turn's budget, or after one answer when
 * the turn follows an accepted connection. A marker set with setImmediate by the first answer shows where
 * the loop turned: it runs before the next turn, after the answers of the current one.
 */
type Entry = number | 'loop turned';

function run(turns: AnswerTurns, count: number, answer?: (i: number) => Promise<void>): Promise<Entry[]> {
  const log: Entry[] = [];
  return new Promise((resolve) => {
    for (let i = 0; i < count; i++)
      turns.add(() => {
        if (i === 0) setImmediate(() => log.push('loop turned'));
        const done = () => {
          log.push(i);
          if (i === count - 1) resolve(log);
        };
        return answer ? answer(i).then(done) : done();
      });
  });
}

const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('AnswerTurns', () => {
  it('answers in arrival order, 16 to a turn without a wall clock', async () => {
    const log = await run(new AnswerTurns(), 40);
    expect(log).toEqual([...upTo(16), 'loop turned', ...upTo(40).slice(16)]);
  });

  it('ends a turn when its time budget is spent', async () => {
    let now = 0;
    const log = await run(new AnswerTurns(() => (now += 0.2)), 10);
    // Read at the start (0.2), then after each answer: 0.4, 0.6, 0.8 -> spent (0.5 ms) after three answers.
    expect(log.indexOf('loop turned')).toBe(3);
    expect(log.filter((e) => e !== 'loop turned')).toEqual(upTo(10));
  });

  it('answers only one in the turn after a connection was accepted', async () => {
    const turns = new AnswerTurns();
    turns.connectionAccepted();
    expect(await run(turns, 3)).toEqual([0, 'loop turned', 1, 2]);
  });

  it('waits for an answer that waits (a live world instant) before the next, keeping the order', async () => {
    const slowFirst = (i: number) =>
      new Promise<void>((resolve) => (i === 0 ? setTimeout(resolve, 5) : resolve()));
    const log = await run(new AnswerTurns(), 3, slowFirst);
    expect(log.filter((e) => e !== 'loop turned')).toEqual([0, 1, 2]);
  });

  it('goes on to the answers behind one that throws or rejects (a socket gone), and rejects nothing itself', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const turns = new AnswerTurns();
      const written: number[] = [];
      turns.add(() => {
        throw new Error('write after end');
      });
      turns.add(() => Promise.reject(new Error('socket hang up')));
      const last = new Promise<void>((resolve) =>
        turns.add(() => {
          written.push(3);
          resolve();
        }),
      );
      await last;
      await new Promise((resolve) => setImmediate(resolve));
      expect(written).toEqual([3]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('starts again after the queue ran dry', async () => {
    const turns = new AnswerTurns();
    expect((await run(turns, 2)).filter((e) => e !== 'loop turned')).toEqual([0, 1]);
    expect((await run(turns, 2)).filter((e) => e !== 'loop turned')).toEqual([0, 1]);
  });
});
