/**
 * spammer: runs into every limit. Each heartbeat it fires a burst of one social action (posts, replies,
 * likes, follow/unfollow, votes, refresh-social) well past the hourly limits and cooldowns, and honours a
 * 429's retry_after only sometimes, so refusals are frequent. It also keeps polling, so a long enough
 * run spends its daily request quota and every later request is refused until the next UTC day.
 * It exercises every rate limit, the daily quota, and "a refused request changes nothing" at volume.
 */
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, Persona, PersonaFactory } from '../persona.js';
import { pairsOf, readPairs, refillMap, TEXT_MAX } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { ResearchPost, backOffOn429, chatter, likeable, sample, type RateRefusal } from './social.js';
import type { FollowTarget, PostView } from '../../src/client/wire.js';

export interface SpammerOptions {
  /** Attempts of one action per heartbeat. */
  burst: number;
  /** Chance of waiting out a 429's retry_after before trying that action again (0 = never waits). */
  honourChance: number;
  /** Reads per heartbeat (the feed, then others), on top of the bursts: what spends the daily quota. */
  polls: number;
  /** Verify on the mock network first, so refresh-social can be spammed too. */
  verify: boolean;
}

const FEED_SORTS = ['recent', 'trending', 'top'] as const;
const SPAMMER_DEFAULTS: SpammerOptions = { burst: 6, honourChance: 0.3, polls: 3, verify: true };
export const SPAM_ACTIONS = ['post', 'reply', 'like', 'follow', 'vote', 'refresh'] as const;
type SpamAction = (typeof SPAM_ACTIONS)[number];

export class SpammerPersona implements Persona {
  readonly #o: SpammerOptions;
  readonly #research = new ResearchPost();
  /** Per action (and 'requests' for the daily quota): no attempt before this time, when it chose to honour a 429. */
  readonly #waitUntil = new Map<string, number>();
  #verified = false;
  #flip = 0;

  constructor(options: Partial<SpammerOptions> = {}) {
    this.#o = { ...SPAMMER_DEFAULTS, ...options };
  }

