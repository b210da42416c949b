import type { PlatformEvent } from '../../platform/events.js';
import type { Platform } from '../../platform/platform.js';
import { actorById, socialScoreOf } from '../../platform/identity/actors.js';
import { RunSet } from '../../kernel/run-set.js';
import type { Field, Json } from '../../kernel/checkpoint.js';
import { Checker, type FinalCheck } from './checker.js';
import { fillPairs, fillSet, parts, readId, readNum, readSet, savePairs, saveSet } from './checker-state.js';

/**
 * Independent checkers of the social layer (issue 4). Like the others they rebuild what they need from the
 * event log alone and read only numbers from the ruleset, never a rule function. Where they compare with
 * the platform they read its answer (a counter, or `socialScoreOf`), so a rule and its checker never share
 * arithmetic.
 */
type Event<T extends PlatformEvent['type']> = Extract<PlatformEvent, { type: T }>;

const pairKey = (a: string, b: string) => `${a}>${b}`;

/**
 * The social score replayed from the log: +post per post, +like/+reply received (never from oneself),
 * +follow per follower held, +win/+draw per game, -downvote per standing downvote, floored at 0 over the
 * whole sum (a function of current standing, so a later gain first pays off an earlier deficit).
 */
class SocialScoreExact extends Checker implements FinalCheck {
  readonly name = 'social_score_exact';
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    "every actor's social score equals max(0, its points) replayed from the log, and is never negative";
  readonly #sums = new Map<string, number>();

  constructor(private readonly platform: Platform) {
    super();
  }

  protected saveModel(): Json {
    return savePairs(this.#sums);
  }

  protected *loadModel(field: Field): Generator<void, void> {
    yield* fillPairs(this.#sums, field, readNum);
  }

  protected check(e: PlatformEvent): void {
    for (const id of this.#apply(e)) this.#compare(e.t, id);
  }

  /** Adds the event's points to the model; returns the actors whose score it touched. */
  #apply(e: PlatformEvent): string[] {
    const points = this.platform.ruleset.social.score;
    switch (e.type) {
      case 'post_created':
        return this.#add(e.agentId, points.post);
      case 'liked':
        return e.actorId === e.authorId ? [] : this.#add(e.authorId, points.likeReceived);
      case 'reply_created':
        return e.actorId === e.receiverId ? [] : this.#add(e.receiverId, points.replyReceived);
      case 'followed':
        return this.#add(e.targetId, points.followReceived);
      case 'unfollowed':
        return this.#add(e.targetId, -points.followReceived);
      case 'profile_voted': {
        const downvotes = (e.vote === 'down' ? 1 : 0) - (e.previous === 'down' ? 1 : 0);
        return this.#add(e.targetId, -downvotes * points.downvoteReceived);
      }
      case 'game_ended':
        return this.#gameEnded(e);
      default:
        return [];
    }
  }

  #gameEnded(e: Event<'game_ended'>): string[] {
    const { win, draw } = this.platform.ruleset.social.score;
    if (e.result === '1-0') return this.#add(e.whiteId, win);
    if (e.result === '0-1') return this.#add(e.blackId, win);
    return [...this.#add(e.whiteId, draw), ...this.#add(e.blackId, draw)];
  }

  #add(id: string, points: number): string[] {
    this.#sums.set(id, (this.#sums.get(id) ?? 0) + points);
    return [id];
  }

  #compare(t: number, id: string): void {
    const expected = Math.max(0, this.#sums.get(id) ?? 0);
    const actor = actorById(this.platform, id);
    const actual = actor === undefined ? undefined : socialScoreOf(this.platform, actor);
    this.expect(
      actual !== undefined && actual >= 0,
      t,
      () => `actor ${id}: score ${actual} is negative or missing`,
    );
    this.expect(
      actual === expected,
      t,
      () => `actor ${id}: platform score ${actual} != replayed ${expected}`,
    );
  }

  /** Every actor of the platform, including those no social event touched (their score must be 0). */
  finalCheck(t: number): void {
    for (const id of [...this.platform.state.agents.keys(), ...this.platform.state.humans.keys()])
      this.#compare(t, id);
  }
}

type Limited = 'post' | 'reply' | 'like' | 'follow' | 'vote' | 'refresh';

/**
 * No actor exceeds a limit: for every accepted action, the same actor's accepted actions of that kind in
 * the sliding window (t - window, t] number at most the limit of its kind (agent or human), and the gap to
 * the previous one is at least the cooldown. A follow's upvote and an unfollow's clear carry `byFollow`,
 * and a follow ended by a down or clear vote carries `byVote`, so every event names its one action.
 */
class RateLimitsHeld extends Checker {
  readonly name = 'rate_limits_held';
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'no actor has more accepted actions of a kind in any sliding window than its limit, nor two closer than the cooldown';
  readonly #humans = new Set<string>();
  readonly #windows = new Map<string, number[]>();
  readonly #last = new Map<string, number>();

