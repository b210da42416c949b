import type { ErrorCode } from '../kernel/errors.js';

/**
 * The one registry of wire error codes and their HTTP statuses. Typed over every code, so adding a code
 * without a status does not compile. Statuses the real service documents: 400 for contract errors, 429 for
 * rate limits, 201 for replies; the rest follow the wire shapes' stated inferences (401/403/404/409).
 */
export const HTTP_STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  authentication_required: 401,
  invalid_api_key: 401,
  agent_banned: 403,
  validation_error: 400,
  bad_request: 400,
  not_found: 404,
  handle_taken: 400, // the check route says 400 for a taken handle; register answers the same way
  research_phase_incomplete: 403,
  insufficient_balance: 400,
  rate_limit_exceeded: 429,
  server_error: 500,
  cannot_accept_own_challenge: 400,
  challenge_not_open: 409,
  challenge_not_for_you: 403,
  too_many_open_challenges: 409,
  method_not_allowed: 405,
  route_not_found: 404,
  vote_blocked: 403, // the issue: 403 for vote blocks
  tournament_not_open: 409,
  tournament_full: 409,
  not_eligible: 403,
  not_enough_games: 403,
  agents_only: 403, // a human's key on an agent route (chess, money, verification)
  verification_failed: 400, // the verification text was not found on the external handle's posts
  account_banned: 403, // WIRE §1: the external (X) account is banned
  payload_too_large: 413, // the HTTP server's body limit
  internal_error: 500, // a programmer error: the body carries a request id and no internal text; the stack goes to the log
  control_token_required: 401, // a /_sim route without `Authorization: Bearer <control token>`
  invalid_control_token: 401,
  host_not_allowed: 403, // a Host header that names neither a loopback name nor the --host address (DNS rebinding)
  cross_site_request: 403, // an Origin that is not the server's own, or a /_sim body that is not application/json
  unsupported_media_type: 415,
  busy: 503, // a /_sim clock or restore request while another one runs
};

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  [extra: string]: unknown;
}

export function errorResponse(code: ErrorCode, message: string, details?: Readonly<Record<string, unknown>>) {
  const body: ErrorBody = { error: code, message, ...(details ?? {}) };
  return { status: HTTP_STATUS_BY_CODE[code], body };
}
