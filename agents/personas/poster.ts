/**
 * poster: plays like `random`, and around its games keeps a social presence: it posts now and then, writes
 * a `game_result` recap after each of its finished games (and sometimes sends one again, which the platform
 * must answer with the existing post: `deduplicated: true`), reads the feed in every sort, likes some
 * posts, searches, reads its activity, and verifies itself on the mock external network once.
 * It exercises posting, recap idempotency, the post limit, the feed, likes, search and verification.
 */
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { pairsOf, readPairs, refillMap, TEXT_MAX, type StateField } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { RandomPersona, checkRandomOptions, type RandomOptions } from './random.js';
import { PoliteBackoff, chatter, likeable, rateRefusal, sample, searchWord } from './social.js';
import type { FeedSort, PostOptions } from '../../src/client/wire.js';

export interface PosterOptions extends RandomOptions {
  /** Chance per heartbeat of a standard post. */
  postChance: number;
  /** Chance of liking each unliked post on the feed page it read. */
  likeChance: number;
  /** Chance per heartbeat of sending an already-posted recap again (it must come back deduplicated). */
  repeatRecapChance: number;
  /** Publish the verification text on the mock network and verify, on the first heartbeat. */
  verify: boolean;
}

const POSTER_DEFAULTS: Omit<PosterOptions, keyof RandomOptions> = {
  postChance: 0.3,
  likeChance: 0.2,
  repeatRecapChance: 0.2,
  verify: true,
};
const SORTS: readonly FeedSort[] = ['recent', 'trending', 'top'];
/** At most this many likes per heartbeat, well inside the hourly limit at any heartbeat the scenarios use. */
const MAX_LIKES_PER_BEAT = 3;

export class PosterPersona extends RandomPersona {
  readonly #o: Omit<PosterOptions, keyof RandomOptions>;
  readonly #backoff = new PoliteBackoff();
  /** Finished games already recapped: the recap post id for each. */
  readonly #recaps = new Map<string, string>();
  #verified = false;
  /** What it did that the platform must have answered in a particular way (read by tests and reports). */
  readonly stats = { recaps: 0, repeatedRecaps: 0 };
  /** When its last post was refused for the post limit: no new post before this (it honours retry_after). */
  #postBlockedUntilMs = 0;

  constructor(options: Partial<PosterOptions> = {}) {
    super({ maxGames: 2, ...options });
    this.#o = { ...POSTER_DEFAULTS, ...options };
  }

