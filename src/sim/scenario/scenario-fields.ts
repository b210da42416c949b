import { parseDurationMs } from '../../kernel/clock.js';

/** Field checks shared by the scenario loader's parts; each pushes a problem naming the field and returns a usable default. */

// The plain-object test is the kernel's (the invariant loader checks module exports with it too).
export { isRecord } from '../../kernel/records.js';

export function checkDuration(
  value: unknown,
  field: string,
  problems: string[],
  zeroAllowed = false,
): number {
  const unitless = unitlessNumber(value);
  if (unitless !== undefined && unitless !== 0) {
    // `min: 30` could mean seconds or milliseconds; guessing wrong makes a run 1000 times too fast or slow.
    problems.push(
      `${field}: ${unitless} has no unit; write ${unitless}s for seconds (or ${unitless}ms, ${unitless}m, ${unitless}h)`,
    );
    return 0;
  }
  const ms = typeof value === 'string' || typeof value === 'number' ? parseDurationMs(value) : undefined;
  if (ms === undefined || ms < 0 || (ms === 0 && !zeroAllowed))
    problems.push(`${field}: must be a positive duration such as 500ms, 90s, 5m, 24h or 2d`);
  return ms ?? 0;
}

/** Names every key of `raw` that is not in `known`. */
export function checkKnownFields(
  raw: Record<string, unknown>,
  known: readonly string[],
  path: string,
  problems: string[],
): void {
  for (const key of Object.keys(raw))
    if (!known.includes(key))
      problems.push(`${path}${path ? '.' : ''}${key}: unknown field (expected one of ${known.join(', ')})`);
}

/** A duration written as a bare number (`30`, `"30"`, `2.5`), or undefined when it has a unit or is no number. */
function unitlessNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}
