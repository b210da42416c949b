import { toIso } from '../kernel/clock.js';

/**
 * `diff A B` of two canonical event logs (src/report/event-log.ts): where they first part, with a few events
 * of context on both sides, then how many events of each type each holds. The logs are read once, side by
 * side, keeping only the context: a log of millions of events is never whole in memory.
 */
export const CONTEXT_EVENTS = 3;

export interface LogEvent {
  /** 1-based: the event's line in the log. */
  line: number;
  text: string;
}

export interface FirstDifference {
  /** The line of the first event that differs (or that only one log has). */
  line: number;
  /** The last CONTEXT_EVENTS events both logs share before it. */
  before: LogEvent[];
  /** From the differing event on, up to CONTEXT_EVENTS + 1 events of each log (none where a log has ended). */
  a: LogEvent[];
  b: LogEvent[];
}

export interface TypeCount {
  type: string;
  a: number;
  b: number;
}

export interface EventDiff {
  events: { a: number; b: number };
  first: FirstDifference | null;
  /** Every event type either log holds, by name. */
  counts: TypeCount[];
}

export class EventLineError extends Error {
  override readonly name = 'EventLineError';
}

export async function diffEventLogs(a: AsyncIterable<string>, b: AsyncIterable<string>): Promise<EventDiff> {
  const [ia, ib] = [a[Symbol.asyncIterator](), b[Symbol.asyncIterator]()];
  const counts = { a: new Map<string, number>(), b: new Map<string, number>() };
  const before: LogEvent[] = [];
  let first: FirstDifference | null = null;
  let [lineA, lineB] = [0, 0];
  for (;;) {
    const [na, nb] = await Promise.all([ia.next(), ib.next()]);
    if (!na.done) count(counts.a, na.value, 'A', ++lineA);
    if (!nb.done) count(counts.b, nb.value, 'B', ++lineB);
    if (na.done && nb.done) break;
    const line = Math.max(lineA, lineB);
    if (first === null && (na.done || nb.done || na.value !== nb.value)) {
      first = { line, before: [...before], a: [], b: [] };
    }
    if (first === null) {
      before.push({ line, text: na.value as string });
      if (before.length > CONTEXT_EVENTS) before.shift();
    } else if (line - first.line <= CONTEXT_EVENTS) {
      if (!na.done) first.a.push({ line, text: na.value });
      if (!nb.done) first.b.push({ line, text: nb.value });
    }
  }
  return { events: { a: lineA, b: lineB }, first, counts: mergeCounts(counts.a, counts.b) };
}

function count(into: Map<string, number>, text: string, side: string, line: number): void {
  const type = eventType(text);
  if (type === undefined)
    throw new EventLineError(`log ${side}, line ${line}: not an event (a JSON object with a type)`);
  into.set(type, (into.get(type) ?? 0) + 1);
}

function eventType(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    const type = (value as { type?: unknown } | null)?.type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
}

function mergeCounts(a: Map<string, number>, b: Map<string, number>): TypeCount[] {
  const types = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return types.map((type) => ({ type, a: a.get(type) ?? 0, b: b.get(type) ?? 0 }));
}

/** The event's virtual time (its `t`) in ISO form, or `?` when it has none. */
export function eventTime(text: string): string {
  const t = (JSON.parse(text) as { t?: unknown }).t;
  return typeof t === 'number' ? toIso(t) : '?';
}

/** The diff as `diff` prints it. `names` are how A and B were given. */
export function eventDiffText(d: EventDiff, names: { a: string; b: string }): string[] {
  const head = [`A: ${names.a} (${d.events.a} events)`, `B: ${names.b} (${d.events.b} events)`];
  if (d.first === null) return [...head, 'the logs are identical'];
  const f = d.first;
  const at = (side: LogEvent[]) => (side[0] && side[0].line === f.line ? eventTime(side[0].text) : 'ended');
  return [
    ...head,
    '',
    `first difference: event ${f.line} (line ${f.line} of each log), virtual time A ${at(f.a)}, B ${at(f.b)}`,
    ...f.before.map((e) => `    ${e.line}  ${e.text}`),
    ...(f.a.length === 0
      ? [`  A (log A ends after event ${f.line - 1})`]
      : f.a.map((e) => `  A ${e.line}  ${e.text}`)),
    ...(f.b.length === 0
      ? [`  B (log B ends after event ${f.line - 1})`]
      : f.b.map((e) => `  B ${e.line}  ${e.text}`)),
    '',
    ...countTable(d.counts),
  ];
}

function countTable(counts: readonly TypeCount[]): string[] {
  const rows = [
    ['event type', 'A', 'B', 'B - A'],
    ...counts.map((c) => [c.type, String(c.a), String(c.b), signed(c.b - c.a)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
