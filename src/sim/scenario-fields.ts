import { parseDurationMs } from '../kernel/clock.js';

/** Field checks shared by the scenario loader's parts; each pushes a problem naming the field and returns a usable default. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkDuration(value: unknown, field: string, problems: string[], zeroAllowed = false): number {
  const ms = typeof value === 'string' || typeof value === 'number' ? parseDurationMs(value) : undefined;
  if (ms === undefined || ms < 0 || (ms === 0 && !zeroAllowed)) problems.push(`${field}: must be a positive duration such as 500ms, 90s, 5m, 24h or 2d`);
  return ms ?? 0;
}

/** Names every key of `raw` that is not in `known`. */
export function checkKnownFields(raw: Record<string, unknown>, known: readonly string[], path: string, problems: string[]): void {
  for (const key of Object.keys(raw)) if (!known.includes(key)) problems.push(`${path}${path ? '.' : ''}${key}: unknown field (expected one of ${known.join(', ')})`);
}
