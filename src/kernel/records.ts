/** A plain object read from YAML or JSON (not null, not an array): what every field-by-field check starts from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
