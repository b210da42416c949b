/**
 * The piscina worker thread's entry (compiled to dist/src/sweep/pool/pool-worker.js): one task is one seed
 * (the default export), or the sweep's one check that the scenario starts (`scenarioStartProblem`, by name).
 * Both are run-seed.ts's, loaded from the build's one-file bundle with its code cache (seed-bundle.ts says
 * why), or from the modules when the bundle is older than they are. The engine pool size never changes an
 * answer (agents/engines/pool.ts), so each thread keeps to one stockfish instance unless ACS_ENGINE_POOL
 * says otherwise (the pool sets it): N sweep threads must not each start one engine per CPU.
 */
import { loadSeedBundle, seedBundleIsCurrent, type SeedModule } from './seed-bundle.js';

const seeds: SeedModule = seedBundleIsCurrent() ? loadSeedBundle().exports : await import('../run-seed.js');

const { runSeed, scenarioStartProblem } = seeds;

export { runSeed as default, scenarioStartProblem };
