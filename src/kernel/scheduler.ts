import { VirtualClock } from './clock.js';
import { CheckpointError, type Field, type Json } from './checkpoint.js';
import { IdSet } from './id-set.js';
import { JsonLater, JsonRows, materialized } from './json-parts.js';

/**
 * A queue of future events ordered by due time, ties broken by insertion sequence, so two events due at
 * the same instant always run in the order they were scheduled. Payloads are plain data (not closures)
 * so that a world can later be snapshotted; the owner dispatches them.
 */
export interface ScheduledEvent<P> {
  readonly id: number;
  readonly dueMs: number;
  readonly seq: number;
  readonly payload: P;
}

export class Scheduler<P> {
  readonly clock: VirtualClock;
  #heap = new EventHeap<P>();
  #cancelled = new IdSet();
  #nextSeq = 0;

  constructor(clock: VirtualClock) {
    this.clock = clock;
  }

  get size(): number {
    return this.#heap.length - this.#cancelled.size;
  }

  /** Schedules `payload` at absolute time `dueMs` (never in the past). Returns an id for `cancel`. */
  at(dueMs: number, payload: P): number {
    if (!Number.isSafeInteger(dueMs)) throw new Error(`due time must be an integer, got ${dueMs}`);
    const due = Math.max(dueMs, this.clock.nowMs);
    const seq = this.#nextSeq++;
    this.#heap.push(due, seq, seq, payload);
    return seq;
  }

  after(delayMs: number, payload: P): number {
    return this.at(this.clock.nowMs + delayMs, payload);
  }

