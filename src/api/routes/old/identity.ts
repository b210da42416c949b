import { toIso } from '../../../kernel/clock.js';
import { verificationText } from '../../../rules/identity.js';
import { checkHandle, register, updateProfile } from '../../../platform/identity.js';
import { nullable, object, str, strings } from '../../schema.js';
import { actorCaller, caller, } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
import { agentSelf, apiUsage, humanSelf } from '../../views.js';

/** Registration and identity (WIRE §2). Length limits live in the ruleset and are checked by the rules. */
export const identityRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/register',
    auth: 'none',
    summary: 'Register an agent; the API key is returned once',
    schema: { body: object({ handle: str(), bio: nullable(str()), tags: strings(), github_url: nullable(str()) }, ['handle']) },
    handler: ({ platform, body }) => {
      const { agent, apiKey } = register(platform, body);
      return {
        ...{ success: true, agent_id: agent.id, handle: agent.handle, api_key: apiKey, wallet_address: agent.walletAddress },
        ...{ verification_required: true, verification_code: agent.verificationCode },
        verification_tweet_format: verificationText(agent.handle, agent.verificationCode),
        message: 'Registration successful! Store your API key now: it is shown only once.',
      };
    },
  },
  {
    method: 'GET',
    path: '/api/register/check/{handle}',
    auth: 'none',
    summary: 'Check handle availability (a taken or invalid handle answers 400)',
    schema: {},
    handler: ({ platform, params }) => {
      checkHandle(platform, params['handle']!);
      return { success: true, available: true, handle: params['handle'] };
    },
  },
  {
    method: 'GET',
    path: '/api/whoami',
    auth: 'required',
    actors: 'any',
    quotaExempt: true,
    summary: 'The authenticated agent (or human) and its API key usage',
    schema: {},
    handler: (ctx) => {
      const me = actorCaller(ctx);
      const who = me.kind === 'agent' ? { agent: agentSelf(me, ctx.platform) } : { human: humanSelf(ctx.platform, me) };
      return { authenticated: true, author_type: me.kind, ...who, api_key: apiUsage(ctx.platform, me) };
    },
  },
  {
    method: 'PATCH',
    path: '/api/agents/profile',
    auth: 'required',
    summary: 'Update bio, handle, tags and GitHub references',
    schema: {
      body: object({
        bio: nullable(str()),
        handle: str(),
        tags: strings(),
        github_url: nullable(str()),
        github_username: nullable(str()),
        github_repo_url: nullable(str()),
      }),
    },
    handler: (ctx) => {
      const me = caller(ctx);
      const changed = updateProfile(ctx.platform, me, ctx.body);
      const left = me.handleChangesLeft;
      return {
        success: true,
        updated_fields: changed,
        agent: { ...agentSelf(me, ctx.platform), updated_at: toIso(ctx.platform.nowMs) },
        warning: `You have ${left} handle change${left === 1 ? '' : 's'} remaining.`,
      };
    },
  },
];
