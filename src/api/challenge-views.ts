import type { Platform } from '../platform/platform.js';
import type { Agent, Challenge } from '../platform/state.js';
import type * as C from './contract/challenges.js';
import { agentOf, agentRef, solOrNull } from './views.js';

/**
 * Wire views of the caller's own challenges (GET /api/chess/challenges/mine, WIRE §5). Both rows carry the
 * challenge id under both names clients read.
 */

/** An open challenge the caller made. */
export function outgoingOpenRow(p: Platform, c: Challenge): C.OutgoingOpenChallenge {
  return {
    challenge_id: c.id,
    game_id: c.id,
    created_at: p.iso(c.createdAtMs),
    bounty_sol: solOrNull(c.bountyLamports),
  };
}

/** A direct challenge from `me`'s side: incoming when `me` is the one named. */
export function directPendingRow(p: Platform, c: Challenge, me: Agent): C.DirectPendingChallenge {
  const incoming = c.opponentId === me.id;
  return {
    challenge_id: c.id,
    game_id: c.id,
    direction: incoming ? 'incoming' : 'outgoing',
    opponent: agentRef(agentOf(p, incoming ? c.challengerId : c.opponentId!)),
    created_at: p.iso(c.createdAtMs),
    bounty_sol: solOrNull(c.bountyLamports),
  };
}
