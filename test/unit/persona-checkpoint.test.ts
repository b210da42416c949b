import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PERSONAS } from '../../agents/registry.js';
import { CheckpointError, Field, type Json } from '../../src/kernel/checkpoint.js';
import { mutateJson, replacementJson } from '../helpers/json-mutate.js';
import { endState, optionsOf, restored, swapAll, twin, type Twin } from '../helpers/persona-twin.js';

/**
 * Issue 25, the personas' part of the state checkpoint: every built-in persona but `engine` (its own file)
 * and `uci` (not checkpointable) saves its private state as data, loads it into a fresh persona through the
 * closed schema, and finishes its deferred steps from data. Twin worlds prove it (test/helpers/persona-twin.ts).
 */
const SCENARIO = `
name: persona-checkpoint
seed: 25
start: 2026-03-01T00:00:00Z
duration: 1h
ruleset: { tournaments: { creatorMinGames: 0 }, api: { requestsPerDay: 100000 } }
population:
  - { persona: random, count: 2, heartbeat: { min: 20s, max: 40s }, airdrop: 1, options: { bountyShare: 1, bountyMaxSol: 0.05 } }
  - { persona: slow, count: 2, heartbeat: { min: 20s, max: 40s }, options: { lateChance: 0.2, maxThinkMs: 60000 } }
  - { persona: flaky, count: 1, heartbeat: { min: 20s, max: 40s }, options: { missRate: 0.2, skipChance: 0.2 } }
  - { persona: greedy, count: 1, heartbeat: { min: 20s, max: 40s } }
  - { persona: cautious, count: 1, heartbeat: { min: 20s, max: 40s } }
  - { persona: illegal, count: 1, heartbeat: { min: 20s, max: 40s }, options: { badChance: 0.8 } }
  - { persona: bounty-hunter, count: 1, heartbeat: { min: 20s, max: 40s }, airdrop: 1, options: { minEloGap: 0, maxGames: 10 } }
  - persona: organizer
    count: 1
    heartbeat: { min: 20s, max: 40s }
    airdrop: 5
    options: { sizes: [8], prizeSol: 0.1, entryFeeSol: 0.01, minGames: 0, maxGames: 3 }
  - { persona: entrant, count: 2, heartbeat: { min: 20s, max: 40s }, airdrop: 0.5, options: { joinChance: 0.5 } }
  - persona: poller
    count: 1
    heartbeat: { min: 20s, max: 40s }
    options: { reads: [tournaments, feed, notifications, unseen, leaderboard, activity] }
  - { persona: poster, count: 1, heartbeat: { min: 20s, max: 40s } }
  - { persona: replier, count: 2, heartbeat: { min: 20s, max: 40s }, options: { replyChance: 0.8, answerChance: 0.9 } }
  - { persona: spammer, count: 1, heartbeat: { min: 10s, max: 20s }, options: { burst: 3 } }
  - { persona: griefer, count: 1, heartbeat: { min: 20s, max: 40s } }
  - { persona: human, account: human, count: 1, heartbeat: { min: 30s, max: 60s } }
`;
const START_MS = Date.UTC(2026, 2, 1);
/** The swap comes at the first second from here at which slow and replier agents both have steps pending. */
const EARLIEST_SWAP_MS = START_MS + 10 * 60_000;
const RUN_ON_MS = 8 * 60_000;
const DEFERRING = ['slow', 'replier'];

/** Each persona's state at T, by persona name (the first agent of each), for the tamper and fuzz tests. */
const savedAtT = new Map<string, Json>();
let kept: Twin;
let swapped: Twin;
let pendingAtSwap: Map<string, number>;

/** Steps deferred and not yet resumed, by persona. */
function pendingOf(t: Twin): Map<string, number> {
  const pending = new Map<string, number>();
  for (const { agent, persona } of t.agents)
    pending.set(agent.persona, (pending.get(agent.persona) ?? 0) + persona.pending);
  return pending;
}

/** Runs both worlds on, a virtual second at a time, until the deferring personas have steps pending. */
async function toSwapMoment(worlds: Twin[]): Promise<number> {
  for (let at = EARLIEST_SWAP_MS; at < EARLIEST_SWAP_MS + 10 * 60_000; at += 1_000) {
    for (const t of worlds) await t.world.runUntil(at);
    const pending = pendingOf(worlds[0]!);
    if (DEFERRING.every((name) => (pending.get(name) ?? 0) > 0)) return at;
  }
  throw new Error('no moment with steps of every deferring persona pending');
}

beforeAll(async () => {
  [kept, swapped] = [await twin(SCENARIO), await twin(SCENARIO)];
  const swapMs = await toSwapMoment([kept, swapped]);
  pendingAtSwap = pendingOf(swapped);
  for (const { agent, persona } of swapped.agents)
    if (!savedAtT.has(agent.persona)) savedAtT.set(agent.persona, persona.inner.save!());
  swapAll(swapped);
  for (const t of [kept, swapped]) await t.world.runUntil(swapMs + RUN_ON_MS);
});

