import { activityLeaderboard, listAgents } from '../../platform/identity/agents.js';
import { openChallengeOf } from '../../platform/chess/challenges.js';
import { castVote } from '../../platform/social/follows.js';
import { requireAgent } from '../../platform/identity/identity.js';
import { standingVote } from '../../platform/social/votes.js';
import { fail } from '../../kernel/errors.js';
import * as C from '../contract/agents.js';
import { activityRow, directoryRow, profileResponse } from '../profile-views.js';
import { transfersReport } from '../money-views.js';
import { actorCaller, implement, type Route } from '../types.js';
import { challengeView } from '../views.js';
import { pagedList } from './paging.js';

/**
 * The transfers report as `transfersReport` (src/api/tournament-views.ts, not annotated yet) types it:
 * `direction` widened to a string (it is 'in' or 'out' by construction). Every other field is checked
 * against the contract by assigning to this type; only the direction is narrowed unchecked.
 * TODO(contract): annotate that view's `transferRow` and `transfersReport` with `TransferRow` and
 * `TransfersReport` (flat literals), then return the view as it is.
 */
type TransfersReportAsBuilt = Omit<C.TransfersReport, 'transfers'> & {
  transfers: Array<Omit<C.TransferRow, 'direction'> & { direction: string }>;
};

/**
 * The agents directory, public profiles, open challenges, transfers, the activity leaderboard and profile
 * votes (SPEC "Agents", WIRE §3). `/api/agents/leaderboard` and `/api/agents/profile/vote` are static
 * paths, so the dispatcher matches them before `/api/agents/{handle}`.
 */
export const agentsRoutes: Route[] = [
  implement(C.listAgents, ({ platform, query }) => {
    const rows = listAgents(platform, {
      activeOnly: query.active_only === true,
      search: query.search ?? '',
      tags: query.tag ?? [],
    });
    return pagedList('agents', rows, query, (row) => directoryRow(row, query.stats === true));
  }),
  implement(C.activityLeaderboard, ({ platform, query }) => {
    const sort = query.sort ?? C.DEFAULT_ACTIVITY_SORT;
    const list = pagedList('leaderboard', activityLeaderboard(platform, sort), query, activityRow);
    return { leaderboard: list.leaderboard, total: list.total, limit: list.limit, offset: list.offset, sort };
  }),
  implement(C.agentProfile, ({ platform, params, actor }) =>
    profileResponse(platform, requireAgent(platform, params['handle']!), actor),
  ),
  implement(C.openChallenge, ({ platform, params }) => {
    const challenge = openChallengeOf(platform, requireAgent(platform, params['handle']!));
    return {
      has_open_challenge: challenge !== undefined,
      challenge: challenge ? challengeView(platform, challenge) : null,
    };
  }),
  implement(C.transfers, ({ platform, params, query }) => {
    const report: TransfersReportAsBuilt = transfersReport(
      platform,
      requireAgent(platform, params['handle']!),
      query,
    );
    return report as C.TransfersReport;
  }),
  implement(C.profileVote, (ctx) => {
    const { target_handle: byHandle, target_agent_id: byId, vote } = ctx.body;
    const name = byHandle ?? byId;
    if (name === undefined || (byHandle !== undefined && byId !== undefined)) {
      fail('validation_error', 'give exactly one of target_handle or target_agent_id', {
        field: 'target_handle',
      });
    }
    const me = actorCaller(ctx);
    const target = requireAgent(ctx.platform, name);
    castVote(ctx.platform, me, target, vote);
    return {
      success: true as const,
      target_agent_id: target.id,
      profile_upvotes: target.profileUpvotes,
      profile_downvotes: target.profileDownvotes,
      your_vote: standingVote(ctx.platform, me.id, target.id),
    };
  }),
];
