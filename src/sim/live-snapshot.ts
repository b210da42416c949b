import { isRecord } from './scenario/scenario-fields.js';
import { LazyJson } from '../kernel/lazy-json.js';
import type { FaultsState } from '../faults/state.js';

/**
 * The live snapshot's format, and the check every snapshot passes before a restore touches it: a snapshot
 * arrives over HTTP, so each field is checked for type and range here, and nothing else reads it unchecked.
 */
export interface Usage {
  dayIndex: number;
  requestsToday: number;
  totalRequests: number;
  lastUsedMs: number | null;
}

/** A request kept for replay: no headers (the caller is named by id, its key is never kept), its caller's counters as they were before it. */
export interface RecordedRequest {
  method: string;
  path: string;
  body?: unknown;
  actorId?: string;
  usage?: Usage;
}

export type LiveInput =
  | { kind: 'advance'; toMs: number }
  | { kind: 'request'; request: RecordedRequest }
  | { kind: 'airdrop'; handle: string; lamports: number };

export interface LiveSnapshot {
  format: string;
  /** The scenario's source record, checked again on restore as a file is. */
  scenario: Record<string, unknown>;
  /** Hex of the per-start key secret (null when the world has none): with it, the restored world mints the same keys. */
  keySecret: string | null;
  nowMs: number;
  now: string;
  /** SHA-256 of the platform's canonical state (usage counters included) at the snapshot. */
  stateHash: string;
  /** The event-log fingerprint at the snapshot. */
  fingerprint: string;
  /**
   * The whole world as data (src/sim/world.ts `save`), restored without replay; null when the world holds
   * what data cannot (agent modules, a fault profile: `whyNotCheckpointable`) and `inputs` is its whole history.
   */
  checkpoint: Record<string, unknown> | null;
  /** What changed the world from outside since the checkpoint (or since the start, without one), in order. */
  inputs: LiveInput[];
  /** Every actor's request counters at the snapshot, by actor id (reads are not replayed, their counts are set). */
  usage: Record<string, Usage>;
  /** The platform's whole state at the snapshot, as canonical JSON data, for reading; restore replays `inputs`. */
  state: unknown;
  /** The live server's fault layer (src/faults/state.ts), written and taken back by the server, not the world. */
  faults?: FaultsState;
}

export class SnapshotError extends Error {}