describe('personas restored from their saved state at T', () => {
  it('covers every built-in persona but engine and uci, with steps pending at T', () => {
    const covered = [...new Set(kept.agents.map((a) => a.agent.persona))].sort();
    expect(covered).toEqual([...PERSONAS.keys()].filter((p) => p !== 'engine' && p !== 'uci').sort());
    // The deferred steps in flight when the personas were replaced are what `resume` must finish from data.
    for (const name of DEFERRING) expect(pendingAtSwap.get(name), name).toBeGreaterThan(0);
  });

  it('run on exactly as the personas that were never replaced', () => {
    const [a, b] = [endState(kept), endState(swapped)];
    expect(b).toEqual(a);
    expect(a.invariants).toEqual(expect.arrayContaining([expect.arrayContaining([true])]));
    expect(kept.world.invariantResults().filter((r) => !r.passed)).toEqual([]);
  });

  it('had state worth saving: each differs at T from a fresh persona of its kind', () => {
    for (const [name, state] of savedAtT) {
      const { agent } = kept.agents.find((a) => a.agent.persona === name)!;
      const fresh = PERSONAS.get(name)!.create(optionsOf(kept.world, agent));
      expect(JSON.stringify(state), name).not.toBe(JSON.stringify(fresh.save!()));
    }
  });

  it('save nothing of their options', () => {
    const organizer = JSON.stringify(savedAtT.get('organizer'));
    for (const option of ['sizes', 'prizeSol', 'minGames', 'maxGames'])
      expect(organizer).not.toContain(option);
  });
});

/** States with the collections the run above leaves empty at T filled, in an order that is not sorted. */
const HAND_WRITTEN: Array<[string, Json]> = [
  [
    'poster',
    {
      posted: true,
      quotaUntilMs: 86_400_000,
      recaps: [
        ['game-b', 'post-b'],
        ['game-a', 'post-a'],
      ],
      verified: false,
      recapsPosted: 2,
      repeatedRecaps: 1,
      postBlockedUntilMs: 0,
    },
  ],
  ['bounty-hunter', { posted: false, accepted: [], passedOver: ['c-9', 'c-1'] }],
  ['human', { quotaUntilMs: 0, researched: false, following: ['zed', 'amy'] }],
];

describe('a hand-written state with every collection filled', () => {
  it('loads and saves back unchanged, in its order', () => {
    for (const [name, state] of HAND_WRITTEN) {
      const { agent } = kept.agents.find((a) => a.agent.persona === name)!;
      expect(restored(kept.world, agent, state).save!(), name).toEqual(state);
    }
  });
});

/** A copy of `state` with `edit` applied to its top-level record. */
function edited(state: Json, edit: (record: Record<string, Json>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(state)) as Record<string, Json>;
  edit(copy);
  return copy;
}

