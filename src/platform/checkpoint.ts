import { CheckpointError, type Field, type Json } from '../kernel/checkpoint.js';
import { JsonRows, materialized } from '../kernel/json-parts.js';
import type { AleaState } from '../kernel/rng.js';
import { currentFen } from '../rules/chess/chess.js';
import type { LedgerAccountKind, LedgerJournalEntry } from '../escrow/ledger.js';
import { ChallengeRecord } from './chess/storage/challenge-record.js';
import { GameRecord } from './chess/storage/game-record.js';
import { EntryReader } from './social/storage/activity-checkpoint.js';
import { saveEntry } from './social/storage/activity-rows.js';
import * as read from './checkpoint-records.js';
import { id, pair } from './checkpoint-records.js';
import type { Platform, SavedCounters } from './platform.js';
import { fingerprintTableRows } from './snapshot.js';
import { STATE_TABLES, type StateTable } from './state.js';

/**
 * The platform's checkpoint: everything mutable a platform holds that a later request or timer reads, as
 * JSON data, and its loader, which fills a platform just made with the same options (createPlatform, or
 * wirePlatform in src/sim/wiring.ts) without replaying anything.
 *
 * The tables are saved in the very form `stateFingerprint(p, { includeUsage: true })` writes them
 * (src/platform/snapshot.ts), activity apart: one canonical form serves reading a state and restoring it, so a
 * restored platform's fingerprint is checked against the saved tables row for row, and a table added to the
 * state is saved by the same list (STATE_TABLES) that fingerprints it. Activity is saved as its compact
 * entries (activity-rows.ts), not as the rows the fingerprint reads out of them: rows carry their text and
 * ids written out, entries name the records they read, so a restored run keeps the memory an unbroken one has.
 * Beside the tables: the clock, the event count, the id streams' generator states (the replayable ones with
 * their noted states), the renamed handles, the ledger (accounts, and its journal when kept) and the timer
 * queue.
 *
 * Not saved: the key secret (a live server's, which the world carries: a checkpoint may be shared), the cache
 * of seeded API keys already hashed (`seededKeyIds`: a key is hashed again on its next use, to the same actor;
 * saving it would write every agent's key into the checkpoint), listeners, timer handlers and game-end hooks
 * (createPlatform makes them), and the derived read indexes (built from the state on their first read).
 */
export function savePlatform(p: Platform): Json {
  return materialized(platformCheckpoint(p)) as Json;
}

/**
 * `savePlatform`'s data with its tables, accounts and journal made a row at a time as they are written
 * (src/kernel/json-parts.ts: `jsonParts` writes the same text JSON.stringify writes of `savePlatform`), for a
 * live server that writes a large world's snapshot between other requests. The platform must not change
 * until the last piece is written.
 */
export function platformCheckpoint(p: Platform): Record<string, unknown> {
  const tables: Record<string, JsonRows> = {};
  for (const name of Object.keys(STATE_TABLES) as StateTable[])
    tables[name] = new JsonRows(
      name === 'activity' ? activityRows(p) : fingerprintTableRows(p, name, { includeUsage: true }),
    );
  return {
    nowMs: p.nowMs,
    counters: saveCounters(p.savedCounters()),
    handleHistory: p.handleHistory.entries().map(([actorId, list]) => [actorId, list.map((e) => ({ ...e }))]),
    ledger: {
      accounts: new JsonRows(p.ledger.accounts()),
      journal: JsonRows.of(p.ledger.journal, saveJournalEntry),
    },
    timers: p.timers.saveRows((timer) => ({ ...timer })),
    tables,
  };
}

function* activityRows(p: Platform): Generator<Json> {
  for (const [actorId, entries] of p.state.activity) yield [actorId, entries.map(saveEntry)];
}

function saveCounters(counters: SavedCounters): Json {
  return {
    eventCount: counters.eventCount,
    streams: counters.streams.map(([purpose, state]) => [purpose, { ...state }]),
    moveIds: { drawn: counters.moveIds.drawn, checkpoints: [...counters.moveIds.checkpoints] },
    activityIds: { drawn: counters.activityIds.drawn, checkpoints: [...counters.activityIds.checkpoints] },
  };
}

function saveJournalEntry(entry: LedgerJournalEntry): Json {
  if (entry.op === 'open') return { ...entry, seed: Buffer.from(entry.seed).toString('hex') };
  if (entry.op === 'mint') return { ...entry };
  return { ...entry, outcome: { ...entry.outcome } };
}

/**
 * Fills `p`, just made with the options of the platform that saved `saved` (same seed, ruleset, network),
 * from `savePlatform`'s data, reading every value through `Field`: data this version does not write is a
 * CheckpointError naming the field, and nothing else is thrown for it. Pauses (yields) about once per row.
 * A platform whose load failed part-way holds part of the checkpoint: it is for throwing away.
 */
