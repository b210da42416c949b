import { dirname, resolve } from 'node:path';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runScenario } from '../sim/world.js';
import { buildReport } from '../report/report.js';
import {
  completedSeed,
  errorMessage,
  unfinishedSeed,
  type SeedResult,
  type SeedTask,
} from './seed-result.js';

/**
 * One seed of a sweep, exactly as `run <scenario> --seed N` runs it: the scenario text parsed as
 * `loadScenarioFile` parses the file (same source name, same directory for agent modules), the seed given
 * as the override, and the report built by the same model. A run that throws is that seed's crash, never
 * the sweep's.
 */
export async function runSeed(task: SeedTask): Promise<SeedResult> {
  try {
    const scenario = parseScenario(
      task.scenarioText,
      task.scenarioFile,
      String(task.seed),
      dirname(resolve(task.scenarioFile)),
    );
    const outcome = await runScenario(scenario);
    return completedSeed(task.seed, buildReport(scenario, outcome));
  } catch (error) {
    return unfinishedSeed(task.seed, 'crashed', errorMessage(error));
  }
}