function loadError(name: string, data: unknown): unknown {
  const { agent } = kept.agents.find((a) => a.agent.persona === name)!;
  const fresh = PERSONAS.get(name)!.create(optionsOf(kept.world, agent));
  try {
    fresh.load!(Field.root(data));
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('a tampered persona state is refused, naming the field', () => {
  it('an unknown key', () => {
    for (const [name, state] of savedAtT) {
      const error = loadError(
        name,
        edited(state, (r) => (r['program'] = './evil.js')),
      );
      expect(error, name).toBeInstanceOf(CheckpointError);
      expect((error as Error).message, name).toBe('checkpoint.program: is not a field this version reads');
    }
  });

  it('a wrong type or a missing field, at every field', () => {
    for (const [name, state] of savedAtT)
      for (const key of Object.keys(state as object)) {
        for (const bad of [{ bad: true }, undefined]) {
          const error = loadError(
            name,
            edited(state, (r) => (bad === undefined ? delete r[key] : (r[key] = bad))),
          );
          expect(error, `${name}.${key}`).toBeInstanceOf(CheckpointError);
          expect((error as Error).message, `${name}.${key}`).toMatch(new RegExp(`^checkpoint\\.${key}\\b`));
        }
      }
  });

  it('a negative count or time, a repeated set member, an unknown read kind', () => {
    const cases: Array<[string, (r: Record<string, Json>) => void, string]> = [
      ['flaky', (r) => (r['skipped'] = -1), 'checkpoint.skipped: must be an integer in 0..'],
      [
        'poster',
        (r) => (r['postBlockedUntilMs'] = -5),
        'checkpoint.postBlockedUntilMs: must be an integer in 0..',
      ],
      [
        'slow',
        (r) => (r['thinking'] = ['g1', 'g1']),
        'checkpoint.thinking[1]: must be an item not listed before it',
      ],
      ['poller', (r) => (r['reads'] = [['mail', 1]]), 'checkpoint.reads[0][0]: must be one of tournaments'],
      ['poller', (r) => (r['reads'] = [['feed']]), 'checkpoint.reads[0]: must be a [key, value] pair'],
      ['illegal', (r) => (r['sent'] = { illegal: 1 }), 'checkpoint.sent.malformed: must be an integer'],
      [
        'replier',
        (r) => (r['known'] = Array.from({ length: 51 }, (_, i) => `a${i}`)),
        'checkpoint.known: must be at most 50',
      ],
      ['organizer', (r) => (r['current'] = 7), 'checkpoint.current: must be a string'],
    ];
    for (const [name, edit, message] of cases) {
      const error = loadError(name, edited(savedAtT.get(name)!, edit));
      expect(error, name).toBeInstanceOf(CheckpointError);
      expect((error as Error).message).toContain(message);
    }
  });

  it('a deferred step that is not one the persona defers', () => {
    const steps: Array<[string, unknown, string]> = [
      ['slow', { game_id: 'g' }, 'step: must be a move with move_san or move_uci'],
      ['slow', { game_id: 'g', move_uci: 'e2e4', then: 'x' }, 'step.then: is not a field this version reads'],
      ['flaky', [], 'step: must be a record'],
      ['replier', { postId: 'p' }, 'step.mention: must be a string'],
      ['replier', { postId: 'p', mention: 'm', parentReplyId: null }, 'step.parentReplyId: must be a string'],
    ];
    for (const [name, step, message] of steps) {
      const persona = PERSONAS.get(name)!.create({});
      expect(() => persona.checkStep!(Field.root(step, 'step')), name).toThrow(CheckpointError);
      expect(() => persona.checkStep!(Field.root(step, 'step'))).toThrow(message);
    }
  });
});

/** Paths into a state: a step per level, as `mutateJson` reads them (an extra key among a record's). */
const pathArb = fc.array(fc.nat(), { minLength: 0, maxLength: 5 });

describe('loading a mutated persona state', () => {
  it('either succeeds or throws a CheckpointError, nothing else', () => {
    const states = [...savedAtT, ...HAND_WRITTEN];
    fc.assert(
      fc.property(fc.nat(), pathArb, replacementJson, (which, path, by) => {
        const [name, state] = states[which % states.length]!;
        const error = loadError(name, mutateJson(state, path, by));
        if (error !== undefined) expect(error).toBeInstanceOf(CheckpointError);
      }),
      { numRuns: 250 },
    );
  });

  it('checking a mutated step either passes or throws a CheckpointError', () => {
    const steps: Array<[string, Json]> = [
      ['slow', { game_id: 'g1', move_san: 'e4', move_uci: 'e2e4' }],
      ['replier', { postId: 'p1', mention: 'someone', parentReplyId: 'r1' }],
    ];
    fc.assert(
      fc.property(fc.nat(), pathArb, replacementJson, (which, path, by) => {
        const [name, step] = steps[which % steps.length]!;
        const persona = PERSONAS.get(name)!.create({});
        try {
          persona.checkStep!(Field.root(mutateJson(step, path, by), 'step'));
        } catch (error) {
          expect(error).toBeInstanceOf(CheckpointError);
        }
      }),
      { numRuns: 200 },
    );
  });
});

const SLOW_ONLY = `
name: slow-only
seed: 26
start: 2026-03-01T00:00:00Z
duration: 1h
population:
  - { persona: random, count: 2, heartbeat: { min: 20s, max: 40s } }
  - { persona: slow, count: 2, heartbeat: { min: 10s, max: 20s }, options: { maxThinkMs: 60000 } }
`;

describe('a persona restored without its state', () => {
  it('is caught by the twin comparison: slow personas that forgot their thinks answer twice', async () => {
    const [a, b] = [await twin(SLOW_ONLY), await twin(SLOW_ONLY)];
    for (const t of [a, b]) await t.world.runUntil(EARLIEST_SWAP_MS);
    let forgotten = 0;
    for (const entry of b.agents) {
      const state = entry.persona.inner.save!() as Record<string, Json>;
      if (entry.agent.persona !== 'slow' || (state['thinking'] as Json[]).length === 0) continue;
      entry.persona.inner = restored(b.world, entry.agent, { ...state, thinking: [] });
      forgotten++;
    }
    expect(forgotten).toBeGreaterThan(0);
    for (const t of [a, b]) await t.world.runUntil(EARLIEST_SWAP_MS + RUN_ON_MS);
    expect(b.world.fingerprintSoFar()).not.toBe(a.world.fingerprintSoFar());
  });
});
