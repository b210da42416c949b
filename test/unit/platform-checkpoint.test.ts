import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PlatformClient } from '../../src/client/client.js';
import { InProcessTransport } from '../../src/client/in-process.js';
import { WireCheckingTransport } from '../../src/client/wire-check.js';
import { canonicalJson } from '../../src/kernel/canonical.js';
import { CheckpointError, Field, runToEnd, type Json } from '../../src/kernel/checkpoint.js';
import { solToLamports } from '../../src/kernel/money.js';
import { loadPlatform, savePlatform } from '../../src/platform/checkpoint.js';
import { airdrop } from '../../src/platform/money/transfers.js';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import { STATE_TABLES } from '../../src/platform/state.js';
import { parseScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { wirePlatform, type WiredPlatform } from '../../src/sim/wiring.js';
import { World } from '../../src/sim/world.js';
import { mutateJson, replacementJson } from '../helpers/json-mutate.js';

/**
 * A small world: games in play and over (with a slow player's deadlines), bounty escrows and transfers,
 * posts, replies, likes, follows, votes, a human. The requests after the restore add a bounty game in flight
 * and an 8-player tournament, and restore again in the middle of both.
 */
const SCENARIO = `
name: platform-checkpoint
seed: 2511
start: 2026-03-01T00:00:00Z
duration: 2h
ruleset:
  api: { requestsPerDay: 100000 }
  tournaments: { creatorMinGames: 0 }
population:
  - persona: random
    count: 4
    heartbeat: { min: 30s, max: 60s }
    airdrop: 1
    options: { maxGames: 2, bountyShare: 0.5, bountyMinSol: 0.01, bountyMaxSol: 0.05 }
  - persona: slow
    count: 2
    heartbeat: { min: 30s, max: 90s }
    options: { lateChance: 0.2, maxGames: 1 }
  - persona: poster
    count: 1
    heartbeat: { min: 60s, max: 120s }
  - persona: replier
    count: 1
    heartbeat: { min: 60s, max: 120s }
  - persona: human
    account: human
    count: 1
    heartbeat: { min: 60s, max: 120s }
`;
const SAVE_AT_MS = 30 * 60_000;
const MINUTE = 60_000;

function freshPlatform(scenario: Scenario): WiredPlatform {
  return wirePlatform({
    seed: scenario.seed,
    startMs: scenario.startMs,
    ruleset: scenario.ruleset,
    network: scenario.network,
    checkWire: 'throw',
  });
}

function restore(scenario: Scenario, saved: Json): WiredPlatform {
  const wired = freshPlatform(scenario);
  runToEnd(loadPlatform(wired.platform, Field.root(JSON.parse(JSON.stringify(saved)))));
  return wired;
}

const fingerprint = (w: WiredPlatform) => stateFingerprint(w.platform, { includeUsage: true });

/** What a request answered: its body, or its error's code and status (both twins must agree on either). */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await call() };
  } catch (error) {
    if (error instanceof ApiError) return { error: error.status, body: error.body };
    throw error;
  }
}

/** Runs the same requests on the world's platform and on the restored one, expecting the same answers. */
class Twins {
  constructor(
    readonly scenario: Scenario,
    readonly pair: [WiredPlatform, WiredPlatform],
  ) {}

  /** The restored twin saved and restored again, here and now (its save must read back unchanged). */
  reload(): void {
    const saved = savePlatform(this.pair[1].platform);
    this.pair[1] = restore(this.scenario, saved);
    expect(canonicalJson(savePlatform(this.pair[1].platform))).toBe(canonicalJson(saved));
    expect(fingerprint(this.pair[1])).toBe(fingerprint(this.pair[0]));
  }

  async both<T>(call: (wired: WiredPlatform, client: (key?: string) => PlatformClient) => Promise<T>) {
    const [a, b] = await Promise.all(this.pair.map((w) => outcome(() => call(w, (key) => w.client(key)))));
    expect(b).toEqual(a);
    expect(a).toHaveProperty('ok'); // every request here is one that succeeds: an error on both would prove little
    return (a as { ok: T }).ok;
  }

  advanceBy(ms: number): void {
    for (const w of this.pair) w.platform.advanceTo(w.platform.nowMs + ms);
    expect(fingerprint(this.pair[1])).toBe(fingerprint(this.pair[0]));
  }

  airdrop(handle: string, sol: number): void {
    for (const w of this.pair) {
      const id = w.platform.state.agentIdByHandle.get(handle)!;
      airdrop(w.platform, w.platform.state.agents.get(id)!.walletAddress, solToLamports(sol)!);
    }
  }
}

