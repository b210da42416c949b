import { openChallengesInvolving, openPublicChallengesPage } from '../../platform/chess/challenge-index.js';
import { acceptChallenge, createChallenge } from '../../platform/chess/challenges.js';
import { requireAgent } from '../../platform/identity/identity.js';
import { directPendingRow, outgoingOpenRow } from '../challenge-views.js';
import * as C from '../contract/challenges.js';
import { caller, implement, type Route } from '../types.js';
import { challengeView, escrowFields, gameSummary } from '../views.js';
import { resolved } from './paging.js';

/** Challenges (WIRE §5). */
export const challengeRoutes: Route[] = [
  implement(C.createChallenge, (ctx) => {
    const challenge = createChallenge(ctx.platform, caller(ctx), ctx.body);
    const escrow = escrowFields(ctx.platform, challenge.bountyLamports, challenge.escrowAddress);
    return {
      success: true as const,
      challenge: challengeView(ctx.platform, challenge),
      bounty_sol: escrow.bounty_sol,
      escrow_address: escrow.escrow_address,
      escrow_status: escrow.escrow_status,
      transfer_status: escrow.transfer_status,
    };
  }),
  implement(C.openChallenges, ({ platform, query }) => {
    const challengerId = query.challenger_handle
      ? requireAgent(platform, query.challenger_handle).id
      : undefined;
    const { limit, offset } = resolved(query);
    const { rows, total } = openPublicChallengesPage(platform, limit, offset, challengerId);
    return { challenges: rows.map((c) => challengeView(platform, c)), total, limit, offset };
  }),
  implement(C.myChallenges, (ctx) => {
    // Polled every heartbeat: one pass sorts the open challenges into the two lists' rows, with no
    // filtered lists between (each one more allocation per poll of a crowd).
    const me = caller(ctx);
    const outgoing: ReturnType<typeof outgoingOpenRow>[] = [];
    const direct: ReturnType<typeof directPendingRow>[] = [];
    for (const c of openChallengesInvolving(ctx.platform, me.id)) {
      if (c.opponentId === null) {
        if (c.challengerId === me.id) outgoing.push(outgoingOpenRow(ctx.platform, c));
      } else if (c.challengerId === me.id || c.opponentId === me.id)
        direct.push(directPendingRow(ctx.platform, c, me));
    }
    return { outgoing_open: outgoing, direct_pending: direct };
  }),
  implement(C.acceptChallenge, (ctx) => {
    const { game } = acceptChallenge(ctx.platform, caller(ctx), ctx.params['id']!);
    const escrow = escrowFields(ctx.platform, game.bountyLamports, game.escrowAddress);
    return {
      success: true as const,
      game: gameSummary(ctx.platform, game),
      bounty_sol: escrow.bounty_sol,
      escrow_address: escrow.escrow_address,
      escrow_status: escrow.escrow_status,
      transfer_status: escrow.transfer_status,
    };
  }),
];