export function* loadPlatform(p: Platform, saved: Field): Generator<void> {
  if (p.eventCount !== 0 || p.timers.size !== 0 || p.state.agents.size !== 0 || p.state.humans.size !== 0)
    throw new Error('loadPlatform fills a platform just made, before any request');
  const parts = saved.record((get) => ({
    nowMs: get('nowMs'),
    counters: get('counters'),
    handleHistory: get('handleHistory'),
    ledger: get('ledger'),
    timers: get('timers'),
    tables: get('tables'),
  }));
  const nowMs = parts.nowMs.int(p.nowMs);
  p.clock.advanceTo(nowMs);
  restoreCounters(p, parts.counters);
  readHandleHistory(p, parts.handleHistory);
  yield* loadLedger(p, parts.ledger);
  yield* p.timers.load(parts.timers, read.timer);
  yield* loadTables(p, parts.tables);
}

function restoreCounters(p: Platform, field: Field): void {
  const counters = field.record((get) => ({
    eventCount: get('eventCount').nat(),
    streams: get('streams').list((s) => pair(s, id, aleaState)),
    moveIds: replayableIds(get('moveIds')),
    activityIds: replayableIds(get('activityIds')),
  }));
  const purposes = new Set(counters.streams.map(([purpose]) => purpose));
  if (purposes.size !== counters.streams.length) field.fail('a record whose streams are each listed once');
  try {
    p.restoreCounters(counters);
  } catch (error) {
    throw new CheckpointError(`${field.path}: ${(error as Error).message}`);
  }
}

/** alea's state: three fractions in [0, 1) and an integer carry, at most its multiplier (2091639). */
function aleaState(field: Field): AleaState {
  return field.record((get) => ({
    s0: fraction(get('s0')),
    s1: fraction(get('s1')),
    s2: fraction(get('s2')),
    c: get('c').int(0, ALEA_CARRY_MAX),
  }));
}

const ALEA_CARRY_MAX = 2091639;

function fraction(field: Field): number {
  const value = field.num();
  if (value < 0 || value >= 1) field.fail('a number in [0, 1)');
  return value;
}

function replayableIds(field: Field): SavedCounters['moveIds'] {
  return field.record((get) => ({
    drawn: get('drawn').nat(),
    checkpoints: get('checkpoints').list((n, i) => (i % 4 === 3 ? n.int(0, ALEA_CARRY_MAX) : fraction(n))),
  }));
}

function readHandleHistory(p: Platform, field: Field): void {
  const drawn = p.activityIds.nextOrdinal;
  for (const [actorId, list] of field.list((row) => pair(row, id, (l) => l.list(renamed(drawn)))))
    for (const { handle, untilOrdinal } of list) p.handleHistory.renamed(actorId, handle, untilOrdinal);
}

function renamed(drawn: number): (f: Field) => { handle: string; untilOrdinal: number } {
  return (f) =>
    f.record((get) => ({ handle: id(get('handle')), untilOrdinal: get('untilOrdinal').int(0, drawn) }));
}

const ACCOUNT_KINDS = ['treasury', 'wallet', 'bounty_escrow', 'tournament_escrow'] as const;

/** The ledger's accounts, opened by this platform's seed: the first is its own treasury. */
function* loadLedger(p: Platform, field: Field): Generator<void> {
  const parts = field.record((get) => ({ accounts: get('accounts'), journal: get('journal') }));
  const accounts: Array<{ address: string; kind: LedgerAccountKind; lamports: number }> = [];
  const seen = new Set<string>();
  let supply = 0;
  for (const row of parts.accounts.items()) {
    const account = row.record((get) => ({
      address: id(get('address')),
      kind: get('kind').oneOf(ACCOUNT_KINDS),
      lamports: get('lamports').nat(),
    }));
    if (seen.has(account.address)) row.fail('an account not listed before');
    if (accounts.length === 0 && (account.address !== p.treasuryAddress || account.kind !== 'treasury'))
      row.fail(
        `this platform's treasury (${p.treasuryAddress}): the checkpoint was saved under another seed`,
      );
    seen.add(account.address);
    supply += account.lamports;
    if (!Number.isSafeInteger(supply)) row.fail('an amount that keeps the total supply a safe integer');
    accounts.push(account);
    yield;
  }
  if (accounts.length === 0) parts.accounts.fail("a list led by this platform's treasury");
  const journal = parts.journal.list(journalEntry);
  if (journal.length > 0 && !p.ledger.keepsJournal)
    parts.journal.fail('empty: this platform keeps no ledger journal');
  p.ledger.restore(accounts, journal);
}

