import { ScenarioError } from '../sim/scenario/scenario.js';

/**
 * A helper of the commands, not a command (`run` and `serve` share it). A scenario whose agent modules fail
 * to load is refused when the world populates, before any event: the same one-line-per-problem message on
 * stderr and exit code 2 as a bad scenario file.
 */
export async function explainScenarioErrors<T>(start: () => Promise<T>): Promise<T | undefined> {
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}
