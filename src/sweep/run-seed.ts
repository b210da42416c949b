import { dirname, resolve } from 'node:path';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runScenario } from '../sim/world.js';
import { buildReport } from '../report/report.js';
import { gamesToPgn, type PgnLabels } from '../report/pgn.js';
import {
  completedSeed,
  errorMessage,
  unfinishedSeed,
  type SeedResult,
  type SeedTask,
} from './seed-result.js';

/**
 * A task that also asks for the run's games as PGN, labelled so (`compare --agent`'s games.pgn); sweeps
 * never ask, so their results carry no `pgn`.
 */
export interface PgnSeedTask extends SeedTask {
  pgn?: { event: string } & PgnLabels;
}

export interface PgnSeedResult extends SeedResult {
  pgn?: string;
}

/**
 * One seed of a sweep, exactly as `run <scenario> --seed N` runs it: the scenario text parsed as
 * `loadScenarioFile` parses the file (same source name, same directory for agent modules), the seed given
 * as the override, and the report built by the same model. A run that throws is that seed's crash, never
 * the sweep's.
 */
export async function runSeed(task: PgnSeedTask): Promise<PgnSeedResult> {
  try {
    const scenario = parseScenario(
      task.scenarioText,
      task.scenarioFile,
      String(task.seed),
      dirname(resolve(task.scenarioFile)),
    );
    const outcome = await runScenario(scenario);
    const result: PgnSeedResult = completedSeed(task.seed, buildReport(scenario, outcome));
    if (task.pgn) result.pgn = gamesToPgn(outcome.platform, task.pgn.event, task.pgn);
    return result;
  } catch (error) {
    return unfinishedSeed(task.seed, 'crashed', errorMessage(error));
  }
}