function journalEntry(field: Field): LedgerJournalEntry {
  return field.record((get) => {
    const op = get('op').oneOf(['open', 'mint', 'transfer'] as const);
    if (op === 'open') {
      const seed = get('seed').str(64);
      if (!/^[0-9a-f]{64}$/.test(seed)) get('seed').fail('32 bytes in hex');
      return {
        op,
        address: id(get('address')),
        kind: get('kind').oneOf(ACCOUNT_KINDS),
        seed: new Uint8Array(Buffer.from(seed, 'hex')),
      };
    }
    if (op === 'mint') return { op, address: id(get('address')), lamports: get('lamports').nat() };
    return {
      op,
      from: id(get('from')),
      to: id(get('to')),
      lamports: get('lamports').nat(),
      outcome: get('outcome').record((part, has) =>
        part('ok').bool()
          ? has('reason')
            ? part('reason').fail('absent when ok')
            : { ok: true as const }
          : {
              ok: false as const,
              reason: part('reason').oneOf(['insufficient_funds', 'insufficient_funds_for_rent'] as const),
            },
      ),
    };
  });
}

type TableLoader = (p: Platform, field: Field) => Generator<void>;

/**
 * Each table's loader, in the order they run: games before the challenges that settle into them, and
 * activity last, since its entries read challenges, games and posts.
 */
const TABLE_LOADERS = {
  agents: (p, f) => keyedRows(f, read.agent, (a) => a.id, p.state.agents),
  agentIdByHandle: (p, f) => mapRows(f, id, p.state.agentIdByHandle),
  agentIdByKeyHash: (p, f) => mapRows(f, id, p.state.agentIdByKeyHash),
  humans: (p, f) => keyedRows(f, read.human, (h) => h.id, p.state.humans),
  humanIdByUsername: (p, f) => mapRows(f, id, p.state.humanIdByUsername),
  humanIdByKeyHash: (p, f) => mapRows(f, id, p.state.humanIdByKeyHash),
  games: loadGames,
  challenges: loadChallenges,
  liveGamesByAgent: (p, f) => mapRows(f, (v) => new Set(v.list(id)), p.state.liveGamesByAgent),
  completedGamesByAgent: (p, f) => mapRows(f, idList, p.state.completedGamesByAgent),
  openChallengeIds: (p, f) => setRows(f, p.state.openChallengeIds),
  posts: (p, f) => mapRows(f, read.post, p.state.posts, (post) => post.id),
  postIds: (p, f) => listRows(f, p.state.postIds),
  postIdsByAuthor: (p, f) => mapRows(f, idList, p.state.postIdsByAuthor),
  recapPosts: (p, f) => mapRows(f, id, p.state.recapPosts),
  replies: (p, f) => mapRows(f, read.reply, p.state.replies, (reply) => reply.id),
  repliesByPost: (p, f) => mapRows(f, idList, p.state.repliesByPost),
  likes: (p, f) => setRows(f, p.state.likes),
  follows: (p, f) => setRows(f, p.state.follows),
  profileVotes: (p, f) => mapRows(f, (v) => v.oneOf(['up', 'down'] as const), p.state.profileVotes),
  unseenCursor: (p, f) => mapRows(f, (v) => v.int(-1), p.state.unseenCursor),
  notifications: (p, f) => mapRows(f, (v) => v.list(read.notification), p.state.notifications),
  transfers: (p, f) => mapRows(f, read.transfer, p.state.transfers, (t) => t.id),
  transfersByAgent: (p, f) => mapRows(f, idList, p.state.transfersByAgent),
  feesByAgent: (p, f) => mapRows(f, idList, p.state.feesByAgent),
  escrows: (p, f) => mapRows(f, read.escrow, p.state.escrows, (e) => e.address),
  pendingOutByAddress: (p, f) => mapRows(f, (v) => v.nat(), p.state.pendingOutByAddress),
  reservedByAddress: (p, f) => mapRows(f, (v) => v.nat(), p.state.reservedByAddress),
  tournaments: (p, f) => mapRows(f, read.tournament, p.state.tournaments, (t) => t.id),
  externalAccounts: (p, f) =>
    mapRows(f, read.externalAccount, p.state.externalAccounts, (a) => a.handle.toLowerCase()),
  activity: loadActivity,
} satisfies Record<StateTable, TableLoader>;

function* loadTables(p: Platform, field: Field): Generator<void> {
  const tables = field.record((get) => {
    const fields = new Map<StateTable, Field>();
    for (const name of Object.keys(TABLE_LOADERS) as StateTable[]) fields.set(name, get(name));
    return fields;
  });
  for (const [name, table] of tables) yield* (TABLE_LOADERS[name] as TableLoader)(p, table);
}

const idList = (f: Field): string[] => f.list(id);

