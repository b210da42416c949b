import { describe, expect, it } from 'vitest';
import { PERSONAS } from '../../agents/registry.js';
import type { PosterPersona } from '../../agents/personas/poster.js';
import { SPAM_ACTIONS } from '../../agents/personas/spammer.js';
import { PlatformClient } from '../../src/client/client.js';
import { InProcessTransport } from '../../src/client/in-process.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World, type RunOutcome } from '../../src/sim/world.js';
import { buildReport, socialLines } from '../../src/report/report.js';

/** A tiny scenario: a few random players to talk to, plus the groups under test. */
function tiny(name: string, duration: string, groups: string, ruleset = ''): string {
  return `
name: ${name}
seed: 41
start: 2026-03-01T00:00:00Z
duration: ${duration}
${ruleset}
population:
  - persona: random
    count: 4
    heartbeat: { min: 30s, max: 60s }
${groups}`;
}

async function run(text: string): Promise<{ world: World; outcome: RunOutcome }> {
  const world = new World(parseScenario(text));
  const outcome = await world.run();
  const broken = outcome.invariants
    .filter((i) => !i.passed)
    .map((i) => `${i.name}: ${i.violations[0]?.message}`);
  expect(broken).toEqual([]);
  expect(outcome.failed).toBe(false);
  return { world, outcome };
}

describe('social persona options', () => {
  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['poster', { postChance: 2 }, /^postChance: must be a number from 0 to 1$/],
    ['poster', { verify: 'yes' }, /^verify: must be true or false$/],
    ['poster', { shout: true }, /^shout: unknown option$/],
    ['replier', { nestChance: -0.1 }, /^nestChance: must be a number from 0 to 1$/],
    ['replier', { maxRepliesPerBeat: 1.5 }, /^maxRepliesPerBeat: must be an integer from 0 to 100$/],
    ['spammer', { burst: 0 }, /^burst: must be an integer from 1 to 1000$/],
    ['spammer', { honourChance: 'often' }, /^honourChance: must be a number from 0 to 1$/],
    ['spammer', { verify: 1 }, /^verify: must be true or false$/],
    ['griefer', { challengeChance: 1.2 }, /^challengeChance: must be a number from 0 to 1$/],
    ['griefer', { targets: 3 }, /^targets: unknown option$/],
    ['human', { followChance: -1 }, /^followChance: must be a number from 0 to 1$/],
    ['human', { maxGames: 2 }, /^maxGames: unknown option$/],
  ];
  for (const [persona, options, problem] of bad) {
    it(`${persona} refuses ${JSON.stringify(options)}, naming the option`, () => {
      const problems = PERSONAS.get(persona)!.checkOptions(options);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(problem);
    });
  }

  it('every social persona accepts its defaults', () => {
    for (const name of ['poster', 'replier', 'spammer', 'griefer', 'human'])
      expect(PERSONAS.get(name)!.checkOptions({})).toEqual([]);
  });
});

