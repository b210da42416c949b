import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { mergeOverrides, RulesetFileError, rulesetSides } from '../../src/compare/rulesets.js';
import { loadScenarioFileWithSource, parseScenario } from '../../src/sim/scenario/scenario.js';
import { FIDE_K_FACTOR } from '../../src/rules/ruleset.js';
import { tempDir } from './helpers.js';

/** A scenario with its own ruleset, so that merging over it shows. */
function scenarioWithRuleset(dir: string): string {
  const file = join(dir, 'ruled.yaml');
  writeFileSync(
    file,
    [
      'name: ruled',
      'seed: 3',
      'start: 2026-01-01T00:00:00Z',
      'duration: 1h',
      'ruleset:',
      '  api: { requestsPerDay: 100000 }',
      '  elo: { initial: 1500 }',
      '  research: strict',
      'population:',
      '  - persona: random',
      '    count: 2',
      '    heartbeat: { min: 30s, max: 60s }',
    ].join('\n'),
  );
  return file;
}

function rulesetFile(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('ruleset files', () => {
  it('deep-merges mappings; a scalar, a list or a policy with mode replaces what it overrides', () => {
    const base = {
      elo: { initial: 1500, kFactor: { mode: 'fixed', k: 40 } },
      research: 'strict',
      tournaments: { sizes: [8, 16] },
    };
    const over = {
      elo: { kFactor: { mode: 'fide', provisionalGames: 30, masterThreshold: 2400 } },
      research: { minLikes: 2 },
      tournaments: { sizes: [4] },
    };
    expect(mergeOverrides(base, over)).toEqual({
      elo: { initial: 1500, kFactor: { mode: 'fide', provisionalGames: 30, masterThreshold: 2400 } },
      research: { minLikes: 2 },
      tournaments: { sizes: [4] },
    });
    expect(mergeOverrides({ a: { b: 1, c: 2 } }, { a: { c: 3 }, d: 4 })).toEqual({ a: { b: 1, c: 3 }, d: 4 });
  });

  it("builds each side from the scenario's source record: default unchanged, a file merged over the scenario's ruleset", () => {
    const dir = tempDir();
    const scenario = scenarioWithRuleset(dir);
    const fide = rulesetFile(
      dir,
      'fide-k.yaml',
      'elo: { kFactor: { mode: fide, provisionalGames: 30, masterThreshold: 2400 } }\n',
    );
    const { scenario: original, source } = loadScenarioFileWithSource(scenario);
    const [a, b] = rulesetSides(scenario, source, ['default', fide]);
    expect([a!.name, b!.name]).toEqual(['default', 'fide-k']);
    expect(a!.overrides).toBeNull();
    expect(parseScenario(a!.scenarioText, scenario)).toEqual(original);
    const merged = parseScenario(b!.scenarioText, scenario);
    expect(merged.ruleset.elo).toEqual({ initial: 1500, kFactor: FIDE_K_FACTOR });
    expect(merged.ruleset.api.requestsPerDay).toBe(100000);
    expect(merged.ruleset.research).toEqual(original.ruleset.research);
    expect((parseYaml(b!.scenarioText) as { ruleset: unknown }).ruleset).toEqual({
      api: { requestsPerDay: 100000 },
      elo: { initial: 1500, kFactor: { mode: 'fide', provisionalGames: 30, masterThreshold: 2400 } },
      research: 'strict',
    });
  });

  it('names two sides with the same file name apart', () => {
    const dir = tempDir();
    const scenario = scenarioWithRuleset(dir);
    const file = rulesetFile(dir, 'same.yaml', 'elo: { initial: 1400 }\n');
    const { source } = loadScenarioFileWithSource(scenario);
    expect(rulesetSides(scenario, source, [file, file]).map((s) => s.name)).toEqual(['same#1', 'same#2']);
  });

  it('refuses a bad ruleset file with one line naming the file and the problem', () => {
    const dir = tempDir();
    const scenario = scenarioWithRuleset(dir);
    const { source } = loadScenarioFileWithSource(scenario);
    const cases: Array<[string, string, RegExp]> = [
      [
        'unknown.yaml',
        'elo: { kFator: 20 }\n',
        /^--ruleset .*unknown\.yaml: ruleset\.elo\.kFator: unknown rule$/,
      ],
      [
        'value.yaml',
        'game: { moveLimitPlies: -5 }\n',
        /^--ruleset .*value\.yaml: ruleset\.game\.moveLimitPlies: must be a positive integer$/,
      ],
      [
        'mode.yaml',
        'elo: { kFactor: { mode: glicko } }\n',
        /^--ruleset .*mode\.yaml: ruleset\.elo\.kFactor\.mode: must be "fixed" or "fide"$/,
      ],
      ['list.yaml', '- elo\n', /^--ruleset .*list\.yaml: must be a YAML mapping of ruleset overrides/],
      ['broken.yaml', 'elo: { initial: [\n', /^--ruleset .*broken\.yaml: not valid YAML: /],
    ];
    for (const [name, text, message] of cases) {
      const file = rulesetFile(dir, name, text);
      expect(() => rulesetSides(scenario, source, ['default', file]), name).toThrow(RulesetFileError);
      expect(() => rulesetSides(scenario, source, ['default', file]), name).toThrow(message);
    }
    expect(() => rulesetSides(scenario, source, ['default', join(dir, 'missing.yaml')])).toThrow(
      /^--ruleset .*missing\.yaml: cannot read the file: /,
    );
  });
});