/** A map saved as `[key, value]` rows; with `keyOf`, each key must be its record's own. */
function* mapRows<V>(
  field: Field,
  readValue: (f: Field) => V,
  into: Map<string, V>,
  keyOf?: (value: V) => string,
): Generator<void> {
  for (const row of field.items()) {
    const [key, value] = pair(row, id, readValue);
    if (keyOf && key !== keyOf(value)) row.fail(`a row whose key is its record's (${keyOf(value)})`);
    if (into.has(key)) row.fail(`a key not listed before (${key})`);
    into.set(key, value);
    yield;
  }
}

/** A map of records saved as a list of the records, each keyed by `keyOf`. */
function* keyedRows<V>(
  field: Field,
  readValue: (f: Field) => V,
  keyOf: (value: V) => string,
  into: Map<string, V>,
): Generator<void> {
  for (const row of field.items()) {
    const value = readValue(row);
    if (into.has(keyOf(value))) row.fail(`a record not listed before (${keyOf(value)})`);
    into.set(keyOf(value), value);
    yield;
  }
}

function* setRows(field: Field, into: Set<string>): Generator<void> {
  for (const row of field.items()) {
    const value = id(row);
    if (into.has(value)) row.fail(`an item not listed before (${value})`);
    into.add(value);
    yield;
  }
}

function* listRows(field: Field, into: string[]): Generator<void> {
  for (const row of field.items()) {
    into.push(id(row));
    yield;
  }
}

/** Games made again from their packed moves; the replay must land where the saved fields say. */
function* loadGames(p: Platform, field: Field): Generator<void> {
  for (const row of field.items()) {
    const saved = read.game(row);
    if (p.state.games.has(saved.game.seat.id)) row.fail(`a game not listed before (${saved.game.seat.id})`);
    const game = replayGame(p, row, saved);
    p.state.games.set(game.id, game);
    yield;
  }
}

function replayGame(p: Platform, row: Field, saved: read.SavedGameRow): GameRecord {
  let game: GameRecord;
  try {
    game = GameRecord.restore(saved.game, p.moveIds, saved.fen);
  } catch (error) {
    throw new CheckpointError(`${row.path}.moves: does not replay (${(error as Error).message})`);
  }
  if (game.packedMoves() !== saved.game.moves.text)
    row.fail('a game whose moves are packed as this version packs them');
  if (game.fen !== saved.fen) row.fail(`a game whose fen is its moves' final position (${game.fen})`);
  const board = saved.board;
  if ((board === null) !== (game.status === 'completed' || game.status === 'cancelled'))
    row.fail('a game with a board exactly while it is in play');
  if (board !== null) {
    const live = game.board;
    const same =
      board.fen === currentFen(live) &&
      board.plies === live.plies &&
      JSON.stringify(board.repetitions) === JSON.stringify([...live.repetitions.entries()]);
    if (!same) row.fail("a game whose board is its moves' replay");
  }
  return game;
}

/** Challenges, each settled into its game when accepted (as the accept route does: see ChallengeRecord). */
function* loadChallenges(p: Platform, field: Field): Generator<void> {
  for (const row of field.items()) {
    const [key, saved] = pair(row, id, read.challenge);
    if (key !== saved.id) row.fail(`a row whose key is its challenge's (${saved.id})`);
    if (p.state.challenges.has(key)) row.fail(`a key not listed before (${key})`);
    const challenge = new ChallengeRecord(
      { id: saved.id, challengerId: saved.challengerId, opponentId: saved.opponentId },
      { createdAtMs: saved.createdAtMs, expiresAtMs: saved.expiresAtMs },
      { bountyLamports: saved.bountyLamports, escrowAddress: saved.escrowAddress },
    );
    challenge.status = saved.status;
    challenge.acceptedById = saved.acceptedById;
    challenge.acceptedAtMs = saved.acceptedAtMs;
    challenge.expiryTimer = saved.expiryTimer;
    const game = p.state.games.get(saved.id);
    if (game !== undefined) challenge.settle(game);
    p.state.challenges.set(key, challenge);
    yield;
  }
}

/** Each actor's activity entries, read after the challenges, games and posts they name. */
function* loadActivity(p: Platform, field: Field): Generator<void> {
  const entries = new EntryReader({
    idsDrawn: p.activityIds.nextOrdinal,
    challenge: (challengeId) => p.state.challenges.get(challengeId),
    game: (gameId) => p.state.games.get(gameId),
    post: (postId) => p.state.posts.get(postId),
  });
  for (const row of field.items()) {
    const [actorId, list] = pair(row, id, (f) => f);
    if (p.state.activity.has(actorId)) row.fail(`a key not listed before (${actorId})`);
    const kept = [];
    for (const item of list.items()) kept.push(entries.read(item));
    p.state.activity.set(actorId, kept);
    yield;
  }
}
