import type { Platform } from '../../platform/platform.js';
import type { Game, TransferType } from '../../platform/state.js';
import { MINUTE_MS, type MinuteCounts } from '../../sim/minute-counts.js';

/**
 * Time series for the HTML report, derived after the run from the platform's final state: completed games
 * (end time, ratings before and change), settled transfers (settle time), and each actor's activity rows
 * (time of every post, reply, like, follow and vote). Every series is sampled on one fixed grid of
 * virtual-time bins, so the file's size grows with the number of agents and bins, not with the number of
 * events. Times are virtual hours since the scenario's start.
 */
export interface TimeAxis {
  startMs: number;
  endMs: number;
  binMs: number;
  bins: number;
}

/** About this many bins over the run: enough to see a day's shape, few enough to keep the file small. */
const TARGET_BINS = 48;
const HOUR_MS = 3_600_000;

/** Bins of whole minutes from the start, so the run's per-minute counts (MinuteCounts) bin exactly. */
export function timeAxis(startMs: number, endMs: number): TimeAxis {
  const span = Math.max(MINUTE_MS, endMs - startMs);
  const binMs = Math.ceil(span / TARGET_BINS / MINUTE_MS) * MINUTE_MS;
  return { startMs, endMs, binMs, bins: Math.ceil(span / binMs) };
}

export function hoursAt(axis: TimeAxis, ms: number): number {
  return round3((ms - axis.startMs) / HOUR_MS);
}

/** The bin's start, in hours: bars stand on it. */
function binHour(axis: TimeAxis, bin: number): number {
  return hoursAt(axis, axis.startMs + bin * axis.binMs);
}

