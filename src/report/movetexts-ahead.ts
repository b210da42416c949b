/**
 * games.pgn's movetexts, written on a second thread while the world still runs (issue 32, P2). A movetext
 * needs every move's SAN, which a game keeps only as its packed move log: writing games.pgn replayed every
 * game of a run at its end, some 0.25 s of a smoke run's report on the one thread the run has. Here each
 * game, as it ends, is handed to a worker thread (movetext-thread.ts) that replays it on the core the world
 * leaves idle, and the games still being played are handed over as the report begins, while it writes its
 * other files; the report takes the finished texts, and writes any game the thread has not answered for (a
 * thread that failed) itself. Both write it with the same
 * replaySans and movetext, so games.pgn's bytes are the same either way (test/report/movetexts-ahead.test.ts).
 * The cost is memory: each finished game's movetext is held until the report (1.8 KB a game in smoke's long
 * random games).
 *
 * The report is synchronous, so the answers are read synchronously: the thread posts each on a port that
 * `receiveMessageOnPort` drains, and counts them in shared memory, on which the report waits for the rest.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { movetextInput, type MovetextInput } from '../platform/chess/games.js';
import type { Game } from '../platform/state.js';
import type { Platform } from '../platform/platform.js';
import { UNFINISHED } from './pgn-movetext.js';

/** What the thread is sent for one game, and what it answers. */
export interface MovetextJob extends MovetextInput {
  readonly gameId: string;
}
export interface MovetextAnswer {
  readonly gameId: string;
  readonly result: string;
  readonly movetext: string;
}

/** Where the report finds a game's movetext written ahead, if it was. */
export interface MovetextSource {
  /** Hands over the games still being played (and any finished ones not yet sent), as the report begins. */
  sendUnfinished(games: Iterable<Game>): void;
  /** The movetext of `game` with `result`, or undefined when it was not written ahead for that result. */
  movetextOf(game: Game, result: string): string | undefined;
}

/**
 * How long the report waits for the thread's next answer before writing the rest itself: only a thread that
 * died or hangs takes this long (an error it reports cannot be heard while the report waits).
 */
const ANSWER_WAIT_MS = 10_000;

/**
 * Games sent to the thread together. Each message wakes the thread, and on a busy machine a wake-up cost the
 * world's thread up to milliseconds (942 messages one by one took 0.45 s of a smoke run at load 4); a batch
 * is some 8 ms of the thread's work. The last batch, not yet full when the world ends, goes with the games
 * still being played (sendUnfinished), in messages of UNFINISHED_BATCH_GAMES.
 */
const BATCH_GAMES = 32;
const UNFINISHED_BATCH_GAMES = 256;

/** Where the thread's code is, how long to wait for it, how many games a message carries (tests name them). */
export interface MovetextThreadOptions {
  file?: string;
  waitMs?: number;
  batchGames?: number;
}

/** The thread's bundle (scripts/bundle.mjs), beside this module's compiled form in dist/. */
function threadFile(): string | undefined {
  if (!import.meta.url.endsWith('.js')) return undefined; // under vitest: no thread, the report writes all
  const file = fileURLToPath(new URL('./movetext-thread.cjs', import.meta.url));
  return existsSync(file) ? file : undefined;
}

export class MovetextsAhead implements MovetextSource {
  readonly #worker: Worker;
  readonly #answers: MessagePort;
  /** Answers posted so far, counted by the thread: Atomics.wait sleeps on it. */
  readonly #posted: Int32Array;
  readonly #written = new Map<string, MovetextAnswer>();
  readonly #waitMs: number;
  readonly #batchGames: number;
  #batch: MovetextJob[] = [];
  /** Batches sent and answered. */
  #sent = 0;
  #received = 0;
  #failed = false;

  /** Starts the thread and hands it every game of `platform` as it ends; undefined when there is no built thread. */
  static start(
    platform: Platform,
    comment: string,
    { file = threadFile(), waitMs = ANSWER_WAIT_MS, batchGames = BATCH_GAMES }: MovetextThreadOptions = {},
  ): MovetextsAhead | undefined {
    if (file === undefined) return undefined;
    const ahead = new MovetextsAhead(file, comment, waitMs, batchGames);
    platform.registerGameEndHook((_, game) => ahead.#send(game, game.end?.result ?? UNFINISHED));
    return ahead;
  }

  private constructor(file: string, comment: string, waitMs: number, batchGames: number) {
    this.#waitMs = waitMs;
    this.#batchGames = batchGames;
    const { port1, port2 } = new MessageChannel();
    this.#answers = port1;
    this.#posted = new Int32Array(new SharedArrayBuffer(4));
    this.#worker = new Worker(file, {
      workerData: { comment, answers: port2, posted: this.#posted },
      transferList: [port2],
    });
    // Neither the thread nor its port keeps the process alive: a run that ends or stops leaves them behind.
    this.#worker.unref();
    this.#answers.unref();
    // A thread that fails or exits answers no more: the report writes what is left without waiting for it.
    this.#worker.on('error', () => (this.#failed = true));
    this.#worker.on('exit', () => (this.#failed = true));
  }

  sendUnfinished(games: Iterable<Game>): void {
    if (this.#failed) return;
    for (const game of games) {
      if (game.end !== null || game.status === 'cancelled') continue;
      this.#batch.push({ gameId: game.id, ...movetextInput(game, UNFINISHED) });
      if (this.#batch.length >= UNFINISHED_BATCH_GAMES) this.#post();
    }
    this.#post();
  }

  movetextOf(game: Game, result: string): string | undefined {
    if (!this.#written.has(game.id)) this.#takeAnswers(game.id);
    const answer = this.#written.get(game.id);
    return answer !== undefined && answer.result === result ? answer.movetext : undefined;
  }

  /** Stops the thread (after the report, or on a run that stopped early). */
  close(): void {
    void this.#worker.terminate();
    this.#answers.close();
  }

  #send(game: Game, result: string): void {
    if (this.#failed) return;
    this.#batch.push({ gameId: game.id, ...movetextInput(game, result) });
    if (this.#batch.length >= this.#batchGames) this.#post();
  }

  #post(): void {
    if (this.#batch.length === 0) return;
    this.#worker.postMessage(this.#batch);
    this.#batch = [];
    this.#sent++;
  }

  /** Reads answers until `gameId`'s arrives or every batch sent is answered; waits while the thread works. */
  #takeAnswers(gameId: string): void {
    while (this.#received < this.#sent && !this.#failed) {
      const posted = receiveMessageOnPort(this.#answers);
      if (posted !== undefined) {
        const answers = posted.message as MovetextAnswer[];
        this.#received++;
        for (const answer of answers) this.#written.set(answer.gameId, answer);
        if (this.#written.has(gameId)) return;
        continue;
      }
      // Nothing posted yet: sleep until the thread counts another answer (or give up on a stuck thread).
      if (Atomics.wait(this.#posted, 0, this.#received, this.#waitMs) === 'timed-out') this.#failed = true;
    }
  }
}
