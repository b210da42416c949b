import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FaultInjector, routeGroupsOf } from '../../src/faults/decide.js';
import { FaultProfileError, parseFaultProfile } from '../../src/faults/profile.js';
import { parseScenario, ScenarioError } from '../../src/sim/scenario/scenario.js';
import { restorableScenarioProblem } from '../../src/sim/scenario/restorable-scenario.js';

function problems(raw: unknown): string[] {
  try {
    parseFaultProfile(raw, 'test');
    return [];
  } catch (error) {
    if (error instanceof FaultProfileError) return error.problems;
    throw error;
  }
}

describe('fault profiles (src/faults/profile.ts)', () => {
  it('names each bad field in one line', () => {
    expect(problems({ rules: [{ kind: 'explode' }] })).toEqual([
      'faults.rules[0].kind: must be one of latency, error, reset, hang, malformed, burst429, outage, stale, lost',
    ]);
    expect(problems({ rules: [{ kind: 'error', statuses: [418], rate: 2 }] })).toEqual([
      'faults.rules[0].rate: must be a number from 0 to 1 (the chance per request)',
      'faults.rules[0].statuses: must be a non-empty list of 500, 502, 503, 504',
    ]);
    expect(problems({ rules: [{ kind: 'outage', scope: { from: '1h' } }] })).toEqual([
      'faults.rules[0].scope: an outage needs a window (from and until)',
    ]);
    expect(problems({ rules: [{ kind: 'latency', median: 100, p99: '1s' }] })).toEqual([
      'faults.rules[0].median: must be a duration with a unit, such as 250ms, 5s, 10m or 2h',
    ]);
    expect(problems({ rules: [{ kind: 'lost', scope: { routes: ['moves'] }, command: 'rm' }] })).toEqual([
      'faults.rules[0].command: unknown field (expected one of kind, scope, rate)',
      'faults.rules[0].scope.routes: moves is not a route group (expected identity, agents, games, challenges, leaderboard, tournaments, social, feed, search, humans, system, move, my-turn)',
    ]);
    expect(problems({ rules: [], program: '/bin/sh' })).toEqual([
      'faults.program: unknown field (expected one of name, description, rules)',
    ]);
  });

  it('a scenario reports a bad profile with the other problems; a snapshot may carry a profile as data', () => {
    const text = (faults: string) =>
      `name: f\nseed: 1\nstart: 2026-01-01T00:00:00Z\nduration: 1h\npopulation: [{ persona: random, count: 2 }]\nfaults: ${faults}\n`;
    expect(() => parseScenario(text('{ rules: [{ kind: hang, timeout: 30 }] }'))).toThrow(ScenarioError);
    expect(
      parseScenario(text('{ name: light, rules: [{ kind: hang, timeout: 30s }] }')).faults?.rules,
    ).toEqual([{ kind: 'hang', timeoutMs: 30_000, scope: {}, rate: 1 }]);
    const rules = [
      { kind: 'error', rate: 0.01, statuses: [502], scope: { routes: ['move'], agents: ['fetch_0001'] } },
    ];
    expect(
      restorableScenarioProblem({ faults: { name: 'light', description: 'A model.', rules } }),
    ).toBeUndefined();
    expect(
      restorableScenarioProblem({ faults: { rules: [{ kind: 'error', body: '/etc/passwd' }] } }),
    ).toMatch(/^scenario\.faults\.rules\[0\]\.body: must be a short word/);
    expect(restorableScenarioProblem({ faults: { module: 'x.mjs' } })).toMatch(
      /^scenario\.faults\.module: not a field/,
    );
  });

  it('routes map to their groups, move and my-turn included; control routes are never faulted', () => {
    expect(routeGroupsOf('POST', '/api/chess/move')).toEqual(['games', 'move']);
    expect(routeGroupsOf('GET', '/api/chess/games/my-turn?limit=5')).toEqual(['games', 'my-turn']);
    expect(routeGroupsOf('GET', '/chess/games/abc')).toEqual(['games']);
    expect(routeGroupsOf('POST', '/api/social/post')).toEqual(['social']);
    expect(routeGroupsOf('GET', '/_sim/invariants')).toBeUndefined();
  });

  it('the same seed and the same requests give the same faults; one agent never shifts another', () => {
    const profile = parseFaultProfile(
      {
        rules: [
          { kind: 'latency', median: '100ms', p99: '2s' },
          { kind: 'error', rate: 0.3 },
          { kind: 'lost', rate: 0.2 },
        ],
      },
      'test',
    );
    const outcomes = (seed: string, agents: string[]) => {
      const injector = new FaultInjector(profile, seed, 0);
      return agents.map((agent, i) =>
        JSON.stringify(injector.decide({ agent, method: 'POST', path: '/api/chess/move', nowMs: i * 1000 })),
      );
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 40 }), (agents) => {
        expect(outcomes('7', agents)).toEqual(outcomes('7', agents));
        // a's faults are the same whether or not b and c sent requests in between
        const onlyA = outcomes(
          '7',
          agents.filter((x) => x === 'a'),
        );
        const withOthers = outcomes('7', agents).filter((_, i) => agents[i] === 'a');
        expect(withOthers.map((d) => JSON.parse(d).outcome)).toEqual(onlyA.map((d) => JSON.parse(d).outcome));
      }),
    );
  });
});
