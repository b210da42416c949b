import type { Side } from './game.js';

/**
 * Single-elimination knockout brackets, pure. Entrants are seeded by Elo, placed so the top seeds can
 * only meet late, and advance one match at a time. The platform drives real matches with these same
 * functions; `playBracket` strings them together for tests and as a readable description of the flow.
 * There are no byes: a bracket's size is a power of two and every slot is filled.
 */
export const BRACKET_SIZES = [8, 16, 32, 64] as const;
export type BracketSize = (typeof BRACKET_SIZES)[number];

export interface Entrant {
  readonly id: string;
  readonly elo: number;
  /** Position in the join queue; the earlier joiner wins a seeding tie. */
  readonly joinOrder: number;
}

export interface Seeded extends Entrant {
  /** 1 is the best seed. */
  readonly seed: number;
  /** Elo frozen at seeding, so draw tiebreaks do not shift as ratings change mid-tournament. */
  readonly eloAtSeed: number;
}

export type GameWinner = Side | null;

/** log2(size), after checking that size is a power of two >= 2. */
export function roundsFor(size: number): number {
  if (!Number.isSafeInteger(size) || size < 2)
    throw new Error(`bracket size must be a power of two >= 2: ${size}`);
  let rounds = 0;
  for (let n = size; n > 1; n /= 2) {
    if (n % 2 !== 0) throw new Error(`bracket size must be a power of two >= 2: ${size}`);
    rounds += 1;
  }
  return rounds;
}

/**
 * Seed numbers in slot order. Built by doubling: each seed s of the half-size bracket is paired with its
 * mirror (2n + 1 - s), so at every level the best remaining seeds sit in different halves and can meet
 * only in the round where that level collapses (1 and 2 in the final, 1-4 from the semifinals).
 */
export function bracketOrder(size: number): number[] {
  roundsFor(size);
  let order = [1];
  while (order.length < size) {
    const mirror = order.length * 2 + 1;
    order = order.flatMap((seed) => [seed, mirror - seed]);
  }
  return order;
}

/** Seed pairs in match order: slots 2i and 2i+1 of the bracket order. */
export function firstRoundPairings(size: number): Array<[number, number]> {
  const order = bracketOrder(size);
  return Array.from({ length: size / 2 }, (_, i) => [order[2 * i]!, order[2 * i + 1]!]);
}

