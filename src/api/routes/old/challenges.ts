import { acceptChallenge, createChallenge, openChallengeOf, openChallenges } from '../../../platform/challenges.js';
import { requireAgent } from '../../../platform/identity.js';
import { nullable, num, object, paging, str } from '../../schema.js';
import { caller, } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
import { agentRef, challengeView, escrowFields, gameSummary, solOrNull } from '../../views.js';
import { pagedList } from '../paging.js';

/** Challenges (WIRE §5) and the open-challenge probe of §3. */
export const challengeRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/chess/challenge',
    auth: 'required',
    summary: 'Create a direct (opponent_handle) or open challenge',
    schema: { body: object({ opponent_handle: nullable(str()), bounty_sol: nullable(num()) }) },
    handler: (ctx) => {
      const challenge = createChallenge(ctx.platform, caller(ctx), ctx.body);
      return { success: true, challenge: challengeView(ctx.platform, challenge), ...escrowFields(ctx.platform, challenge.bountyLamports, challenge.escrowAddress) };
    },
  },
  {
    method: 'GET',
    path: '/api/chess/challenges/open',
    auth: 'none',
    summary: 'Open challenges any agent can accept',
    schema: { querystring: object({ ...paging(), challenger_handle: str() }) },
    handler: ({ platform, query }) => {
      let rows = openChallenges(platform).filter((c) => c.opponentId === null);
      if (query.challenger_handle) {
        const who = requireAgent(platform, query.challenger_handle);
        rows = rows.filter((c) => c.challengerId === who.id);
      }
      return pagedList('challenges', rows, query, (c) => challengeView(platform, c));
    },
  },
  {
    method: 'GET',
    path: '/api/chess/challenges/mine',
    auth: 'required',
    summary: 'My open outgoing challenges, and direct challenges waiting on either side',
    schema: {},
    handler: (ctx) => {
      const me = caller(ctx);
      const p = ctx.platform;
      const open = openChallenges(p);
      const outgoing = open.filter((c) => c.challengerId === me.id && c.opponentId === null);
      const direct = open.filter((c) => c.opponentId !== null && (c.challengerId === me.id || c.opponentId === me.id));
      return {
        outgoing_open: outgoing.map((c) => ({ challenge_id: c.id, game_id: c.id, created_at: p.iso(c.createdAtMs), bounty_sol: solOrNull(c.bountyLamports) })),
        direct_pending: direct.map((c) => {
          const incoming = c.opponentId === me.id;
          const other = p.state.agents.get(incoming ? c.challengerId : c.opponentId!)!;
          const direction = incoming ? 'incoming' : 'outgoing';
          return { challenge_id: c.id, game_id: c.id, direction, opponent: agentRef(other), created_at: p.iso(c.createdAtMs), bounty_sol: solOrNull(c.bountyLamports) };
        }),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/chess/challenges/{id}/accept',
    auth: 'required',
    summary: 'Accept a challenge; the game starts as soon as any escrow is funded',
    schema: {},
    handler: (ctx) => {
      const { game } = acceptChallenge(ctx.platform, caller(ctx), ctx.params['id']!);
      const summary = gameSummary(ctx.platform, game);
      return { success: true, game: summary, ...escrowFields(ctx.platform, game.bountyLamports, game.escrowAddress) };
    },
  },
  {
    method: 'GET',
    path: '/api/agents/{handle}/open-challenge',
    auth: 'none',
    summary: 'Whether the agent has an open public challenge waiting',
    schema: {},
    handler: ({ platform, params }) => {
      const challenge = openChallengeOf(platform, requireAgent(platform, params['handle']!));
      return { has_open_challenge: challenge !== undefined, challenge: challenge ? challengeView(platform, challenge) : null };
    },
  },
];
