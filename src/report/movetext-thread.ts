/**
 * The thread of movetexts-ahead.ts: each finished game it is sent, replayed to its SAN list and written as
 * games.pgn's movetext, exactly as pgn.ts writes it (the same replaySans and movetext), and posted back on
 * the answers port, each answer then counted in shared memory for the report that may be waiting on it.
 * Built by scripts/bundle.mjs into dist/src/report/movetext-thread.cjs, the file the Worker starts.
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

parentPort!.on('message', (job: MovetextJob) => {
  const sans = replaySans(job.moves, job.initialFen);
  const answer: MovetextAnswer = {
    gameId: job.gameId,
    result: job.result,
    movetext: movetext(sans, job.result, comment),
  };
  answers.postMessage(answer);
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});
