/**
 * The thread entry of `compare --agent`'s pool (compiled to dist/src/compare/duel-worker.js): one task is
 * one duel world, given as data (the players and the seed) and answered with its typed result.
 */
export { runDuel as default } from './duel.js';
