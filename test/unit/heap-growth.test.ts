import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../src/cli/heap-growth.js';

describe("the CLI's bound on heap growth", () => {
  it('sets V8 to grow the heap by half again at most, unless node was started with its own percent', () => {
    expect(HEAP_GROWING_PERCENT).toBe(50);
    expect(heapGrowthFlag([])).toBe('--heap-growing-percent=50');
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=8000'])).toBe(
      '--heap-growing-percent=50',
    );
    expect(heapGrowthFlag(['--heap-growing-percent=200'])).toBeUndefined();
    expect(heapGrowthFlag(['--heap_growing_percent=10'])).toBeUndefined();
  });
});
