import type { PlatformEvent } from '../../platform/events.js';
import type { Platform } from '../../platform/platform.js';
import type { Ruleset } from '../../rules/ruleset.js';
import { Checker, hasFinalCheck, type InvariantResult, type Violation } from './checker.js';
import { socialCheckers } from './social-invariants.js';

export type { InvariantResult, Violation } from './checker.js';

/**
 * Independent checkers of the platform's rules. They keep their own model, built only from the event log,
 * and compare it with the platform after every event. They import no rule: a bug in a rule must not be
 * able to hide itself by being reused here. The social layer's checkers live in social-invariants.ts.
 */

/** Ratings replayed from the log match the platform's, equal-K changes cancel, and the sum never drifts. */
class EloConservation extends Checker {
  readonly name = 'elo_conservation';
  readonly description =
    'rating changes of equal-K games cancel exactly; ratings and their sum match a replay of the log';
  #ratings = new Map<string, number>();
  #expectedSum = 0;

  constructor(private readonly platform: Platform) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'agent_registered') {
      this.#ratings.set(e.agentId, e.elo);
      this.#expectedSum += e.elo;
    }
    if (e.type !== 'game_ended') return;
    if (e.equalK)
      this.expect(
        e.whiteDelta + e.blackDelta === 0,
        e.t,
        () => `game ${e.gameId}: ${e.whiteDelta} + ${e.blackDelta} != 0`,
      );
    this.expect(
      this.#ratings.get(e.whiteId) === e.whiteEloBefore && this.#ratings.get(e.blackId) === e.blackEloBefore,
      e.t,
      () => `game ${e.gameId}: ratings before differ from the replay`,
    );
    this.#ratings.set(e.whiteId, e.whiteEloBefore + e.whiteDelta);
    this.#ratings.set(e.blackId, e.blackEloBefore + e.blackDelta);
    this.#expectedSum += e.whiteDelta + e.blackDelta;
    for (const id of [e.whiteId, e.blackId]) {
      const actual = this.platform.state.agents.get(id)?.elo;
      this.expect(
        actual === this.#ratings.get(id),
        e.t,
        () => `agent ${id}: platform rating ${actual} != replayed ${this.#ratings.get(id)}`,
      );
    }
  }

  /** The whole-population sum, checked at the end of a run (O(agents), so not after every event). */
  finalCheck(t: number): void {
    let sum = 0;
    for (const agent of this.platform.state.agents.values()) sum += agent.elo;
    this.expect(sum === this.#expectedSum, t, () => `sum of ratings ${sum} != expected ${this.#expectedSum}`);
  }
}

/** A game ends once, and nothing is played after it ends. */
class OneResultPerGame extends Checker {
  readonly name = 'one_result_per_game';
  readonly description = 'every game ends at most once, and no move is accepted after it ended';
  #ended = new Set<string>();

  protected check(e: PlatformEvent): void {
    if (e.type === 'move_played')
      this.expect(!this.#ended.has(e.gameId), e.t, () => `game ${e.gameId}: move after the end`);
    if (e.type !== 'game_ended') return;
    this.expect(!this.#ended.has(e.gameId), e.t, () => `game ${e.gameId}: ended twice`);
    this.#ended.add(e.gameId);
  }
}

/** Every turn lasts exactly the turn limit: moves land strictly before it, timeouts exactly at it. */
class DeadlinesExact extends Checker {
  readonly name = 'deadlines_exact';
  readonly description =
    'moves are accepted only before the turn deadline; a timeout happens exactly at it; deadlines are turn start + limit';
  #deadline = new Map<string, number>();

  constructor(private readonly turnLimitMs: number) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'game_started') {
      this.expect(
        e.deadlineMs === e.t + this.turnLimitMs,
        e.t,
        () => `game ${e.gameId}: first deadline ${e.deadlineMs} != start + limit`,
      );
      this.#deadline.set(e.gameId, e.t + this.turnLimitMs);
    } else if (e.type === 'move_played') this.checkMove(e);
    else if (e.type === 'game_ended') this.checkEnd(e);
  }