/** Best seed first: higher Elo, then the earlier joiner, then id so the order is total even on bad input. */
function seedingOrder(a: Entrant, b: Entrant): number {
  if (a.elo !== b.elo) return b.elo - a.elo;
  if (a.joinOrder !== b.joinOrder) return a.joinOrder - b.joinOrder;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Seeds 1..N in seed order. */
export function seedEntrants(entrants: readonly Entrant[]): Seeded[] {
  return [...entrants].sort(seedingOrder).map((e, i) => ({ ...e, seed: i + 1, eloAtSeed: e.elo }));
}

/**
 * The better seed plays White. The draw tiebreak favours the weaker side (see `advancer`), so White's
 * first-move edge goes to the stronger seed to balance it.
 */
export function matchColours(a: Seeded, b: Seeded): { white: Seeded; black: Seeded } {
  return a.seed <= b.seed ? { white: a, black: b } : { white: b, black: a };
}

/**
 * Who goes through. A decisive game: its winner. A draw: the side with the lower Elo at seeding (SPEC: "on
 * a drawn tournament game the lower seed (lower Elo) advances"); equal Elo goes to Black, which by
 * `matchColours` is the worse seed, so the rule reads the same either way.
 */
export function advancer(white: Seeded, black: Seeded, winner: GameWinner): Side {
  if (winner !== null) return winner;
  return white.eloAtSeed < black.eloAtSeed ? 'white' : 'black';
}

export interface SlotRef {
  readonly round: number;
  readonly matchIndex: number;
  /** 0 is participant1, 1 is participant2. */
  readonly slot: 0 | 1;
}

/** Where the winner of match `matchIndex` (0-based) of round `round` (1-based) plays next. */
export function nextSlot(round: number, matchIndex: number): SlotRef {
  return { round: round + 1, matchIndex: Math.floor(matchIndex / 2), slot: matchIndex % 2 === 0 ? 0 : 1 };
}

export interface Decided {
  readonly winner: string;
  readonly loser: string;
}

/**
 * Final standings [1st, 2nd, 3rd, 4th]. There is no third-place playoff: the semifinal loser beaten by the
 * champion is 3rd, since losing to the eventual winner is the stronger elimination.
 */
export function placements(final: Decided, semifinals: Decided[]): string[] {
  const [a, b] = semifinals;
  if (semifinals.length !== 2 || a === undefined || b === undefined)
    throw new Error('placements need exactly two semifinals');
  const toChampion = [a, b].find((s) => s.winner === final.winner);
  const toRunnerUp = [a, b].find((s) => s.winner === final.loser);
  if (toChampion === undefined || toRunnerUp === undefined || toChampion === toRunnerUp) {
    throw new Error(
      `semifinal winners ${a.winner}, ${b.winner} are not the finalists ${final.winner}, ${final.loser}`,
    );
  }
  return [final.winner, final.loser, toChampion.loser, toRunnerUp.loser];
}

export interface PlayedMatch {
  readonly round: number;
  readonly matchIndex: number;
  readonly white: Seeded;
  readonly black: Seeded;
  readonly result: GameWinner;
  readonly advanced: Seeded;
}

export type Decide = (white: Seeded, black: Seeded, round: number) => GameWinner;

export interface PlayedBracket {
  readonly rounds: PlayedMatch[][];
  readonly champion: Seeded;
  /** [1st, 2nd, 3rd, 4th]; only [1st, 2nd] for a two-player bracket, which has no semifinals. */
  readonly placements: string[];
}

/** Plays one round: slots 2i and 2i+1 meet, and each advancer lands where `nextSlot` says. */
function playRound(
  round: number,
  slots: readonly Seeded[],
  decide: Decide,
): { matches: PlayedMatch[]; next: Seeded[] } {
  const matches: PlayedMatch[] = [];
  const next: Seeded[] = [];
  for (let matchIndex = 0; matchIndex < slots.length / 2; matchIndex += 1) {
    const { white, black } = matchColours(slots[2 * matchIndex]!, slots[2 * matchIndex + 1]!);
    const result = decide(white, black, round);
    const advanced = advancer(white, black, result) === 'white' ? white : black;
    const to = nextSlot(round, matchIndex);
    next[to.matchIndex * 2 + to.slot] = advanced;
    matches.push({ round, matchIndex, white, black, result, advanced });
  }
  return { matches, next };
}

function decidedOf(match: PlayedMatch): Decided {
  const loser = match.advanced === match.white ? match.black : match.white;
  return { winner: match.advanced.id, loser: loser.id };
}

/** Seeds the entrants, plays every round with `decide`, and returns the matches, champion and standings. */
export function playBracket(entrants: readonly Entrant[], decide: Decide): PlayedBracket {
  const totalRounds = roundsFor(entrants.length);
  if (new Set(entrants.map((e) => e.id)).size !== entrants.length)
    throw new Error('bracket entrants must have distinct ids');
  const seeded = seedEntrants(entrants);
  let slots = bracketOrder(entrants.length).map((seed) => seeded[seed - 1]!);
  const rounds: PlayedMatch[][] = [];
  for (let round = 1; round <= totalRounds; round += 1) {
    const { matches, next } = playRound(round, slots, decide);
    rounds.push(matches);
    slots = next;
  }
  const final = decidedOf(rounds[totalRounds - 1]![0]!);
  const semis = totalRounds >= 2 ? rounds[totalRounds - 2]!.map(decidedOf) : undefined;
  return {
    rounds,
    champion: slots[0]!,
    placements: semis ? placements(final, semis) : [final.winner, final.loser],
  };
}
