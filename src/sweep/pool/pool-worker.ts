/**
 * The piscina worker thread's entry (compiled to dist/src/sweep/pool/pool-worker.js): one task is one seed.
 * The engine pool size never changes an answer (agents/engines/pool.ts), so each thread keeps to one
 * stockfish instance unless ACS_ENGINE_POOL says otherwise (the pool sets it): N sweep threads must not
 * each start one engine per CPU.
 */
export { runSeed as default } from '../run-seed.js';
