/**
 * One stockfish.wasm instance in a worker thread of its own (engine-worker.ts), seen from the world's
 * thread. It takes any number of searches at once and the thread runs them one after another, so the
 * engine works through its queue while the world runs, and the world reads an answer when it needs it.
 * Every search starts from a cleared engine (wasm-engine.ts), so the queue never changes an answer.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchResult } from './uci-lines.js';
import type { SearchRequest } from './wasm-engine.js';

/** The world's thread to the engine's: one search. */
export interface SearchOrder {
  id: number;
  request: SearchRequest;
}

/** The engine's thread to the world's. `broken`: the instance hung and takes no more searches. */
export type EngineReply =
  | { kind: 'ready' }
  | { kind: 'start-failed'; message: string }
  | { kind: 'answer'; id: number; result: SearchResult }
  | { kind: 'failed'; id: number; message: string; broken: boolean };

/** A search someone waits for. */
export interface EngineJob {
  request: SearchRequest;
  resolve: (result: SearchResult) => void;
  reject: (error: unknown) => void;
}

/** Told when an instance breaks, with the searches it had not answered (to run elsewhere). */
export type BrokenListener = (engine: WorkerEngine, unanswered: EngineJob[]) => void;

export class WorkerEngine {
  readonly #worker: Worker;
  readonly #onBroken: BrokenListener;
  /** Sent and not yet answered, in the order sent (a Map keeps insertion order): the thread's queue. */
  readonly #pending = new Map<number, EngineJob>();
  #nextId = 0;
  #broken = false;

  private constructor(worker: Worker, onBroken: BrokenListener) {
    this.#worker = worker;
    this.#onBroken = onBroken;
    worker.on('message', (reply: EngineReply) => this.#onReply(reply));
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', (code) => this.#fail(new Error(`engine thread exited with code ${code}`)));
  }

  /** Starts the thread and waits for its engine's `readyok`; rejects when the engine cannot load. */
  static start(onBroken: BrokenListener): Promise<WorkerEngine> {
    // No Node flags of the parent: some (`--input-type`, set by a `node -e` script) refuse a file entry.
    const worker = new Worker(engineWorkerFile(), { execArgv: [] });
    return new Promise<WorkerEngine>((resolve, reject) => {
      // Only these listeners are removed: removeAllListeners() would also drop the Worker's own, which
      // stops its messages.
      const stopListening = (): void => {
        worker.off('error', refuse);
        worker.off('exit', exited);
        worker.off('message', answered);
      };
      const refuse = (error: Error): void => {
        stopListening();
        void worker.terminate();
        reject(error);
      };
      const exited = (code: number): void =>
        refuse(new Error(`engine thread exited with code ${code} while starting`));
      const answered = (reply: EngineReply): void => {
        if (reply.kind !== 'ready') {
          refuse(
            new Error(reply.kind === 'start-failed' ? reply.message : `engine thread said ${reply.kind}`),
          );
          return;
        }
        const engine = new WorkerEngine(worker, onBroken);
        stopListening();
        engine.#holdProcessWhileBusy();
        resolve(engine);
      };
      worker.on('error', refuse);
      worker.on('exit', exited);
      worker.on('message', answered);
    });
  }

  get broken(): boolean {
    return this.#broken;
  }

  /** Searches sent and not yet answered. */
  get load(): number {
    return this.#pending.size;
  }

  search(job: EngineJob): void {
    if (this.#broken) throw new Error('engine instance is broken (pool bug)');
    const id = this.#nextId++;
    this.#pending.set(id, job);
    this.#holdProcessWhileBusy();
    const order: SearchOrder = { id, request: job.request };
    this.#worker.postMessage(order);
  }

  /** Stops the thread; searches not yet answered are refused with `reason`. */
  terminate(reason: Error): void {
    this.#broken = true;
    const unanswered = this.#takePending();
    void this.#worker.terminate();
    for (const job of unanswered) job.reject(reason);
  }

  #onReply(reply: EngineReply): void {
    if (reply.kind !== 'answer' && reply.kind !== 'failed') return;
    const job = this.#pending.get(reply.id);
    if (!job) return;
    this.#pending.delete(reply.id);
    this.#holdProcessWhileBusy();
    if (reply.kind === 'answer') {
      job.resolve(reply.result);
      return;
    }
    job.reject(new Error(reply.message));
    if (reply.broken) this.#breakAndHandBack();
  }

  /** A hung instance: the searches queued behind the one that hung go back to the pool. */
  #breakAndHandBack(): void {
    if (this.#broken) return;
    this.#broken = true;
    void this.#worker.terminate();
    this.#onBroken(this, this.#takePending());
  }

  /** The thread died: what it held fails with its error (a crash would likely repeat elsewhere). */
  #fail(error: Error): void {
    if (this.#broken) return;
    this.#broken = true;
    const unanswered = this.#takePending();
    this.#onBroken(this, []);
    for (const job of unanswered) job.reject(error);
  }

  #takePending(): EngineJob[] {
    const jobs = [...this.#pending.values()];
    this.#pending.clear();
    return jobs;
  }

  /** An idle instance never keeps the process alive; one with searches to answer does. */
  #holdProcessWhileBusy(): void {
    if (this.#pending.size > 0) this.#worker.ref();
    else this.#worker.unref();
  }
}

/**
 * The compiled thread entry. Threads run plain JavaScript, so under vitest (this module is then the .ts
 * source) the instance still starts the build in dist/, which `npm test` makes first.
 */
function engineWorkerFile(): URL {
  if (import.meta.url.endsWith('.js')) return new URL('./engine-worker.js', import.meta.url);
  const built = new URL('../../dist/agents/engines/engine-worker.js', import.meta.url);
  if (!existsSync(built)) throw new Error(`${fileURLToPath(built)} is missing: run npm run build first`);
  return built;
}
