import { canonicalJson } from '../kernel/canonical.js';
import { currentFen } from '../rules/chess/chess.js';
import { listActivity } from './social/activity.js';
import { challengeSnapshot } from './chess/storage/challenge-record.js';
import { GameRecord } from './chess/storage/game-record.js';
import type { Platform } from './platform.js';
import { STATE_TABLES, type Activity, type Game, type StateTable } from './state.js';

/**
 * The platform's state as canonical JSON text, for "a refused request changes nothing" checks. Per-key
 * usage counters are left out by default: every authenticated request counts against the daily quota,
 * refused or not, as the real service's whoami counters do.
 */
export function stateFingerprint(p: Platform, options: { includeUsage?: boolean } = {}): string {
  const tables: Record<string, unknown> = {};
  for (const name of Object.keys(STATE_TABLES) as StateTable[]) {
    const special = SPECIAL_TABLES[name];
    tables[name] = special ? [...special(p, options)] : plain(p.state[name]);
  }
  return canonicalJson({
    nowMs: p.nowMs,
    tables,
    ledger: p.ledger.balances(),
    timers: p.timers.size,
    events: p.eventCount,
  });
}

/**
 * One table's rows in the form `stateFingerprint` writes them, as JSON-ready data sharing nothing with the
 * live records, each made as it is read (the platform checkpoint saves its tables in this form, a row at a
 * time: src/platform/checkpoint.ts). The platform must not change until the last row is read.
 */
export function* fingerprintTableRows(
  p: Platform,
  name: StateTable,
  options: { includeUsage?: boolean } = {},
): Generator<unknown> {
  const special = SPECIAL_TABLES[name];
  const table: Iterable<unknown> = special ? special(p, options) : (p.state[name] as Iterable<unknown>);
  if (table instanceof Map) for (const [key, item] of table) yield [key, plain(item)];
  else for (const row of table) yield plain(row);
}

/**
 * The same text as `stateFingerprint`, in pieces (a table row, a ledger balance at a time), for a caller
 * that hashes a large state between other work: canonical JSON of a list is its items' canonical JSON joined,
 * and of an object its keys in sorted order, so the pieces join to the one text.
 */
export function* stateFingerprintParts(
  p: Platform,
  options: { includeUsage?: boolean } = {},
): Generator<string> {
  yield `{"events":${canonicalJson(p.eventCount)},"ledger":`;
  yield* canonicalParts(new Rows(p.ledger.accounts()));
  yield `,"nowMs":${canonicalJson(p.nowMs)},"tables":{`;
  const names = (Object.keys(STATE_TABLES) as StateTable[]).sort();
  for (const [i, name] of names.entries()) {
    yield `${i === 0 ? '' : ','}${JSON.stringify(name)}:`;
    yield* canonicalParts(tableRows(p, name, options));
  }
  yield `},"timers":${canonicalJson(p.timers.size)}}`;
}

/**
 * A table as `stateFingerprint` writes it, its rows made one at a time as they are read (a table of
 * 100,000 agents is not copied whole between two pauses). The platform must not change meanwhile.
 */
function tableRows(p: Platform, name: StateTable, options: { includeUsage?: boolean }): unknown {
  const special = SPECIAL_TABLES[name];
  if (special) return new Rows(special(p, options));
  const value = p.state[name] as unknown;
  if (value instanceof Map)
    return new Rows(mapped(value.entries(), ([key, item]: [unknown, unknown]) => [key, plain(item)]));
  if (value instanceof Set) return new Rows(mapped(value.values(), plain));
  return plain(value);
}

/** A list whose items are made as it is written. */
class Rows {
  constructor(readonly items: Iterable<unknown>) {}
}

function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** A list or plain object as canonical JSON, one item or entry a piece; anything else whole. */
function* canonicalParts(value: unknown): Generator<string> {
  if (Array.isArray(value) || value instanceof Rows) {
    yield '[';
    let first = true;
    // A list item that JSON cannot write (undefined, a function) is written null, as JSON.stringify does.
    for (const item of value instanceof Rows ? value.items : (value as unknown[])) {
      yield `${first ? '' : ','}${(canonicalJson(item) as string | undefined) ?? 'null'}`;
      first = false;
    }
    yield ']';
    return;
  }
  if (!isPlainObject(value)) {
    yield canonicalJson(value);
    return;
  }
  yield '{';
  let first = true;
  for (const key of Object.keys(value).sort()) {
    const text = canonicalJson(value[key]) as string | undefined; // undefined: a key JSON leaves out
    if (text === undefined) continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  yield '}';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}

type TableWriter = (p: Platform, options: { includeUsage?: boolean }) => Iterable<unknown>;

/**
 * The tables whose records are not plain data: usage counters left out unless asked for, challenges and
 * games kept as compact records, activity kept as compact rows. Every other table is written by `plain`.
 */
const SPECIAL_TABLES: Partial<Record<StateTable, TableWriter>> = {
  agents: (p, options) =>
    mapped(p.state.agents.values(), (a) => (options.includeUsage ? a : withoutUsage(a))),
  humans: (p, options) =>
    mapped(p.state.humans.values(), (h) => (options.includeUsage ? h : withoutUsage(h))),
  challenges: (p) => mapped(p.state.challenges.entries(), ([id, c]) => [id, challengeSnapshot(c)]),
  games: (p) => mapped(p.state.games.values(), gameSnapshot),
  activity: (p) =>
    mapped(p.state.activity.keys(), (actorId) => [
      actorId,
      listActivity(p, actorId).reverse().map(activitySnapshot),
    ]),
};

function withoutUsage<T extends { usage: unknown }>(record: T): Omit<T, 'usage'> & { usage: null } {
  return Object.assign({}, record, { usage: null });
}

/** A table as JSON-ready data: maps as entry lists, sets as lists, nested ones too. */
function plain(value: unknown): unknown {
  if (value instanceof Map)
    return [...(value as Map<unknown, unknown>).entries()].map(([key, item]) => [key, plain(item)]);
  if (value instanceof Set) return [...value].map(plain);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = plain(item);
    return out;
  }
  return value;
}

/** A game's fields, its packed moves, and for a game still in play its board with the repetition counts. */
function gameSnapshot(g: Game): Record<string, unknown> {
  const live = g.status === 'pending' || g.status === 'active';
  return {
    id: g.id,
    seq: g.seq,
    whiteId: g.whiteId,
    blackId: g.blackId,
    status: g.status,
    initialFen: g.initialFen,
    createdAtMs: g.createdAtMs,
    startedAtMs: g.startedAtMs,
    turnStartedMs: g.turnStartedMs,
    deadlineMs: g.deadlineMs,
    deadlineTimer: g.deadlineTimer,
    end: g.end,
    cancelReason: g.cancelReason,
    bountyLamports: g.bountyLamports,
    escrowAddress: g.escrowAddress,
    tournamentId: g.tournamentId,
    plies: g.plies,
    fen: g.fen,
    moves: g instanceof GameRecord ? g.packedMoves() : g.moves,
    board: live
      ? { fen: currentFen(g.board), plies: g.board.plies, repetitions: [...g.board.repetitions.entries()] }
      : null,
  };
}

/** A row's fields as read (game rows write theirs from their records). */
function activitySnapshot(row: Activity): Record<string, unknown> {
  return {
    seq: row.seq,
    type: row.type,
    id: row.id,
    content: row.content,
    relatedPostId: row.relatedPostId,
    relatedAgentId: row.relatedAgentId,
    metadata: row.metadata,
    atMs: row.atMs,
  };
}
