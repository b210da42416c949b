/**
 * bounty-hunter: creates no challenges. On a heartbeat it reads its own Elo (`GET /api/whoami`) and the
 * open challenges (`GET /api/chess/challenges/open`, plus direct ones aimed at it), and accepts the richest
 * bounty whose challenger's Elo is at least `minEloGap` below its own and whose stake it is willing to
 * risk; plain challenges it leaves alone. It plays its games like `greedy`. It exercises bounty stakes
 * from the acceptor's side (escrow funding, insufficient_balance when its wallet runs dry, settlement), so
 * a scenario should give it an airdrop.
 */
import { playGreedyMove } from './greedy.js';
import { backOffOn429 } from './social.js';
import type { Field, Json } from '../../src/kernel/checkpoint.js';
import type { AgentContext, Persona, PersonaFactory } from '../persona.js';
import { readDistinct, refill, TEXT_MAX } from './persona-state.js';
import { checkNumberOption } from '../options.js';
import { tolerate } from './random.js';

export interface BountyHunterOptions {
  /** It accepts only challengers at least this many Elo points below itself. */
  minEloGap: number;
  /** The largest stake it puts up, in SOL. */
  maxBountySol: number;
  /** It hunts only while it has fewer live games than this. */
  maxGames: number;
  /** Chance per heartbeat of looking through the open challenges. */
  huntChance: number;
}

const HUNTER_DEFAULTS: BountyHunterOptions = { minEloGap: 100, maxBountySol: 1, maxGames: 3, huntChance: 1 };

/** A bounty challenge as the hunter sees it, open or aimed at it. */
export interface Prey {
  challengeId: string;
  challenger: string;
  challengerElo: number;
  bountySol: number;
}

export interface Hunt extends Prey {
  ownElo: number;
}

export class BountyHunterPersona implements Persona {
  readonly #o: BountyHunterOptions;
  #posted = false;
  /** Every bounty it accepted, with both Elos as it read them. */
  readonly accepted: Hunt[] = [];
  /** Bounty challenges it saw and let go (gap too small or stake too high), by id. */
  readonly passedOver = new Set<string>();

  constructor(options: Partial<BountyHunterOptions> = {}) {
    this.#o = { ...HUNTER_DEFAULTS, ...options };
  }

  /** A 429 (the daily quota) ends the heartbeat, as for every persona. */
  async heartbeat(ctx: AgentContext): Promise<void> {
    await backOffOn429(() => this.#beat(ctx));
  }

  async #beat(ctx: AgentContext): Promise<void> {
    if (!this.#posted) {
      await ctx.client.post(`I am ${ctx.handle}. I take bounties from players rated well below me.`);
      this.#posted = true;
    }
    for (const game of (await ctx.client.myTurn()).games) await playGreedyMove(ctx, game);
    if (ctx.rng.chance(this.#o.huntChance)) await this.#hunt(ctx);
  }

  /** Reads cheapest first: most heartbeats find no bounty at all and stop after the challenge lists. */
  async #hunt(ctx: AgentContext): Promise<void> {
    const sightings = await this.#sightings(ctx);
    if (sightings.length === 0) return;
    const ownElo = (await ctx.client.agentWhoami()).agent.chess_elo ?? 0;
    const prey = sightings.filter((p) => isWorthHunting(p, ownElo, this.#o));
    for (const p of sightings) if (!prey.includes(p)) this.passedOver.add(p.challengeId);
    if (prey.length === 0) return;
    const live = await ctx.client.games({ player_handle: ctx.handle, status: 'active', limit: 1 });
    if (live.total >= this.#o.maxGames) return;
    const richest = Math.max(...prey.map((p) => p.bountySol));
    const target = ctx.rng.pick(prey.filter((p) => p.bountySol === richest));
    if (await tolerate(ctx.client.acceptChallenge(target.challengeId)))
      this.accepted.push({ ...target, ownElo });
  }

  /** Bounty challenges it could take: open ones by others, and direct ones aimed at it. */
  async #sightings(ctx: AgentContext): Promise<Prey[]> {
    const { challenges } = await ctx.client.openChallenges({ limit: 100 });
    const open = challenges
      .filter((c) => c.bounty_sol !== null && c.challenger.handle !== ctx.handle)
      .map((c) => ({
        challengeId: c.challenge_id,
        challenger: c.challenger.handle,
        challengerElo: c.challenger.elo,
        bountySol: c.bounty_sol!,
      }));
    // The simulator's direct_pending rows also carry bounty_sol (WIRE §5 lists it only on outgoing_open, and the
    // client's type not at all); where it is absent, direct challenges are simply not hunted.
    const direct = (await ctx.client.myChallenges()).direct_pending as Array<DirectRow>;
    const aimed = direct
      .filter((c) => c.direction === 'incoming' && typeof c.bounty_sol === 'number')
      .map((c) => ({
        challengeId: c.challenge_id,
        challenger: c.opponent.handle,
        challengerElo: c.opponent.elo,
        bountySol: c.bounty_sol!,
      }));
    return [...open, ...aimed];
  }

  save(): Json {
    return {
      posted: this.#posted,
      accepted: this.accepted.map((hunt) => ({ ...hunt })),
      passedOver: [...this.passedOver],
    };
  }

  load(state: Field): void {
    state.record((get) => {
      this.#posted = get('posted').bool();
      this.accepted.length = 0;
      for (const hunt of get('accepted').list(readHunt)) this.accepted.push(hunt);
      refill(this.passedOver, readDistinct(get('passedOver')));
    });
  }
}

function readHunt(field: Field): Hunt {
  return field.record((get) => ({
    challengeId: get('challengeId').str(TEXT_MAX),
    challenger: get('challenger').str(TEXT_MAX),
    challengerElo: get('challengerElo').num(),
    bountySol: get('bountySol').num(),
    ownElo: get('ownElo').num(),
  }));
}

type DirectRow = {
  challenge_id: string;
  direction: 'incoming' | 'outgoing';
  opponent: { handle: string; elo: number };
  bounty_sol?: number | null;
};

/** The hunter's one rule: a bounty it can afford to risk, from a challenger at least `minEloGap` below it. */
export function isWorthHunting(
  prey: Prey,
  ownElo: number,
  o: Pick<BountyHunterOptions, 'minEloGap' | 'maxBountySol'>,
): boolean {
  return prey.bountySol <= o.maxBountySol && ownElo - prey.challengerElo >= o.minEloGap;
}

export const bountyHunterPersona: PersonaFactory = {
  name: 'bounty-hunter',
  description:
    'creates no challenges; accepts bounties from challengers rated at least minEloGap below it, plays greedy moves',
  create: (options) => new BountyHunterPersona(options),
  checkOptions: (options) => [
    ...Object.keys(options)
      .filter((k) => !(k in HUNTER_DEFAULTS))
      .map((k) => `${k}: unknown option`),
    ...checkNumberOption(options, 'minEloGap', 0, 3000),
    ...checkNumberOption(options, 'maxBountySol', 0.01, 10),
    ...checkNumberOption(options, 'maxGames', 1, 1000, true),
    ...checkNumberOption(options, 'huntChance', 0, 1),
  ],
};
