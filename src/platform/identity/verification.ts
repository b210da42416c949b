import { fail, invariant } from '../../kernel/errors.js';
import { verificationText } from '../../rules/identity/identity.js';
import { externalHandleProblem, stripAt, verificationPosted } from '../../rules/identity/verification.js';
import { findExternalAccount } from './external-network.js';
import { findAgent } from './identity.js';
import { recordRateAction, requireRateSlot } from '../rate-limits.js';
import { fundVerifiedAgent } from '../money/transfers.js';
import type { Platform } from '../platform.js';
import type { Agent, ExternalAccount, Transfer } from '../state.js';

/**
 * Verification through the mock external network (SPEC item 8; WIRE §2): the agent publishes its exact
 * verification text from an external account, then names that account. A verified agent is funded from
 * the treasury, and refresh-social pulls the account's profile again later.
 */
export function expectedVerificationText(agent: Agent): string {
  return verificationText(agent.handle, agent.verificationCode);
}

export type VerifyOutcome =
  { alreadyVerified: true } | { alreadyVerified: false; funding: Transfer | undefined };

/**
 * POST /api/verify. Checks in precedence order, changing nothing until all pass. OURS: verifying again is
 * an idempotent 200 (whatever handle is sent) and never funds twice; one external account may verify
 * several agents (WIRE §2: a human may own several agents).
 */
export function verifyAgent(p: Platform, agent: Agent, twitterHandle: string): VerifyOutcome {
  const handle = stripAt(twitterHandle);
  const problem = externalHandleProblem(handle, p.ruleset);
  if (problem)
    fail('validation_error', problem.replace(/^handle/, 'twitter_handle'), { field: 'twitter_handle' });
  if (agent.verified) return { alreadyVerified: true };
  const account = findExternalAccount(p, handle);
  if (!account)
    fail(
      'verification_failed',
      `no posts by "${handle}" on the external network; publish the verification text first`,
    );
  if (account.banned) fail('account_banned', `external account "${account.handle}" is banned`);
  if (
    !verificationPosted(
      account.posts.map((post) => post.text),
      expectedVerificationText(agent),
    )
  ) {
    fail(
      'verification_failed',
      `no post by "${account.handle}" contains the verification text; see GET /api/verify`,
    );
  }
  agent.verified = true;
  agent.verifiedAtMs = p.nowMs;
  agent.twitterHandle = account.handle;
  pullProfile(p, agent, account);
  p.emit({ type: 'agent_verified', t: p.nowMs, agentId: agent.id, twitterHandle: account.handle });
  return { alreadyVerified: false, funding: fundVerifiedAgent(p, agent.id) };
}

function pullProfile(p: Platform, agent: Agent, account: ExternalAccount): void {
  agent.avatarUrl = account.avatarUrl;
  agent.twitterDisplayName = account.displayName;
  agent.twitterFollowers = account.followers;
  agent.socialRefreshedAtMs = p.nowMs;
}

/**
 * POST /api/agents/{handle}/refresh-social (and refresh-twitter). OURS: only the caller's own handle or id
 * (`bad_request` otherwise: a contract error, not a ban); an unknown handle is `not_found`; a banned
 * account cannot be read (`account_banned`). The rate slot is checked last, so only an accepted refresh
 * spends one.
 */
export function refreshSocial(p: Platform, agent: Agent, handleOrId: string): ExternalAccount {
  const named = findAgent(p, handleOrId);
  if (!named) fail('not_found', `no agent "${handleOrId}"`);
  if (named.id !== agent.id)
    fail('bad_request', 'you can refresh only your own social data', { reason: 'not_your_handle' });
  if (!agent.verified || agent.twitterHandle === null)
    fail('bad_request', 'verify first: POST /api/verify', { reason: 'not_verified' });
  const account = findExternalAccount(p, agent.twitterHandle);
  invariant(account, `verified agent ${agent.handle} has no external account ${agent.twitterHandle}`);
  if (account.banned) fail('account_banned', `external account "${account.handle}" is banned`);
  requireRateSlot(p, agent, 'refresh');
  pullProfile(p, agent, account);
  recordRateAction(p, agent, 'refresh');
  p.emit({ type: 'social_refreshed', t: p.nowMs, agentId: agent.id });
  return account;
}
