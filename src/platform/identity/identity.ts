import { hashApiKey, verificationCode } from '../../kernel/ids.js';
import { actorBase } from './actors.js';
import { fail } from '../../kernel/errors.js';
import {
  bioProblem,
  githubFieldProblem,
  handleKey,
  handleProblem,
  tagsProblem,
} from '../../rules/identity/identity.js';
import { UUID_PATTERN } from '../../kernel/ids.js';
import type { Platform } from '../platform.js';
import type { DeferredAccount } from '../../escrow/ledger.js';
import type { Actor, Agent } from '../state.js';
import { DAY_MS } from '../../rules/rate-limit.js';
import { recordRateAction, requireRateSlot } from '../rate-limits.js';

/** Registration, authentication, usage counters and profile edits. */
export interface RegisterInput {
  handle: string;
  bio?: string | null;
  tags?: string[];
  github_url?: string | null;
}

export function register(p: Platform, input: RegisterInput): { agent: Agent; apiKey: string } {
  checkIdentityFields(p, input);
  ensureHandleFree(p, input.handle);
  const { base, apiKey: key } = actorBase(p, 'agent', p.newId('agent'));
  // Most simulated agents' wallets are never shown nor paid into: the address is derived when first read.
  const wallet = p.ledger.openDeferred('wallet', p.stream('wallets'));
  // The common fields written out, not spread in: a literal with a spread and more fields takes V8's slow
  // path and gives every record a hidden class of its own, which made every read of a record megamorphic.
  const head = {
    id: base.id,
    apiKeyHash: base.apiKeyHash,
    apiKeyPrefix: base.apiKeyPrefix,
    createdAtMs: base.createdAtMs,
    postsCount: base.postsCount,
    followingCount: base.followingCount,
    followersCount: base.followersCount,
    likesGivenCount: base.likesGivenCount,
    likesReceived: base.likesReceived,
    repliesReceived: base.repliesReceived,
    profileUpvotes: base.profileUpvotes,
    profileDownvotes: base.profileDownvotes,
    usage: base.usage,
    rateLog: base.rateLog,
    kind: 'agent' as const,
    handle: input.handle,
    bio: input.bio ?? null,
    tags: input.tags ? [...input.tags] : [],
    githubUrl: input.github_url ?? null,
    githubUsername: null,
    githubRepoUrl: null,
    [WALLET]: wallet,
  };
  // The address is one shared getter, defined in its place among the fields (copies, JSON and checkpoints
  // list them in this order): a getter written in the literal would be a new function per record, and that
  // puts every agent record in V8's slow dictionary mode. The fields after it are added in order, so every
  // agent record keeps one fast hidden class.
  Object.defineProperty(head, 'walletAddress', WALLET_ADDRESS);
  const agent: Agent = Object.assign(head as typeof head & { readonly walletAddress: string }, {
    verificationCode: verificationCode(p.stream('verification-codes')),
    verified: false,
    verifiedAtMs: null,
    twitterHandle: null,
    avatarUrl: null,
    twitterDisplayName: null,
    twitterFollowers: null,
    socialRefreshedAtMs: null,
    handleChangesLeft: p.ruleset.identity.handleChanges, // WIRE: limited; the number is the ruleset's
    elo: p.ruleset.elo.initial,
    peakElo: p.ruleset.elo.initial,
    wins: 0,
    losses: 0,
    draws: 0,
  });
  indexAgent(p, agent);
  p.emit({ type: 'agent_registered', t: p.nowMs, agentId: agent.id, handle: agent.handle, elo: agent.elo });
  return { agent, apiKey: key };
}

/** A registered agent's deferred wallet: a symbol key, so no copy, JSON or checkpoint of the record lists it. */
const WALLET = Symbol('wallet');

/** The `walletAddress` of a registered agent's record: its deferred wallet's address, derived on first read. */
const WALLET_ADDRESS: PropertyDescriptor = {
  get(this: { [WALLET]: DeferredAccount }): string {
    return this[WALLET].address;
  },
  enumerable: true,
};

function indexAgent(p: Platform, agent: Agent): void {
  p.state.agents.set(agent.id, agent);
  p.state.agentIdByHandle.set(handleKey(agent.handle), agent.id);
  p.state.agentIdByKeyHash.set(agent.apiKeyHash, agent.id);
  p.state.liveGamesByAgent.set(agent.id, new Set());
  p.state.completedGamesByAgent.set(agent.id, []);
}

function checkIdentityFields(p: Platform, input: Partial<RegisterInput> & Partial<ProfilePatch>): void {
  const problem =
    (input.handle !== undefined ? handleProblem(input.handle, p.ruleset) : undefined) ??
    bioProblem(input.bio, p.ruleset) ??
    tagsProblem(input.tags, p.ruleset) ??
    githubFieldProblem('github_url', input.github_url, p.ruleset) ??
    githubFieldProblem('github_username', input.github_username, p.ruleset) ??
    githubFieldProblem('github_repo_url', input.github_repo_url, p.ruleset);
  if (problem) fail('validation_error', problem, { field: problem.split(':')[0] });
}

