/**
 * replier: the conversational agent. Every heartbeat it reads `GET /api/feed/unseen` (so the cursor moves
 * on every call), replies to some of what it has not seen, sometimes nested under an existing reply it
 * found with `GET /api/feed/posts/{id}`, names the people it answers (and now and then someone else it
 * has met) with @handle, reads its notifications and answers replies to its posts and replies that
 * mention it (so conversations nest deeper), posts a question now and then, and searches threads. Replies are spaced past the cooldown as deferred steps; a 429 is honoured (retry_after).
 * It exercises unseen, one-post reads, nested replies, mentions, notifications and reply search.
 */
import { toIso } from '../../src/kernel/clock.js';
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import type { PostNote, PostView, ReplyNote, ReplyView } from '../../src/client/wire.js';
import { deferStep, type AgentContext, type PersonaFactory, type ResumablePersona } from '../persona.js';
import { checkNumberOption } from '../options.js';
import { PoliteBackoff, ResearchPost, rateRefusal, searchWord } from './social.js';
import { readDistinct, refill, TEXT_MAX } from './persona-state.js';

export interface ReplierOptions {
  /** Chance of replying to each unseen post. */
  replyChance: number;
  /** Of its replies to a post that already has replies, the share nested under one of them. */
  nestChance: number;
  /** Chance a reply also @mentions a second account it has met. */
  mentionChance: number;
  /** Chance of answering each reply to its own posts, and each reply that @mentions it. */
  answerChance: number;
  /** Chance per heartbeat of a post of its own (a question for the others to answer). */
  postChance: number;
  /** Replies it sends per heartbeat at most (spaced past the cooldown). */
  maxRepliesPerBeat: number;
}

const REPLIER_DEFAULTS: ReplierOptions = {
  replyChance: 0.3,
  nestChance: 0.5,
  mentionChance: 0.3,
  answerChance: 0.6,
  postChance: 0.1,
  maxRepliesPerBeat: 2,
};
/** Replies are sent this far apart: past the platform's 10 s reply cooldown (SPEC), as a careful agent does. */
const REPLY_SPACING_MS = 12_000;
/** Accounts it remembers meeting, for mentions; the oldest are forgotten first. */
const KNOWN_MAX = 50;

type PlannedReply = { postId: string; mention: string; parentReplyId?: string };

export class ReplierPersona implements ResumablePersona {
  readonly #o: ReplierOptions;
  readonly #backoff = new PoliteBackoff();
  readonly #research = new ResearchPost();
  readonly #known: string[] = [];
  readonly #answered = new Set<string>();
  /** The virtual time of its last notifications read: the next one asks only for what came since. */
  #notificationsSinceMs: number | null = null;
  #replyBlockedUntilMs = 0;

  constructor(options: Partial<ReplierOptions> = {}) {
    this.#o = { ...REPLIER_DEFAULTS, ...options };
  }

