import type { AleaState } from '../kernel/rng.js';
import type { InjectorState } from './decide.js';
import { isRecord } from '../kernel/records.js';
import { checkFaultProfile, faultProfileSource, type FaultProfile } from './profile.js';

/**
 * The live server's fault layer as a snapshot keeps it (`faults` of GET /_sim/snapshot): the profile in its
 * source form (a profile set at run time through POST /_sim/faults included), each agent's stream where it
 * stands, the 429 bursts running, and the answers kept for stale reads. A restore takes it back, so the
 * requests that follow meet the faults they would have met on the server the snapshot came from. The faults
 * met so far (GET /_sim/faults `met_by_kind`) are that server's counts and are not kept.
 */
export interface FaultsState extends InjectorState {
  profile: Record<string, unknown>;
  /** A stale read's fresh answer, by agent and path: when it was read and what it said. */
  kept: Array<{ key: string; atMs: number; status: number; text: string }>;
}

const MAX_ENTRIES = 1_000_000;

/** The profile and the state, checked field by field, or a SnapshotError-ready one-line problem. */
export function checkFaultsState(raw: unknown): { profile: FaultProfile; state: FaultsState } | string {
  if (!isRecord(raw)) return 'faults: must be the fault layer record (profile, streams, bursts, kept)';
  const problems: string[] = [];
  const profile = checkFaultProfile(raw['profile'], 'faults.profile', problems);
  if (problems.length > 0) return problems[0]!;
  const { streams, bursts, kept } = raw;
  if (!isRecord(streams) || Object.keys(streams).length > MAX_ENTRIES)
    return 'faults.streams: must map handles to stream states';
  for (const [agent, at] of Object.entries(streams))
    if (!isAleaState(at)) return `faults.streams.${agent}: must be a stream state (c, s0, s1, s2)`;
  if (!Array.isArray(bursts) || !bursts.every((b) => isBurst(b, profile.rules.length)))
    return 'faults.bursts: must be a list of { rule, agent, untilMs } naming rules of the profile';
  if (!Array.isArray(kept) || !kept.every(isKept))
    return 'faults.kept: must be a list of { key, atMs, status, text }';
  return {
    profile,
    state: {
      profile: faultProfileSource(profile),
      streams: streams as Record<string, AleaState>,
      bursts: bursts as FaultsState['bursts'],
      kept: kept as FaultsState['kept'],
    },
  };
}

function isAleaState(value: unknown): value is AleaState {
  return (
    isRecord(value) &&
    Object.keys(value).length === 4 &&
    ['c', 's0', 's1', 's2'].every((k) => typeof value[k] === 'number' && Number.isFinite(value[k]))
  );
}

function isBurst(value: unknown, rules: number): boolean {
  return (
    isRecord(value) &&
    Number.isSafeInteger(value['rule']) &&
    (value['rule'] as number) >= 0 &&
    (value['rule'] as number) < rules &&
    typeof value['agent'] === 'string' &&
    Number.isSafeInteger(value['untilMs'])
  );
}

function isKept(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['key'] === 'string' &&
    Number.isSafeInteger(value['atMs']) &&
    Number.isSafeInteger(value['status']) &&
    typeof value['text'] === 'string'
  );
}
