import type { PlatformEvent } from '../../platform/events.js';
import type { Platform } from '../../platform/platform.js';
import type { Ruleset } from '../../rules/ruleset.js';
import { runToEnd, type Field, type Json } from '../../kernel/checkpoint.js';
import { Checker, hasFinalCheck, type InvariantResult, type Violation } from './checker.js';
import {
  fillPairs,
  fillSet,
  parts,
  readId,
  readNum,
  readPairs,
  readSet,
  savePairs,
  saveSet,
} from './checker-state.js';
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
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'rating changes of equal-K games cancel exactly; ratings and their sum match a replay of the log';
  readonly #ratings = new Map<string, number>();
  #expectedSum = 0;

  constructor(private readonly platform: Platform) {
    super();
  }

  protected saveModel(): Json {
    return { ratings: savePairs(this.#ratings), expectedSum: this.#expectedSum };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [ratings, sum] = parts(field, ['ratings', 'expectedSum']);
    this.#expectedSum = sum!.num();
    yield* fillPairs(this.#ratings, ratings!, readNum);
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
  readonly #ended = new Set<string>();

  protected saveModel(): Json {
    return saveSet(this.#ended);
  }

  protected *loadModel(field: Field): Generator<void, void> {
    yield* fillSet(this.#ended, field);
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'move_played' && !this.held(!this.#ended.has(e.gameId)))
      this.violated(e.t, `game ${e.gameId}: move after the end`);
    if (e.type !== 'game_ended') return;
    if (!this.held(!this.#ended.has(e.gameId))) this.violated(e.t, `game ${e.gameId}: ended twice`);
    this.#ended.add(e.gameId);
  }
}

/** Every turn lasts exactly the turn limit: moves land strictly before it, timeouts exactly at it. */
class DeadlinesExact extends Checker {
  readonly name = 'deadlines_exact';
  readonly description =
    'moves are accepted only before the turn deadline; a timeout happens exactly at it; deadlines are turn start + limit';
  /**
   * Each game's deadline in a box of its own, moved in place at every move: one lookup a move where setting
   * a number was a second, in a table of every live game (thousands in a crowd, each lookup a likely cache miss).
   */
  readonly #deadline = new Map<string, { ms: number }>();

  constructor(private readonly turnLimitMs: number) {
    super();
  }

  protected saveModel(): Json {
    return savePairs(this.#deadline, (box) => box.ms);
  }

  protected *loadModel(field: Field): Generator<void, void> {
    yield* fillPairs(this.#deadline, field, (f) => ({ ms: readNum(f) }));
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'game_started') {
      if (!this.held(e.deadlineMs === e.t + this.turnLimitMs))
        this.violated(e.t, `game ${e.gameId}: first deadline ${e.deadlineMs} != start + limit`);
      this.#deadline.set(e.gameId, { ms: e.t + this.turnLimitMs });
    } else if (e.type === 'move_played') this.checkMove(e);
    else if (e.type === 'game_ended') this.checkEnd(e);
  }

  private checkMove(e: Extract<PlatformEvent, { type: 'move_played' }>): void {
    const box = this.#deadline.get(e.gameId);
    const deadline = box?.ms;
    if (!this.held(deadline !== undefined && e.t < deadline))
      this.violated(e.t, `game ${e.gameId}: move at ${e.t} not before deadline ${deadline}`);
    if (!this.held(e.deadlineMs === deadline))
      this.violated(e.t, `game ${e.gameId}: platform deadline ${e.deadlineMs} != ${deadline}`);
    if (e.nextDeadlineMs !== null && !this.held(e.nextDeadlineMs === e.t + this.turnLimitMs))
      this.violated(e.t, `game ${e.gameId}: next deadline not move time + limit`);
    if (box === undefined) this.#deadline.set(e.gameId, { ms: e.t + this.turnLimitMs });
    else box.ms = e.t + this.turnLimitMs;
  }

  private checkEnd(e: Extract<PlatformEvent, { type: 'game_ended' }>): void {
    const deadline = this.#deadline.get(e.gameId)?.ms;
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
  readonly #posts = new Map<string, number>();
  readonly #follows = new Map<string, number>();
  readonly #likes = new Map<string, number>();
  readonly #verified = new Set<string>();
  /**
   * Agents found done, each until its follows next fall: an answer the counts would give again (they only
   * grow, follows aside), kept so a move, nearly every event, asks one set and not four tables, each a likely
   * cache miss among a crowd's thousands of agents. Not saved: it is refilled as agents are asked about.
   */
  readonly #knownDone = new Set<string>();

  constructor(private readonly research: Ruleset['research']) {
    super();
  }

  protected saveModel(): Json {
    return {
      posts: savePairs(this.#posts),
      follows: savePairs(this.#follows),
      likes: savePairs(this.#likes),
      verified: saveSet(this.#verified),
    };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [posts, follows, likes, verified] = parts(field, ['posts', 'follows', 'likes', 'verified']);
    this.#knownDone.clear();
    yield* fillPairs(this.#posts, posts!, readNum);
    yield* fillPairs(this.#follows, follows!, readNum);
    yield* fillPairs(this.#likes, likes!, readNum);
    yield* fillSet(this.#verified, verified!);
  }

  protected check(e: PlatformEvent): void {
    if (e.type === 'post_created') bump(this.#posts, e.agentId, 1);
    else if (e.type === 'followed') bump(this.#follows, e.actorId, 1);
    else if (e.type === 'unfollowed') {
      bump(this.#follows, e.actorId, -1);
      this.#knownDone.delete(e.actorId);
    } else if (e.type === 'liked') bump(this.#likes, e.actorId, 1);
    else if (e.type === 'agent_verified') this.#verified.add(e.agentId);
    const actor =
      e.type === 'challenge_created'
        ? e.challengerId
        : e.type === 'challenge_accepted' || e.type === 'move_played'
          ? e.agentId
          : undefined;
    if (actor === undefined) return;
    if (!this.held(this.#done(actor)))
      this.violated(e.t, `agent ${actor}: ${e.type} before its research phase was complete`);
  }

  #done(agentId: string): boolean {
    if (this.#knownDone.has(agentId)) return true;
    if (!this.#countsDone(agentId)) return false;
    this.#knownDone.add(agentId);
    return true;
  }

  #countsDone(agentId: string): boolean {
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
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'every balance replayed from mints and settled transfers matches the ledger; the total changes only by minting';
  readonly #balances = new Map<string, number>();
  #supply = 0;

  constructor(private readonly platform: Platform) {
    super();
    // Accounts without an address yet are empty (ledger.ts, DeferredAccount): reading them would derive them.
    for (const account of platform.ledger.addressedAccounts())
      this.#credit(account.address, account.lamports);
  }

  protected saveModel(): Json {
    return { balances: savePairs(this.#balances), supply: this.#supply };
  }

  /** Replaces the opening balances the constructor read (a restored platform's constructor saw none). */
  protected *loadModel(field: Field): Generator<void, void> {
    const [balances, supply] = parts(field, ['balances', 'supply']);
    this.#supply = supply!.num();
    yield* fillPairs(this.#balances, balances!, readNum);
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
    const actual = this.platform.ledger.has(address) ? this.platform.ledger.balance(address) : undefined;
    this.#compareWith(t, address, actual);
  }

  #compareWith(t: number, address: string | undefined, actual: number | undefined): void {
    // No event can name an account whose address nobody has read: its replayed balance is 0.
    const model = address === undefined ? 0 : (this.#balances.get(address) ?? 0);
    this.expect(
      model >= 0 && actual === model,
      t,
      () => `account ${address ?? '(address not yet read)'}: ledger ${actual} != replayed ${model}`,
    );
  }

  finalCheck(t: number): void {
    let sum = 0;
    for (const account of this.platform.ledger.openingBalances()) {
      sum += account.lamports;
      this.#compareWith(t, account.address, account.lamports);
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
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'each escrow closes exactly once with a zero balance, moves nothing after, and none is left stranded';
  readonly #open = new Map<string, { refId: string; inFlight: number; balance: number }>();
  readonly #closed = new Set<string>();
  readonly #finished = new Set<string>();
  /** The open and closed escrows each queued transfer touches, until it settles or fails. */
  readonly #routes = new Map<string, string[]>();

  protected saveModel(): Json {
    return {
      open: savePairs(this.#open, ({ refId, inFlight, balance }) => ({ refId, inFlight, balance })),
      closed: saveSet(this.#closed),
      finished: saveSet(this.#finished),
      routes: savePairs(this.#routes, (addresses) => [...addresses]),
    };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const [open, closed, finished, routes] = parts(field, ['open', 'closed', 'finished', 'routes']);
    const readEntry = (entry: Field) =>
      entry.record((get) => ({
        refId: readId(get('refId')),
        inFlight: get('inFlight').int(),
        balance: get('balance').num(),
      }));
    yield* fillPairs(this.#open, open!, readEntry);
    yield* fillSet(this.#closed, closed!);
    yield* fillSet(this.#finished, finished!);
    yield* fillPairs(this.#routes, routes!, (addresses) => addresses.list(readId));
  }

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
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'each bounty pays out exactly its pot: payouts plus the fee (floor of the fee share on a win, none on a draw)';

  constructor(private readonly feeBps: number) {
    super();
  }

  /** Each settlement is checked on its own: no model. */
  protected saveModel(): Json {
    return null;
  }

  protected loadModel(field: Field): void {
    if (!field.isNull) field.fail('null');
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
  /** Its check ignores moves (see Checker.readsMoves). */
  override readonly readsMoves = false;
  readonly description =
    'no one plays twice in a round; draws follow the seeding tiebreak; one champion; prize money sums exactly';
  readonly #terms = new Map<string, { prize: number; entry: number; size: number }>();
  readonly #eloAtSeed = new Map<string, Map<string, number>>();
  readonly #played = new Map<string, Set<string>>();
  readonly #colours = new Map<string, { white: string; black: string }>();
  readonly #finalWinner = new Map<string, string>();

  protected saveModel(): Json {
    return {
      terms: savePairs(this.#terms, ({ prize, entry, size }) => ({ prize, entry, size })),
      eloAtSeed: savePairs(this.#eloAtSeed, (elos) => savePairs(elos)),
      played: savePairs(this.#played, saveSet),
      colours: savePairs(this.#colours, ({ white, black }) => ({ white, black })),
      finalWinner: savePairs(this.#finalWinner),
    };
  }

  protected *loadModel(field: Field): Generator<void, void> {
    const names = ['terms', 'eloAtSeed', 'played', 'colours', 'finalWinner'];
    const [terms, eloAtSeed, played, colours, finalWinner] = parts(field, names);
    const readTerms = (f: Field) =>
      f.record((get) => ({
        prize: get('prize').num(),
        entry: get('entry').num(),
        size: get('size').int(1, 2 ** 20),
      }));
    yield* fillPairs(this.#terms, terms!, readTerms);
    yield* fillPairs(this.#eloAtSeed, eloAtSeed!, (elos) => readPairs(elos, readNum));
    yield* fillPairs(this.#played, played!, readSet);
    const readColours = (f: Field) =>
      f.record((get) => ({ white: readId(get('white')), black: readId(get('black')) }));
    yield* fillPairs(this.#colours, colours!, readColours);
    yield* fillPairs(this.#finalWinner, finalWinner!, readId);
  }

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
    const colours = this.#colours.get(e.gameId);
    const elo = this.#eloAtSeed.get(e.tournamentId);
    const terms = this.#terms.get(e.tournamentId);
    // Only a log (or a restored checkpoint) that lost the match's start gets here without them.
    if (!colours || !elo || !terms)
      return this.#unknown(e.t, `tournament ${e.tournamentId} game ${e.gameId}`);
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
    const rounds = Math.log2(terms.size);
    if (e.round === rounds) this.#finalWinner.set(e.tournamentId, e.advancedId);
  }

  /** One violation for an event about a tournament or match the log never started. */
  #unknown(t: number, what: string): void {
    this.expect(false, t, () => `${what}: never created, seeded or started`);
  }

  #completed(e: Extract<PlatformEvent, { type: 'tournament_completed' }>): void {
    const terms = this.#terms.get(e.tournamentId);
    if (!terms) return this.#unknown(e.t, `tournament ${e.tournamentId}`);
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
  /** The checkers that read moves (`readsMoves`), in the same order: the only ones a move is shown. */
  readonly #moveReaders: Checker[];
  /** How many of the checkers are built in (the constructor's); those after them are the user's. */
  readonly #builtIn: number;
  readonly #stopObserving: () => void;

  /** The user's own checkers (src/sim/invariants/user-invariants.ts), added before any event; their results follow the built-in ones. */
  add(checkers: readonly Checker[]): void {
    this.#checkers.push(...checkers);
    this.#moveReaders.push(...checkers.filter((c) => c.readsMoves));
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
    this.#builtIn = this.#checkers.length;
    this.#moveReaders = this.#checkers.filter((c) => c.readsMoves);
    this.#stopObserving = platform.onEvent((event) => this.observe(event));
  }

  /**
   * Stops observing the platform's events, so that another suite, restored from this one's `save`, can take
   * over (a test's twin world swaps its suite this way).
   */
  detach(): void {
    this.#stopObserving();
  }

  /**
   * The suite's state as checkpoint data (issue 25): the event count, the instant of the last final checks,
   * and each checker's counts, kept violations and model, by name. A user's invariant module keeps state
   * this cannot see, so a suite with one cannot be saved (a programming error: such a world is not
   * checkpointable).
   */
  save(): Json {
    this.#refuseUserCheckers();
    return {
      events: this.#index,
      finishedAt: this.#finishedAt ?? null,
      checkers: Object.fromEntries(this.#checkers.map((c) => [c.name, c.save()])),
    };
  }

  /**
   * Replaces this suite's state with a saved one: a suite made on a platform with the same state as the
   * saved suite's goes on to the same results. It pauses about once per checker and every few rows of a
   * large model. On bad data it throws CheckpointError naming the field, having replaced part of the state
   * (the restore is then abandoned).
   */
  *loadSteps(field: Field): Generator<void, void> {
    this.#refuseUserCheckers();
    const [events, finishedAt, checkers] = parts(field, ['events', 'finishedAt', 'checkers']);
    this.#index = events!.nat();
    this.#finishedAt = finishedAt!.nullOr((f) => f.int()) ?? undefined;
    const saved = parts(
      checkers!,
      this.#checkers.map((c) => c.name),
    );
    const lastEvent = Math.max(0, this.#index - 1);
    for (const [i, checker] of this.#checkers.entries()) {
      yield* checker.load(saved[i]!, lastEvent);
      yield;
    }
  }

  /** `loadSteps` without pauses. */
  load(field: Field): void {
    runToEnd(this.loadSteps(field));
  }

  #refuseUserCheckers(): void {
    if (this.#checkers.length > this.#builtIn)
      throw new Error('an invariant suite with user invariant modules cannot be checkpointed');
  }

  observe(event: PlatformEvent): void {
    const index = this.#index++;
    const checkers = event.type === 'move_played' ? this.#moveReaders : this.#checkers;
    for (const checker of checkers) checker.observe(event, index);
  }

  /**
   * Runs the final checks at `t` once: serve's session report may be asked for again at the same instant
   * (POST /_sim/report, then the stop), and a second pass would count the same checks and violations twice.
   */
  finish(t: number): InvariantResult[] {
    if (this.#finishedAt !== t)
      for (const checker of this.#checkers) {
        // A violation found now names the log's last event, whether or not the checker was shown it.
        checker.lastEventWas(Math.max(0, this.#index - 1));
        if (hasFinalCheck(checker)) checker.finalCheck(t);
      }
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