  cancel(id: number): void {
    if (id >= 0 && id < this.#nextSeq) this.#cancelled.add(id);
  }

  /** The due time of the next live event, or undefined when idle. */
  peekDueMs(): number | undefined {
    this.#dropCancelledHead();
    return this.#heap.length > 0 ? this.#heap.firstDueMs() : undefined;
  }

  /** Removes and returns the next event due at or before `untilMs`, advancing the clock to its due time. */
  popDue(untilMs: number): ScheduledEvent<P> | undefined {
    const due = this.peekDueMs();
    if (due === undefined || due > untilMs) return undefined;
    const event = this.#heap.pop();
    this.clock.advanceTo(event.dueMs);
    return event;
  }

  /** `popDue`'s payload alone: the next event due at or before `untilMs` leaves, with no event object made for it. */
  popDuePayload(untilMs: number): P | undefined {
    const due = this.peekDueMs();
    if (due === undefined || due > untilMs) return undefined;
    const payload = this.#heap.firstPayload();
    this.#heap.drop();
    this.clock.advanceTo(due);
    return payload;
  }

  /**
   * Runs every event due at or before `untilMs`, then leaves the clock at `untilMs`. Bounded: more than
   * `maxEvents` events is treated as a runaway loop and throws.
   */
  async runUntil(
    untilMs: number,
    dispatch: (payload: P) => void | Promise<void>,
    maxEvents = 50_000_000,
  ): Promise<number> {
    let count = 0;
    for (let event = this.popDue(untilMs); event; event = this.popDue(untilMs)) {
      if (++count > maxEvents) throw new Error(`scheduler exceeded ${maxEvents} events before ${untilMs}`);
      await dispatch(event.payload);
    }
    if (untilMs > this.clock.nowMs) this.clock.advanceTo(untilMs);
    return count;
  }

  /** Runs until no event is left (bounded like runUntil). */
  async runUntilIdle(
    dispatch: (payload: P) => void | Promise<void>,
    maxEvents = 50_000_000,
  ): Promise<number> {
    return this.runUntil(Number.MAX_SAFE_INTEGER, dispatch, maxEvents);
  }

  /**
   * The queue as checkpoint data: its events in due order (a heap's layout depends on its history; the order
   * does not, so two equal queues save the same text), the cancelled ids and the next sequence number. A
   * cancelled event keeps its place (it counts until it is dropped at the head) but not its payload, which
   * nothing reads again.
   */
  save(writePayload: (payload: P) => Json): Json {
    return materialized(this.saveRows(writePayload)) as Json;
  }

  /**
   * `save`'s data with its events made one at a time as they are written (src/kernel/json-parts.ts), in due
   * order from a copy of the heap drained as they are read: a queue of 100,000 heartbeats is not sorted in
   * one step. The queue must not change until the last event is read.
   */
  saveRows(writePayload: (payload: P) => Json): Record<string, unknown> {
    return {
      nextSeq: this.#nextSeq,
      cancelled: new JsonLater(() => [...this.#cancelled.ascending()]),
      events: JsonRows.of(this.#inDueOrder(), (e): Json =>
        this.#cancelled.has(e.id)
          ? { id: e.id, dueMs: e.dueMs, seq: e.seq }
          : { id: e.id, dueMs: e.dueMs, seq: e.seq, payload: writePayload(e.payload) },
      ),
    };
  }

  /** Every event, in the order they would run (due time, then sequence), leaving the queue as it is. */
  *#inDueOrder(): Generator<ScheduledEvent<P>> {
    const heap = this.#heap.copy();
    while (heap.length > 0) {
      yield heap.pop();
    }
  }

  /**
   * Fills this queue, which must be empty and never used, from `save`'s data, each payload read by
   * `readPayload`; one pause per event. The clock must already be at the saved instant: an event due before
   * it would move the clock back when popped, so it is refused here.
   */
  *load(saved: Field, readPayload: (payload: Field) => P): Generator<void> {
    if (this.#nextSeq !== 0) throw new Error('a scheduler is loaded only while new');
    const read = saved.record((get) => ({
      nextSeq: get('nextSeq').nat(),
      cancelled: get('cancelled'),
      events: get('events'),
    }));
    const cancelled = new Set<number>();
    for (const id of read.cancelled.list((item) => item.int(0, read.nextSeq - 1))) {
      if (cancelled.has(id)) throw new CheckpointError(`${read.cancelled.path}: ${id} is listed twice`);
      cancelled.add(id);
    }
    const seqs = new Set<number>();
    for (const item of read.events.items()) {
      const event = item.record((get, has) => {
        const id = get('id').int(0, read.nextSeq - 1);
        const withPayload = has('payload') || !cancelled.has(id);
        return {
          id,
          dueMs: get('dueMs').int(this.clock.nowMs),
          seq: get('seq').int(0, read.nextSeq - 1),
          // A cancelled event is dropped unread when it reaches the head: it needs no payload.
          payload: withPayload ? readPayload(get('payload')) : (undefined as P),
        };
      });
      if (seqs.has(event.seq)) throw new CheckpointError(`${item.path}.seq: is taken by an earlier event`);
      seqs.add(event.seq);
      this.#heap.push(event.dueMs, event.seq, event.id, event.payload);
      yield;
    }
    for (const id of cancelled) this.#cancelled.add(id);
    this.#nextSeq = read.nextSeq;
  }

  #dropCancelledHead(): void {
    while (this.#heap.length > 0 && this.#cancelled.has(this.#heap.firstId())) {
      this.#cancelled.delete(this.#heap.firstId());
      this.#heap.drop();
    }
  }
}

/**
 * A binary min-heap of events by (due time, sequence), kept as four parallel arrays, one slot per event, not
 * an object per event: a crowd keeps every agent's next heartbeat and every game's turn deadline queued for
 * tens of virtual seconds or minutes, long enough to be promoted to the old generation, and those objects
 * (each with its due time boxed) were the collector's work. An array of numbers keeps its due times unboxed.
 * Every event has its own (due, seq), so the order events leave in is the same whatever the layout.
 */
class EventHeap<P> {
  #dues: number[] = [];
  #seqs: number[] = [];
  #ids: number[] = [];
  #payloads: P[] = [];

  get length(): number {
    return this.#dues.length;
  }

  firstDueMs(): number {
    return this.#dues[0]!;
  }

  firstId(): number {
    return this.#ids[0]!;
  }

  firstPayload(): P {
    return this.#payloads[0]!;
  }

  /** A hole moves up from the end to where the event belongs; the event is written once, there. */
  push(dueMs: number, seq: number, id: number, payload: P): void {
    let i = this.#dues.length;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(dueMs, seq, this.#dues[parent]!, this.#seqs[parent]!)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#write(i, dueMs, seq, id, payload);
  }

  /** Removes the first event and returns it. */
  pop(): ScheduledEvent<P> {
    const first = {
      id: this.#ids[0]!,
      dueMs: this.#dues[0]!,
      seq: this.#seqs[0]!,
      payload: this.#payloads[0]!,
    };
    this.drop();
    return first;
  }

  /** Removes the first event: the last one takes the root and sinks to its place. */
  drop(): void {
    const dueMs = this.#dues.pop()!;
    const seq = this.#seqs.pop()!;
    const id = this.#ids.pop()!;
    const payload = this.#payloads.pop()!;
    if (this.#dues.length > 0) this.#siftDown(dueMs, seq, id, payload);
  }

  copy(): EventHeap<P> {
    const heap = new EventHeap<P>();
    heap.#dues = [...this.#dues];
    heap.#seqs = [...this.#seqs];
    heap.#ids = [...this.#ids];
    heap.#payloads = [...this.#payloads];
    return heap;
  }

  /**
   * Puts an event in the root slot and moves it down to its place: a hole goes down the earlier children,
   * each moved up once, and the event is written once at the end (no swap per level).
   */
  #siftDown(dueMs: number, seq: number, id: number, payload: P): void {
    const dues = this.#dues;
    const seqs = this.#seqs;
    const length = dues.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= length) break;
      const right = left + 1;
      const child =
        right < length && before(dues[right]!, seqs[right]!, dues[left]!, seqs[left]!) ? right : left;
      if (!before(dues[child]!, seqs[child]!, dueMs, seq)) break;
      this.#move(child, i);
      i = child;
    }
    this.#write(i, dueMs, seq, id, payload);
  }

  #move(from: number, to: number): void {
    this.#dues[to] = this.#dues[from]!;
    this.#seqs[to] = this.#seqs[from]!;
    this.#ids[to] = this.#ids[from]!;
    this.#payloads[to] = this.#payloads[from]!;
  }

  #write(i: number, dueMs: number, seq: number, id: number, payload: P): void {
    this.#dues[i] = dueMs;
    this.#seqs[i] = seq;
    this.#ids[i] = id;
    this.#payloads[i] = payload;
  }
}

/** Whether an event due at `dueA` with sequence `seqA` runs before one at (`dueB`, `seqB`). */
function before(dueA: number, seqA: number, dueB: number, seqB: number): boolean {
  return dueA < dueB || (dueA === dueB && seqA < seqB);
}
