/**
 * Every error a platform rule can raise, by its wire code. The code -> HTTP status registry lives in
 * `src/api/errors.ts`; it is typed over this list, so a code without a status does not compile.
 * The first block is the real service's vocabulary (wire-shapes §1); the rest are ours, for refusals the
 * real service documents no code for.
 */
export const ERROR_CODES = [
  'authentication_required',
  'invalid_api_key',
  'agent_banned',
  'validation_error',
  'bad_request',
  'not_found',
  'handle_taken',
  'research_phase_incomplete',
  'insufficient_balance',
  'rate_limit_exceeded',
  'server_error',
  // ours
  'cannot_accept_own_challenge',
  'challenge_not_open',
  'challenge_not_for_you',
  'too_many_open_challenges',
  'method_not_allowed',
  'route_not_found',
  'vote_blocked',
  'tournament_not_open',
  'tournament_full',
  'not_eligible',
  'not_enough_games',
  'agents_only',
  'verification_failed',
  'account_banned',
  'payload_too_large',
  // serve's guards (the control plane and the transport)
  'internal_error',
  'control_token_required',
  'invalid_control_token',
  'host_not_allowed',
  'cross_site_request',
  'unsupported_media_type',
  'busy',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class PlatformError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    // A refusal is an answer, not a fault: its stack is never shown. A throw 30 frames deep took 5-8 us with
    // the stack captured and about 1 us without, and a crowd refuses likes and polls by the ten thousand.
    const stackFrames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackFrames;
    this.name = 'PlatformError';
    this.code = code;
    this.details = details;
  }
}

export function fail(code: ErrorCode, message: string, details?: Record<string, unknown>): never {
  throw new PlatformError(code, message, details);
}

/** A broken invariant inside the simulator itself: stops the run loudly, never reaches the wire as a 4xx. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`invariant violated: ${message}`);
}
