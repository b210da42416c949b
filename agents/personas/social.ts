/**
 * What the social personas share: refusals they expect (by code, so anything else still stops the run),
 * reading a 429, the research-phase post, and picking what to like or answer from a feed page.
 */
import { ApiError } from '../../src/client/client.js';
import type { PostView, ReplyView } from '../../src/client/wire.js';
import type { Field } from '../../src/kernel/checkpoint.js';
import type { AgentContext } from '../persona.js';

/**
 * Runs `request`; a refusal whose code is in `codes` is part of play and gives undefined. Unlike
 * random.ts's `tolerate` (any 4xx), the social personas name what they expect, so a persona that sends
 * a malformed request or calls a route that does not exist fails the run instead of hiding it.
 */
export async function expectRefusal<T>(
  request: Promise<T>,
  codes: readonly string[],
): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof ApiError && codes.includes(error.code)) return undefined;
    throw error;
  }
}

/** The 429 body of a rate-limited request: which limit, and how long to wait. */
export interface RateRefusal {
  action: string;
  retryAfterMs: number;
}

export function rateRefusal(error: unknown): RateRefusal | undefined {
  if (!(error instanceof ApiError) || error.code !== 'rate_limit_exceeded') return undefined;
  const body = (error.body ?? {}) as { action?: unknown; retry_after?: unknown };
  const seconds = typeof body.retry_after === 'number' ? body.retry_after : 1;
  return { action: typeof body.action === 'string' ? body.action : 'unknown', retryAfterMs: seconds * 1000 };
}

/**
 * A heartbeat cut short by a 429 ends quietly: the persona backs off until its next heartbeat, as the
 * real service's docs ask ("back off on 429"). The refusal is returned so a persona can remember the wait.
 */
export async function backOffOn429(body: () => Promise<void>): Promise<RateRefusal | undefined> {
  try {
    await body();
    return undefined;
  } catch (error) {
    const refusal = rateRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
}

/** backOffOn429 for a heartbeat that keeps no note of the refusal: `beat`'s promise, a 429 ending it quietly. */
export function quietOn429(beat: Promise<void>): Promise<void> {
  return beat.catch(unlessRateRefusal);
}

function unlessRateRefusal(error: unknown): void {
  if (rateRefusal(error) === undefined) throw error;
}

/**
 * A careful agent's heartbeat: a 429 ends it (as `backOffOn429`), and once a refusal names the daily quota
 * (`requests`) no heartbeat runs again until its retry_after has passed (the next UTC day).
 */
export class PoliteBackoff {
  #quotaUntilMs = 0;

  async run(ctx: AgentContext, body: () => Promise<void>): Promise<RateRefusal | undefined> {
    if (ctx.nowMs < this.#quotaUntilMs) return undefined;
    const refusal = await backOffOn429(body);
    if (refusal?.action === 'requests') this.#quotaUntilMs = ctx.nowMs + refusal.retryAfterMs;
    return refusal;
  }

  /** Its state for a checkpoint: the virtual time the daily quota's wait ends (0: none). */
  save(): number {
    return this.#quotaUntilMs;
  }

  load(field: Field): void {
    this.#quotaUntilMs = field.nat();
  }
}

/** The one post of the research phase (SPEC: a post before the first game); every social persona makes it. */
export class ResearchPost {
  #done = false;

  async ensure(ctx: AgentContext, text: string): Promise<void> {
    if (this.#done) return;
    await ctx.client.post(text);
    this.#done = true;
  }

  /** Its state for a checkpoint: whether the post was made. */
  save(): boolean {
    return this.#done;
  }

  load(field: Field): void {
    this.#done = field.bool();
  }
}

/** Posts and replies by someone else that this viewer has not liked yet. */
export function likeable<T extends PostView | ReplyView>(items: readonly T[], me: string): T[] {
  return items.filter((item) => item.author.handle !== me && !item.has_liked);
}

/** Distinct authors of a page of posts, of one account kind, other than `me`, in first-seen order. */
export function authorsOf(posts: readonly PostView[], me: string, kind: 'agent' | 'human'): string[] {
  const seen = new Set<string>();
  for (const post of posts)
    if (post.author.author_type === kind && post.author.handle !== me) seen.add(post.author.handle);
  return [...seen];
}

/** Up to `n` distinct items in a seeded order. */
export function sample<T>(ctx: AgentContext, items: readonly T[], n: number): T[] {
  return ctx.rng.shuffle(items).slice(0, n);
}

/** A short sentence drawn from a small vocabulary: content that differs post to post and can be searched for. */
const WORDS = [
  'opening',
  'endgame',
  'gambit',
  'tactic',
  'blunder',
  'fortress',
  'zugzwang',
  'sacrifice',
  'pin',
  'fork',
  'tempo',
  'outpost',
];

export function chatter(ctx: AgentContext, lead: string): string {
  const a = ctx.rng.pick(WORDS);
  const b = ctx.rng.pick(WORDS);
  return `${lead} Thinking about the ${a} and the ${b} today.`;
}

export function searchWord(ctx: AgentContext): string {
  return ctx.rng.pick(WORDS);
}
