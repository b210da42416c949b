/**
 * Lets an agent's step wait in virtual time. The world runs one step at a time and awaits it; a request
 * slowed by a fault must instead let the world go on (other agents, the platform's timers, deadlines) and
 * resume the step later. `run` starts a step and resolves when it finishes or parks; `wait`, called from
 * inside the step, parks it and asks the world to wake it `delayMs` later, when the world awaits the rest
 * of the step the same way. Everything stays in the world's one order, so a run with waits is as
 * reproducible as one without.
 */
export class Parking {
  /** The step running now and the release of whoever awaits it, while one runs. */
  #holder: { task?: Promise<void> } | undefined;
  #release: (() => void) | undefined;

  constructor(private readonly schedule: (delayMs: number, wake: () => Promise<void>) => void) {}

  /** Runs a step; resolves when it ends or parks. The step must not reject (the world catches its errors). */
  run(step: () => Promise<void>): Promise<void> {
    const holder: { task?: Promise<void> } = {};
    return this.#follow(holder, () => {
      holder.task = step();
      return holder.task;
    });
  }

  /** Parks the running step for `delayMs` of virtual time; outside a step (sign-up) time does not wait. */
  wait(delayMs: number): Promise<void> {
    const holder = this.#holder;
    const release = this.#release;
    if (holder === undefined || release === undefined) return Promise.resolve();
    this.#holder = undefined;
    this.#release = undefined;
    return new Promise<void>((wake) => {
      this.schedule(delayMs, () =>
        this.#follow(holder, () => {
          wake();
          return holder.task!;
        }),
      );
      release();
    });
  }

  #follow(holder: { task?: Promise<void> }, go: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#holder = holder;
      this.#release = resolve;
      void go().then(() => {
        if (this.#holder === holder) {
          this.#holder = undefined;
          this.#release = undefined;
        }
        resolve();
      });
    });
  }
}
