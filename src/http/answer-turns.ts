/**
 * The direct GETs (direct-get.ts) answered in short turns of the event loop, not all at once as they are read.
 *
 * Node 20's libuv accepts one connection per turn of the event loop (libuv 1.45, "don't accept() connections
 * in a loop"), and a turn that answers every request read in it lasts as long as those answers take. Under
 * 500 keep-alive connections that was 300-400 answers, 30-50 ms a turn on this machine's shared cores, so the
 * connections still in the kernel's accept queue were taken one every 30-50 ms: the last of 150 waited 5-8 s
 * for its first answer, while no turn blocked the loop for more than 200 ms (bench `autocannon`, README P3).
 * Answering for at most TURN_BUDGET_MS per turn, and only one request in a turn that accepted a connection,
 * keeps a turn near a millisecond, so a burst of connections is taken in a few hundred turns. The answers
 * are the same, in arrival order; only the turn each is written in changes.
 */
export const TURN_BUDGET_MS = 0.5;
/** Without a wall clock (a library twin, tests): a turn is this many answers. */
const ANSWERS_PER_TURN = 16;
const COMPACT_AFTER = 1024;

/** One answer: written when it returns, or when the promise it returns settles (a live world's instant). */
export type Answer = () => void | Promise<void>;

export class AnswerTurns {
  readonly #wallClockMs: (() => number) | undefined;
  #queue: (Answer | undefined)[] = [];
  #next = 0;
  #scheduled = false;
  #accepted = false;

  /** `wallClockMs` is the caller's (nothing below the CLI reads the wall clock); without one turns count answers. */
  constructor(wallClockMs?: () => number) {
    this.#wallClockMs = wallClockMs;
  }

  /** The server accepted a connection: others may be waiting behind it, so the next turn answers only one. */
  connectionAccepted(): void {
    this.#accepted = true;
  }

  /** Queued behind the answers already waiting; the first one waiting starts a turn at the loop's check phase. */
  add(answer: Answer): void {
    this.#queue.push(answer);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule();
  }

  #schedule(): void {
    setImmediate(() => void this.#turn());
  }

  /** Answers in arrival order, each awaited so that its write counts against the turn, until the turn is over. */
  async #turn(): Promise<void> {
    const over = this.#turnOver();
    try {
      do {
        const answer = this.#queue[this.#next]!;
        this.#queue[this.#next++] = undefined;
        await settled(answer);
      } while (this.#next < this.#queue.length && !over());
    } finally {
      this.#afterTurn();
    }
  }

  /** A fresh "is this turn over?" test: one answer after an accept, else the time budget (or the count). */
  #turnOver(): () => boolean {
    if (this.#accepted) {
      this.#accepted = false;
      return () => true;
    }
    const wall = this.#wallClockMs;
    if (wall) {
      const start = wall();
      return () => wall() - start >= TURN_BUDGET_MS;
    }
    let answered = 0;
    return () => ++answered >= ANSWERS_PER_TURN;
  }

  #afterTurn(): void {
    if (this.#next === this.#queue.length) {
      this.#queue = [];
      this.#next = 0;
      this.#scheduled = false;
      return;
    }
    // Under a load that never lets the queue empty, the answered front is dropped now and then.
    if (this.#next >= COMPACT_AFTER) {
      this.#queue = this.#queue.slice(this.#next);
      this.#next = 0;
    }
    this.#schedule();
  }
}

/**
 * An answer's own failures are its to answer (direct-get.ts writes a 500 for a handler's error); what could
 * still throw is writing to a socket already gone. It must not end the turn, leave the answers behind it
 * waiting, or reach the process as an unhandled rejection, which would stop the server.
 */
async function settled(answer: Answer): Promise<void> {
  try {
    await answer();
  } catch {
    // The client is gone: there is no one left to answer.
  }
}