describe('platform checkpoint', () => {
  let scenario: Scenario;
  let world: World;
  let saved: Json;

  beforeAll(async () => {
    scenario = parseScenario(SCENARIO);
    world = new World(scenario);
    await world.runUntil(scenario.startMs + SAVE_AT_MS);
    saved = savePlatform(world.platform);
  }, 60_000);

  it('the scenario left every kind of record in the state, and pending timers', () => {
    const s = world.platform.state;
    const games = [...s.games.values()];
    expect(games.some((g) => g.status === 'active')).toBe(true);
    expect(games.some((g) => g.status === 'completed')).toBe(true);
    expect(s.escrows.size).toBeGreaterThan(0);
    expect(s.replies.size).toBeGreaterThan(0);
    expect(s.humans.size).toBe(1);
    expect(world.platform.timers.size).toBeGreaterThan(0);
  });

  it("restores a state whose fingerprint and save are the saved one's, and saves its tables in the fingerprint's form", () => {
    const restored = restore(scenario, saved);
    expect(fingerprint(restored)).toBe(stateFingerprint(world.platform, { includeUsage: true }));
    expect(canonicalJson(savePlatform(restored.platform))).toBe(canonicalJson(saved));
    const fingerprintTables = (JSON.parse(fingerprint(restored)) as { tables: Record<string, Json> }).tables;
    const savedTables = (saved as { tables: Record<string, Json> }).tables;
    for (const name of Object.keys(STATE_TABLES).filter((n) => n !== 'activity'))
      expect(canonicalJson(savedTables[name]), name).toBe(canonicalJson(fingerprintTables[name]!));
  });

  it('answers the same further requests as the platform it was saved from, timers and a tournament round included', async () => {
    const twins = new Twins(scenario, [wrap(world), restore(scenario, saved)]);
    // New agents draw the same ids and keys from the restored id streams.
    const alice = await twins.both((_w, client) => client().register({ handle: 'cp_alice' }));
    const bob = await twins.both((_w, client) => client().register({ handle: 'cp_bob' }));
    const ak = alice.api_key;
    const bk = bob.api_key;
    const post = await twins.both((_w, c) => c(ak).post('checkpoint twins say hello'));
    await twins.both((_w, c) => c(bk).post('and so do I'));
    await twins.both((_w, c) => c(bk).like({ post_id: post.post.post_id }));
    await twins.both((_w, c) => c(bk).reply({ post_id: post.post.post_id, content: 'hi @cp_alice' }));
    await twins.both((_w, c) => c(ak).follow({ target_handle: 'cp_bob' }));
    // Bob's rows name Alice by the handle she had then: the restored twin must keep her earlier handle.
    await twins.both((_w, c) => c(ak).updateProfile({ handle: 'cp_alicia' }));
    twins.airdrop('cp_alicia', 1);
    twins.airdrop('cp_bob', 1);
    const challenge = await twins.both((_w, c) =>
      c(ak).createChallenge({ opponent_handle: 'cp_bob', bounty_sol: 0.1 }),
    );
    const accepted = await twins.both((_w, c) => c(bk).acceptChallenge(challenge.challenge.challenge_id));
    const gameId = accepted.game.game_id;
    twins.reload(); // both stakes in flight
    twins.advanceBy(5_000); // the stakes land
    await twins.both((_w, c) => c(ak).move({ game_id: gameId, move_san: 'e4' }));
    twins.reload(); // a game in play
    await twins.both((_w, c) => c(bk).move({ game_id: gameId, move_san: 'e5' }));
    twins.advanceBy(6 * MINUTE); // White's deadline passes: the game ends on time and the pot is paid
    await twins.both((_w, c) => c(ak).game(gameId));
    await tournamentRound(twins, ak);
    for (const read of READS) await twins.both((_w, c) => read(c(ak)));
    twins.advanceBy(3 * 60 * MINUTE); // every timer the world left fires on both
    await twins.both((_w, c) => c(bk).activity({ limit: 50 }));
  }, 30_000);

  it('keeps the ledger journal where the platform keeps one, and refuses it where it does not', async () => {
    const options = { seed: 'journal', startMs: scenario.startMs, ledgerJournal: true };
    const kept = wirePlatform(options);
    const agent = await kept.client().register({ handle: 'cp_journal' });
    const wallet = kept.platform.state.agents.get(agent.agent_id)!.walletAddress;
    airdrop(kept.platform, wallet, solToLamports(1)!);
    const journaled = savePlatform(kept.platform);
    const copy = wirePlatform(options);
    runToEnd(loadPlatform(copy.platform, Field.root(journaled)));
    expect(copy.platform.ledger.journal).toEqual(kept.platform.ledger.journal);
    expect(copy.platform.ledger.journal.length).toBeGreaterThan(2);
    const plain = wirePlatform({ ...options, ledgerJournal: false });
    expect(() => runToEnd(loadPlatform(plain.platform, Field.root(journaled)))).toThrow(
      /^checkpoint\.ledger\.journal: must be empty: this platform keeps no ledger journal$/,
    );
  });

  it('refuses a tampered checkpoint with a CheckpointError naming the field', () => {
    const cases: Array<[(s: Record<string, any>) => void, RegExp]> = [
      [(s) => (s['extra'] = 1), /^checkpoint\.extra: is not a field/],
      [
        (s) => (s['tables']['agents'][0]['elo'] = 'high'),
        /^checkpoint\.tables\.agents\[0\]\.elo: must be a finite number/,
      ],
      [
        (s) => (s['tables']['agents'][0]['wins'] = -1),
        /^checkpoint\.tables\.agents\[0\]\.wins: must be an integer/,
      ],
      [(s) => (s['tables']['games'][0]['moves'] += 'x'), /^checkpoint\.tables\.games\[0\]/],
      [(s) => (s['tables']['games'][0]['plies'] += 1), /^checkpoint\.tables\.games\[0\]/],
      [
        (s) => (s['timers']['events'][0]['dueMs'] = 0),
        /^checkpoint\.timers\.events\[0\]\.dueMs: must be an integer/,
      ],
      [(s) => (s['counters']['moveIds']['drawn'] += 1000), /^checkpoint\.counters: /],
      [
        (s) => (s['ledger']['accounts'][0]['address'] = 'x'),
        /^checkpoint\.ledger\.accounts\[0\]: .*another seed/,
      ],
      [
        (s) => (s['tables']['activity'][0][1][0][0] = 'danced'),
        /^checkpoint\.tables\.activity\[0\]\[1\]\[0\]\[0\]: must be one of/,
      ],
      [
        (s) => (s['tables']['activity'][0][1][0][1] = 10 ** 9),
        /^checkpoint\.tables\.activity\[0\]\[1\]\[0\]\[1\]: must be an integer/,
      ],
      [
        (s) => s['tables']['likes'].push(s['tables']['likes'][0]),
        /^checkpoint\.tables\.likes\[\d+\]: must be an item not listed before/,
      ],
      [(s) => (s['nowMs'] = 1), /^checkpoint\.nowMs: must be an integer/],
    ];
    for (const [tamper, message] of cases) {
      const copy = JSON.parse(JSON.stringify(saved)) as Record<string, any>;
      tamper(copy);
      expect(() => runToEnd(loadPlatform(freshPlatform(scenario).platform, Field.root(copy)))).toThrow(
        message,
      );
    }
  });

  it('throws nothing but a CheckpointError for a checkpoint changed at a random spot', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 7 }),
        replacementJson,
        (path, replacement) => {
          const mutated = mutateJson(saved, path, replacement);
          try {
            runToEnd(loadPlatform(freshPlatform(scenario).platform, Field.root(mutated)));
          } catch (error) {
            if (!(error instanceof CheckpointError)) throw error;
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** The world's own platform behind its route table, for requests beside the world (which runs no further). */
function wrap(world: World): WiredPlatform {
  const transport = new WireCheckingTransport(new InProcessTransport(world.api), 'throw');
  return {
    platform: world.platform,
    api: world.api,
    transport,
    wireFaults: [],
    client: (key) => new PlatformClient(transport, key),
  };
}

/** Eight new agents fill an 8-player cup; round one starts, and its games end on time. */
async function tournamentRound(twins: Twins, creatorKey: string): Promise<void> {
  const keys: string[] = [];
  for (let i = 1; i <= 8; i++) {
    const agent = await twins.both((_w, c) => c().register({ handle: `cp_entrant${i}` }));
    await twins.both((_w, c) => c(agent.api_key).post(`entrant ${i} ready`));
    keys.push(agent.api_key);
  }
  const created = await twins.both((_w, c) =>
    c(creatorKey).createTournament({ name: 'Twin Cup', max_participants: 8 }),
  );
  const id = created.tournament.tournament_id;
  for (const key of keys) await twins.both((_w, c) => c(key).joinTournament(id));
  twins.reload(); // full, its round one timer pending
  twins.advanceBy(6 * MINUTE); // seeded and started: round one's games are made
  await twins.both((_w, c) => c().tournament(id));
  twins.reload(); // round one in play
  twins.advanceBy(6 * MINUTE); // nobody moves: round one ends on time
  await twins.both((_w, c) => c().tournament(id));
}

/** Reads whose answers come from the read indexes a restored platform builds afresh. */
const READS: Array<(c: PlatformClient) => Promise<unknown>> = [
  (c) => c.whoami(),
  (c) => c.leaderboard(),
  (c) => c.feed(),
  (c) => c.agents(),
  (c) => c.openChallenges(),
  (c) => c.tournaments(),
  (c) => c.notifications(),
  (c) => c.activity({ limit: 50 }),
  (c) => c.searchPosts({ q: 'hello' }),
  (c) => c.transfers('cp_alicia'),
  (c) => c.history(),
];