function binOf(axis: TimeAxis, ms: number): number {
  return Math.min(axis.bins - 1, Math.max(0, Math.floor((ms - axis.startMs) / axis.binMs)));
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Completed games in the order games.pgn lists them (creation order): index + 1 is the PGN's Round tag. */
export function completedGames(platform: Platform): Game[] {
  return [...platform.state.games.values()]
    .filter((g) => g.status === 'completed')
    .sort((a, b) => a.seq - b.seq);
}

export interface RatingPoint {
  atMs: number;
  elo: number;
}

/** Each agent's rating after each of its games, in end order (ties by game creation order). */
export function ratingHistories(platform: Platform): Map<string, RatingPoint[]> {
  const byEnd = completedGames(platform).sort((a, b) => a.end!.endedAtMs - b.end!.endedAtMs || a.seq - b.seq);
  const out = new Map<string, RatingPoint[]>();
  const push = (agentId: string, point: RatingPoint) => {
    const list = out.get(agentId) ?? [];
    list.push(point);
    out.set(agentId, list);
  };
  for (const g of byEnd) {
    const end = g.end!;
    if (!out.has(g.whiteId)) push(g.whiteId, { atMs: g.createdAtMs, elo: end.whiteEloBefore });
    if (!out.has(g.blackId)) push(g.blackId, { atMs: g.createdAtMs, elo: end.blackEloBefore });
    push(g.whiteId, { atMs: end.endedAtMs, elo: end.whiteEloBefore + end.whiteDelta });
    push(g.blackId, { atMs: end.endedAtMs, elo: end.blackEloBefore + end.blackDelta });
  }
  return out;
}

/** The rating at each bin edge (bins + 1 samples): the last rating reached at or before that instant. */
export function sampleRating(axis: TimeAxis, history: RatingPoint[] | undefined, fallback: number): number[] {
  const samples: number[] = [];
  let i = 0;
  let current = history?.[0]?.elo ?? fallback;
  for (let edge = 0; edge <= axis.bins; edge++) {
    const at = Math.min(axis.endMs, axis.startMs + edge * axis.binMs);
    while (history && i < history.length && history[i]!.atMs <= at) current = history[i++]!.elo;
    samples.push(current);
  }
  return samples;
}

export function edgeHours(axis: TimeAxis): number[] {
  return Array.from({ length: axis.bins + 1 }, (_, edge) =>
    hoursAt(axis, Math.min(axis.endMs, axis.startMs + edge * axis.binMs)),
  );
}

/** A count (or sum) per bin and category, with zero rows left out. */
export interface BinRow {
  hour: number;
  kind: string;
  value: number;
}

function binRows(axis: TimeAxis, items: Iterable<{ atMs: number; kind: string; value: number }>): BinRow[] {
  const sums = new BinSums(axis);
  for (const item of items) sums.add(item.atMs, item.kind, item.value);
  return sums.rows();
}

/** Sums per bin and category, each added to in the order its items come (a sum of fractions depends on it). */
class BinSums {
  readonly #axis: TimeAxis;
  /** Category -> bin -> sum. */
  readonly #byKind = new Map<string, Map<number, number>>();

  constructor(axis: TimeAxis) {
    this.#axis = axis;
  }

  add(atMs: number, kind: string, value: number): void {
    let bins = this.#byKind.get(kind);
    if (bins === undefined) this.#byKind.set(kind, (bins = new Map<number, number>()));
    const bin = binOf(this.#axis, atMs);
    bins.set(bin, (bins.get(bin) ?? 0) + value);
  }

  /** One row per bin and category that has an item, by hour and then category. */
  rows(): BinRow[] {
    const rows: BinRow[] = [];
    for (const [kind, bins] of this.#byKind)
      for (const [bin, sum] of bins) rows.push({ hour: binHour(this.#axis, bin), kind, value: round3(sum) });
    return rows.sort((a, b) => a.hour - b.hour || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }
}

/** Games finished per bin, by how they ended. */
export function endingsOverTime(axis: TimeAxis, games: Game[]): BinRow[] {
  return binRows(
    axis,
    games.map((g) => ({ atMs: g.end!.endedAtMs, kind: g.end!.reason, value: 1 })),
  );
}

/** The money categories a reader asks about; each transfer type belongs to one. */
export const MONEY_KIND: Record<TransferType, string> = {
  bounty_deposit: 'stakes and entries',
  tournament_entry: 'stakes and entries',
  tournament_fund: 'prize funding',
  bounty_system_fee: 'fees',
  tournament_system_fee: 'fees',
  tournament_organizer_fee: 'fees',
  bounty_payout: 'payouts',
  tournament_payout: 'payouts',
  bounty_refund: 'refunds',
  tournament_refund: 'refunds',
  devnet_funding: 'devnet funding',
};

/** SOL settled per bin, by money category. */
export function moneyOverTime(axis: TimeAxis, platform: Platform): BinRow[] {
  const settled = [...platform.state.transfers.values()].filter(
    (t) => t.status === 'settled' && t.settledAtMs !== null,
  );
  return binRows(
    axis,
    settled.map((t) => ({ atMs: t.settledAtMs!, kind: MONEY_KIND[t.type], value: t.lamports / 1e9 })),
  );
}

/** The social actions an activity row records, by the name the chart shows. */
const SOCIAL_KIND: Record<string, string> = {
  post_created: 'posts',
  reply_created: 'replies',
  liked: 'likes',
  followed: 'follows',
  unfollowed: 'unfollows',
  profile_voted: 'votes',
};

/** Accepted social actions per bin, from every actor's activity rows (each action is one row, its actor's). */
export function socialOverTime(axis: TimeAxis, platform: Platform): BinRow[] {
  const sums = new BinSums(axis);
  const actors = [...platform.state.activity.keys()].sort();
  for (const actorId of actors) {
    for (const row of platform.state.activity.get(actorId)!) {
      const kind = SOCIAL_KIND[row.type];
      if (kind) sums.add(row.atMs, kind, 1);
    }
  }
  return sums.rows();
}

/** 429s per bin, by the limit that refused them. */
export function refusalsOverTime(axis: TimeAxis, refusals: MinuteCounts): BinRow[] {
  return binRows(axis, refusals.counts());
}
