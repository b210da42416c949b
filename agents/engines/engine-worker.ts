/**
 * The thread one stockfish.wasm instance lives in (started by worker-engine.ts). Searches arrive as
 * messages and run one at a time, in arrival order; each answer goes back as one message.
 *
 * Why a thread of its own: stockfish.wasm runs its UCI commands on the thread that loaded it (`ucinewgame`
 * clears the hash and the history tables there, half a millisecond a search) and hands each output line to
 * that thread's event loop. On the world's thread both waited for the world: the lines were read only when the
 * world itself stopped to await an answer, so a queue of searches advanced one search per stall. Here the
 * engine reads its own lines and starts the next search while the world runs.
 */
import { parentPort } from 'node:worker_threads';
import { WasmEngine } from './wasm-engine.js';
import type { EngineReply, SearchOrder } from './worker-engine.js';

const port = parentPort;
if (!port) throw new Error('engine-worker.ts runs as a worker thread (worker-engine.ts starts it)');

const orders: SearchOrder[] = [];
let engine: WasmEngine | undefined;
let running = false;

function reply(message: EngineReply): void {
  port!.postMessage(message);
}

async function runOrders(): Promise<void> {
  if (running || !engine) return;
  running = true;
  for (let order = orders.shift(); order; order = orders.shift()) {
    try {
      reply({ kind: 'answer', id: order.id, result: await engine.search(order.request) });
      // After the reply is on its way: the clearing overlaps the world's reading of this answer.
      engine.clearForNext();
    } catch (error) {
      reply({ kind: 'failed', id: order.id, message: errorText(error), broken: engine.broken });
      if (engine.broken) break;
    }
  }
  running = false;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

port.on('message', (order: SearchOrder) => {
  orders.push(order);
  void runOrders();
});

WasmEngine.start().then(
  (started) => {
    engine = started;
    reply({ kind: 'ready' });
    void runOrders();
  },
  (error: unknown) => reply({ kind: 'start-failed', message: errorText(error) }),
);
