/**
 * Money is integer lamports everywhere inside the simulator. SOL appears only at the edges (requests and
 * responses), and the conversion is exact: decimal text is parsed digit by digit, never multiplied as a float.
 */
export type Lamports = number;

export const LAMPORTS_PER_SOL = 1_000_000_000;
const SOL_DECIMALS = 9;

/** Exact SOL -> lamports. Returns undefined for negatives, NaN, or more than 9 decimals. */
export function solToLamports(sol: number | string): Lamports | undefined {
  const text = typeof sol === 'number' ? numberToPlainDecimal(sol) : sol.trim();
  if (text === undefined) return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > SOL_DECIMALS) return undefined;
  const lamports = Number(match[1]) * LAMPORTS_PER_SOL + Number(fraction.padEnd(SOL_DECIMALS, '0'));
  return Number.isSafeInteger(lamports) ? lamports : undefined;
}

/** Lamports -> SOL as the nearest double; JSON then prints the shortest exact decimal (0.01, not 0.0100000001). */
export function lamportsToSol(lamports: Lamports): number {
  assertLamports(lamports);
  return lamports / LAMPORTS_PER_SOL;
}

export function assertLamports(value: number): asserts value is Lamports {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a lamport amount: ${value}`);
}

function numberToPlainDecimal(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  // toString gives the shortest round-tripping decimal; exponent forms are expanded by toFixed.
  const text = String(value);
  return text.includes('e')
    ? value
        .toFixed(SOL_DECIMALS + 1)
        .replace(/0+$/, '')
        .replace(/\.$/, '')
    : text;
}
