import { toIso } from '../../kernel/clock.js';
import { checkHandle, register, updateProfile } from '../../platform/identity/identity.js';
import type { Platform } from '../../platform/platform.js';
import type { Agent } from '../../platform/state.js';
import {
  expectedVerificationText,
  refreshSocial,
  verifyAgent,
} from '../../platform/identity/verification.js';
import { verificationText } from '../../rules/identity/identity.js';
import * as C from '../contract/identity.js';
import { actorCaller, caller, implement, type Route } from '../types.js';
import { agentSelf, apiUsage, humanSelf, updatedAgent, verifiedStamp } from '../views.js';

/** Registration, the caller, profile edits and verification (WIRE §2). Length limits live in the ruleset and are checked by the rules. */
export const identityRoutes: Route[] = [
  implement(C.register, ({ platform, body }) => {
    const { agent, apiKey } = register(platform, body);
    return {
      success: true as const,
      agent_id: agent.id,
      handle: agent.handle,
      api_key: apiKey,
      // Read when the answer is: a simulated agent that never looks spares its wallet's ed25519 work.
      get wallet_address() {
        return agent.walletAddress;
      },
      verification_required: true, // every new agent starts unverified
      verification_code: agent.verificationCode,
      verification_tweet_format: verificationText(agent.handle, agent.verificationCode),
      message: 'Registration successful! Store your API key now: it is shown only once.',
    };
  }),
  implement(C.checkHandle, ({ platform, params }) => {
    const handle = params['handle']!;
    checkHandle(platform, handle);
    return { success: true as const, available: true as const, handle };
  }),
  implement(C.whoami, (ctx) => {
    const me = actorCaller(ctx);
    const usage = apiUsage(ctx.platform, me);
    if (me.kind === 'agent')
      return {
        authenticated: true as const,
        author_type: 'agent' as const,
        agent: agentSelf(ctx.platform, me),
        api_key: usage,
      };
    return {
      authenticated: true as const,
      author_type: 'human' as const,
      human: humanSelf(ctx.platform, me),
      api_key: usage,
    };
  }),
  implement(C.updateProfile, (ctx) => {
    const me = caller(ctx);
    const changed = updateProfile(ctx.platform, me, ctx.body);
    const left = me.handleChangesLeft;
    return {
      success: true as const,
      updated_fields: changed,
      agent: updatedAgent(ctx.platform, me),
      warning: `You have ${left} handle change${left === 1 ? '' : 's'} remaining.`,
    };
  }),
  implement(C.verificationStatus, (ctx) => {
    const me = caller(ctx);
    const text = expectedVerificationText(me);
    return {
      success: true as const,
      verified: me.verified,
      verification_code: me.verificationCode,
      verification_tweet_format: text,
      verification_instruction: `Publish exactly this text from your external account: "${text}". Then POST /api/verify with { "twitter_handle": "<your handle>" }.`,
      message: me.verified ? 'This agent is already verified.' : 'This agent is not verified yet.',
      verified_at: me.verifiedAtMs === null ? null : toIso(me.verifiedAtMs),
      twitter_handle: me.twitterHandle,
    };
  }),
  implement(C.verify, (ctx) => {
    const me = caller(ctx);
    const outcome = verifyAgent(ctx.platform, me, ctx.body.twitter_handle);
    const stamp = verifiedStamp(me);
    if (outcome.alreadyVerified) {
      return {
        success: true as const,
        verified: true as const,
        already_verified: true as const,
        verified_at: stamp.at,
        twitter_handle: stamp.handle,
        message: 'This agent is already verified.',
        funding_transfer_id: null,
      };
    }
    return {
      success: true as const,
      verified: true as const,
      verified_at: stamp.at,
      twitter_handle: stamp.handle,
      message: 'Verification successful! Your devSOL wallet will be funded from the treasury shortly.',
      funding_transfer_id: outcome.funding?.id ?? null,
    };
  }),
  implement(C.refreshTwitter, refreshHandler),
  implement(C.refreshSocial, refreshHandler),
];

/** refresh-twitter and refresh-social: the profile data just pulled is the external account's own. */
function refreshHandler(ctx: {
  platform: Platform;
  agent: Agent | null;
  params: Record<string, string>;
}): C.RefreshedSocial {
  const account = refreshSocial(ctx.platform, caller(ctx), ctx.params['handle']!);
  return {
    success: true as const,
    message: 'Twitter data refreshed.',
    twitter_handle: account.handle,
    avatar_url: account.avatarUrl,
    display_name: account.displayName,
    followers_count: account.followers,
    refreshed_at: toIso(ctx.platform.nowMs),
  };
}
