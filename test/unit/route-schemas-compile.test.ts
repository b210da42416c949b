import { describe, expect, it } from 'vitest';
import { compileEveryRouteSchema } from '../../src/api/dispatch.js';
import { LIVE_ROUTES, ROUTES } from '../../src/api/routes/index.js';

// Routes compile their schemas on first use (src/api/dispatch.ts LazyValidator), so a schema Ajv refuses
// would otherwise surface only when a client first calls its route.
describe('route schemas', () => {
  it('every declared params, query and body schema compiles', () => {
    const declared = [...ROUTES, ...LIVE_ROUTES].reduce(
      (sum, { contract }) => sum + [contract.params, contract.query, contract.body].filter(Boolean).length,
      0,
    );
    expect(declared).toBeGreaterThan(30);
    expect(compileEveryRouteSchema()).toBe(declared);
  });
});
