/**
 * An adapter for any external UCI engine binary (Debian's `stockfish`, lc0, a home-made engine): it spawns
 * the process, runs the `uci`/`uciok` and `isready`/`readyok` handshake, sets the configured options, and
 * for each search sends `ucinewgame`, `position fen`, `go nodes N` (or `go movetime`) and reads `bestmove`.
 *
 * Determinism: with Threads=1 (set automatically when the engine offers the option and the scenario does
 * not) and a node budget, every search is independent of the ones before it (`ucinewgame` clears the
 * hash), so a given binary gives the same move for the same position on every run. Results depend on the
 * binary and its version: a scenario replays byte-identically only against the same engine build.
 * `movetimeMs` searches by wall-clock time and is not reproducible.
 *
 * Robustness: an engine runs in its own process, so nothing it does may stop the run. Spawn errors, a
 * crash, a hang (no answer within `timeoutMs` of real time, handshake included), an overlong line, a
 * malformed or illegal `bestmove` all end as a failed answer, never as a thrown error or a wait without
 * bound; the process is killed and the next search starts a fresh one. Children are unreferenced so an
 * idle engine never keeps Node alive, and every live child is killed when Node exits.
 *
 * `bestmove` lines are read by the stockfish.wasm pool's parser (`engine/uci-lines.ts`); the adapter adds
 * the checks an untrusted process needs (strict UCI, legal in the position).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { newBoard, parseMove, toWireUci } from '../../src/rules/chess/chess.js';
import { parseBestMove } from '../engines/uci-lines.js';

export interface UciEngineConfig {
  /** The executable: a path, or a bare name looked up on PATH. */
  readonly path: string;
  readonly args: readonly string[];
  /** Sent as `setoption name <key> value <value>` after the handshake. */
  readonly options: Readonly<Record<string, string | number>>;
  /** Real-time bound, in ms, on the handshake and, separately, on each search. */
  readonly timeoutMs: number;
}

/** A node budget (reproducible) or a wall-clock budget (not). */
export type SearchBudget = { readonly nodes: number } | { readonly movetimeMs: number };

export const UCI_FAILURES = ['spawn', 'exit', 'timeout', 'garbage', 'illegal'] as const;
export type UciFailure = (typeof UCI_FAILURES)[number];

export type UciAnswer = { ok: true; uci: string } | { ok: false; failure: UciFailure; detail: string };

export interface UciEngineStats {
  spawns: number;
  searches: number;
  moves: number;
  failures: Record<UciFailure, number>;
}

/** Longer than any real UCI line (a long `info ... pv` is a few kB); past it the output is garbage. */
const MAX_LINE_CHARS = 64 * 1024;
const UCI_MOVE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

class UciError extends Error {
  constructor(
    readonly failure: UciFailure,
    detail: string,
  ) {
    super(detail);
  }
}

/** Every child still alive in this Node process: killed on exit so a test run or CLI never leaves any. */
const LIVE = new Set<UciProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of LIVE) child.kill();
  });
}

/** How many engine processes this Node process has running (for tests and reports). */
export function liveUciProcesses(): number {
  return LIVE.size;
}

/** Kills every engine process; an engine used again afterwards starts a fresh one. */
export function closeUciEngines(): void {
  for (const child of [...LIVE]) child.kill();
}

/** Waits for one line that `accept` takes; only one waiter at a time, because searches are serial. */
interface Waiter {
  accept(line: string): boolean;
  resolve(line: string): void;
  reject(error: UciError): void;
}

/** One spawned engine process and its line-by-line output. Dead for good once it fails. */
class UciProcess {
  readonly #child: ChildProcess;
  #buffer = '';
  #waiter: Waiter | undefined;
  #dead: UciError | undefined;

