/**
 * The clock of the test that started a twin in `clock: 'timers'` mode. This file is the library's one
 * reader of `Date.now()` and the global timers, on purpose: the twin's virtual clock is made to follow the
 * test's clock, which under `vi.useFakeTimers()`, jest's modern timers or sinon's fake timers is a fake one
 * the test moves, and under real timers is the wall clock. Everything else stays a function of the seed and
 * of what reached the twin.
 */
export interface TestClock {
  /** Milliseconds, as `Date.now()` answers at the moment it is read (faked or not). */
  now(): number;
  /** Resolves after `ms` on the test's timers (a faked setTimeout resolves when the test advances them). */
  sleep(ms: number): Promise<void>;
}

/** The globals as they are when a twin starts: install fake timers before `startTwin`. */
export function globalTestClock(): TestClock {
  const now = Date.now.bind(Date);
  const schedule = globalThis.setTimeout;
  return {
    now: () => now(),
    sleep: (ms) => new Promise((resolve) => schedule(resolve, ms)),
  };
}