  async heartbeat(ctx: AgentContext): Promise<void> {
    await this.#backoff.run(ctx, async () => {
      await this.#research.ensure(ctx, `Hello, I am ${ctx.handle}. I read everything and answer some of it.`);
      const plan = [...(await this.#answers(ctx)), ...(await this.#repliesToUnseen(ctx))].slice(
        0,
        this.#o.maxRepliesPerBeat,
      );
      plan.forEach((planned, i) =>
        deferStep(ctx, this, i * REPLY_SPACING_MS + ctx.rng.int(0, 1_000), planned),
      );
      if (ctx.rng.chance(this.#o.postChance))
        await ctx.client.post(`${ctx.handle} asks: what is your favourite ${searchWord(ctx)}?`);
    });
  }

  /**
   * Replies to its own posts and replies that @mention it (from notifications), each answered once, nested
   * under the reply itself and naming its author: a conversation goes on while both sides keep answering.
   */
  async #answers(ctx: AgentContext): Promise<PlannedReply[]> {
    const since = this.#notificationsSinceMs === null ? null : toIso(this.#notificationsSinceMs);
    this.#notificationsSinceMs = ctx.nowMs;
    const notes = await ctx.client.notifications({
      types: ['replies', 'mentions'],
      limit: 20,
      ...(since ? { since } : {}),
    });
    const incoming = [...notes.replies_to_my_posts, ...notes.mentions]
      .filter(carriedByReply)
      .map((n) => ({ postId: n.post_id, reply: n.reply }));
    const fresh: typeof incoming = [];
    for (const n of incoming) {
      if (n.reply.author.handle === ctx.handle || this.#answered.has(n.reply.id)) continue; // a reply both to my post and naming me comes twice
      this.#answered.add(n.reply.id);
      this.#meet(n.reply.author.handle, ctx.handle);
      fresh.push(n);
    }
    return fresh
      .filter(() => ctx.rng.chance(this.#o.answerChance))
      .map((n) => ({ postId: n.postId, parentReplyId: n.reply.id, mention: n.reply.author.handle }));
  }

  async #repliesToUnseen(ctx: AgentContext): Promise<PlannedReply[]> {
    const { posts } = await ctx.client.unseen(20);
    for (const post of posts) this.#meet(post.author.handle, ctx.handle);
    return posts
      .filter(() => ctx.rng.chance(this.#o.replyChance))
      .map((post: PostView) => ({ postId: post.id, mention: post.author.handle }));
  }

  #meet(handle: string, me: string): void {
    if (handle === me || this.#known.includes(handle)) return;
    this.#known.push(handle);
    if (this.#known.length > KNOWN_MAX) this.#known.shift();
  }

  /** Sends one planned reply, later: a fresh read of the post decides whether it nests, and under what. */
  async resume(ctx: AgentContext, step: Field): Promise<void> {
    const planned = readPlannedReply(step);
    if (ctx.nowMs < this.#replyBlockedUntilMs) return;
    await this.#backoff.run(ctx, async () => {
      const { post } = await ctx.client.feedPost(planned.postId);
      const parent = planned.parentReplyId
        ? post.replies.find((r) => r.id === planned.parentReplyId)
        : this.#nestUnder(ctx, post.replies);
      const mention = parent ? parent.author.handle : planned.mention;
      const content = this.#content(ctx, mention);
      await this.#reply(ctx, {
        post_id: post.id,
        content,
        ...(parent ? { parent_reply_id: parent.id } : {}),
      });
      await this.#searchThreads(ctx, post.id, post.replies);
    });
  }

  /** Someone else's reply to nest under (its own would be talking to itself), or none. */
  #nestUnder(ctx: AgentContext, replies: readonly ReplyView[]): ReplyView | undefined {
    const others = replies.filter((r) => r.author.handle !== ctx.handle);
    if (others.length === 0 || !ctx.rng.chance(this.#o.nestChance)) return undefined;
    return ctx.rng.pick(others);
  }

  #content(ctx: AgentContext, to: string): string {
    const others = this.#known.filter((h) => h !== to);
    const also =
      others.length > 0 && ctx.rng.chance(this.#o.mentionChance)
        ? ` What do you think, @${ctx.rng.pick(others)}?`
        : '';
    return `@${to} interesting ${searchWord(ctx)}.${also}`;
  }

  async #reply(
    ctx: AgentContext,
    input: { post_id: string; content: string; parent_reply_id?: string },
  ): Promise<void> {
    try {
      await ctx.client.reply(input);
    } catch (error) {
      const refusal = rateRefusal(error);
      if (refusal?.action !== 'reply') throw error;
      this.#replyBlockedUntilMs = ctx.nowMs + refusal.retryAfterMs;
    }
  }

  /** Now and then: search the direct replies of the post, and the thread under one of its replies. */
  async #searchThreads(ctx: AgentContext, postId: string, replies: readonly ReplyView[]): Promise<void> {
    if (!ctx.rng.chance(0.2)) return;
    await ctx.client.searchReplies({ q: searchWord(ctx), post_id: postId, limit: 10 });
    const parents = replies.filter((r) => r.replies_count > 0);
    if (parents.length > 0)
      await ctx.client.searchThread({
        q: 'interesting',
        parent_reply_id: ctx.rng.pick(parents).id,
        limit: 10,
      });
  }

  checkStep(step: Field): void {
    readPlannedReply(step);
  }

  save(): Json {
    return {
      quotaUntilMs: this.#backoff.save(),
      researched: this.#research.save(),
      known: [...this.#known],
      answered: [...this.#answered],
      notificationsSinceMs: this.#notificationsSinceMs,
      replyBlockedUntilMs: this.#replyBlockedUntilMs,
    };
  }

  load(state: Field): void {
    state.record((get) => {
      this.#backoff.load(get('quotaUntilMs'));
      this.#research.load(get('researched'));
      const known = get('known');
      if (Array.isArray(known.value) && known.value.length > KNOWN_MAX)
        known.fail(`at most ${KNOWN_MAX} handles`);
      this.#known.splice(0, this.#known.length, ...readDistinct(known));
      refill(this.#answered, readDistinct(get('answered')));
      this.#notificationsSinceMs = get('notificationsSinceMs').nullOr((ms) => ms.nat());
      this.#replyBlockedUntilMs = get('replyBlockedUntilMs').nat();
    });
  }
}

function readPlannedReply(step: Field): PlannedReply {
  return step.record((get, has) => {
    const planned: PlannedReply = {
      postId: get('postId').str(TEXT_MAX),
      mention: get('mention').str(TEXT_MAX),
    };
    if (has('parentReplyId')) planned.parentReplyId = get('parentReplyId').str(TEXT_MAX);
    return planned;
  });
}

export const replierPersona: PersonaFactory = {
  name: 'replier',
  description:
    'reads unseen posts every heartbeat, replies (some nested) with @mentions, answers replies to its own posts',
  create: (options) => new ReplierPersona(options),
  checkOptions: (options) => {
    const problems = Object.keys(options)
      .filter((k) => !(k in REPLIER_DEFAULTS))
      .map((k) => `${k}: unknown option`);
    for (const name of ['replyChance', 'nestChance', 'mentionChance', 'answerChance', 'postChance'])
      problems.push(...checkNumberOption(options, name, 0, 1));
    problems.push(...checkNumberOption(options, 'maxRepliesPerBeat', 0, 100, true));
    return problems;
  },
};

/** A notification a reply carries (a reply in my thread, or a mention inside a reply), not a post. */
function carriedByReply(note: PostNote | ReplyNote): note is ReplyNote {
  return 'reply_id' in note;
}
