/** Checks one numeric persona option; returns problems naming it. */
export function checkNumberOption(
  options: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  integer = false,
): string[] {
  const value = options[name];
  if (value === undefined) return [];
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    return [`${name}: must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`];
  }
  return [];
}