  private checkMove(e: Extract<PlatformEvent, { type: 'move_played' }>): void {
    const deadline = this.#deadline.get(e.gameId);
    this.expect(
      deadline !== undefined && e.t < deadline,
      e.t,
      () => `game ${e.gameId}: move at ${e.t} not before deadline ${deadline}`,
    );
    this.expect(
      e.deadlineMs === deadline,
      e.t,
      () => `game ${e.gameId}: platform deadline ${e.deadlineMs} != ${deadline}`,
    );
    if (e.nextDeadlineMs !== null) {
      this.expect(
        e.nextDeadlineMs === e.t + this.turnLimitMs,
        e.t,
        () => `game ${e.gameId}: next deadline not move time + limit`,
      );
    }
    this.#deadline.set(e.gameId, e.t + this.turnLimitMs);
  }

  private checkEnd(e: Extract<PlatformEvent, { type: 'game_ended' }>): void {
    const deadline = this.#deadline.get(e.gameId);
    if (e.reason === 'timeout')
      this.expect(
        e.t === deadline,
        e.t,
        () => `game ${e.gameId}: timeout at ${e.t}, deadline was ${deadline}`,
      );
    this.#deadline.delete(e.gameId);
  }
}

/** Nobody challenges, accepts or moves before completing the research phase. */
class ResearchPhaseHeld extends Checker {
  readonly name = 'research_phase_held';
  readonly description =
    'no agent creates or accepts a challenge, or moves, before its required posts, follows and likes (or verification, where it unlocks play)';
  #posts = new Map<string, number>();
  #follows = new Map<string, number>();
  #likes = new Map<string, number>();
  #verified = new Set<string>();