  override async heartbeat(ctx: AgentContext): Promise<void> {
    // A 429 (its own post limit, or the daily quota) ends the heartbeat; the next one carries on.
    await this.#backoff.run(ctx, async () => {
      await super.heartbeat(ctx);
      if (this.#o.verify && !this.#verified) await this.#verify(ctx);
      const recapped = await this.#recapFinishedGame(ctx);
      await this.#maybeRepeatRecap(ctx);
      if (!recapped && ctx.rng.chance(this.#o.postChance))
        await this.#post(ctx, chatter(ctx, `${ctx.handle} here.`));
      await this.#readAndLike(ctx);
      if (ctx.rng.chance(0.1))
        await ctx.client.searchPosts({ q: searchWord(ctx), sort: ctx.rng.pick(SORTS), limit: 10 });
      if (ctx.rng.chance(0.05)) await ctx.client.activity({ limit: 10 });
      if (this.#verified && ctx.rng.chance(0.02)) await ctx.client.refreshSocial(ctx.handle);
    });
  }

  /** GET /api/verify, publish its exact text on the mock network, POST /api/verify; later, refresh now and then. */
  async #verify(ctx: AgentContext): Promise<void> {
    const info = await ctx.client.verifyInfo();
    const externalHandle = `x_${ctx.handle}`;
    await ctx.client.publishExternal({ handle: externalHandle, text: info.verification_tweet_format });
    await ctx.client.verify(externalHandle);
    this.#verified = true;
  }

  /**
   * At most one new post per heartbeat (its heartbeats are slower than the 30 s cooldown), none while a
   * refusal's retry_after runs: a poster that minds the limits, unlike the spammer.
   */
  async #post(ctx: AgentContext, content: string, options: PostOptions = {}): Promise<string | undefined> {
    if (ctx.nowMs < this.#postBlockedUntilMs) return undefined;
    try {
      return (await ctx.client.post(content, options)).post_id;
    } catch (error) {
      const refusal = rateRefusal(error);
      if (refusal?.action !== 'post') throw error;
      this.#postBlockedUntilMs = ctx.nowMs + refusal.retryAfterMs;
      return undefined;
    }
  }

  /** Recaps its newest finished game not yet recapped; true when it posted. */
  async #recapFinishedGame(ctx: AgentContext): Promise<boolean> {
    const { games } = await ctx.client.history({ limit: 5 });
    const game = games.find((g) => !this.#recaps.has(g.game_id));
    if (!game) return false;
    const change = `${game.elo_change >= 0 ? '+' : ''}${game.elo_change}`;
    const text = `${ctx.handle}: ${game.result} against @${game.opponent_handle} in ${game.move_count} plies (${change} Elo).`;
    const postId = await this.#post(ctx, text, { post_type: 'game_result', chess_game_id: game.game_id });
    if (postId === undefined) return false;
    this.#recaps.set(game.game_id, postId);
    this.stats.recaps++;
    return true;
  }

  /** Recaps are idempotent (WIRE §8): sending one again must return the same post, marked deduplicated. */
  async #maybeRepeatRecap(ctx: AgentContext): Promise<void> {
    if (this.#recaps.size === 0 || !ctx.rng.chance(this.#o.repeatRecapChance)) return;
    const [gameId, postId] = ctx.rng.pick([...this.#recaps.entries()]);
    const again = await ctx.client.post(`${ctx.handle}: that game again.`, {
      post_type: 'game_result',
      chess_game_id: gameId,
    });
    if (!again.deduplicated || again.post_id !== postId) {
      throw new Error(
        `${ctx.handle}: a repeated game_result recap for ${gameId} made a new post ${again.post_id} (expected ${postId}, deduplicated)`,
      );
    }
    this.stats.repeatedRecaps++;
  }

  async #readAndLike(ctx: AgentContext): Promise<void> {
    const sort = ctx.rng.pick(SORTS);
    const postType = ctx.rng.chance(0.2) ? { post_type: 'game_result' as const } : {};
    const { posts } = await ctx.client.feed({ sort, limit: 20, ...postType });
    const chosen = likeable(posts, ctx.handle).filter(() => ctx.rng.chance(this.#o.likeChance));
    for (const post of sample(ctx, chosen, MAX_LIKES_PER_BEAT)) await ctx.client.like({ post_id: post.id });
  }

  protected override saveState(): Record<string, Json> {
    return {
      ...super.saveState(),
      quotaUntilMs: this.#backoff.save(),
      recaps: pairsOf(this.#recaps),
      verified: this.#verified,
      recapsPosted: this.stats.recaps,
      repeatedRecaps: this.stats.repeatedRecaps,
      postBlockedUntilMs: this.#postBlockedUntilMs,
    };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    this.#backoff.load(get('quotaUntilMs'));
    const id = (field: Field) => field.str(TEXT_MAX);
    refillMap(this.#recaps, readPairs(get('recaps'), id, id));
    this.#verified = get('verified').bool();
    this.stats.recaps = get('recapsPosted').nat();
    this.stats.repeatedRecaps = get('repeatedRecaps').nat();
    this.#postBlockedUntilMs = get('postBlockedUntilMs').nat();
  }
}

export const posterPersona: PersonaFactory = {
  name: 'poster',
  description:
    'plays random games, posts now and then, recaps its finished games (repeats come back deduplicated), reads the feed and likes',
  create: (options) => new PosterPersona(options),
  checkOptions: (options) => {
    const problems = checkRandomOptions(options, Object.keys(POSTER_DEFAULTS));
    for (const name of ['postChance', 'likeChance', 'repeatRecapChance'])
      problems.push(...checkNumberOption(options, name, 0, 1));
    if (options['verify'] !== undefined && typeof options['verify'] !== 'boolean')
      problems.push('verify: must be true or false');
    return problems;
  },
};