const METHODS = new Set(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
const MAX_PATH = 4096;
const MAX_LAMPORTS = 1_000_000_000_000; // the faucet's own per-call cap (1000 SOL)
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** How a long check pauses (`Slicing` in live.ts has this shape): a pause test per slice, a yield between. */
export interface CheckSlicing {
  startSlice(): () => boolean;
  yieldNow(): Promise<void>;
}

const NO_PAUSES: CheckSlicing = { startSlice: () => () => false, yieldNow: () => Promise.resolve() };

/**
 * The snapshot, typed, or a SnapshotError naming the first field that is wrong. The usage map has an entry
 * per actor (100,000 in a large world), so it is checked in slices, yielding between them.
 */
/** A snapshot as a restore reads it: its checkpoint may be one whose rows are parsed as they are read. */
export type CheckedSnapshot = Omit<LiveSnapshot, 'checkpoint'> & {
  checkpoint: Record<string, unknown> | LazyJson | null;
};

export async function checkSnapshot(
  value: unknown,
  format: string,
  slicing: CheckSlicing = NO_PAUSES,
): Promise<CheckedSnapshot> {
  if (!isRecord(value) || value['format'] !== format)
    throw new SnapshotError(`not a live snapshot (format ${format})`);
  const scenario = value['scenario'];
  if (!isRecord(scenario)) throw new SnapshotError('scenario: must be the scenario record');
  const keySecret = value['keySecret'];
  if (keySecret !== null && !(typeof keySecret === 'string' && /^[0-9a-f]{64}$/.test(keySecret)))
    throw new SnapshotError('keySecret: must be 64 hex digits or null');
  const nowMs = checkTime(value['nowMs'], 'nowMs');
  for (const name of ['stateHash', 'fingerprint'] as const) {
    if (typeof value[name] !== 'string' || value[name].length > 100)
      throw new SnapshotError(`${name}: must be a hash`);
  }
  const checkpoint = value['checkpoint'];
  if (checkpoint !== null && !isRecord(checkpoint) && !isLazyRecord(checkpoint))
    throw new SnapshotError('checkpoint: must be the world checkpoint record or null');
  if (!Array.isArray(value['inputs'])) throw new SnapshotError('inputs: must be a list');
  const inputs = value['inputs'].map((entry, index) => checkInput(entry, `inputs[${index}]`));
  const stateHash = value['stateHash'] as string;
  const fingerprint = value['fingerprint'] as string;
  const usage = await checkUsageMap(value['usage'], slicing);
  return {
    format,
    scenario,
    keySecret,
    nowMs,
    now: String(value['now']),
    stateHash,
    fingerprint,
    checkpoint,
    inputs,
    usage,
    state: null,
  };
}

function checkInput(entry: unknown, where: string): LiveInput {
  if (!isRecord(entry)) throw new SnapshotError(`${where}: must be an input record`);
  if (entry['kind'] === 'advance')
    return { kind: 'advance', toMs: checkTime(entry['toMs'], `${where}.toMs`) };
  if (entry['kind'] === 'airdrop') return checkAirdrop(entry, where);
  if (entry['kind'] === 'request')
    return { kind: 'request', request: checkRequest(entry['request'], `${where}.request`) };
  throw new SnapshotError(`${where}.kind: must be advance, request or airdrop`);
}

function checkAirdrop(entry: Record<string, unknown>, where: string): LiveInput {
  const { handle, lamports } = entry;
  if (typeof handle !== 'string' || handle.length > 64)
    throw new SnapshotError(`${where}.handle: must be a handle`);
  if (!(Number.isSafeInteger(lamports) && (lamports as number) > 0 && (lamports as number) <= MAX_LAMPORTS))
    throw new SnapshotError(`${where}.lamports: must be 1..${MAX_LAMPORTS}`);
  return { kind: 'airdrop', handle, lamports: lamports as number };
}

function checkRequest(value: unknown, where: string): RecordedRequest {
  if (!isRecord(value)) throw new SnapshotError(`${where}: must be a request record`);
  const { method, path, body, actorId, usage } = value;
  if (typeof method !== 'string' || !METHODS.has(method))
    throw new SnapshotError(`${where}.method: must be one of ${[...METHODS].join(', ')}`);
  if (typeof path !== 'string' || path.length > MAX_PATH || !path.startsWith('/'))
    throw new SnapshotError(`${where}.path: must be a path`);
  if (actorId !== undefined && !(typeof actorId === 'string' && ID.test(actorId)))
    throw new SnapshotError(`${where}.actorId: must be an id`);
  const request: RecordedRequest = { method, path };
  if (body !== undefined) request.body = body; // a JSON value: the route's own schema checks it on replay
  if (actorId !== undefined) request.actorId = actorId;
  if (usage !== undefined) request.usage = checkUsage(usage, `${where}.usage`);
  return request;
}

async function checkUsageMap(value: unknown, slicing: CheckSlicing): Promise<Record<string, Usage>> {
  if (!isRecord(value)) throw new SnapshotError('usage: must map actor ids to counters');
  const out: Record<string, Usage> = {};
  let shouldPause = slicing.startSlice();
  for (const id of Object.keys(value)) {
    if (!ID.test(id)) throw new SnapshotError('usage: keys must be actor ids');
    out[id] = checkUsage(value[id], `usage.${id}`);
    if (!shouldPause()) continue;
    await slicing.yieldNow();
    shouldPause = slicing.startSlice();
  }
  return out;
}

function checkUsage(value: unknown, where: string): Usage {
  if (!isRecord(value)) throw new SnapshotError(`${where}: must be request counters`);
  const count = (name: string) => {
    const n = value[name];
    if (!(Number.isSafeInteger(n) && (n as number) >= 0))
      throw new SnapshotError(`${where}.${name}: must be a count`);
    return n as number;
  };
  const last = value['lastUsedMs'];
  const lastUsedMs = last === null ? null : checkTime(last, `${where}.lastUsedMs`);
  return {
    dayIndex: count('dayIndex'),
    requestsToday: count('requestsToday'),
    totalRequests: count('totalRequests'),
    lastUsedMs,
  };
}

function checkTime(value: unknown, where: string): number {
  if (!(Number.isSafeInteger(value) && (value as number) >= 0))
    throw new SnapshotError(`${where}: must be epoch milliseconds`);
  return value as number;
}

function isLazyRecord(value: unknown): value is LazyJson {
  return value instanceof LazyJson && value.kind === 'object';
}