  constructor(private readonly research: Ruleset['research']) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'post_created') bump(this.#posts, e.agentId, 1);
    else if (e.type === 'followed') bump(this.#follows, e.actorId, 1);
    else if (e.type === 'unfollowed') bump(this.#follows, e.actorId, -1);
    else if (e.type === 'liked') bump(this.#likes, e.actorId, 1);
    else if (e.type === 'agent_verified') this.#verified.add(e.agentId);
    const actor =
      e.type === 'challenge_created'
        ? e.challengerId
        : e.type === 'challenge_accepted' || e.type === 'move_played'
          ? e.agentId
          : undefined;
    if (actor === undefined) return;
    this.expect(
      this.#done(actor),
      e.t,
      () => `agent ${actor}: ${e.type} before its research phase was complete`,
    );
  }

  #done(agentId: string): boolean {
    const r = this.research;
    if (r.verifiedUnlocks && this.#verified.has(agentId)) return true;
    return (
      (this.#posts.get(agentId) ?? 0) >= r.minPosts &&
      (this.#follows.get(agentId) ?? 0) >= r.minFollows &&
      (this.#likes.get(agentId) ?? 0) >= r.minLikes
    );
  }
}

function bump(counts: Map<string, number>, id: string, by: number): void {
  counts.set(id, (counts.get(id) ?? 0) + by);
}

/**
 * Lamports are conserved: a model of every balance, built from the opening balances and the log's mints
 * and settled transfers, matches the ledger after every money event; the total moves only by minting.
 */
class LamportsConserved extends Checker {
  readonly name = 'lamports_conserved';
  readonly description =
    'every balance replayed from mints and settled transfers matches the ledger; the total changes only by minting';
  #balances = new Map<string, number>();
  #supply = 0;

  constructor(private readonly platform: Platform) {
    super();
    for (const account of platform.ledger.balances()) this.#credit(account.address, account.lamports);
  }

  #credit(address: string, lamports: number): void {
    this.#balances.set(address, (this.#balances.get(address) ?? 0) + lamports);
    this.#supply += lamports;
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'lamports_minted') this.#credit(e.address, e.lamports);
    else if (e.type === 'transfer_settled') {
      this.#balances.set(e.from, (this.#balances.get(e.from) ?? 0) - e.lamports);
      this.#balances.set(e.to, (this.#balances.get(e.to) ?? 0) + e.lamports);
      for (const address of [e.from, e.to]) this.#compare(e.t, address);
    } else return;
    this.expect(
      this.platform.ledger.totalSupply === this.#supply,
      e.t,
      () => `total supply ${this.platform.ledger.totalSupply} != minted ${this.#supply}`,
    );
  }

  #compare(t: number, address: string): void {
    const model = this.#balances.get(address) ?? 0;
    const actual = this.platform.ledger.has(address) ? this.platform.ledger.balance(address) : undefined;
    this.expect(
      model >= 0 && actual === model,
      t,
      () => `account ${address}: ledger ${actual} != replayed ${model}`,
    );
  }

  finalCheck(t: number): void {
    let sum = 0;
    for (const account of this.platform.ledger.balances()) {
      sum += account.lamports;
      this.#compare(t, account.address);
    }
    this.expect(sum === this.#supply, t, () => `sum of balances ${sum} != minted ${this.#supply}`);
  }
}

/**
 * Every escrow settles exactly once: it closes once, empty, nothing moves through it afterwards, and an
 * escrow whose game or tournament is over and has nothing in flight must have closed.
 */
class EscrowSettlesOnce extends Checker {
  readonly name = 'escrow_settles_once';
  readonly description =
    'each escrow closes exactly once with a zero balance, moves nothing after, and none is left stranded';
  #open = new Map<string, { refId: string; inFlight: number; balance: number }>();
  #closed = new Set<string>();
  #finished = new Set<string>();

  protected check(e: PlatformEvent): void {
    if (e.type === 'escrow_opened') {
      this.expect(
        !this.#open.has(e.escrow) && !this.#closed.has(e.escrow),
        e.t,
        () => `escrow ${e.escrow} opened twice`,
      );
      this.#open.set(e.escrow, { refId: e.refId, inFlight: 0, balance: 0 });
    } else if (e.type === 'transfer_queued') this.#flight(e.from, e.to, 1, e.t, e.transferId);
    else if (e.type === 'transfer_failed') this.#failed(e.transferId);
    else if (e.type === 'transfer_settled') this.#settled(e);
    else if (e.type === 'escrow_closed') this.#close(e);
    else if (e.type === 'game_ended' || e.type === 'game_cancelled') this.#finished.add(e.gameId);
    else if (e.type === 'tournament_completed' || e.type === 'tournament_cancelled')
      this.#finished.add(e.tournamentId);
  }

  #routes = new Map<string, string[]>();

  #flight(from: string, to: string, delta: number, t: number, transferId: string): void {
    const touched = [from, to].filter((a) => this.#open.has(a) || this.#closed.has(a));
    for (const address of touched) {
      this.expect(
        !this.#closed.has(address),
        t,
        () => `transfer ${transferId} queued on closed escrow ${address}`,
      );
      const entry = this.#open.get(address);
      if (entry) entry.inFlight += delta;
    }
    if (delta > 0) this.#routes.set(transferId, touched);
  }

  #failed(transferId: string): void {
    for (const address of this.#routes.get(transferId) ?? []) {
      const entry = this.#open.get(address);
      if (entry) entry.inFlight--;
    }
    this.#routes.delete(transferId);
  }

  #settled(e: Extract<PlatformEvent, { type: 'transfer_settled' }>): void {
    this.#failed(e.transferId);
    const from = this.#open.get(e.from);
    const to = this.#open.get(e.to);
    if (from) from.balance -= e.lamports;
    if (to) to.balance += e.lamports;
    this.expect(
      !this.#closed.has(e.from) && !this.#closed.has(e.to),
      e.t,
      () => `transfer ${e.transferId} moved lamports through a closed escrow`,
    );
  }

  #close(e: Extract<PlatformEvent, { type: 'escrow_closed' }>): void {
    const entry = this.#open.get(e.escrow);
    this.expect(entry !== undefined, e.t, () => `escrow ${e.escrow} closed twice or never opened`);
    if (!entry) return;
    this.expect(
      entry.balance === 0 && entry.inFlight === 0,
      e.t,
      () => `escrow ${e.escrow} closed holding ${entry.balance} with ${entry.inFlight} in flight`,
    );
    this.expect(
      e.lamportsIn === e.lamportsOut,
      e.t,
      () => `escrow ${e.escrow}: in ${e.lamportsIn} != out ${e.lamportsOut}`,
    );
    this.#open.delete(e.escrow);
    this.#closed.add(e.escrow);
  }

  finalCheck(t: number): void {
    for (const [address, entry] of this.#open) {
      const stranded = this.#finished.has(entry.refId) && entry.inFlight === 0;
      this.expect(
        !stranded,
        t,
        () => `escrow ${address} of ${entry.refId} is over but never settled (holds ${entry.balance})`,
      );
    }
  }
}

