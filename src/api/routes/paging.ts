/** One page of a list, and the list's total. */
export function page<T>(items: readonly T[], query: { limit?: number; offset?: number }): { items: T[]; total: number } {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 50;
  return { items: items.slice(offset, offset + limit), total: items.length };
}

/** The real service's list shape: `{ <name>: [...views of one page], total, limit, offset }`. */
export function pagedList<T, V>(name: string, rows: readonly T[], query: { limit?: number; offset?: number }, view: (row: T) => V) {
  const { items, total } = page(rows, query);
  return { [name]: items.map(view), total, limit: query.limit, offset: query.offset };
}
