import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import {
  dailyQuotaUsedUp,
  QUOTA_POLICIES,
  QUOTA_WARNING_HEADER,
  quotaWarningText,
  type QuotaPolicy,
} from '../../src/rules/daily-quota.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';
import { parseScenario, ScenarioError } from '../../src/sim/scenario/scenario.js';
import { newWorld, type TestAgent, type TestWorld } from '../helpers/world.js';

/**
 * The daily quota's policy (`ruleset.api.quota`; docs/rules.md, Social layer, the daily quota rows):
 * `enforce` refuses past the limit with 429, `warn` answers and adds the x-quota-warning header, `off`
 * does neither. whoami is exempt under every policy and reports the policy and whether the day's figure
 * is used up.
 */
const DAY_MS = 86_400_000;

type Kind = 'read' | 'refused' | 'whoami';

interface KeyUsage {
  requests_today: number;
  requests_limit: number;
  quota_policy: string;
  limit_reached: boolean;
}

/** What a client sends for each kind: a counted read, a counted request the platform refuses (no such game), and whoami. */
function send(world: TestWorld, who: TestAgent, kind: Kind): ApiResponse {
  if (kind === 'read') return world.raw({ method: 'GET', path: '/api/chess/games/my-turn', key: who.apiKey });
  if (kind === 'whoami') return world.raw({ method: 'GET', path: '/api/whoami', key: who.apiKey });
  return world.raw({
    method: 'POST',
    path: '/api/chess/move',
    key: who.apiKey,
    body: { game_id: 'no-such-game', move_uci: 'e2e4' },
  });
}

function usage(world: TestWorld, who: TestAgent): KeyUsage {
  const response = send(world, who, 'whoami');
  expect(response.status).toBe(200);
  return (response.body as { api_key: KeyUsage }).api_key;
}

async function worldWith(
  quota: QuotaPolicy,
  requestsPerDay: number,
): Promise<{ world: TestWorld; alice: TestAgent }> {
  const world = newWorld({ startMs: Date.UTC(2026, 2, 1, 6), rules: { api: { requestsPerDay, quota } } });
  return { world, alice: await world.agent('alice', { post: false }) };
}

