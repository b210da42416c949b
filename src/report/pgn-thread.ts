import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { movetext, type MovetextJob } from './pgn-movetext.js';

/**
 * Movetexts being made while the caller does other work (renderRunReport: the HTML's charts), and taken
 * when the PGN is written. Replaying every game's packed moves for its SAN is most of games.pgn's cost (a
 * smoke run's 300,000 plies take most of a second), and the charts as long, so with enough plies a worker
 * thread starts on the games at once (pgn-worker.ts). Both threads claim games one at a time from one shared
 * counter; each game's text depends on its moves alone, so which thread made it changes no byte.
 */
export interface Movetexts {
  /** Every job's movetext, in the jobs' order: claims and makes what is left, then waits for the thread's. */
  take(): string[];
  /** How many of take()'s texts the thread made (0 without one). */
  readonly byThread: number;
  /** Resolves once the thread has exited (at once without one): a test's way to let it make every text. */
  threadExit(): Promise<void>;
}

/** Below this many plies in all, a thread's start costs about what it saves: the games are made in take(). */
export const MIN_THREAD_PLIES = 20_000;

/** How long take() waits for the thread's last game (a few milliseconds of work) before making it itself. */
const GIVE_UP_MS = 10_000;

/** Slots of the control array both threads share. */
export const CONTROL = {
  /** The next job index to claim. */
  NEXT: 0,
  /** The thread: 0 not started yet, 1 claiming, -1 told not to start (take() claimed the last job first). */
  STATE: 1,
  /** 1 once the thread has posted what it made. */
  DONE: 2,
} as const;
const { NEXT, STATE, DONE } = CONTROL;

/** What the thread is handed (workerData). */
export interface MovetextThreadData {
  jobs: MovetextJob[];
  comment: string;
  control: Int32Array;
  port: MessagePort;
}

/** What the thread posts: the indices it made and their texts. */
export interface MovetextThreadResult {
  indices: number[];
  texts: string[];
}

/** Where the thread's module is (the built pgn-worker.js), and from how many plies in all it is worth starting. */
export interface ThreadChoice {
  file: URL;
  minPlies: number;
}

/** Starts the movetexts of `jobs`: with a thread when one is given and the games hold enough plies, else all in take(). */
export function startMovetexts(jobs: MovetextJob[], comment: string, thread?: ThreadChoice): Movetexts {
  let plies = 0;
  for (const job of jobs) plies += job.moves.count;
  if (thread === undefined || plies < thread.minPlies) return inThisThread(jobs, comment);
  const control = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  const data: MovetextThreadData = { jobs, comment, control, port: port2 };
  let worker: Worker;
  try {
    worker = new Worker(thread.file, { workerData: data, transferList: [port2] });
  } catch {
    return inThisThread(jobs, comment);
  }
  // A thread that fails to start or throws never blocks take(): it then makes what the thread did not.
  worker.on('error', () => {});
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let byThread = 0;
  return {
    take() {
      const claimed = claimAll(jobs, comment, control, port1);
      byThread = claimed.byThread;
      port1.close();
      void worker.terminate();
      return fillHoles(jobs, comment, claimed.texts);
    },
    get byThread() {
      return byThread;
    },
    threadExit: () => exited,
  };
}

/** Without a thread the movetexts are made at once, before the caller's other work, as before there was one. */
function inThisThread(jobs: MovetextJob[], comment: string): Movetexts {
  const texts = fillHoles(jobs, comment, []);
  return { take: () => texts, byThread: 0, threadExit: () => Promise.resolve() };
}

/**
 * Claims and makes jobs until none is left, then collects the thread's: waits for it only when it had
 * started claiming (else tells it not to start). The texts by index (holes where none was made), and how
 * many the thread made.
 */
function claimAll(
  jobs: MovetextJob[],
  comment: string,
  control: Int32Array,
  port: MessagePort,
): { texts: string[]; byThread: number } {
  const texts = new Array<string>(jobs.length);
  for (let i = Atomics.add(control, NEXT, 1); i < jobs.length; i = Atomics.add(control, NEXT, 1))
    texts[i] = movetext(jobs[i]!, comment);
  if (Atomics.compareExchange(control, STATE, 0, -1) === 0) return { texts, byThread: 0 };
  // Every job is claimed, so the thread has at most one game left to make; a thread that died without
  // posting is given up on (its games are made here instead: the bytes are the same).
  if (Atomics.wait(control, DONE, 0, GIVE_UP_MS) === 'timed-out') return { texts, byThread: 0 };
  const posted = receiveMessageOnPort(port)?.message as MovetextThreadResult | undefined;
  if (posted === undefined) return { texts, byThread: 0 };
  posted.indices.forEach((index, k) => (texts[index] = posted.texts[k]!));
  return { texts, byThread: posted.indices.length };
}

/** `texts` with every hole filled: a game the thread claimed but did not post (it failed) is made here. */
function fillHoles(jobs: MovetextJob[], comment: string, texts: string[]): string[] {
  for (let i = 0; i < jobs.length; i++) texts[i] ??= movetext(jobs[i]!, comment);
  return texts;
}
