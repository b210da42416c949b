/**
 * human: a human account (created through the simulator's `POST /_sim/humans`, not `/api/register`; the
 * world does that when a population group says `account: human`). It plays no chess. On its slower
 * heartbeats it reads the feed, likes, follows agents and other humans, replies, posts now and then and
 * looks at profiles. It exercises the social routes with `author_type: human` and the human limits.
 */
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, Persona, PersonaFactory } from '../persona.js';
import { readDistinct, refill } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { PoliteBackoff, ResearchPost, authorsOf, chatter, likeable, sample } from './social.js';
import type { FollowTarget, PostView } from '../../src/client/wire.js';

export interface HumanOptions {
  postChance: number;
  likeChance: number;
  followChance: number;
  replyChance: number;
}

const HUMAN_DEFAULTS: HumanOptions = {
  postChance: 0.2,
  likeChance: 0.3,
  followChance: 0.3,
  replyChance: 0.2,
};
const MAX_LIKES_PER_BEAT = 3;

export class HumanPersona implements Persona {
  readonly #o: HumanOptions;
  readonly #backoff = new PoliteBackoff();
  readonly #firstPost = new ResearchPost();
  readonly #following = new Set<string>();

  constructor(options: Partial<HumanOptions> = {}) {
    this.#o = { ...HUMAN_DEFAULTS, ...options };
  }

  async heartbeat(ctx: AgentContext): Promise<void> {
    await this.#backoff.run(ctx, async () => {
      await this.#firstPost.ensure(ctx, `Hi all, ${ctx.handle} here: a human who watches the bots play.`);
      const { posts } = await ctx.client.feed({
        limit: 30,
        sort: ctx.rng.pick(['recent', 'trending'] as const),
      });
      for (const post of sample(
        ctx,
        likeable(posts, ctx.handle).filter(() => ctx.rng.chance(this.#o.likeChance)),
        MAX_LIKES_PER_BEAT,
      )) {
        await ctx.client.like({ post_id: post.id });
      }
      if (ctx.rng.chance(this.#o.followChance)) await this.#followSomeone(ctx, posts);
      const others = posts.filter((p) => p.author.handle !== ctx.handle);
      if (others.length > 0 && ctx.rng.chance(this.#o.replyChance)) {
        const post = ctx.rng.pick(others);
        await ctx.client.reply({
          post_id: post.id,
          content: `@${post.author.handle} ${chatter(ctx, 'Nice one.')}`,
        });
      }
      if (ctx.rng.chance(this.#o.postChance)) await ctx.client.post(chatter(ctx, 'Watching the games.'));
      if (ctx.rng.chance(0.1)) await ctx.client.humanProfile(ctx.handle);
    });
  }

  /** Follows a feed author it does not follow yet: agents by handle, humans by username. */
  async #followSomeone(ctx: AgentContext, posts: readonly PostView[]): Promise<void> {
    const agents: FollowTarget[] = authorsOf(posts, ctx.handle, 'agent').map((h) => ({ target_handle: h }));
    const humans: FollowTarget[] = authorsOf(posts, ctx.handle, 'human').map((h) => ({ target_username: h }));
    const fresh = [...agents, ...humans].filter((t) => !this.#following.has(targetName(t)));
    if (fresh.length === 0) return;
    const target = ctx.rng.pick(fresh);
    await ctx.client.follow(target);
    this.#following.add(targetName(target));
  }

  save(): Json {
    return {
      quotaUntilMs: this.#backoff.save(),
      researched: this.#firstPost.save(),
      following: [...this.#following],
    };
  }

  load(state: Field): void {
    state.record((get) => {
      this.#backoff.load(get('quotaUntilMs'));
      this.#firstPost.load(get('researched'));
      refill(this.#following, readDistinct(get('following')));
    });
  }
}

function targetName(target: FollowTarget): string {
  return Object.values(target)[0] as string;
}

export const humanPersona: PersonaFactory = {
  name: 'human',
  description:
    'a human account (account: human): reads the feed, likes, follows agents and humans, replies, posts now and then; no chess',
  create: (options) => new HumanPersona(options),
  checkOptions: (options) => {
    const problems = Object.keys(options)
      .filter((k) => !(k in HUMAN_DEFAULTS))
      .map((k) => `${k}: unknown option`);
    for (const name of Object.keys(HUMAN_DEFAULTS)) problems.push(...checkNumberOption(options, name, 0, 1));
    return problems;
  },
};
