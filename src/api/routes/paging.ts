/**
 * Paging after the dispatcher has resolved it: `limit` and `offset` are always numbers here (the ruleset's
 * default page size and ceiling, docs/rules.md "Paging").
 */
export interface PageQuery {
  limit?: number;
  offset?: number;
}

/** One page of a list, and the list's total. */
export function page<T>(items: readonly T[], query: PageQuery): { items: T[]; total: number } {
  const { limit, offset } = resolved(query);
  return { items: items.slice(offset, offset + limit), total: items.length };
}

/**
 * `page` of the items `keep` accepts, each made into its row only when it is on the page: one pass, with no
 * filtered list or page slice between, for the lists every agent polls each heartbeat.
 */
export function pageOfKept<T, R>(
  items: Iterable<T>,
  query: PageQuery,
  keep: (item: T) => boolean,
  row: (item: T) => R,
): { rows: R[]; total: number } {
  const { limit, offset } = resolved(query);
  const rows: R[] = [];
  let total = 0;
  for (const item of items) {
    if (!keep(item)) continue;
    if (total >= offset && rows.length < limit) rows.push(row(item));
    total++;
  }
  return { rows, total };
}

/** The real service's list shape: `{ <name>: [...views of one page], total, limit, offset }`. */
export function pagedList<const N extends string, T, V>(
  name: N,
  rows: readonly T[],
  query: PageQuery,
  view: (row: T) => V,
) {
  const { items, total } = page(rows, query);
  const { limit, offset } = resolved(query);
  return { [name]: items.map(view), total, limit, offset } as { [K in N]: V[] } & {
    total: number;
    limit: number;
    offset: number;
  };
}

/** `limit` and `offset` as numbers, for a route that asks the platform for just its page. */
export function resolved(query: PageQuery): { limit: number; offset: number } {
  if (query.limit === undefined || query.offset === undefined)
    throw new Error('paging read before the dispatcher resolved it');
  return { limit: query.limit, offset: query.offset };
}