  async heartbeat(ctx: AgentContext): Promise<void> {
    if (this.#waiting(ctx, 'requests')) return;
    const refusal = await backOffOn429(() => this.#beat(ctx));
    if (refusal) this.#noteRefusal(ctx, refusal);
  }

  async #beat(ctx: AgentContext): Promise<void> {
    await this.#research.ensure(ctx, `${ctx.handle} has arrived. Follow for more.`);
    if (this.#o.verify && !this.#verified) await this.#verify(ctx);
    const posts = await this.#poll(ctx);
    const action = ctx.rng.pick(SPAM_ACTIONS.filter((a) => a !== 'refresh' || this.#verified));
    for (let i = 0; i < this.#o.burst && !this.#waiting(ctx, action); i++) {
      const refusal = await backOffOn429(() => this.#act(ctx, action, posts));
      if (!refusal) continue;
      this.#noteRefusal(ctx, refusal);
      if (refusal.action === 'requests') return; // the daily quota is spent: nothing more passes today
    }
  }

  #waiting(ctx: AgentContext, action: string): boolean {
    return ctx.nowMs < (this.#waitUntil.get(action) ?? 0);
  }

  /** A 429 names its limit (the action, or `requests` for the daily quota); the spammer waits it out only sometimes. */
  #noteRefusal(ctx: AgentContext, refusal: RateRefusal): void {
    if (ctx.rng.chance(this.#o.honourChance))
      this.#waitUntil.set(refusal.action, ctx.nowMs + refusal.retryAfterMs);
  }

  async #verify(ctx: AgentContext): Promise<void> {
    const info = await ctx.client.verifyInfo();
    await ctx.client.publishExternal({ handle: `x_${ctx.handle}`, text: info.verification_tweet_format });
    await ctx.client.verify(`x_${ctx.handle}`);
    this.#verified = true;
  }

  /**
   * Reads that spend quota and find targets: the feed every time, then by turns unseen, notifications and
   * activity. All send the key (public routes such as health do not count against a key's quota).
   */
  async #poll(ctx: AgentContext): Promise<PostView[]> {
    const { posts } = await ctx.client.feed({ limit: 20, sort: ctx.rng.pick(FEED_SORTS) });
    for (let i = 1; i < this.#o.polls; i++) {
      const pick = ctx.rng.int(0, 2);
      if (pick === 0) await ctx.client.unseen(5);
      else if (pick === 1) await ctx.client.notifications({ limit: 5 });
      else await ctx.client.activity({ limit: 5 });
    }
    return posts;
  }

  async #act(ctx: AgentContext, action: SpamAction, posts: PostView[]): Promise<void> {
    const others = posts.filter((p) => p.author.handle !== ctx.handle);
    switch (action) {
      case 'post':
        await ctx.client.post(chatter(ctx, `${ctx.handle} again!`));
        return;
      case 'reply':
        if (others.length > 0)
          await ctx.client.reply({
            post_id: ctx.rng.pick(others).id,
            content: chatter(ctx, 'Check my profile!'),
          });
        return;
      case 'like':
        return this.#like(ctx, posts);
      case 'follow':
        return this.#followOrUnfollow(ctx, others);
      case 'vote':
        return this.#vote(ctx, others);
      case 'refresh':
        await ctx.client.refreshSocial(ctx.handle);
        return;
    }
  }

  /** A like that changes something: an unliked post, or else an unliked reply of a busy post. */
  async #like(ctx: AgentContext, posts: PostView[]): Promise<void> {
    const [post] = sample(ctx, likeable(posts, ctx.handle), 1);
    if (post) {
      post.has_liked = true; // its own copy: the next attempt of the burst picks another
      await ctx.client.like({ post_id: post.id });
      return;
    }
    const busy = posts.filter((p) => p.replies_count > 0);
    if (busy.length === 0) return;
    const { post: thread } = await ctx.client.feedPost(ctx.rng.pick(busy).id);
    const [reply] = sample(ctx, likeable(thread.replies, ctx.handle), 1);
    if (reply) await ctx.client.like({ reply_id: reply.id });
  }

  /** Alternates follow and unfollow of feed authors (agents and humans): each one spends the follows limit. */
  async #followOrUnfollow(ctx: AgentContext, others: PostView[]): Promise<void> {
    if (others.length === 0) return;
    const author = ctx.rng.pick(others).author;
    const target: FollowTarget =
      author.author_type === 'human' ? { target_username: author.handle } : { target_handle: author.handle };
    const { already_following } = await ctx.client.follow(target);
    if (already_following) await ctx.client.unfollow(target);
  }

  /** Flips its vote on agents between up and down, so every attempt is a change that spends the votes limit. */
  async #vote(ctx: AgentContext, others: PostView[]): Promise<void> {
    const agents = others.filter((p) => p.author.author_type === 'agent');
    if (agents.length === 0) return;
    const vote = this.#flip++ % 2 === 0 ? 'up' : 'down';
    await ctx.client.vote({ target_handle: ctx.rng.pick(agents).author.handle, vote });
  }

  save(): Json {
    return {
      researched: this.#research.save(),
      waitUntil: pairsOf(this.#waitUntil),
      verified: this.#verified,
      flip: this.#flip,
    };
  }

  load(state: Field): void {
    state.record((get) => {
      this.#research.load(get('researched'));
      // Keyed by the limit a 429 names (the platform's word, not one of SPAM_ACTIONS only), so any short text.
      refillMap(
        this.#waitUntil,
        readPairs(
          get('waitUntil'),
          (limit) => limit.str(TEXT_MAX),
          (ms) => ms.nat(),
        ),
      );
      this.#verified = get('verified').bool();
      this.#flip = get('flip').nat();
    });
  }
}

export const spammerPersona: PersonaFactory = {
  name: 'spammer',
  description:
    'bursts of posts, replies, likes, follows, votes and refreshes past every limit; honours retry_after only sometimes; polls into the daily quota',
  create: (options) => new SpammerPersona(options),
  checkOptions: (options) => {
    const problems = Object.keys(options)
      .filter((k) => !(k in SPAMMER_DEFAULTS))
      .map((k) => `${k}: unknown option`);
    problems.push(
      ...checkNumberOption(options, 'burst', 1, 1000, true),
      ...checkNumberOption(options, 'polls', 0, 100, true),
    );
    problems.push(...checkNumberOption(options, 'honourChance', 0, 1));
    if (options['verify'] !== undefined && typeof options['verify'] !== 'boolean')
      problems.push('verify: must be true or false');
    return problems;
  },
};