  constructor(private readonly platform: Platform) {
    super();
  }

  protected saveModel(): Json {
    return {
      humans: saveSet(this.#humans),
      windows: savePairs(this.#windows, (times) => [...times]),
      last: savePairs(this.#last),
    };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [humans, windows, last] = parts(field, ['humans', 'windows', 'last']);
    yield* fillSet(this.#humans, humans!);
    yield* fillPairs(this.#windows, windows!, (times) => times.list(readNum));
    yield* fillPairs(this.#last, last!, readNum);
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'human_registered') this.#humans.add(e.humanId);
    else if (e.type === 'post_created') this.#accept(e.agentId, 'post', e.t);
    else if (e.type === 'reply_created') this.#accept(e.actorId, 'reply', e.t);
    else if (e.type === 'liked') this.#accept(e.actorId, 'like', e.t);
    else if (e.type === 'social_refreshed') this.#accept(e.agentId, 'refresh', e.t);
    else if (e.type === 'followed') this.#accept(e.actorId, 'follow', e.t);
    // A follow's upvote and an unfollow's clear belong to the follows action; a vote that ends a follow is a vote.
    else if (e.type === 'unfollowed' && !e.byVote) this.#accept(e.actorId, 'follow', e.t);
    else if (e.type === 'profile_voted' && !e.byFollow) this.#accept(e.actorId, 'vote', e.t);
  }

  #accept(actorId: string, action: Limited, t: number): void {
    // One key text per event: each new text is hashed at its first lookup, and two texts were two hashings.
    const key = `${actorId}|${action}`;
    const count = this.#push(key, t);
    const rule = this.platform.ruleset.social.limits[action];
    const limit = this.#humans.has(actorId) ? rule.human : rule.agent;
    if (!this.held(count <= limit))
      this.violated(t, `actor ${actorId}: ${count} ${action} actions within the window, limit ${limit}`);
    const last = this.#last.get(key);
    if (!this.held(last === undefined || t - last >= rule.cooldownMs))
      this.violated(
        t,
        `actor ${actorId}: ${action} actions ${t - last!} ms apart, cooldown ${rule.cooldownMs}`,
      );
    this.#last.set(key, t);
  }

  /** Records the action in its window (by its key), drops what has left it, and returns how many remain. */
  #push(key: string, t: number): number {
    let window = this.#windows.get(key);
    if (window === undefined) {
      window = [];
      this.#windows.set(key, window);
    }
    const windowMs = this.platform.ruleset.social.windowMs;
    let stale = 0;
    while (stale < window.length && window[stale]! <= t - windowMs) stale++;
    if (stale > 0) window.splice(0, stale);
    window.push(t);
    return window.length;
  }
}

/**
 * Unseen never serves a post twice to one actor, nor an actor its own post. Posts are numbered in the order
 * the log names them, and each actor's served posts kept as runs of those numbers (RunSet): the feed serves
 * oldest first, so an actor's runs are broken only by its own posts, where a set of (actor, post) keys grew
 * by every post served (most of a crowd's retained heap).
 */
class UnseenOnce extends Checker {
  readonly name = 'unseen_once';
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'GET /api/feed/unseen never serves the same post twice to one actor, nor an actor its own post';
  readonly #ordinals = new Map<string, number>();
  /** By post ordinal; undefined for a post served but never created. */
  readonly #authors: Array<string | undefined> = [];
  readonly #served = new Map<string, RunSet>();

  /** Posts in ordinal order, each with its author (null for a post served but never created). */
  protected saveModel(): Json {
    const posts = [...this.#ordinals.keys()].map((postId, ordinal) => [
      postId,
      this.#authors[ordinal] ?? null,
    ]);
    return { posts, served: savePairs(this.#served, (runs) => runs.save()) };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [posts, served] = parts(field, ['posts', 'served']);
    const authors = new Map<string, string | null>();
    yield* fillPairs(authors, posts!, (author) => author.nullOr(readId));
    this.#ordinals.clear();
    this.#authors.length = 0;
    for (const [postId, author] of authors) {
      this.#ordinals.set(postId, this.#ordinals.size);
      this.#authors.push(author ?? undefined);
    }
    yield* fillPairs(this.#served, served!, (runs) => RunSet.load(runs));
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'post_created') {
      const ordinal = this.#ordinalOf(e.postId);
      this.#authors[ordinal] = e.agentId;
    }
    if (e.type !== 'unseen_served') return;
    const served = this.#servedTo(e.actorId);
    for (const postId of e.postIds) {
      const ordinal = this.#ordinalOf(postId);
      if (!this.held(!served.has(ordinal)))
        this.violated(e.t, `actor ${e.actorId}: post ${postId} served twice`);
      if (!this.held(this.#authors[ordinal] !== e.actorId))
        this.violated(e.t, `actor ${e.actorId}: served its own post ${postId}`);
      served.add(ordinal);
    }
  }

  #ordinalOf(postId: string): number {
    let ordinal = this.#ordinals.get(postId);
    if (ordinal === undefined) {
      ordinal = this.#ordinals.size;
      this.#ordinals.set(postId, ordinal);
      this.#authors.push(undefined);
    }
    return ordinal;
  }

  #servedTo(actorId: string): RunSet {
    let served = this.#served.get(actorId);
    if (!served) this.#served.set(actorId, (served = new RunSet()));
    return served;
  }
}

/** One like per actor and target, and every like count is the number of likes in the log. */
class LikesIdempotent extends Checker implements FinalCheck {
  readonly name = 'likes_idempotent';
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    "no actor likes the same post or reply twice; every like count equals the log's likes of it";
  /** Per actor, the targets it liked: the log's own id strings, where a key per pair was a new string each. */
  readonly #liked = new Map<string, Set<string>>();
  readonly #counts = new Map<string, number>();

  constructor(private readonly platform: Platform) {
    super();
  }

  protected saveModel(): Json {
    return { liked: savePairs(this.#liked, saveSet), counts: savePairs(this.#counts) };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [liked, counts] = parts(field, ['liked', 'counts']);
    yield* fillPairs(this.#liked, liked!, readSet);
    yield* fillPairs(this.#counts, counts!, readNum);
  }

  protected check(e: PlatformEvent): void {
    if (e.type !== 'liked') return;
    const liked = this.#likedBy(e.actorId);
    this.expect(!liked.has(e.targetId), e.t, () => `actor ${e.actorId} liked ${e.targetId} twice`);
    liked.add(e.targetId);
    this.#counts.set(e.targetId, (this.#counts.get(e.targetId) ?? 0) + 1);
    this.#compare(e.t, e.targetId, this.#target(e.targetId)?.likesCount);
  }

  #likedBy(actorId: string): Set<string> {
    let liked = this.#liked.get(actorId);
    if (!liked) this.#liked.set(actorId, (liked = new Set()));
    return liked;
  }

  #target(id: string): { likesCount: number } | undefined {
    return this.platform.state.posts.get(id) ?? this.platform.state.replies.get(id);
  }

  #compare(t: number, id: string, actual: number | undefined): void {
    const expected = this.#counts.get(id) ?? 0;
    this.expect(actual === expected, t, () => `${id}: likes_count ${actual} != ${expected} liked events`);
  }

  finalCheck(t: number): void {
    for (const post of this.platform.state.posts.values()) this.#compare(t, post.id, post.likesCount);
    for (const reply of this.platform.state.replies.values()) this.#compare(t, reply.id, reply.likesCount);
  }
}

/** A nested reply's parent belongs to the same root post, as replayed and as the platform holds it. */
class RepliesAnchored extends Checker implements FinalCheck {
  readonly name = 'replies_anchored';
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'every reply names an existing post, and a nested reply belongs to the same post as its parent';
  readonly #posts = new Set<string>();
  readonly #rootOf = new Map<string, string>();

  constructor(private readonly platform: Platform) {
    super();
  }

  protected saveModel(): Json {
    return { posts: saveSet(this.#posts), rootOf: savePairs(this.#rootOf) };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [posts, rootOf] = parts(field, ['posts', 'rootOf']);
    yield* fillSet(this.#posts, posts!);
    yield* fillPairs(this.#rootOf, rootOf!, readId);
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'post_created') this.#posts.add(e.postId);
    if (e.type !== 'reply_created') return;
    this.expect(this.#posts.has(e.postId), e.t, () => `reply ${e.replyId}: no post ${e.postId}`);
    this.expect(
      e.parentPostId === e.postId,
      e.t,
      () => `reply ${e.replyId}: parent's post ${e.parentPostId} != ${e.postId}`,
    );
    if (e.parentReplyId !== null) {
      const parentRoot = this.#rootOf.get(e.parentReplyId);
      this.expect(
        parentRoot === e.postId,
        e.t,
        () => `reply ${e.replyId}: parent ${e.parentReplyId} belongs to ${parentRoot}, not ${e.postId}`,
      );
    }
    this.#rootOf.set(e.replyId, e.postId);
  }

  finalCheck(t: number): void {
    const replies = this.platform.state.replies;
    for (const reply of replies.values()) {
      this.expect(
        this.#rootOf.get(reply.id) === reply.postId,
        t,
        () => `reply ${reply.id}: held under ${reply.postId}, created under ${this.#rootOf.get(reply.id)}`,
      );
      if (reply.parentReplyId === null) continue;
      const parentPost = replies.get(reply.parentReplyId)?.postId;
      this.expect(
        parentPost === reply.postId,
        t,
        () => `reply ${reply.id}: parent ${reply.parentReplyId} is under ${parentPost}, not ${reply.postId}`,
      );
    }
  }
}

/**
 * A standing downvote, cast by either side, blocks the pair from direct challenges (creating and
 * accepting) and from tournament joins with the creator or anyone already entered.
 */
class DownvoteBlocksHeld extends Checker {
  readonly name = 'downvote_blocks_held';
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'no direct challenge is created or accepted, and no tournament joined, across a standing downvote';
  readonly #downvotes = new Set<string>();
  readonly #directChallenger = new Map<string, string>();
  readonly #creator = new Map<string, string>();
  readonly #entrants = new Map<string, Set<string>>();

  protected saveModel(): Json {
    return {
      downvotes: saveSet(this.#downvotes),
      directChallenger: savePairs(this.#directChallenger),
      creator: savePairs(this.#creator),
      entrants: savePairs(this.#entrants, saveSet),
    };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [downvotes, direct, creator, entrants] = parts(field, [
      'downvotes',
      'directChallenger',
      'creator',
      'entrants',
    ]);
    yield* fillSet(this.#downvotes, downvotes!);
    yield* fillPairs(this.#directChallenger, direct!, readId);
    yield* fillPairs(this.#creator, creator!, readId);
    yield* fillPairs(this.#entrants, entrants!, readSet);
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'profile_voted') this.#vote(e);
    else if (e.type === 'challenge_created' && e.opponentId !== null) {
      this.#expectClear(e.t, e.challengerId, e.opponentId, `challenge ${e.challengeId} created`);
      this.#directChallenger.set(e.challengeId, e.challengerId);
    } else if (e.type === 'challenge_accepted') {
      const challenger = this.#directChallenger.get(e.challengeId);
      if (challenger !== undefined)
        this.#expectClear(e.t, e.agentId, challenger, `challenge ${e.challengeId} accepted`);
    } else if (e.type === 'tournament_created') {
      this.#creator.set(e.tournamentId, e.creatorId);
      this.#entrants.set(e.tournamentId, new Set());
    } else if (e.type === 'tournament_joined') this.#joined(e);
    else if (e.type === 'tournament_entry_dropped') this.#entrants.get(e.tournamentId)?.delete(e.agentId);
  }

  #vote(e: Event<'profile_voted'>): void {
    const key = pairKey(e.actorId, e.targetId);
    if (e.vote === 'down') this.#downvotes.add(key);
    else this.#downvotes.delete(key);
  }

  #joined(e: Event<'tournament_joined'>): void {
    const entrants = this.#entrants.get(e.tournamentId) ?? new Set<string>();
    const creator = this.#creator.get(e.tournamentId);
    const others = creator === undefined ? entrants : [creator, ...entrants];
    for (const other of others)
      if (other !== e.agentId)
        this.#expectClear(e.t, e.agentId, other, `tournament ${e.tournamentId} joined`);
    this.#entrants.set(e.tournamentId, entrants.add(e.agentId));
  }

  #expectClear(t: number, a: string, b: string, what: string): void {
    const blocked = this.#downvotes.has(pairKey(a, b)) || this.#downvotes.has(pairKey(b, a));
    this.expect(!blocked, t, () => `${what} between ${a} and ${b} across a standing downvote`);
  }
}

/** The social checkers, in report order. */
export function socialCheckers(platform: Platform): Checker[] {
  return [
    new SocialScoreExact(platform),
    new RateLimitsHeld(platform),
    new UnseenOnce(),
    new LikesIdempotent(platform),
    new RepliesAnchored(platform),
    new DownvoteBlocksHeld(),
  ];
}
