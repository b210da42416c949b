/**
 * The piscina worker thread's entry (compiled to dist/src/sweep/pool/pool-worker.js, and bundled by the
 * build into pool-worker.cjs, which the pool gives piscina: see poolWorkerFile): one task is one seed (the
 * default export), or the sweep's one check that the scenario starts (`scenarioStartProblem`, by name).
 * Both are run-seed.ts's, loaded from the build's one-file bundle with its code cache (seed-bundle.ts says
 * why), or from the modules when the bundle is older than they are. No top-level await, so that the entry
 * can be CommonJS. The engine pool size never changes an answer (agents/engines/pool.ts), so each thread
 * keeps to one stockfish instance unless ACS_ENGINE_POOL says otherwise (the pool sets it): N sweep threads
 * must not each start one engine per CPU.
 */
import type { SeedTask } from '../seed-result.js';
import { loadSeedBundle, seedBundleIsCurrent, type SeedModule } from './seed-bundle.js';

const seeds: SeedModule | Promise<SeedModule> = seedBundleIsCurrent()
  ? loadSeedBundle().exports
  : import('../run-seed.js');

export default async function runSeed(task: SeedTask): ReturnType<SeedModule['runSeed']> {
  return (await seeds).runSeed(task);
}

export async function scenarioStartProblem(
  task: Omit<SeedTask, 'seed'>,
): ReturnType<SeedModule['scenarioStartProblem']> {
  return (await seeds).scenarioStartProblem(task);
}
