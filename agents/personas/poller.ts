/**
 * poller (heartbeat poller): does on every heartbeat what the platform's skill file tells real agents to
 * do every 30-60 s, in its order: my-turn -> move -> challenges -> tournaments -> feed. The first three are
 * `random`'s heartbeat (GET my-turn, a random legal move per waiting game, GET challenges/mine, then now
 * and then the open challenges); after them come the reads named in `reads`, in the order of POLL_READS.
 * Give the group a 30-60 s heartbeat: a crowd of pollers then puts a real agent population's read load
 * on the platform (and meets the daily request quota as real agents would).
 */
import { ApiError } from '../../src/client/client.js';
import type { Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, PersonaFactory } from '../persona.js';
import { pairsOf, readCounts, refillMap, type StateField } from './persona-state.js';
import { RandomPersona, checkRandomOptions, type RandomOptions } from './random.js';

/** The reads after the challenges step, in the order a heartbeat makes them (the skill's order, then extras). */
export const POLL_READS = [
  'tournaments',
  'feed',
  'notifications',
  'unseen',
  'leaderboard',
  'activity',
] as const;
export type PollRead = (typeof POLL_READS)[number];

const READERS: Readonly<Record<PollRead, (ctx: AgentContext) => Promise<unknown>>> = {
  tournaments: (ctx) => ctx.client.openTournaments({ limit: 20 }),
  feed: (ctx) => ctx.client.feed({ limit: 20 }),
  notifications: (ctx) => ctx.client.notifications({ limit: 20 }),
  unseen: (ctx) => ctx.client.unseen(20),
  leaderboard: (ctx) => ctx.client.leaderboardAround(),
  activity: (ctx) => ctx.client.activity({ limit: 20 }),
};

export interface PollerOptions extends RandomOptions {
  /** The reads after my-turn, move and challenges; the skill's own are tournaments and feed. */
  reads: PollRead[];
}

const POLLER_DEFAULTS: Omit<PollerOptions, keyof RandomOptions> = { reads: ['tournaments', 'feed'] };

export class PollerPersona extends RandomPersona {
  readonly #reads: PollRead[];
  /** Heartbeats taken and reads made, by kind, for reports and tests. */
  readonly stats = { heartbeats: 0, reads: new Map<PollRead, number>() };

  constructor(options: Partial<PollerOptions> = {}) {
    super(options);
    const wanted = new Set(options.reads ?? POLLER_DEFAULTS.reads);
    this.#reads = POLL_READS.filter((r) => wanted.has(r));
  }

  override async heartbeat(ctx: AgentContext): Promise<void> {
    this.stats.heartbeats++;
    await super.heartbeat(ctx);
    for (const read of this.#reads) {
      const answered = await tolerateQuota(READERS[read](ctx));
      if (!answered) return; // over the daily quota: the rest waits for the next heartbeat
      this.stats.reads.set(read, (this.stats.reads.get(read) ?? 0) + 1);
    }
  }

  protected override saveState(): Record<string, Json> {
    return { ...super.saveState(), heartbeats: this.stats.heartbeats, reads: pairsOf(this.stats.reads) };
  }

  protected override loadState(get: StateField): void {
    super.loadState(get);
    this.stats.heartbeats = get('heartbeats').nat();
    refillMap(
      this.stats.reads,
      readCounts(get('reads'), (read) => read.oneOf(POLL_READS)),
    );
  }
}

/** True when the read was answered (a refusal counts); false on a 429, which ends the heartbeat as for `random`. */
async function tolerateQuota(read: Promise<unknown>): Promise<boolean> {
  try {
    await read;
    return true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return error.code !== 'rate_limit_exceeded';
  }
}

export const pollerPersona: PersonaFactory = {
  name: 'poller',
  description:
    'every heartbeat: my-turn, move, challenges, then tournaments and feed (configurable reads), as the skill tells agents',
  create: (options) => new PollerPersona(options),
  checkOptions: (options) => {
    const problems = checkRandomOptions(options, Object.keys(POLLER_DEFAULTS));
    const reads = options['reads'];
    const known = (r: unknown) => (POLL_READS as readonly unknown[]).includes(r);
    if (reads !== undefined && (!Array.isArray(reads) || !reads.every(known)))
      problems.push(`reads: must be a list of ${POLL_READS.join(', ')}`);
    return problems;
  },
};
