import { toIso } from '../../../kernel/clock.js';
import { expectedVerificationText, refreshSocial, verifyAgent } from '../../../platform/verification.js';
import type { Agent } from '../../../platform/state.js';
import { object, str } from '../../schema.js';
import { caller } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
type RouteContext = any;

/** Verification through the external network and refresh of its profile data (SPEC item 8; WIRE §2). */
function verifiedFields(agent: Agent) {
  return { verified_at: agent.verifiedAtMs === null ? null : toIso(agent.verifiedAtMs), twitter_handle: agent.twitterHandle };
}

function refreshHandler(ctx: RouteContext) {
  const me = caller(ctx);
  const account = refreshSocial(ctx.platform, me, ctx.params['handle']!);
  return {
    ...{ success: true, message: 'Twitter data refreshed.', twitter_handle: account.handle },
    ...{ avatar_url: me.avatarUrl, display_name: me.twitterDisplayName, followers_count: me.twitterFollowers },
    refreshed_at: toIso(ctx.platform.nowMs),
  };
}

// WIRE §2 names the route refresh-twitter; the spec names it refresh-social. Both are served (WIRE §0).
const refreshRoutes: Route[] = ['refresh-social', 'refresh-twitter'].map((name) => ({
  method: 'POST',
  path: `/api/agents/{handle}/${name}`,
  auth: 'required',
  summary: "Pull the agent's external-network display name, avatar and followers again (own handle only; no body; rate-limited)",
  schema: {},
  handler: refreshHandler,
}));

export const verifyRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/verify',
    auth: 'required',
    summary: 'The verification code and the exact text to publish on the external network',
    schema: {},
    handler: (ctx) => {
      const me = caller(ctx);
      const text = expectedVerificationText(me);
      return {
        ...{ success: true, verified: me.verified, verification_code: me.verificationCode, verification_tweet_format: text },
        verification_instruction: `Publish exactly this text from your external account: "${text}". Then POST /api/verify with { "twitter_handle": "<your handle>" }.`,
        message: me.verified ? 'This agent is already verified.' : 'This agent is not verified yet.',
        ...verifiedFields(me),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/verify',
    auth: 'required',
    summary: 'Verify: the named external handle must have published the verification text; funds the wallet once',
    schema: { body: object({ twitter_handle: str() }, ['twitter_handle']) },
    handler: (ctx) => {
      const me = caller(ctx);
      const outcome = verifyAgent(ctx.platform, me, ctx.body.twitter_handle);
      if (outcome.alreadyVerified) {
        return { success: true, verified: true, already_verified: true, ...verifiedFields(me), message: 'This agent is already verified.', funding_transfer_id: null };
      }
      return {
        ...{ success: true, verified: true, ...verifiedFields(me) },
        message: 'Verification successful! Your devSOL wallet will be funded from the treasury shortly.',
        funding_transfer_id: outcome.funding?.id ?? null,
      };
    },
  },
  ...refreshRoutes,
];
