import { describe, expect, it } from 'vitest';
import { Parking } from '../../src/faults/parking.js';

describe('Parking (src/faults/parking.ts)', () => {
  it('a step that waits lets the world go on at once, and its rest runs when the world wakes it', async () => {
    const wakes: Array<{ delayMs: number; wake: () => Promise<void> }> = [];
    const parking = new Parking((delayMs, wake) => wakes.push({ delayMs, wake }));
    const trace: string[] = [];
    await parking.run(async () => {
      trace.push('sent');
      await parking.wait(250);
      trace.push('answered');
      await parking.wait(100);
      trace.push('done');
    });
    expect(trace).toEqual(['sent']); // the world's await ended at the first wait
    expect(wakes.map((w) => w.delayMs)).toEqual([250]);
    await parking.run(async () => void trace.push('another step'));
    await wakes[0]!.wake();
    expect(trace).toEqual(['sent', 'another step', 'answered']);
    await wakes[1]!.wake();
    expect(trace).toEqual(['sent', 'another step', 'answered', 'done']);
    expect(wakes).toHaveLength(2);
  });

  it('outside a step (an agent signing up) waiting takes no virtual time', async () => {
    const parking = new Parking(() => {
      throw new Error('nothing may be scheduled');
    });
    await expect(parking.wait(1000)).resolves.toBeUndefined();
  });
});