  constructor(config: UciEngineConfig) {
    installExitHook();
    this.#child = spawn(config.path, [...config.args], { stdio: ['pipe', 'pipe', 'ignore'] });
    LIVE.add(this);
    this.#child.on('error', (error) =>
      this.fail(new UciError('spawn', `cannot run ${config.path}: ${error.message}`)),
    );
    // 'close', not 'exit': it comes after the last output, so a bestmove printed just before dying counts.
    this.#child.on('close', (code, signal) =>
      this.fail(new UciError('exit', `engine exited (${signal ?? `code ${code}`})`)),
    );
    this.#child.stdin!.on('error', () => undefined); // EPIPE after a crash: the close event reports it
    this.#child.stdout!.setEncoding('utf8');
    this.#child.stdout!.on('data', (chunk: string) => this.#read(chunk));
    // An idle engine must not keep Node running; a pending search holds its own (referenced) timer.
    this.#child.unref();
    for (const stream of [this.#child.stdin, this.#child.stdout])
      (stream as unknown as { unref?: () => void }).unref?.();
  }

  get alive(): boolean {
    return this.#dead === undefined;
  }

  send(line: string): void {
    if (this.#dead) throw this.#dead;
    this.#child.stdin!.write(`${line}\n`);
  }

  /** The first line `accept` takes; every line goes through `accept`, so it may also collect. */
  next(accept: (line: string) => boolean): Promise<string> {
    if (this.#dead) return Promise.reject(this.#dead);
    return new Promise((resolve, reject) => {
      this.#waiter = { accept, resolve, reject };
    });
  }

  /** Marks the process failed (the first reason wins), rejects the waiter and kills the child. */
  fail(error: UciError): void {
    if (!this.#dead) this.#dead = error;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(this.#dead);
    LIVE.delete(this);
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
  }

  kill(): void {
    this.fail(new UciError('exit', 'engine closed'));
  }

  #read(chunk: string): void {
    if (this.#dead) return;
    this.#buffer += chunk;
    let newline = this.#buffer.indexOf('\n');
    while (newline >= 0 && this.alive) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      this.#offer(line);
      newline = this.#buffer.indexOf('\n');
    }
    if (this.#buffer.length > MAX_LINE_CHARS)
      this.fail(new UciError('garbage', `an output line longer than ${MAX_LINE_CHARS} characters`));
  }

  #offer(line: string): void {
    const waiter = this.#waiter;
    if (!waiter || !waiter.accept(line)) return;
    this.#waiter = undefined;
    waiter.resolve(line);
  }
}

/**
 * One engine: at most one process, searches queued one after another. `bestMove` never throws and always
 * settles within about `timeoutMs` twice over (a handshake, then the search).
 */
export class UciEngine {
  readonly config: UciEngineConfig;
  readonly stats: UciEngineStats = {
    spawns: 0,
    searches: 0,
    moves: 0,
    failures: { spawn: 0, exit: 0, timeout: 0, garbage: 0, illegal: 0 },
  };
  #process: UciProcess | undefined;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(config: UciEngineConfig) {
    this.config = config;
  }

  /** The engine's move for `fen` in wire UCI (castling as e1g1), or why there is none. */
  bestMove(fen: string, budget: SearchBudget): Promise<UciAnswer> {
    const answer = this.#tail.then(() => this.#searchOnce(fen, budget));
    this.#tail = answer.catch(() => undefined); // a programmer error fails its own search, not the queue
    return answer;
  }

  /** Kills the process; a later search starts a fresh one. */
  close(): void {
    this.#process?.kill();
    this.#process = undefined;
  }

  async #searchOnce(fen: string, budget: SearchBudget): Promise<UciAnswer> {
    this.stats.searches++;
    try {
      const engine = await this.#ready();
      const uci = await within(engine, this.config.timeoutMs, 'search', () => search(engine, fen, budget));
      this.stats.moves++;
      return { ok: true, uci };
    } catch (error) {
      if (!(error instanceof UciError)) throw error;
      // Whatever went wrong, the process's state is suspect: the next search starts from a fresh one.
      this.close();
      this.stats.failures[error.failure]++;
      return { ok: false, failure: error.failure, detail: error.message };
    }
  }

  async #ready(): Promise<UciProcess> {
    if (this.#process?.alive) return this.#process;
    this.stats.spawns++;
    const engine = new UciProcess(this.config);
    this.#process = engine;
    await within(engine, this.config.timeoutMs, 'handshake', () => handshake(engine, this.config.options));
    return engine;
  }
}

/** Runs `step` with a real-time bound: past it the process is failed with a timeout (and killed). */
async function within<T>(
  engine: UciProcess,
  timeoutMs: number,
  what: string,
  step: () => Promise<T>,
): Promise<T> {
  const timer = setTimeout(
    () => engine.fail(new UciError('timeout', `no answer to the ${what} within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    return await step();
  } finally {
    clearTimeout(timer);
  }
}

/** `uci` until `uciok`, then the options (Threads=1 by default, for reproducible searches), then `isready`. */
async function handshake(
  engine: UciProcess,
  options: Readonly<Record<string, string | number>>,
): Promise<void> {
  const offered = new Set<string>();
  engine.send('uci');
  await engine.next((line) => {
    const option = /^option\s+name\s+(.+?)\s+type\s/.exec(line);
    if (option) offered.add(option[1]!.toLowerCase());
    return line === 'uciok';
  });
  const settings: Record<string, string | number> = { ...options };
  const threadsGiven = Object.keys(options).some((name) => name.toLowerCase() === 'threads');
  if (offered.has('threads') && !threadsGiven) settings['Threads'] = 1;
  for (const [name, value] of Object.entries(settings)) engine.send(`setoption name ${name} value ${value}`);
  await isReady(engine);
}

async function isReady(engine: UciProcess): Promise<void> {
  engine.send('isready');
  await engine.next((line) => line === 'readyok');
}

/** One independent search: a new game (the hash is cleared), the position, the budget, the answer. */
async function search(engine: UciProcess, fen: string, budget: SearchBudget): Promise<string> {
  engine.send('ucinewgame');
  await isReady(engine);
  engine.send(`position fen ${fen}`);
  engine.send('nodes' in budget ? `go nodes ${budget.nodes}` : `go movetime ${budget.movetimeMs}`);
  const answer = readBestMove(fen, await engine.next((text) => parseBestMove(text) !== undefined));
  if (!answer.ok) throw new UciError(answer.failure, answer.detail);
  return answer.uci;
}

/**
 * The move of a `bestmove` line, checked as strict UCI and as legal in `fen`, in wire form. `bestmove
 * (none)` or `0000` (no legal move) is garbage here: the platform asks only when a move exists.
 */
export function readBestMove(fen: string, line: string): UciAnswer {
  const token = parseBestMove(line)?.move ?? '';
  if (!UCI_MOVE.test(token))
    return { ok: false, failure: 'garbage', detail: `not a UCI move: "${line.slice(0, 80)}"` };
  const board = newBoard(fen);
  const parsed = parseMove(board, token);
  if (!parsed.ok) return { ok: false, failure: 'illegal', detail: `illegal bestmove ${token} in ${fen}` };
  return { ok: true, uci: toWireUci(board, parsed.move) };
}
