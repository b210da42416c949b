import { workerData } from 'node:worker_threads';
import { movetext } from './pgn-movetext.js';
import { CONTROL, type MovetextThreadData, type MovetextThreadResult } from './pgn-thread.js';

/**
 * The PGN writer's thread (see startMovetexts): unless told not to start, claims games from the shared
 * counter and makes their movetexts until none is left, then posts them and says so. It posts even when a
 * game fails, so the writer never waits for it in vain (the writer makes that game itself).
 */
const { jobs, comment, control, port } = workerData as MovetextThreadData;
const { NEXT, STATE, DONE } = CONTROL;
if (Atomics.compareExchange(control, STATE, 0, 1) === 0) {
  const made: MovetextThreadResult = { indices: [], texts: [] };
  try {
    for (let i = Atomics.add(control, NEXT, 1); i < jobs.length; i = Atomics.add(control, NEXT, 1)) {
      made.texts.push(movetext(jobs[i]!, comment));
      made.indices.push(i);
    }
  } finally {
    port.postMessage(made);
    Atomics.store(control, DONE, 1);
    Atomics.notify(control, DONE);
  }
}
