/**
 * `n`, as a small integer when it is one. V8 keeps a 32-bit integer in an object's field as is, and any other
 * number in a box of 16 bytes; the result of arithmetic on times (which are larger) may come out boxed even
 * when it is small, so a field meant to hold a small difference is stored through this.
 */
export function asSmallInt(n: number): number {
  return n === (n | 0) ? n | 0 : n;
}
