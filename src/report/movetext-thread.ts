/**
 * The thread of movetexts-ahead.ts: each game of each batch it is sent is replayed to its SAN list and
 * written as games.pgn's movetext, exactly as pgn.ts writes it (the same replaySans and movetext); the
 * batch's answers go back in one message on the answers port, then are counted in shared memory for the
 * report that may be waiting on them. Built by scripts/bundle.mjs into dist/src/report/movetext-thread.cjs,
 * the file the Worker starts.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { replaySans } from '../platform/chess/storage/san-replay.js';
import type { MovetextAnswer, MovetextJob } from './movetexts-ahead.js';
import { movetext } from './pgn-movetext.js';

const { comment, answers, posted } = workerData as {
  comment: string;
  answers: MessagePort;
  posted: Int32Array;
};

parentPort!.on('message', (jobs: MovetextJob[]) => {
  answers.postMessage(jobs.map(answer));
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});

function answer(job: MovetextJob): MovetextAnswer {
  const sans = replaySans(job.moves, job.initialFen);
  return { gameId: job.gameId, result: job.result, movetext: movetext(sans, job.result, comment) };
}
