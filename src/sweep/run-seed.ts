import { dirname, resolve } from 'node:path';
import { parseScenario, ScenarioError, type Scenario } from '../sim/scenario/scenario.js';
import { runScenario, World } from '../sim/world.js';
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
    const scenario = scenarioOf(task, String(task.seed));
    const outcome = await runScenario(scenario);
    return completedSeed(task.seed, buildReport(scenario, outcome));
  } catch (error) {
    return unfinishedSeed(task.seed, 'crashed', errorMessage(error));
  }
}

/** The task's scenario as `loadScenarioFile` reads its file: same source name, same directory for agent modules. */
function scenarioOf(task: Omit<SeedTask, 'seed'>, seedOverride: string | undefined): Scenario {
  return parseScenario(
    task.scenarioText,
    task.scenarioFile,
    seedOverride,
    dirname(resolve(task.scenarioFile)),
  );
}

/**
 * Populates one world of the scenario, as `run` does before its first event: an agent module that cannot
 * load, or options it refuses, is the scenario's fault (a ScenarioError, exit 2), not every seed's crash.
 */
export async function checkScenarioStarts(scenario: Scenario): Promise<void> {
  await new World(scenario).populate();
}

/**
 * The same check on a pool thread, for the scenario as its file says (its own seed, as the main thread's
 * plan read it): the ScenarioError's text when it refuses, null when it starts. A thread already loads
 * the world's code for its seeds, so the sweep's main thread needs none of it (issue 32).
 */
export async function scenarioStartProblem(task: Omit<SeedTask, 'seed'>): Promise<string | null> {
  try {
    await checkScenarioStarts(scenarioOf(task, undefined));
    return null;
  } catch (error) {
    if (error instanceof ScenarioError) return error.message;
    throw error;
  }
}