describe('the daily quota policy', () => {
  it('is enforce by default in the ruleset, so runs (and their golden fingerprints) refuse as before', () => {
    expect(DEFAULT_RULESET.api.quota).toBe('enforce');
  });

  it('is a ruleset field a scenario sets and the loader checks', () => {
    const scenario = (quota: string) =>
      `name: q\nseed: 1\nstart: 2026-01-01T00:00:00Z\nduration: 1h\nruleset: { api: { quota: ${quota} } }\npopulation: [{ persona: random, count: 2 }]\n`;
    expect(parseScenario(scenario('warn')).ruleset.api.quota).toBe('warn');
    expect(parseScenario(scenario('off')).ruleset.api).toMatchObject({ quota: 'off', requestsPerDay: 5000 });
    const problems = (text: string) => {
      try {
        parseScenario(text);
        return [];
      } catch (error) {
        return (error as ScenarioError).problems;
      }
    };
    expect(problems(scenario('loud'))).toEqual(['ruleset.api.quota: must be one of enforce, warn, off']);
    expect(problems(scenario('1'))).toEqual(['ruleset.api.quota: expected a string, got 1']);
  });

  it('refuses, warns or stays silent past the limit exactly as its policy says, for any mix of requests (property)', async () => {
    const arbitrary = fc.record({
      quota: fc.constantFrom(...QUOTA_POLICIES),
      limit: fc.integer({ min: 1, max: 8 }),
      kinds: fc.array(fc.constantFrom<Kind>('read', 'read', 'refused', 'whoami'), { maxLength: 24 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ quota, limit, kinds }) => {
        const { world, alice } = await worldWith(quota, limit);
        let counted = 0; // the model of requests_today: it stops at the limit under enforce only
        for (const kind of kinds) {
          const past = kind !== 'whoami' && counted >= limit;
          const response = send(world, alice, kind);
          const refusedForQuota = past && quota === 'enforce';
          expect(response.status === 429, `${kind} #${counted} under ${quota}`).toBe(refusedForQuota);
          if (refusedForQuota) expect(response.headers?.['retry-after']).toMatch(/^\d+$/);
          else if (counted < limit || quota !== 'enforce') counted++;
          expect(response.headers?.[QUOTA_WARNING_HEADER] !== undefined).toBe(past && quota === 'warn');
          if (kind === 'refused' && !refusedForQuota) expect(response.status).toBe(404); // the platform's own refusal still comes through
        }
        const seen = usage(world, alice); // itself a whoami, counted like the others
        expect(seen).toMatchObject({
          quota_policy: quota,
          requests_limit: limit,
          requests_today: quota === 'enforce' ? Math.min(counted + 1, limit) : counted + 1,
          limit_reached: counted + 1 >= limit,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('warns on the request after the limit, names the figure, and starts the count again at 00:00 UTC', async () => {
    const { world, alice } = await worldWith('warn', 3);
    const answers = Array.from({ length: 5 }, () => send(world, alice, 'read'));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.headers?.[QUOTA_WARNING_HEADER] !== undefined)).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(answers[3]!.headers?.[QUOTA_WARNING_HEADER]).toMatch(/^daily request quota of 3 passed; .*429/);
    expect(usage(world, alice)).toMatchObject({
      requests_today: 6, // five reads and this whoami: past the figure, still counting
      limit_reached: true,
      quota_policy: 'warn',
    });
    world.advanceTo(Math.ceil(world.platform.nowMs / DAY_MS) * DAY_MS);
    expect(send(world, alice, 'read').headers?.[QUOTA_WARNING_HEADER]).toBeUndefined();
    expect(usage(world, alice)).toMatchObject({ requests_today: 2, limit_reached: false });
  });
});

describe('whoami past the documented 5,000', () => {
  /** The official SDK's whoAmI(): GET /api/whoami with the bearer key; its api_key block. */
  const whoAmI = (world: TestWorld, who: TestAgent) =>
    (
      world.raw({ method: 'GET', path: '/api/whoami', key: who.apiKey }).body as {
        api_key: Record<string, unknown>;
      }
    ).api_key;

  it('keeps counting under warn, so an agent sees how far past the figure it runs; enforce still stops at 5,000', async () => {
    for (const quota of ['warn', 'enforce'] as const) {
      const { world, alice } = await worldWith(quota, 5000);
      const refused = Array.from({ length: 5100 }, () => send(world, alice, 'read')).filter(
        (answer) => answer.status === 429,
      ).length;
      expect(refused).toBe(quota === 'enforce' ? 100 : 0);
      expect(whoAmI(world, alice)).toMatchObject(
        quota === 'warn'
          ? { requests_today: 5101, requests_limit: 5000, total_requests: 5101, limit_reached: true }
          : { requests_today: 5000, requests_limit: 5000, total_requests: 5001, limit_reached: true },
      );
    }
  });
});

describe('the daily quota rule', () => {
  it('is used up once today’s count reaches the limit, and a count from an earlier day never is', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: DAY_MS - 1 }),
        fc.integer({ min: 0, max: 3 }),
        fc.nat(12),
        fc.integer({ min: 1, max: 10 }),
        (day, msIntoDay, daysLater, requestsToday, limit) => {
          const nowMs = (day + daysLater) * DAY_MS + msIntoDay;
          const usedUp = dailyQuotaUsedUp({ dayIndex: day, requestsToday }, nowMs, limit);
          expect(usedUp).toBe(daysLater === 0 && requestsToday >= limit);
        },
      ),
      { numRuns: 300 },
    );
    expect(dailyQuotaUsedUp({ dayIndex: 0, requestsToday: 5000 }, DAY_MS - 1, 5000)).toBe(true);
    expect(dailyQuotaUsedUp({ dayIndex: 0, requestsToday: 5000 }, DAY_MS, 5000)).toBe(false);
  });

  it('warns in one ASCII line that names the figure', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (limit) => {
        const text = quotaWarningText(limit);
        expect(text.startsWith(`daily request quota of ${limit} passed; `)).toBe(true);
        expect(text).toMatch(/^[\x20-\x7e]+$/);
      }),
    );
  });
});
