import type { Field, Json } from '../kernel/checkpoint.js';
import { MINUTE_MS, type MinuteCounts } from './minute-counts.js';

export interface RequestStats {
  requests: number;
  rejected: number;
  byCode: Map<string, number>;
  /** 429s by the limit the body names (`action`: post, reply, like, follow, vote, refresh, or requests for the daily quota). */
  rateLimitedByAction: Map<string, number>;
  /** The same tallies per account (agents and humans), by handle, for the report's verdicts. */
  byAgent: Map<string, AgentRequestStats>;
  /** 429s by the limit each names and the minute it happened: a refusal emits no event, so its time is taken here (the report charts it). */
  rateLimitedByMinute: MinuteCounts;
}

/** One account's requests: refusals by code, and its busiest UTC day of virtual time (the quota's day). */
export interface AgentRequestStats {
  requests: number;
  byCode: Map<string, number>;
  /** The virtual UTC day of the latest request, and how many requests fell in it so far. */
  dayIndex: number;
  today: number;
  /** The most requests sent in any one virtual UTC day, refused ones included. */
  maxPerDay: number;
}

/**
 * The world's own tallies in a checkpoint (src/kernel/checkpoint.ts): request counts by code, limit,
 * account and minute, each read back through the closed schema. The world's agents, queue and components
 * are saved by `World.save` itself; these are the report's counters, which a restored world goes on adding to.
 */
const CODE = /^[A-Za-z0-9_.:-]{1,80}$/;

export function saveRequestStats(stats: RequestStats): Json {
  return {
    requests: stats.requests,
    rejected: stats.rejected,
    byCode: countsOf(stats.byCode),
    rateLimitedByAction: countsOf(stats.rateLimitedByAction),
    byMinute: saveMinuteCounts(stats.rateLimitedByMinute),
  };
}

/** Fills a world's fresh stats (its per-account entries are restored with each agent). */
export function loadRequestStats(stats: RequestStats, field: Field): void {
  field.record((get) => {
    stats.requests = get('requests').nat();
    stats.rejected = get('rejected').nat();
    readCounts(get('byCode'), stats.byCode);
    readCounts(get('rateLimitedByAction'), stats.rateLimitedByAction);
    loadMinuteCounts(stats.rateLimitedByMinute, get('byMinute'));
  });
}

export function saveAgentStats(own: AgentRequestStats): Json {
  return {
    requests: own.requests,
    byCode: countsOf(own.byCode),
    dayIndex: own.dayIndex,
    today: own.today,
    maxPerDay: own.maxPerDay,
  };
}

export function loadAgentStats(own: AgentRequestStats, field: Field): void {
  field.record((get) => {
    own.requests = get('requests').nat();
    readCounts(get('byCode'), own.byCode);
    own.dayIndex = get('dayIndex').int(-1);
    own.today = get('today').nat();
    own.maxPerDay = get('maxPerDay').nat();
  });
}

/** A tally by name, as a record; `names` checks each key (error codes, event types, limit names). */
export function countsOf(counts: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries(counts);
}

export function readCounts(field: Field, into: Map<string, number>, names: RegExp = CODE): void {
  for (const [key, value] of field.entries((k) => names.test(k))) into.set(key, value.nat());
}

function saveMinuteCounts(counts: MinuteCounts): Json {
  const out: Json[] = [];
  for (const { atMs, kind, value } of counts.counts()) out.push([kind, atMs, value]);
  return out;
}

function loadMinuteCounts(counts: MinuteCounts, field: Field): void {
  for (const item of field.items()) {
    const parts = item.list((f) => f);
    if (parts.length !== 3) item.fail('[limit, minute start, count]');
    const [kind, atMs, value] = [parts[0]!.str(80), parts[1]!.nat(), parts[2]!.int(1)];
    if (atMs < counts.startMs || (atMs - counts.startMs) % MINUTE_MS !== 0)
      parts[1]!.fail('the start of a minute since the run began');
    counts.set(kind, atMs, value);
  }
}