/** Bounty money: the fee is 10% of the pot on a win and nothing on a draw, and fee plus payouts is the pot. */
class BountyFeesExact extends Checker {
  readonly name = 'bounty_fees_exact';
  readonly description =
    'each bounty pays out exactly its pot: payouts plus the fee (floor of the fee share on a win, none on a draw)';

  constructor(private readonly feeBps: number) {
    super();
  }

  protected check(e: PlatformEvent): void {
    if (e.type !== 'bounty_settled') return;
    const decisive = e.white === 0 || e.black === 0;
    const expectedFee = decisive ? Number((BigInt(e.pot) * BigInt(this.feeBps)) / 10_000n) : 0;
    this.expect(
      e.white + e.black + e.fee === e.pot,
      e.t,
      () => `game ${e.gameId}: ${e.white} + ${e.black} + ${e.fee} != pot ${e.pot}`,
    );
    this.expect(e.fee === expectedFee, e.t, () => `game ${e.gameId}: fee ${e.fee} != ${expectedFee}`);
  }
}

/**
 * Knockout brackets: nobody plays twice in a round, a draw advances the lower Elo at seeding (Black when
 * equal), the champion won the final, and payouts plus fees equal the prize plus all entry fees.
 */
class TournamentBrackets extends Checker {
  readonly name = 'tournament_brackets';
  readonly description =
    'no one plays twice in a round; draws follow the seeding tiebreak; one champion; prize money sums exactly';
  #terms = new Map<string, { prize: number; entry: number; size: number }>();
  #eloAtSeed = new Map<string, Map<string, number>>();
  #played = new Map<string, Set<string>>();
  #colours = new Map<string, { white: string; black: string }>();
  #finalWinner = new Map<string, string>();