describe('social personas in short runs (every invariant holds)', () => {
  it('the spammer meets a 429 for every hourly limit and for the daily quota', async () => {
    // Limits lowered so a short run reaches each of them; the cooldowns are the spec's.
    const rules =
      'ruleset: { api: { requestsPerDay: 1500 }, social: { limits: { like: { agent: 5 }, follow: { agent: 5 }, vote: { agent: 5 } } } }';
    const { outcome } = await run(
      tiny(
        'spam',
        '1h',
        `  - persona: spammer\n    count: 2\n    heartbeat: { min: 3s, max: 5s }\n    options: { honourChance: 0.2 }\n`,
        rules,
      ),
    );
    const byAction = outcome.requests.rateLimitedByAction;
    for (const action of [...SPAM_ACTIONS, 'requests'])
      expect(byAction.get(action) ?? 0, action).toBeGreaterThan(0);
    // Each spammer spent exactly its quota: a refused request is not counted.
    for (const agent of outcome.platform.state.agents.values()) {
      if (agent.handle.startsWith('spammer_')) expect(agent.usage.requestsToday).toBe(1500);
    }
    expect(outcome.eventCounts.get('social_refreshed') ?? 0).toBeGreaterThan(0);
    expect(outcome.eventCounts.get('unfollowed') ?? 0).toBeGreaterThan(0);
    // Its follows cast upvotes and its unfollows clear them; those are counted apart from its own votes.
    expect(outcome.followLinkedVotes).toBeGreaterThan(0);
    expect(outcome.votesByValue.up + outcome.votesByValue.down).toBeGreaterThan(0);
  });

  it('the griefer downvotes, clears and downvotes again, and its direct challenges are refused vote_blocked', async () => {
    const { outcome } = await run(
      tiny('grief', '1h', `  - persona: griefer\n    count: 1\n    heartbeat: { min: 20s, max: 40s }\n`),
    );
    expect(outcome.votesByValue.down).toBeGreaterThan(outcome.votesByValue.clear);
    expect(outcome.votesByValue.clear).toBeGreaterThan(0);
    expect(outcome.votesByValue.up).toBe(0); // nobody here follows or upvotes: the griefer only downvotes and clears
    expect(outcome.followLinkedVotes).toBe(0);
    expect(outcome.requests.byCode.get('vote_blocked') ?? 0).toBeGreaterThan(0);
    const p = outcome.platform;
    const griefer = [...p.state.agents.values()].find((a) => a.handle === 'griefer_0001')!;
    const standing = [...p.state.profileVotes.entries()].filter(
      ([key, vote]) => key.startsWith(`${griefer.id}>`) && vote === 'down',
    );
    expect(standing.length).toBeGreaterThan(0);
    // No direct challenge involving the griefer was ever created: every one was blocked.
    expect([...p.state.challenges.values()].filter((c) => c.challengerId === griefer.id)).toEqual([]);
  });

  it('the replier nests replies, @mentions others and answers replies to its posts', async () => {
    const { outcome } = await run(
      tiny(
        'talk',
        '2h',
        `  - persona: replier\n    count: 3\n    heartbeat: { min: 30s, max: 60s }\n    options: { replyChance: 0.6 }\n`,
      ),
    );
    const replies = [...outcome.platform.state.replies.values()];
    const byRepliers = replies.filter((r) =>
      outcome.platform.state.agents.get(r.authorId)!.handle.startsWith('replier_'),
    );
    expect(byRepliers.length).toBeGreaterThan(10);
    expect(byRepliers.some((r) => r.depth >= 2)).toBe(true);
    expect(byRepliers.every((r) => r.mentions.length >= 1)).toBe(true);
    expect(byRepliers.some((r) => r.mentions.length >= 2)).toBe(true);
    // Answers: a replier's nested reply under a reply to one of its own posts.
    const answered = byRepliers.some((r) => {
      const parent = r.parentReplyId ? outcome.platform.state.replies.get(r.parentReplyId) : undefined;
      return (
        parent !== undefined &&
        outcome.platform.state.posts.get(r.postId)!.authorId === r.authorId &&
        parent.authorId !== r.authorId
      );
    });
    expect(answered).toBe(true);
    expect(outcome.eventCounts.get('unseen_served') ?? 0).toBeGreaterThan(0);
  });

  it('the poster recaps its games (a repeated recap comes back deduplicated), likes and verifies', async () => {
    const { world, outcome } = await run(
      tiny(
        'posters',
        '3h',
        `  - persona: poster\n    count: 3\n    heartbeat: { min: 30s, max: 60s }\n    options: { repeatRecapChance: 0.5 }\n`,
      ),
    );
    const posters = world.agents
      .filter((a) => a.persona === 'poster')
      .map((a) => (a.impl as PosterPersona).stats);
    expect(posters.reduce((n, s) => n + s.recaps, 0)).toBeGreaterThan(0);
    expect(posters.reduce((n, s) => n + s.repeatedRecaps, 0)).toBeGreaterThan(0);
    const recaps = [...outcome.platform.state.posts.values()].filter(
      (post) => post.postType === 'game_result',
    );
    expect(recaps.length).toBe(posters.reduce((n, s) => n + s.recaps, 0));
    expect(new Set(recaps.map((post) => `${post.authorId}|${post.chessGameId}`)).size).toBe(recaps.length);
    expect(outcome.eventCounts.get('liked') ?? 0).toBeGreaterThan(0);
    expect(outcome.eventCounts.get('agent_verified')).toBe(3);
  });

  it('the human persona posts, likes, follows and replies as author_type human, and plays no chess', async () => {
    const groups = `  - persona: human\n    account: human\n    count: 2\n    heartbeat: { min: 60s, max: 120s }\n    options: { followChance: 0.8, postChance: 0.5 }\n`;
    const { world, outcome } = await run(tiny('humans', '2h', groups));
    const p = outcome.platform;
    expect(p.state.humans.size).toBe(2);
    expect([...p.state.agents.values()].some((a) => a.handle.startsWith('human_'))).toBe(false);
    const humanIds = new Set(p.state.humans.keys());
    expect([...p.state.replies.values()].some((r) => humanIds.has(r.authorId))).toBe(true);
    expect([...p.state.follows].some((key) => humanIds.has(key.split('>')[0]!))).toBe(true);
    // Read back through the API as any client would: the human's posts carry author_type human.
    const reader = new PlatformClient(new InProcessTransport(world.api));
    const profile = await reader.humanProfile('human_0001');
    expect(profile.human.posts_count).toBeGreaterThan(0);
    const { posts } = await reader.searchPosts({ q: 'Watching the games', limit: 100 });
    expect(posts.length).toBeGreaterThan(0);
    expect(
      posts.every((post) => post.author.author_type === 'human' && post.author.handle.startsWith('human_')),
    ).toBe(true);
    const report = buildReport(world.scenario, outcome);
    expect(report.social.humans).toBe(2);
    expect(report.social.posts_by_humans).toBe(
      profile.human.posts_count + (await reader.humanProfile('human_0002')).human.posts_count,
    );
    expect(report.elo.some((row) => row.handle.startsWith('human_'))).toBe(false);
    expect(report.counts.agents).toBe(4);
    const lines = socialLines(report);
    expect(lines[0]).toMatch(
      new RegExp(`^social: ${report.social.posts} posts \\(${report.social.posts_by_humans} by 2 humans\\)`),
    );
    expect(lines).toHaveLength(4);
  });
});
