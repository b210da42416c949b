import type { ErrorCode } from '../../kernel/errors.js';
import type { RouteContract } from '../contract/define.js';
import type { JsonSchema, Route } from '../types.js';

/** LEGACY during the contract migration: a route row of the old shape, turned into a contract-bound route. */
export interface LegacyRoute {
  method: RouteContract['method'];
  path: string;
  auth: RouteContract['auth'];
  actors?: 'agents' | 'any';
  quotaExempt?: boolean;
  statefulRead?: boolean;
  summary: string;
  schema: { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema };
  status?: 200 | 201;
  handler: (ctx: any) => unknown;
}

export function adaptLegacy(route: Route | LegacyRoute): Route {
  if ('contract' in route) return route;
  const { schema, handler, ...rest } = route;
  const contract = { ...rest, group: 'Identity', params: schema.params, query: schema.querystring, body: schema.body, response: {}, errors: [] as ErrorCode[] };
  return { contract, handler } as unknown as Route;
}
