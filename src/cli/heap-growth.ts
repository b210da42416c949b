/**
 * How far V8 lets the old generation grow past what the last full collection kept: at most half again.
 * Left to itself V8 grows it up to four times when the program allocates fast, which a run always does, so
 * a crowd's resident memory was three to four times its live heap: crowd-5000 over 24 virtual hours held
 * 0.87 GB live and peaked at 2.9 GB. Half again costs more frequent full collections, which measured no
 * slower on crowd-5000 (a smaller heap is also quicker to walk), and bounds the peak near 1.5 times the live
 * heap. Set before any command runs, as the first module the CLI loads.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

const FLAG = '--heap-growing-percent';

/** The V8 flag to set, or undefined when node was started with one (`node --heap-growing-percent=N ...`). */
export function heapGrowthFlag(execArgv: readonly string[]): string | undefined {
  const given = execArgv.some((arg) => arg.replace(/_/g, '-').startsWith(FLAG));
  return given ? undefined : `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

const flag = heapGrowthFlag(process.execArgv);
if (flag !== undefined) setFlagsFromString(flag);
