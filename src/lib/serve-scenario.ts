import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { mergeOverrides } from '../compare/rulesets.js';
import { toIso } from '../kernel/clock.js';
import type { QuotaPolicy } from '../rules/daily-quota.js';
import { isRecord } from '../sim/scenario/scenario-fields.js';
import {
  loadScenarioFileWithSource,
  parseScenarioWithSource,
  type ScenarioWithSource,
} from '../sim/scenario/scenario.js';

/**
 * The scenario a live twin runs, shared by `serve` (src/cli/serve.ts) and the library's `startTwin`
 * (twin.ts): a scenario file under the twin's defaults, with the caller's choices over both.
 */

export const RESEARCH_PRESETS = ['strict', 'spec'] as const;
export type ResearchPreset = (typeof RESEARCH_PRESETS)[number];

/**
 * What a twin assumes where neither its caller nor the scenario say (docs/rules.md: the quota rows under
 * Social layer, Research phase additions): an agent that passes here must pass the real service, so its
 * onboarding is the real one (`strict`); and the daily quota warns rather than refuses, since the figure is
 * documented but its enforcement inferred, and a lock-out of up to a day would lose an agent every game on time.
 */
export const SERVE_RULESET = { research: 'strict', api: { quota: 'warn' } } as const;

/** The background population of `serve` and of `startTwin` (scenarios/serve.yaml, shipped with the package). */
export const DEFAULT_SERVE_SCENARIO = fileURLToPath(
  // Built, this module is dist/src/lib/serve-scenario.js; run from source (vitest), src/lib/serve-scenario.ts.
  new URL(`${import.meta.url.endsWith('.ts') ? '../..' : '../../..'}/scenarios/serve.yaml`, import.meta.url),
);

/** What a caller may choose over the scenario: its seed, start, quota policy and onboarding. */
export interface ServeChoices {
  seed?: string | undefined;
  start?: string | undefined;
  quota?: QuotaPolicy | undefined;
  research?: ResearchPreset | undefined;
}

/**
 * The scenario `serve` runs: the file's own record under serve's defaults (a start at `wallNowMs` to the
 * second, `SERVE_RULESET`), with the command line's choices over both. Every choice is written into the
 * record the world keeps, so a snapshot carries it and a restore rebuilds the same world. The loader checks
 * the result as it checks any scenario file (a bad `--start` is reported as `start:`).
 */
export function loadServeScenario(
  path: string,
  choices: ServeChoices,
  wallNowMs: number,
): ScenarioWithSource {
  const own = readMapping(path);
  if (own === undefined) return loadScenarioFileWithSource(path, choices.seed); // the loader explains an unreadable or malformed file
  return serveScenarioFromRecord(own, path, choices, wholeSecondIso(wallNowMs));
}

/**
 * `loadServeScenario` for a scenario already read (a file's mapping, or a record a test wrote): `source`
 * names it in the loader's messages and, for a path, anchors the files it names. `defaultStart` is the start
 * used when neither the record nor the choices give one.
 */
export function serveScenarioFromRecord(
  own: Record<string, unknown>,
  source: string,
  choices: ServeChoices,
  defaultStart: string,
): ScenarioWithSource {
  const defaults = { start: defaultStart, ruleset: SERVE_RULESET };
  const record = mergeOverrides(
    mergeOverrides(defaults, ownWithoutEmptyRuleset(own)),
    chosenOverrides(choices),
  );
  return parseScenarioWithSource(JSON.stringify(record), source, choices.seed, dirname(resolve(source)));
}

/** A scenario file's top-level mapping, or undefined when it cannot be read as one (the loader says why). */
export function readMapping(path: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = parseYaml(readFileSync(path, 'utf8'));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `ruleset:` with nothing under it is no override (as the loader reads it), so serve's defaults still apply. */
function ownWithoutEmptyRuleset(own: Record<string, unknown>): Record<string, unknown> {
  if (own['ruleset'] !== null) return own;
  const copy = Object.assign({}, own);
  delete copy['ruleset'];
  return copy;
}

function chosenOverrides(choices: ServeChoices): Record<string, unknown> {
  const ruleset: Record<string, unknown> = {};
  if (choices.quota !== undefined) ruleset['api'] = { quota: choices.quota };
  if (choices.research !== undefined) ruleset['research'] = choices.research;
  const overrides: Record<string, unknown> = { ruleset };
  if (choices.start !== undefined) overrides['start'] = choices.start;
  return overrides;
}

/** `2026-05-17T13:45:12Z`: the instant truncated to the second, written as scenario files write a start. */
export function wholeSecondIso(ms: number): string {
  return toIso(Math.floor(ms / 1000) * 1000).replace('.000Z', 'Z');
}