  protected check(e: PlatformEvent): void {
    if (e.type === 'tournament_created')
      this.#terms.set(e.tournamentId, {
        prize: e.prizeLamports,
        entry: e.entryFeeLamports,
        size: e.maxParticipants,
      });
    else if (e.type === 'tournament_seeded')
      this.#eloAtSeed.set(e.tournamentId, new Map(e.seeds.map((id, i) => [id, e.elos[i]!])));
    else if (e.type === 'tournament_match_started') this.#started(e);
    else if (e.type === 'tournament_match_decided') this.#decided(e);
    else if (e.type === 'tournament_completed') this.#completed(e);
  }

  #started(e: Extract<PlatformEvent, { type: 'tournament_match_started' }>): void {
    const key = `${e.tournamentId}#${e.round}`;
    const seen = this.#played.get(key) ?? new Set<string>();
    this.expect(
      !seen.has(e.whiteId) && !seen.has(e.blackId),
      e.t,
      () => `tournament ${e.tournamentId} round ${e.round}: a player plays twice`,
    );
    seen.add(e.whiteId).add(e.blackId);
    this.#played.set(key, seen);
    this.#colours.set(e.gameId, { white: e.whiteId, black: e.blackId });
  }

  #decided(e: Extract<PlatformEvent, { type: 'tournament_match_decided' }>): void {
    const colours = this.#colours.get(e.gameId)!;
    const elo = this.#eloAtSeed.get(e.tournamentId)!;
    const expected =
      e.result === '1-0'
        ? colours.white
        : e.result === '0-1'
          ? colours.black
          : elo.get(colours.white)! < elo.get(colours.black)!
            ? colours.white
            : colours.black;
    this.expect(
      e.advancedId === expected,
      e.t,
      () => `tournament ${e.tournamentId} game ${e.gameId}: ${e.advancedId} advanced, expected ${expected}`,
    );
    const rounds = Math.log2(this.#terms.get(e.tournamentId)!.size);
    if (e.round === rounds) this.#finalWinner.set(e.tournamentId, e.advancedId);
  }

  #completed(e: Extract<PlatformEvent, { type: 'tournament_completed' }>): void {
    const terms = this.#terms.get(e.tournamentId)!;
    this.expect(
      e.placements[0] === this.#finalWinner.get(e.tournamentId),
      e.t,
      () => `tournament ${e.tournamentId}: champion is not the final's winner`,
    );
    this.expect(
      new Set(e.placements).size === e.placements.length,
      e.t,
      () => `tournament ${e.tournamentId}: a player placed twice`,
    );
    const paid = e.payouts.reduce((a, b) => a + b, 0);
    this.expect(
      paid === e.pool,
      e.t,
      () => `tournament ${e.tournamentId}: payouts ${paid} != pool ${e.pool}`,
    );
    const income = terms.prize + terms.entry * terms.size;
    this.expect(
      e.pool + e.systemFee + e.organizerFee === income,
      e.t,
      () => `tournament ${e.tournamentId}: pool + fees != prize + entries (${income})`,
    );
  }
}

export class InvariantSuite {
  /** Every checker, built-in first; those with an end-of-run check (`FinalCheck`) run it in `finish`. */
  readonly #checkers: Checker[];

  /** The user's own checkers (src/sim/invariants/user-invariants.ts), added before any event; their results follow the built-in ones. */
  add(checkers: readonly Checker[]): void {
    this.#checkers.push(...checkers);
  }

  /** The first violation of the named invariant so far (cheap enough to ask after every instant). */
  firstViolation(name: string): Violation | undefined {
    return this.#checkers.find((c) => c.name === name)?.violations[0];
  }

  get names(): Set<string> {
    return new Set(this.#checkers.map((c) => c.name));
  }
  #index = 0;
  /** The instant of the last final checks (finish), if any. */
  #finishedAt: number | undefined;

  constructor(platform: Platform) {
    this.#checkers = [
      new EloConservation(platform),
      new LamportsConserved(platform),
      new EscrowSettlesOnce(),
      new BountyFeesExact(platform.ruleset.bounty.systemFeeBps),
      new TournamentBrackets(),
      new OneResultPerGame(),
      new DeadlinesExact(platform.ruleset.game.turnLimitMs),
      new ResearchPhaseHeld(platform.ruleset.research),
      ...socialCheckers(platform),
    ];
    platform.onEvent((event) => this.observe(event));
  }

  observe(event: PlatformEvent): void {
    const index = this.#index++;
    for (const checker of this.#checkers) checker.observe(event, index);
  }

  /**
   * Runs the final checks at `t` once: serve's session report may be asked for again at the same instant
   * (POST /_sim/report, then the stop), and a second pass would count the same checks and violations twice.
   */
  finish(t: number): InvariantResult[] {
    if (this.#finishedAt !== t)
      for (const checker of this.#checkers) if (hasFinalCheck(checker)) checker.finalCheck(t);
    this.#finishedAt = t;
    return this.results();
  }

  results(): InvariantResult[] {
    return this.#checkers.map((c) => c.result());
  }

  get failed(): boolean {
    return this.#checkers.some((c) => c.violationCount > 0);
  }
}
