import { readFileSync } from 'node:fs';
import { basename, dirname, extname, resolve } from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { parseScenario, ScenarioError } from '../sim/scenario/scenario.js';

/**
 * The two sides of `compare <scenario> --ruleset a.yaml --ruleset b.yaml`. A ruleset file is a YAML mapping
 * of ruleset overrides, the same shape as a scenario's `ruleset:`, deep-merged over the scenario's own
 * `ruleset:`; `default` names the scenario's ruleset unchanged. Each side is a whole scenario text, built
 * from the scenario's source record (YAML), checked by the scenario loader exactly as a file is, and run by
 * the sweep's seed runner as `run` would run it.
 *
 * Decisions (docs/rules.md, Simulation):
 * - Mappings merge key by key; anything else replaces what it overrides (a number, a list, a preset name
 *   such as `research: strict`), and so does a mapping with `mode` (a K-factor policy), as the ruleset
 *   loader itself replaces a policy whole.
 * - A side is named by its file name without the extension (`fide-k` for rules/fide-k.yaml); two sides
 *   with the same name become `name#1` and `name#2`.
 */
export const DEFAULT_SIDE = 'default';

export interface RulesetSide {
  name: string;
  /** As given: a path, or `default`. */
  file: string;
  /** The file's overrides (null for `default`). */
  overrides: Record<string, unknown> | null;
  /** The scenario with the merged ruleset, as the runs read it. */
  scenarioText: string;
}

export class RulesetFileError extends Error {
  override readonly name = 'RulesetFileError';
}

/** Both sides, each checked by the scenario loader; throws RulesetFileError with one line naming the file. */
export function rulesetSides(
  scenarioFile: string,
  source: Record<string, unknown>,
  files: readonly string[],
): RulesetSide[] {
  const sides = files.map((file) => rulesetSide(scenarioFile, source, file));
  if (sides.length === 2 && sides[0]!.name === sides[1]!.name)
    return sides.map((side, i) => ({ ...side, name: `${side.name}#${i + 1}` }));
  return sides;
}

function rulesetSide(scenarioFile: string, source: Record<string, unknown>, file: string): RulesetSide {
  const overrides = file === DEFAULT_SIDE ? null : readOverrides(file);
  const merged = overrides === null ? source['ruleset'] : mergeOverrides(source['ruleset'] ?? {}, overrides);
  const record = merged === undefined ? source : { ...source, ruleset: merged };
  const scenarioText = stringify(record);
  checkSide(scenarioText, scenarioFile, file);
  const name = file === DEFAULT_SIDE ? DEFAULT_SIDE : basename(file, extname(file));
  return { name, file, overrides, scenarioText };
}

function readOverrides(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RulesetFileError(`--ruleset ${file}: cannot read the file: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new RulesetFileError(
      `--ruleset ${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  if (!isMapping(parsed))
    throw new RulesetFileError(
      `--ruleset ${file}: must be a YAML mapping of ruleset overrides, e.g. elo: { kFactor: { mode: fide, provisionalGames: 30, masterThreshold: 2400 } }`,
    );
  return JSON.parse(JSON.stringify(parsed)) as Record<string, unknown>;
}

/** `over` deep-merged into `base`: mappings key by key; anything else, and a policy with `mode`, replaces. */
export function mergeOverrides(base: unknown, over: unknown): unknown {
  if (!isMapping(base) || !isMapping(over) || 'mode' in over) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = key in base ? mergeOverrides(base[key], value) : value;
  return out;
}

/** The loader's problems with the merged scenario, on one line naming the ruleset file. */
function checkSide(text: string, scenarioFile: string, file: string): void {
  try {
    parseScenario(text, scenarioFile, undefined, dirname(resolve(scenarioFile)));
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    throw new RulesetFileError(`--ruleset ${file}: ${error.problems.join('; ')}`);
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
