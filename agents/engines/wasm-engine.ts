/**
 * One stockfish.wasm instance, driven over UCI, one search at a time. The pool owns a fixed set of these.
 *
 * Why the care taken here (each point measured with stockfish.wasm 0.10.0 on Node 20):
 * - Every search starts with `ucinewgame`, which clears the hash and the history tables: a search then
 *   depends only on its request, never on what the instance searched before, so any instance of any pool
 *   size gives the same answer (and a cached answer equals a fresh one).
 * - The module's pthread workers would keep the process alive after a run: they are unref'd, and each
 *   search in flight holds a ref'd watchdog timer instead, which also turns a hung engine into an error.
 * - Loading the module installs process-wide `uncaughtException` / `unhandledRejection` handlers (the second
 *   aborts the engine on ANY unhandled rejection in the process); they are removed at once.
 * - With no message listener the module prints to stdout: a listener is attached before start-up, so the
 *   banner and every line reach this class and never the simulator's output.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { PvCollector, type SearchResult } from './uci-lines.js';

/** What the pool asks of an instance; the node budget and MultiPV count make the answer deterministic. */
export interface SearchRequest {
  fen: string;
  nodes: number;
  multiPv: number;
}

interface StockfishWorker {
  unref(): void;
}

/** The parts of the Emscripten module we use. `PThread.fa`/`ia` are its unused and running workers (0.10.0). */
interface StockfishModule {
  addMessageListener(listener: (line: string) => void): void;
  postMessage(command: string): void;
  terminate(): void;
  PThread?: { fa?: StockfishWorker[]; ia?: StockfishWorker[] };
}

type StockfishFactory = (module: Record<string, unknown>) => Promise<StockfishModule>;

const require = createRequire(import.meta.url);
let factory: { create: StockfishFactory; wasmBinary: Buffer } | undefined;

function loadFactory(): { create: StockfishFactory; wasmBinary: Buffer } {
  // Node 20 cannot fetch the .wasm the way a browser does: hand the module its bytes.
  factory ??= {
    create: require('stockfish.wasm') as StockfishFactory,
    wasmBinary: readFileSync(require.resolve('stockfish.wasm/stockfish.wasm')),
  };
  return factory;
}

/** Small: every search clears it anyway, and a pool holds one per instance. */
const HASH_MB = 16;
/** A search this far past any plausible speed (10k nodes/s) is a hung engine, reported as an error. */
function hangAfterMs(nodes: number): number {
  return 60_000 + nodes / 10;
}

export class WasmEngine {
  readonly #module: StockfishModule;
  #collector: PvCollector | undefined;
  #finish: ((result: SearchResult) => void) | undefined;
  #ready: (() => void) | undefined;
  #broken = false;

  private constructor(module: StockfishModule) {
    this.#module = module;
  }

  /** Starts an instance: Threads=1 (determinism), a small hash, then waits for `readyok`. */
  static async start(): Promise<WasmEngine> {
    const { create, wasmBinary } = loadFactory();
    const moduleArg: Record<string, unknown> = { wasmBinary };
    const handlers = processHandlers();
    const loading = create(moduleArg);
    removeHandlersAddedSince(handlers);
    // `create` fills in the module object synchronously; attach before its start-up prints anything.
    // Lines before the instance exists (the banner) are dropped.
    let engine: WasmEngine | undefined;
    (moduleArg as unknown as StockfishModule).addMessageListener((line) => {
      if (engine) engine.#onLine(line);
    });
    engine = new WasmEngine(await loading);
    await engine.#handshake();
    return engine;
  }

  get broken(): boolean {
    return this.#broken;
  }

  #handshake(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#ready = resolve;
      for (const command of [
        'uci',
        'setoption name Threads value 1',
        `setoption name Hash value ${HASH_MB}`,
        'isready',
      ])
        this.#module.postMessage(command);
    }).then(() => this.#unrefWorkers());
  }

  /** One search; the pool never starts a second before the first has answered. */
  search(request: SearchRequest): Promise<SearchResult> {
    if (this.#collector || this.#broken) throw new Error('engine instance is busy or broken (pool bug)');
    return new Promise<SearchResult>((resolve, reject) => {
      const watchdog = setTimeout(() => {
        this.#broken = true;
        reject(
          new Error(
            `stockfish.wasm gave no bestmove within ${hangAfterMs(request.nodes)} ms (fen ${request.fen}, nodes ${request.nodes}): engine hung`,
          ),
        );
      }, hangAfterMs(request.nodes));
      this.#collector = new PvCollector();
      this.#finish = (result) => {
        clearTimeout(watchdog);
        this.#unrefWorkers();
        resolve(result);
      };
      const commands = [
        'ucinewgame',
        `setoption name MultiPV value ${request.multiPv}`,
        `position fen ${request.fen}`,
        `go nodes ${request.nodes}`,
      ];
      for (const command of commands) this.#module.postMessage(command);
    });
  }

  #onLine(line: string): void {
    if (line === 'readyok' && this.#ready) {
      this.#ready();
      this.#ready = undefined;
      return;
    }
    const result = this.#collector?.push(line);
    if (!result) return;
    const finish = this.#finish!;
    this.#collector = undefined;
    this.#finish = undefined;
    finish(result);
  }

  /** Called after start-up and after each search, in case the engine started a worker meanwhile. */
  #unrefWorkers(): void {
    const threads = this.#module.PThread;
    for (const worker of [...(threads?.fa ?? []), ...(threads?.ia ?? [])]) worker.unref();
  }

  terminate(): void {
    this.#broken = true;
    this.#module.terminate();
  }
}

type Handlers = {
  uncaught: NodeJS.UncaughtExceptionListener[];
  rejection: NodeJS.UnhandledRejectionListener[];
};

function processHandlers(): Handlers {
  return {
    uncaught: process.listeners('uncaughtException'),
    rejection: process.listeners('unhandledRejection'),
  };
}

function removeHandlersAddedSince(before: Handlers): void {
  for (const listener of process.listeners('uncaughtException')) {
    if (!before.uncaught.includes(listener)) process.removeListener('uncaughtException', listener);
  }
  for (const listener of process.listeners('unhandledRejection')) {
    if (!before.rejection.includes(listener)) process.removeListener('unhandledRejection', listener);
  }
}
