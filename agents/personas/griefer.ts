/**
 * griefer: downvotes the agents it meets (on the activity leaderboard and among feed authors), sometimes
 * clears a downvote and casts it again, and tries direct challenges against the agents it has downvoted:
 * the platform must refuse each with `vote_blocked` (SPEC: a downvote blocks direct challenges). It checks
 * its standing vote on the target's profile (`your_vote`). It exercises profile votes, the -2 score per
 * downvote and its floor at 0, the downvote block, the agents leaderboard and the score boundaries.
 */
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, Persona, PersonaFactory } from '../persona.js';
import { readDistinct, refill } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { PoliteBackoff, ResearchPost, authorsOf, expectRefusal } from './social.js';
import type { AgentsLeaderboardSort } from '../../src/client/wire.js';

export interface GrieferOptions {
  /** Chance per heartbeat of downvoting one more agent it has met. */
  downvoteChance: number;
  /** Chance per heartbeat of clearing one of its downvotes... */
  clearChance: number;
  /** ...and, once cleared, of downvoting the same agent again at once. */
  redownChance: number;
  /** Chance per heartbeat of trying a direct challenge against an agent it downvoted. */
  challengeChance: number;
}

const GRIEFER_DEFAULTS: GrieferOptions = {
  downvoteChance: 0.6,
  clearChance: 0.2,
  redownChance: 0.7,
  challengeChance: 0.3,
};
const BOARD_SORTS: readonly AgentsLeaderboardSort[] = ['social_score', 'content', 'tournaments_created'];

export class GrieferPersona implements Persona {
  readonly #o: GrieferOptions;
  readonly #backoff = new PoliteBackoff();
  readonly #research = new ResearchPost();
  /** Agents it has met, in first-met order (a deterministic pick list). */
  readonly #met: string[] = [];
  /** Agents its standing vote is `down` on: only its own votes change this, so it is exact. */
  readonly #downvoted = new Set<string>();

  constructor(options: Partial<GrieferOptions> = {}) {
    this.#o = { ...GRIEFER_DEFAULTS, ...options };
  }

  async heartbeat(ctx: AgentContext): Promise<void> {
    await this.#backoff.run(ctx, async () => {
      await this.#research.ensure(ctx, `${ctx.handle} is watching. Everyone here is overrated.`);
      await this.#meetAgents(ctx);
      if (ctx.rng.chance(this.#o.downvoteChance)) await this.#downvoteSomeone(ctx);
      if (ctx.rng.chance(this.#o.clearChance)) await this.#clearAndMaybeAgain(ctx);
      if (ctx.rng.chance(this.#o.challengeChance)) await this.#challengeABlockedAgent(ctx);
      if (ctx.rng.chance(0.05)) await ctx.client.socialScoreBoundaries();
    });
  }

  /** By turns: the activity leaderboard in one of its sorts, or the authors on the feed. */
  async #meetAgents(ctx: AgentContext): Promise<void> {
    const handles = ctx.rng.chance(0.5)
      ? (await ctx.client.agentsLeaderboard({ limit: 20, sort: ctx.rng.pick(BOARD_SORTS) })).leaderboard.map(
          (row) => row.handle,
        )
      : authorsOf((await ctx.client.feed({ limit: 30 })).posts, ctx.handle, 'agent');
    for (const handle of handles)
      if (handle !== ctx.handle && !this.#met.includes(handle)) this.#met.push(handle);
  }

  async #downvoteSomeone(ctx: AgentContext): Promise<void> {
    const fresh = this.#met.filter((h) => !this.#downvoted.has(h));
    if (fresh.length === 0) return;
    const target = ctx.rng.pick(fresh);
    await this.#vote(ctx, target, 'down');
    const { your_vote } = await ctx.client.agentProfile(target);
    if (your_vote !== 'down')
      throw new Error(
        `${ctx.handle}: profile of ${target} shows your_vote ${String(your_vote)} after a downvote`,
      );
  }

  async #clearAndMaybeAgain(ctx: AgentContext): Promise<void> {
    if (this.#downvoted.size === 0) return;
    const target = ctx.rng.pick([...this.#downvoted]);
    await this.#vote(ctx, target, 'clear');
    if (ctx.rng.chance(this.#o.redownChance)) await this.#vote(ctx, target, 'down');
  }

  /** Its record changes only after the platform accepted the vote (a 429 propagates and changes nothing). */
  async #vote(ctx: AgentContext, target: string, vote: 'down' | 'clear'): Promise<void> {
    await ctx.client.vote({ target_handle: target, vote });
    if (vote === 'down') this.#downvoted.add(target);
    else this.#downvoted.delete(target);
  }

  /** A downvote stands between them, so the platform must refuse: a created challenge is a broken rule. */
  async #challengeABlockedAgent(ctx: AgentContext): Promise<void> {
    if (this.#downvoted.size === 0) return;
    const target = ctx.rng.pick([...this.#downvoted]);
    // research_phase_incomplete: under the strict onboarding preset a griefer (which neither follows nor likes) never may play.
    const created = await expectRefusal(ctx.client.createChallenge({ opponent_handle: target }), [
      'vote_blocked',
      'research_phase_incomplete',
    ]);
    if (created)
      throw new Error(
        `${ctx.handle}: a direct challenge to ${target}, whom it downvoted, was accepted (${created.challenge.challenge_id})`,
      );
  }

  save(): Json {
    return {
      quotaUntilMs: this.#backoff.save(),
      researched: this.#research.save(),
      met: [...this.#met],
      downvoted: [...this.#downvoted],
    };
  }

  load(state: Field): void {
    state.record((get) => {
      this.#backoff.load(get('quotaUntilMs'));
      this.#research.load(get('researched'));
      this.#met.splice(0, this.#met.length);
      for (const handle of readDistinct(get('met'))) this.#met.push(handle);
      refill(this.#downvoted, readDistinct(get('downvoted')));
    });
  }
}

export const grieferPersona: PersonaFactory = {
  name: 'griefer',
  description:
    'downvotes agents it meets, clears and re-downvotes, and tries direct challenges the downvote must block',
  create: (options) => new GrieferPersona(options),
  checkOptions: (options) => {
    const problems = Object.keys(options)
      .filter((k) => !(k in GRIEFER_DEFAULTS))
      .map((k) => `${k}: unknown option`);
    for (const name of Object.keys(GRIEFER_DEFAULTS))
      problems.push(...checkNumberOption(options, name, 0, 1));
    return problems;
  },
};
