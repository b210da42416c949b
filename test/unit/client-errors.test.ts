import { describe, expect, it } from 'vitest';
import { ApiError, errorCode } from '../../src/client/client.js';

describe('the wire error code of a refusal', () => {
  it("is the body's `error`, or request_failed when there is none, as ApiError names it", () => {
    const bodies: Array<[unknown, string]> = [
      [{ error: 'rate_limit_exceeded', message: 'daily quota', retry_after: 3 }, 'rate_limit_exceeded'],
      [{ error: 'not_found' }, 'not_found'],
      [{ message: 'no code' }, 'request_failed'],
      [{ error: null }, 'request_failed'],
      [{}, 'request_failed'],
      [null, 'request_failed'],
      [undefined, 'request_failed'],
      ['plain text', 'request_failed'],
    ];
    for (const [body, code] of bodies) {
      expect(errorCode(body)).toBe(code);
      expect(new ApiError(429, body).code).toBe(code);
    }
    expect(new ApiError(429, bodies[0]![0]).message).toBe('429 rate_limit_exceeded: daily quota');
  });
});
