/**
 * Student's t distribution, computed rather than tabled (ISSUE 26): the cdf from the regularized
 * incomplete beta function, the quantile by inverting the cdf. A printed table stops at a few rows and
 * falls back to the normal 1.96 past them, which is narrower than the truth at every finite df.
 *
 * - `studentTCdf(t, df)` = P(T <= t): with x = df / (df + t²), the two-sided tail is I_x(df/2, 1/2).
 * - `studentTQuantile(p, df)` = the t with cdf p, by bisection on the cdf (monotone), 200 halvings of a
 *   bracket that always holds the root, so the same inputs give the same bits on every machine.
 * df may be any positive real (Welch's df is fractional); p must lie strictly between 0 and 1.
 */

/** P(T <= t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  assertDf(df);
  if (Number.isNaN(t)) throw new RangeError('t must be a number');
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T <= t) = p, for 0 < p < 1. */
export function studentTQuantile(p: number, df: number): number {
  assertDf(df);
  if (!(p > 0 && p < 1)) throw new RangeError(`a t quantile needs 0 < p < 1, got ${p}`);
  if (p === 0.5) return 0;
  // Symmetric: solve the upper half and mirror, so quantile(1 - p) is exactly -quantile(p).
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2; // the bracket doubles until it holds the root
  for (let step = 0; step < 200 && high - low > 0; step++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break;
    if (studentTCdf(mid, df) < p) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

function assertDf(df: number): void {
  if (!(df > 0) || !Number.isFinite(df))
    throw new RangeError(`degrees of freedom must be a positive number, got ${df}`);
}

/**
 * I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified Lentz),
 * using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly.
 */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaFraction(1 - x, b, a)) / b;
}

const TINY = 1e-300;
const EPSILON = 1e-15;
const MAX_TERMS = 10_000;

function betaFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_TERMS; m++) {
    const m2 = 2 * m;
    // The even step, then the odd step, of the fraction's terms.
    for (const term of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + term * d;
      if (Math.abs(d) < TINY) d = TINY;
      c = 1 + term / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      h *= d * c;
      if (term === 0) break;
    }
    const last = d * c;
    if (Math.abs(last - 1) < EPSILON) return h;
  }
  return h;
}

/** ln Γ(z) for z > 0, Lanczos (g = 7, 9 terms): relative error near 1e-15. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
export function lnGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * z))) - lnGamma(1 - z);
  const x = z - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}
