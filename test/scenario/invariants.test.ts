import { describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/platform/index.js';
import { InvariantSuite } from '../../src/sim/invariants/invariants.js';
import { DEFAULT_RULESET, ONBOARDING_PRESETS } from '../../src/rules/ruleset.js';
import { newWorld } from '../helpers/world.js';

/** The checkers must be able to fail: feed them events that break each rule. */
describe('invariant checkers catch violations', () => {
  const t0 = Date.UTC(2026, 0, 1);

  function suite() {
    const platform = createPlatform({ seed: 's', startMs: t0 });
    const checks = new InvariantSuite(platform);
    checks.observe({ type: 'agent_registered', t: t0, agentId: 'w', handle: 'w', elo: 1200 });
    checks.observe({ type: 'agent_registered', t: t0, agentId: 'b', handle: 'b', elo: 1200 });
    return checks;
  }

  const ended = (extra: Partial<Record<string, unknown>> = {}) =>
    ({
      type: 'game_ended',
      t: t0 + 1000,
      gameId: 'g',
      whiteId: 'w',
      blackId: 'b',
      result: '1-0',
      reason: 'checkmate',
      plies: 3,
      whiteEloBefore: 1200,
      blackEloBefore: 1200,
      whiteDelta: 20,
      blackDelta: -20,
      equalK: true,
      ...extra,
    }) as never;

  const failing = (checks: InvariantSuite) =>
    checks
      .results()
      .filter((r) => !r.passed)
      .map((r) => r.name);

  it('research phase: a move before any post', () => {
    const checks = suite();
    checks.observe({
      type: 'challenge_created',
      t: t0,
      challengeId: 'c',
      challengerId: 'w',
      opponentId: null,
    });
    expect(failing(checks)).toContain('research_phase_held');
  });

  it('research phase under strict onboarding: a post is not enough; ten follows and ten likes, or verification, are', () => {
    const platform = createPlatform({
      seed: 's',
      startMs: t0,
      ruleset: { ...DEFAULT_RULESET, research: ONBOARDING_PRESETS.strict },
    });
    const checks = new InvariantSuite(platform);
    const create = (challengerId: string) =>
      checks.observe({
        type: 'challenge_created',
        t: t0,
        challengeId: `c-${challengerId}`,
        challengerId,
        opponentId: null,
      });
    for (const id of ['a', 'b', 'v'])
      checks.observe({ type: 'post_created', t: t0, postId: `p-${id}`, agentId: id, postType: 'standard' });
    for (let i = 0; i < 10; i++) {
      checks.observe({ type: 'followed', t: t0, actorId: 'b', targetId: `f${i}`, targetKind: 'agent' });
      checks.observe({
        type: 'liked',
        t: t0,
        actorId: 'b',
        targetId: `l${i}`,
        targetKind: 'post',
        authorId: 'x',
      });
    }
    checks.observe({ type: 'agent_verified', t: t0, agentId: 'v', twitterHandle: 'v' });
    create('b');
    create('v');
    expect(failing(checks)).not.toContain('research_phase_held');
    create('a');
    expect(checks.results().find((r) => r.name === 'research_phase_held')!.violationCount).toBe(1);
    // Done once is not done for good: an unfollow below the minimum makes b's next challenge a violation.
    checks.observe({ type: 'unfollowed', t: t0, actorId: 'b', targetId: 'f0', targetKind: 'agent' });
    create('b');
    expect(checks.results().find((r) => r.name === 'research_phase_held')!.violationCount).toBe(2);
  });

  it('deadlines: a move at the deadline, and a timeout off the deadline', () => {
    const checks = suite();
    checks.observe({
      type: 'game_started',
      t: t0,
      gameId: 'g',
      whiteId: 'w',
      blackId: 'b',
      deadlineMs: t0 + 300_000,
    });
    checks.observe({
      type: 'move_played',
      t: t0 + 300_000,
      gameId: 'g',
      agentId: 'w',
      ply: 1,
      uci: 'e2e4',
      san: 'e4',
      deadlineMs: t0 + 300_000,
      nextDeadlineMs: t0 + 600_000,
    });
    expect(failing(checks)).toContain('deadlines_exact');
  });

  it('one result: a game ended twice and a move after the end', () => {
    const checks = suite();
    checks.observe(ended());
    checks.observe(ended({ whiteEloBefore: 1220, blackEloBefore: 1180 }));
    expect(failing(checks)).toContain('one_result_per_game');
  });

  it('elo: changes that do not cancel', () => {
    const checks = suite();
    checks.observe(ended({ whiteDelta: 20, blackDelta: -19 }));
    expect(failing(checks)).toContain('elo_conservation');
  });

  it('lamports: a settled transfer the ledger never made', () => {
    const checks = suite();
    checks.observe({
      type: 'transfer_settled',
      t: t0,
      transferId: 'x',
      transferType: 'bounty_payout',
      from: 'nowhere',
      to: 'elsewhere',
      lamports: 5,
    } as never);
    expect(failing(checks)).toContain('lamports_conserved');
  });

  it('escrow: closed twice, and closed while holding lamports', () => {
    const checks = suite();
    checks.observe({ type: 'escrow_opened', t: t0, escrow: 'E', kind: 'bounty', refId: 'g' });
    checks.observe({
      type: 'transfer_queued',
      t: t0,
      transferId: 'd',
      transferType: 'bounty_deposit',
      from: 'w',
      to: 'E',
      lamports: 10,
      dueMs: t0 + 1,
    });
    checks.observe({
      type: 'escrow_closed',
      t: t0,
      escrow: 'E',
      kind: 'bounty',
      refId: 'g',
      outcome: 'refunded',
      lamportsIn: 0,
      lamportsOut: 0,
    });
    checks.observe({
      type: 'escrow_closed',
      t: t0,
      escrow: 'E',
      kind: 'bounty',
      refId: 'g',
      outcome: 'refunded',
      lamportsIn: 0,
      lamportsOut: 0,
    });
    expect(failing(checks)).toContain('escrow_settles_once');
  });

  it('escrow: a game that ended with its escrow never settled', () => {
    const checks = suite();
    checks.observe({ type: 'escrow_opened', t: t0, escrow: 'E', kind: 'bounty', refId: 'g' });
    checks.observe(ended());
    checks.finish(t0 + 5000);
    expect(failing(checks)).toContain('escrow_settles_once');
  });

  it('final checks run once an instant: a second finish at it counts nothing again, a later one does', () => {
    const checks = suite();
    checks.observe({ type: 'escrow_opened', t: t0, escrow: 'E', kind: 'bounty', refId: 'g' });
    checks.observe(ended());
    const escrow = (t: number) => checks.finish(t).find((r) => r.name === 'escrow_settles_once')!;
    const first = escrow(t0 + 5000);
    expect(first.violationCount).toBeGreaterThan(0);
    expect(escrow(t0 + 5000)).toEqual(first);
    expect(escrow(t0 + 6000).violationCount).toBeGreaterThan(first.violationCount);
  });

  it('bounty fees: payouts that do not add up to the pot, and a wrong fee', () => {
    const checks = suite();
    checks.observe({ type: 'bounty_settled', t: t0, gameId: 'g', pot: 200, fee: 20, white: 181, black: 0 });
    checks.observe({ type: 'bounty_settled', t: t0, gameId: 'h', pot: 200, fee: 19, white: 181, black: 0 });
    expect(failing(checks)).toContain('bounty_fees_exact');
  });

  it('brackets: a draw that advanced the higher seed, and a player twice in a round', () => {
    const checks = suite();
    const tid = 'T';
    checks.observe({
      type: 'tournament_created',
      t: t0,
      tournamentId: tid,
      creatorId: 'w',
      maxParticipants: 8,
      prizeLamports: 0,
      entryFeeLamports: 0,
      distribution: 'winner_only',
    });
    checks.observe({
      type: 'tournament_seeded',
      t: t0,
      tournamentId: tid,
      seeds: ['w', 'b'],
      elos: [1300, 1200],
      scheduledStartMs: t0,
    });
    checks.observe({
      type: 'tournament_match_started',
      t: t0,
      tournamentId: tid,
      round: 1,
      matchIndex: 0,
      gameId: 'g',
      whiteId: 'w',
      blackId: 'b',
    });
    checks.observe({
      type: 'tournament_match_decided',
      t: t0,
      tournamentId: tid,
      round: 1,
      matchIndex: 0,
      gameId: 'g',
      result: '1/2-1/2',
      advancedId: 'w',
      eliminatedId: 'b',
    });
    checks.observe({
      type: 'tournament_match_started',
      t: t0,
      tournamentId: tid,
      round: 1,
      matchIndex: 1,
      gameId: 'h',
      whiteId: 'w',
      blackId: 'x',
    });
    const result = checks.results().find((r) => r.name === 'tournament_brackets')!;
    expect(result.violationCount).toBe(2);
  });
});

/** The social checkers (issue 4) must be able to fail too; a real run of each rule must pass them. */
describe('social invariant checkers catch violations', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const HOUR = 3_600_000;

  function suite() {
    const platform = createPlatform({ seed: 's', startMs: t0 });
    const checks = new InvariantSuite(platform);
    for (const id of ['a', 'b', 'c'])
      checks.observe({ type: 'agent_registered', t: t0, agentId: id, handle: id, elo: 1200 });
    checks.observe({ type: 'human_registered', t: t0, humanId: 'h', username: 'h' });
    return checks;
  }

  const result = (checks: InvariantSuite, name: string) =>
    checks.finish(t0 + 10 * HOUR).find((r) => r.name === name)!;
  const post = (t: number, agentId: string, postId = `p${t}`) =>
    ({ type: 'post_created', t, postId, agentId, postType: 'standard' }) as const;
  const followed = (t: number, actorId: string, targetId: string) =>
    ({ type: 'followed', t, actorId, targetId, targetKind: 'agent' }) as const;
  const unfollowed = (t: number, actorId: string, targetId: string, byVote = false) =>
    ({
      type: 'unfollowed',
      t,
      actorId,
      targetId,
      targetKind: 'agent',
      ...(byVote ? { byVote: true as const } : {}),
    }) as const;
  const voted = (
    t: number,
    actorId: string,
    targetId: string,
    vote: 'up' | 'down' | 'clear',
    previous: 'up' | 'down' | null,
    byFollow = false,
  ) =>
    ({
      type: 'profile_voted',
      t,
      actorId,
      targetId,
      vote,
      previous,
      ...(byFollow ? { byFollow: true as const } : {}),
    }) as const;

  it('social score: a like the platform never counted', async () => {
    const world = newWorld({ seed: 'score' });
    const checks = new InvariantSuite(world.platform);
    const alice = await world.agent('alice');
    expect(result(checks, 'social_score_exact')).toMatchObject({ passed: true });
    checks.observe({
      type: 'liked',
      t: world.nowMs,
      actorId: 'x',
      targetId: 'p',
      targetKind: 'post',
      authorId: alice.id,
    });
    expect(result(checks, 'social_score_exact').violations[0]!.message).toMatch(
      /platform score 2 != replayed 3/,
    );
  });

  it('social score: counters changed without an event are caught at the end', async () => {
    const world = newWorld({ seed: 'score-end' });
    const checks = new InvariantSuite(world.platform);
    const alice = await world.agent('alice');
    world.platform.state.agents.get(alice.id)!.profileDownvotes = 5;
    expect(result(checks, 'social_score_exact').passed).toBe(false);
  });

  it('rate limits: an eleventh post within the hour, and two posts inside the cooldown', () => {
    const checks = suite();
    for (let i = 0; i < 11; i++) checks.observe(post(t0 + i * 60_000, 'a'));
    checks.observe(post(t0, 'b'));
    checks.observe(post(t0 + 29_999, 'b'));
    const r = result(checks, 'rate_limits_held');
    expect(r.violationCount).toBe(2);
    expect(r.violations.map((v) => v.message).join('\n')).toMatch(
      /11 post actions within the window, limit 10[\s\S]*post actions 29999 ms apart, cooldown 30000/,
    );
  });

  it('rate limits: refreshes and likes are counted too', () => {
    const checks = suite();
    for (let i = 0; i < 6; i++)
      checks.observe({ type: 'social_refreshed', t: t0 + i * 60_000, agentId: 'a' });
    checks.observe({ type: 'social_refreshed', t: t0 + 5 * 60_000 + 59_999, agentId: 'b' });
    checks.observe({ type: 'social_refreshed', t: t0 + 6 * 60_000, agentId: 'b' });
    for (let i = 0; i < 61; i++)
      checks.observe({
        type: 'liked',
        t: t0 + i,
        actorId: 'c',
        targetId: `p${i}`,
        targetKind: 'post',
        authorId: 'a',
      });
    const messages = result(checks, 'rate_limits_held').violations.map((v) => v.message);
    expect(messages).toEqual([
      'actor a: 6 refresh actions within the window, limit 5',
      'actor b: refresh actions 1 ms apart, cooldown 60000',
      'actor c: 61 like actions within the window, limit 60',
    ]);
  });

  it('rate limits: the window slides (the oldest post leaves it exactly one hour later) and humans get more', () => {
    const checks = suite();
    for (let i = 0; i < 10; i++) checks.observe(post(t0 + i * 60_000, 'a'));
    checks.observe(post(t0 + HOUR, 'a'));
    for (let i = 0; i < 20; i++) checks.observe(post(t0 + i * 60_000, 'h'));
    expect(result(checks, 'rate_limits_held').passed).toBe(true);
    const late = suite();
    for (let i = 0; i < 10; i++) late.observe(post(t0 + i * 60_000, 'a'));
    late.observe(post(t0 + HOUR - 1, 'a'));
    expect(result(late, 'rate_limits_held').passed).toBe(false);
  });

  it('rate limits: a follow upvote is not a vote, a vote that ends a follow is not a follow', () => {
    const checks = suite();
    const targets = Array.from({ length: 20 }, (_, i) => `t${i}`);
    // 20 follows, each with its side-effect upvote, then 20 downvotes that end those follows: all allowed.
    for (const target of targets)
      [followed(t0, 'a', target), voted(t0, 'a', target, 'up', null, true)].forEach((e) => checks.observe(e));
    for (const target of targets)
      [unfollowed(t0 + 1, 'a', target, true), voted(t0 + 1, 'a', target, 'down', 'up')].forEach((e) =>
        checks.observe(e),
      );
    for (let i = 0; i < 10; i++) checks.observe(voted(t0 + 2, 'a', `v${i}`, 'down', null));
    expect(result(checks, 'rate_limits_held').passed).toBe(true);
    checks.observe(followed(t0 + 3, 'a', 'one-too-many'));
    const messages = result(checks, 'rate_limits_held').violations.map((v) => v.message);
    expect(messages).toContain('actor a: 21 follow actions within the window, limit 20');
  });

  it('rate limits: unfollows count as follows; an unfollow with its clear is one follows action, a clear vote that ends a follow one vote', () => {
    const checks = suite();
    for (let i = 0; i < 20; i++)
      [unfollowed(t0, 'a', `x${i}`), voted(t0, 'a', `x${i}`, 'clear', 'up', true)].forEach((e) =>
        checks.observe(e),
      );
    for (let i = 0; i < 30; i++)
      [unfollowed(t0, 'a', `y${i}`, true), voted(t0, 'a', `y${i}`, 'clear', 'up')].forEach((e) =>
        checks.observe(e),
      );
    expect(result(checks, 'rate_limits_held').passed).toBe(true);
    checks.observe(unfollowed(t0, 'a', 'human'));
    checks.observe(voted(t0, 'a', 'z', 'down', null));
    const messages = result(checks, 'rate_limits_held').violations.map((v) => v.message);
    expect(messages).toEqual([
      'actor a: 21 follow actions within the window, limit 20',
      'actor a: 31 vote actions within the window, limit 30',
    ]);
  });

  it('unseen: a post served twice, and an actor served its own post', () => {
    const checks = suite();
    checks.observe(post(t0, 'a', 'p1'));
    checks.observe(post(t0, 'b', 'p2'));
    checks.observe({ type: 'unseen_served', t: t0, actorId: 'c', postIds: ['p1', 'p2'] });
    expect(result(checks, 'unseen_once').passed).toBe(true);
    checks.observe({ type: 'unseen_served', t: t0, actorId: 'c', postIds: ['p2'] });
    checks.observe({ type: 'unseen_served', t: t0, actorId: 'a', postIds: ['p1'] });
    expect(result(checks, 'unseen_once').violationCount).toBe(2);
  });

  it('likes: the same pair liked twice, and a like count off the log', async () => {
    const checks = suite();
    const like = {
      type: 'liked',
      t: t0,
      actorId: 'a',
      targetId: 'p',
      targetKind: 'post',
      authorId: 'b',
    } as const;
    checks.observe(like);
    checks.observe(like);
    expect(result(checks, 'likes_idempotent').violations.map((v) => v.message)).toContain(
      'actor a liked p twice',
    );
    const world = newWorld({ seed: 'likes' });
    const doctored = new InvariantSuite(world.platform);
    await world.agent('alice');
    world.platform.state.posts.values().next().value!.likesCount = 1;
    expect(
      doctored.finish(world.nowMs).find((r) => r.name === 'likes_idempotent')!.violations[0]!.message,
    ).toMatch(/likes_count 1 != 0/);
  });

  it('replies: a nested reply whose parent is under another post, and a parent post that differs', () => {
    const checks = suite();
    for (const id of ['p1', 'p2']) checks.observe(post(t0, 'a', id));
    const reply = (replyId: string, postId: string, parentReplyId: string | null, parentPostId = postId) =>
      ({
        type: 'reply_created',
        t: t0,
        replyId,
        postId,
        parentReplyId,
        parentPostId,
        actorId: 'b',
        receiverId: 'a',
      }) as const;
    checks.observe(reply('r1', 'p1', null));
    checks.observe(reply('r2', 'p1', 'r1'));
    expect(result(checks, 'replies_anchored').passed).toBe(true);
    checks.observe(reply('r3', 'p2', 'r1'));
    checks.observe(reply('r4', 'p2', null, 'p1'));
    expect(result(checks, 'replies_anchored').violationCount).toBe(2);
  });

  it('downvote blocks: direct challenges created and accepted across a downvote', () => {
    const checks = suite();
    checks.observe({
      type: 'challenge_created',
      t: t0,
      challengeId: 'c1',
      challengerId: 'a',
      opponentId: 'b',
    });
    checks.observe(voted(t0, 'b', 'a', 'down', null));
    checks.observe({ type: 'challenge_accepted', t: t0, challengeId: 'c1', agentId: 'b' });
    checks.observe({
      type: 'challenge_created',
      t: t0,
      challengeId: 'c2',
      challengerId: 'a',
      opponentId: 'b',
    });
    checks.observe({
      type: 'challenge_created',
      t: t0,
      challengeId: 'open',
      challengerId: 'a',
      opponentId: null,
    });
    checks.observe({ type: 'challenge_accepted', t: t0, challengeId: 'open', agentId: 'b' });
    expect(result(checks, 'downvote_blocks_held').violationCount).toBe(2);
    checks.observe(voted(t0, 'b', 'a', 'clear', 'down'));
    checks.observe({
      type: 'challenge_created',
      t: t0,
      challengeId: 'c3',
      challengerId: 'b',
      opponentId: 'a',
    });
    expect(result(checks, 'downvote_blocks_held').violationCount).toBe(2);
  });

  it('downvote blocks: tournament joins against the creator and a co-entrant, but not a dropped one', () => {
    const checks = suite();
    const joined = (agentId: string) =>
      ({ type: 'tournament_joined', t: t0, tournamentId: 'T', agentId, participants: 0 }) as const;
    checks.observe({
      type: 'tournament_created',
      t: t0,
      tournamentId: 'T',
      creatorId: 'a',
      maxParticipants: 8,
      prizeLamports: 0,
      entryFeeLamports: 0,
      distribution: 'winner_only',
    });
    checks.observe(voted(t0, 'c', 'b', 'down', null));
    checks.observe(joined('b'));
    checks.observe({
      type: 'tournament_entry_dropped',
      t: t0,
      tournamentId: 'T',
      agentId: 'b',
      participants: 0,
    });
    checks.observe(joined('c'));
    expect(result(checks, 'downvote_blocks_held').passed).toBe(true);
    checks.observe(joined('b'));
    checks.observe(voted(t0, 'a', 'x', 'down', null));
    checks.observe(joined('x'));
    expect(result(checks, 'downvote_blocks_held').violationCount).toBe(2);
  });
});