/** Agent handles and human usernames share one namespace: @mentions and follows resolve both. */
function ensureHandleFree(p: Platform, handle: string): void {
  const key = handleKey(handle);
  if (p.state.agentIdByHandle.has(key) || p.state.humanIdByUsername.has(key))
    fail('handle_taken', `handle "${handle}" is taken`);
}

/** GET /api/register/check/{handle}: invalid -> validation_error, taken -> handle_taken (both HTTP 400). */
export function checkHandle(p: Platform, handle: string): void {
  const problem = handleProblem(handle, p.ruleset);
  if (problem) fail('validation_error', problem, { field: 'handle' });
  ensureHandleFree(p, handle);
}

/** Finds the agent for a bearer key, or undefined. Keys are looked up by hash; the key itself is not kept. */
export function agentForKey(p: Platform, key: string): Agent | undefined {
  const id = p.state.agentIdByKeyHash.get(hashApiKey(key));
  return id === undefined ? undefined : p.state.agents.get(id);
}

/**
 * Counts one authenticated request against the key's daily usage (the counters whoami shows).
 * OURS: under `enforce`, `requests_today` stops at `requests_limit`. Only a quota-exempt request (whoami) can
 * get here with the day's count at the limit, since the quota refuses every other one before counting; it is
 * served but not counted for the day, so whoami never shows 5001 of 5000. Under `warn` and `off` every request
 * past the limit is served, so every one is counted: whoami shows how far past the figure an agent runs.
 * `total_requests` and `last_used` record every request either way.
 */
export function countRequest(p: Platform, agent: Actor): void {
  const day = Math.floor(p.nowMs / DAY_MS);
  if (day !== agent.usage.dayIndex) {
    agent.usage.dayIndex = day;
    agent.usage.requestsToday = 0;
  }
  const { requestsPerDay, quota } = p.ruleset.api;
  if (quota !== 'enforce' || agent.usage.requestsToday < requestsPerDay) agent.usage.requestsToday++;
  agent.usage.totalRequests++;
  agent.usage.lastUsedMs = p.nowMs;
}

/** Agents are addressable by handle or UUID (WIRE §3). */
export function findAgent(p: Platform, handleOrId: string): Agent | undefined {
  const byId = UUID_PATTERN.test(handleOrId) ? p.state.agents.get(handleOrId) : undefined;
  if (byId) return byId;
  const id = p.state.agentIdByHandle.get(handleKey(handleOrId));
  return id === undefined ? undefined : p.state.agents.get(id);
}

export function requireAgent(p: Platform, handleOrId: string): Agent {
  return findAgent(p, handleOrId) ?? fail('not_found', `no agent "${handleOrId}"`);
}

export interface ProfilePatch {
  bio?: string | null;
  handle?: string;
  tags?: string[];
  github_url?: string | null;
  github_username?: string | null;
  github_repo_url?: string | null;
}

/** PATCH /api/agents/profile. Validates everything first, so a refused patch changes nothing. */
export function updateProfile(p: Platform, agent: Agent, patch: ProfilePatch): string[] {
  checkIdentityFields(p, patch);
  const renaming = patch.handle !== undefined && patch.handle !== agent.handle;
  if (renaming) {
    if (agent.handleChangesLeft <= 0) fail('bad_request', 'no handle changes remaining', { field: 'handle' });
    if (handleKey(patch.handle!) !== handleKey(agent.handle)) ensureHandleFree(p, patch.handle!);
  }
  // Every accepted edit counts, a no-op too: each is a write the live world keeps for replay.
  requireRateSlot(p, agent, 'profile');
  recordRateAction(p, agent, 'profile');
  const changed = applyProfilePatch(p, agent, patch, renaming);
  if (changed.length > 0) p.emit({ type: 'profile_updated', t: p.nowMs, agentId: agent.id, fields: changed });
  return changed;
}

function applyProfilePatch(p: Platform, agent: Agent, patch: ProfilePatch, renaming: boolean): string[] {
  const changed: string[] = [];
  if (renaming) {
    p.state.agentIdByHandle.delete(handleKey(agent.handle));
    p.handleHistory.renamed(agent.id, agent.handle, p.activityIds.nextOrdinal);
    agent.handle = patch.handle!;
    agent.handleChangesLeft--;
    p.state.agentIdByHandle.set(handleKey(agent.handle), agent.id);
    changed.push('handle');
  }
  if (patch.bio !== undefined) {
    agent.bio = patch.bio;
    changed.push('bio');
  }
  if (patch.tags !== undefined) {
    agent.tags = [...patch.tags];
    changed.push('tags');
  }
  if (patch.github_url !== undefined) {
    agent.githubUrl = patch.github_url;
    changed.push('github_url');
  }
  if (patch.github_username !== undefined) {
    agent.githubUsername = patch.github_username;
    changed.push('github_username');
  }
  if (patch.github_repo_url !== undefined) {
    agent.githubRepoUrl = patch.github_repo_url;
    changed.push('github_repo_url');
  }
  return changed;
}
