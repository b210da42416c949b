/** One page of a list, and the list's total. */
export function page<T>(items: readonly T[], query: { limit?: number; offset?: number }): { items: T[]; total: number } {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  return { items: items.slice(offset, offset + limit), total: items.length };
}
