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
 * - The module hands each output line to its message listeners through a timer of its own (one `setTimeout`
 *   per line, at least 1 ms in Node), so `bestmove` reached a listener a millisecond or more after the engine
 *   wrote it; with no listener it calls `console.log` at once instead. In a thread of its own (the pool's
 *   engine-worker.ts, which prints nothing else) the instance takes that thread's `console.log` as its line
 *   reader: the same lines in the same order, each as it is written. On the main thread it attaches a
 *   listener, so the banner and every line reach this class and never the simulator's output.
 * - The clearing `ucinewgame` is sent when a search has answered (`clearForNext`), not when the next one
 *   starts, so it overlaps whatever the caller does between two searches; the engine's state when a search
 *   starts is the same either way.
 * - The clearing zeroes the hash table and the history tables (about 8 MB of them: 0.5 ms); a 16 MB hash
 *   table made it 1.5 ms, longer than a whole search at sf-1 to sf-3. So searches of up to 1,000 nodes
 *   (sf-4) run with the smallest table Stockfish allows (`hashMbFor`). On positions from simulated games 1 MB
 *   answered exactly as 16 MB did at sf-1 to sf-4 (every line's move and score, and bestmove: 2,000
 *   positions at each level and 20,000 more at sf-3 and sf-4), but not always from sf-5 up (sf-5 once in
 *   6,000 positions, sf-6 7 times in 6,000, sf-8 in over half), where a search stores enough entries for
 *   the table's size to matter; those keep 16 MB. Setting the size reallocates and zeroes the table, as the
 *   clearing does, so switching sizes between searches changes no answer.
 * - Once the instance is ready, commands go straight to the engine's `uci_command`. The module's own
 *   `postMessage` runs a command at once too, but also arms a 1 ms timer that wakes this thread while the
 *   search runs, four times a search.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
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
  /** Runs an exported C function; `uci_command` answers non-zero while the engine's threads are starting. */
  ccall(name: 'uci_command', returns: 'number', argTypes: ['string'], args: [string]): number;
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

/** Stockfish's smallest hash table, and the size kept for budgets where it could change an answer. */
const SMALL_HASH_MB = 1;
const LARGE_HASH_MB = 16;
/** The largest budget checked to answer the same with either size (sf-4); see the head comment. */
const SMALL_HASH_MAX_NODES = 1_000;

/** The hash table size (MB) for a search of `nodes`: the bare-engine bench sets the same. */
export function hashMbFor(nodes: number): number {
  return nodes <= SMALL_HASH_MAX_NODES ? SMALL_HASH_MB : LARGE_HASH_MB;
}
/** A search this far past any plausible speed (10k nodes/s) is a hung engine, reported as an error. */
function hangAfterMs(nodes: number): number {
  return 60_000 + nodes / 10;
}

/** Whether an instance has taken this thread's `console.log` (one per thread: the lines carry no owner). */
let consoleTaken = false;

export class WasmEngine {
  readonly #module: StockfishModule;
  #collector: PvCollector | undefined;
  #finish: ((result: SearchResult) => void) | undefined;
  #ready: (() => void) | undefined;
  #broken = false;
  /** A `ucinewgame` was sent since the last search: the next one starts without its own. */
  #cleared = false;
  /** The settings the engine holds now: a search sets only those that differ. */
  #hashMb = SMALL_HASH_MB;
  #multiPv = 1;

  private constructor(module: StockfishModule) {
    this.#module = module;
  }

  /** Starts an instance: Threads=1 (determinism), the small hash, then waits for `readyok`. */
  static async start(): Promise<WasmEngine> {
    const { create, wasmBinary } = loadFactory();
    const moduleArg: Record<string, unknown> = { wasmBinary };
    const handlers = processHandlers();
    // Lines before the instance exists (the banner) are dropped.
    let engine: WasmEngine | undefined;
    const onLine = (line: string): void => {
      if (engine) engine.#onLine(line);
    };
    const readConsole = !isMainThread && !consoleTaken;
    if (readConsole) {
      consoleTaken = true;
      console.log = onLine; // eslint-disable-line no-console -- the engine's line reader (see the head comment)
    }
    const loading = create(moduleArg);
    removeHandlersAddedSince(handlers);
    // `create` fills in the module object synchronously; attach before its start-up prints anything.
    if (!readConsole) (moduleArg as unknown as StockfishModule).addMessageListener(onLine);
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
        `setoption name Hash value ${this.#hashMb}`,
        `setoption name MultiPV value ${this.#multiPv}`,
        'ucinewgame',
        'isready',
      ])
        this.#module.postMessage(command);
    }).then(() => {
      this.#cleared = true;
      this.#unrefWorkers();
    });
  }

  /** One search; the pool never starts a second before the first has answered. */
  search(request: SearchRequest): Promise<SearchResult> {
    if (this.#collector || this.#broken) throw new Error('engine instance is busy or broken (pool bug)');
    return new Promise<SearchResult>((resolve, reject) => {
      const fail = (error: Error): void => {
        clearTimeout(watchdog);
        this.#broken = true;
        reject(error);
      };
      const watchdog = setTimeout(
        () =>
          fail(
            new Error(
              `stockfish.wasm gave no bestmove within ${hangAfterMs(request.nodes)} ms (fen ${request.fen}, nodes ${request.nodes}): engine hung`,
            ),
          ),
        hangAfterMs(request.nodes),
      );
      this.#collector = new PvCollector();
      this.#finish = (result) => {
        clearTimeout(watchdog);
        this.#unrefWorkers();
        resolve(result);
      };
      try {
        this.#start(request);
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  #start(request: SearchRequest): void {
    if (!this.#cleared) this.#send('ucinewgame');
    this.#cleared = false;
    this.#setOptions(hashMbFor(request.nodes), request.multiPv);
    this.#send(`position fen ${request.fen}`);
    this.#send(`go nodes ${request.nodes}`);
  }

  #setOptions(hashMb: number, multiPv: number): void {
    if (hashMb !== this.#hashMb) this.#send(`setoption name Hash value ${hashMb}`);
    if (multiPv !== this.#multiPv) this.#send(`setoption name MultiPV value ${multiPv}`);
    this.#hashMb = hashMb;
    this.#multiPv = multiPv;
  }

  /** One command, run now (only after the handshake: the engine's threads have started). */
  #send(command: string): void {
    if (this.#module.ccall('uci_command', 'number', ['string'], [command]) !== 0)
      throw new Error(`stockfish.wasm refused ${command}: its threads are not running (pool bug)`);
  }

  /**
   * Clears the engine for the next search now, while the caller reads this answer. Call it once the
   * answer is sent on, never from inside a line (that runs within the engine's own call).
   */
  clearForNext(): void {
    if (this.#collector || this.#broken || this.#cleared) return;
    this.#send('ucinewgame');
    this.#cleared = true;
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
