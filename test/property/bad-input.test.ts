import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/types.js';
import { ROUTES } from '../../src/api/routes/index.js';
import {
  anyValue,
  expectAnswerContract,
  fixture,
  fuzzRequest,
  headersFor,
  nearValid,
  PROTO,
  type Fixture,
  type FuzzRequest,
  type KeyChoice,
} from '../helpers/fuzz.js';

/**
 * Fuzzed requests against every route of a small live world: two agents past the research phase, one
 * without a post, an open challenge, a direct challenge and an active game. Whatever arrives, the answer is
 * a 2xx with a JSON object, or a 4xx whose code is in the registry with the registry's status, and a
 * refused request changes no state. The fixture, the arbitraries and that contract live in
 * test/helpers/fuzz.ts, shared with the HTTP fuzzer (test/http/fuzz.test.ts). Replay a failure with
 * FC_SEED=<seed printed by fast-check>.
 */
const FC_PARAMS = { numRuns: Number(process.env['FC_RUNS'] ?? 200) };

// --- the property -------------------------------------------------------------------------------------------

const seenCodes = new Map<string, number>();

function send(f: Fixture, req: FuzzRequest): void {
  const before = f.world.fingerprint();
  let response: ApiResponse;
  try {
    response = f.world.api.handle({
      method: req.method,
      path: req.path,
      query: req.query,
      headers: headersFor(f, req.key),
      body: req.body,
    });
  } catch (error) {
    throw new Error(`threw instead of answering ${req.method} ${req.path.slice(0, 120)}: ${String(error)}`, {
      cause: error,
    });
  }
  const code = expectAnswerContract({ method: req.method, path: req.path, ...response }, before, () =>
    f.world.fingerprint(),
  );
  seenCodes.set(code, (seenCodes.get(code) ?? 0) + 1);
}

describe('bad input never breaks the platform', () => {
  it('the fixture is the same world on every run', () => {
    const again = fixture();
    expect(again.ids).toEqual(PROTO.ids);
    expect(again.world.fingerprint(true)).toBe(PROTO.world.fingerprint(true));
    expect(again.world.platform.state.games.get(PROTO.ids.gameId)!.status).toBe('active');
  });

  it('answers fuzzed requests to every route with 2xx or a registered 4xx, and refusals change nothing', () => {
    seenCodes.clear();
    const request = fc.oneof(
      { weight: 2, arbitrary: fuzzRequest },
      { weight: 3, arbitrary: nearValid(PROTO) },
    );
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 6 }), (requests) => {
        const f = fixture();
        for (const req of requests) send(f, req);
      }),
      FC_PARAMS,
    );
    if (process.env['FUZZ_STATS']) console.log(JSON.stringify([...seenCodes].sort()));
    // The fuzzer reaches past authentication and validation, not only the first gate.
    for (const code of [
      '2xx',
      'validation_error',
      'not_found',
      'authentication_required',
      'invalid_api_key',
      'bad_request',
      'route_not_found',
    ]) {
      expect(
        seenCodes.get(code) ?? 0,
        `never saw ${code}: ${JSON.stringify([...seenCodes])}`,
      ).toBeGreaterThan(0);
    }
  });

  it('refuses non-object bodies on every body route with validation_error', () => {
    const f = fixture();
    const bodyRoutes = ROUTES.filter((r) => r.contract.body);
    expect(bodyRoutes.length).toBeGreaterThanOrEqual(5);
    fc.assert(
      fc.property(
        fc.constantFrom(...bodyRoutes),
        fc.constantFrom<KeyChoice>('alice', 'bob', 'carol'),
        fc.oneof(
          fc.array(anyValue, { maxLength: 3 }),
          fc.string(),
          fc.integer(),
          fc.boolean(),
          fc.double({ noNaN: true }),
        ),
        (route, key, body) => {
          const before = f.world.fingerprint();
          const response = f.world.api.handle({
            method: route.contract.method,
            path: route.contract.path,
            headers: headersFor(f, key),
            body,
          });
          expect((response.body as { error?: string }).error).toBe('validation_error');
          expect(response.status).toBe(400);
          expect(f.world.fingerprint()).toBe(before);
        },
      ),
      { ...FC_PARAMS, numRuns: 100 },
    );
  });
});
