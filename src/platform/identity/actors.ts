import { timingSafeEqual } from 'node:crypto';
import { apiKeyPrefix, hashApiKey, UUID_PATTERN } from '../../kernel/ids.js';
import { fail } from '../../kernel/errors.js';
import { DAY_MS } from '../../rules/rate-limit.js';
import { RATE_ACTIONS } from '../../rules/rate-limit.js';
import { socialScore, type SocialCounts } from '../../rules/social/social-score.js';
import { handleKey } from '../../rules/identity/identity.js';
import type { Platform } from '../platform.js';
import type { Actor, ActorKind, Agent, Human } from '../state.js';

/** What agents and humans share: creation of the common fields, lookup by key, id or name, and the score. */
export function actorBase(
  p: Platform,
  kind: ActorKind,
  id: string,
): { base: Omit<Actor, 'kind' | 'handle' | 'bio'>; apiKey: string } {
  const key = p.newApiKey();
  const base = {
    id,
    apiKeyHash: hashApiKey(key),
    apiKeyPrefix: apiKeyPrefix(key),
    createdAtMs: p.nowMs,
    postsCount: 0,
    followingCount: 0,
    followersCount: 0,
    likesGivenCount: 0,
    likesReceived: 0,
    repliesReceived: 0,
    profileUpvotes: 0,
    profileDownvotes: 0,
    usage: { dayIndex: Math.floor(p.nowMs / DAY_MS), requestsToday: 0, totalRequests: 0, lastUsedMs: null },
    rateLog: Object.fromEntries(RATE_ACTIONS.map((a) => [a, [] as number[]])) as Actor['rateLog'],
  };
  void kind;
  return { base, apiKey: key };
}

/**
 * The agent or human a bearer key belongs to. Keys are kept only as SHA-256 digests and looked up by the
 * digest of the key sent, so the time a lookup takes says nothing about how much of a real key a guess
 * shares (matching a digest prefix needs a preimage); the final comparison of the two digests is also
 * constant-time.
 */
export function actorForKey(p: Platform, key: string): Agent | Human | undefined {
  const known = p.seededKeyIds?.get(key);
  if (known !== undefined) return actorById(p, known);
  const keyHash = hashApiKey(key);
  const id = p.state.agentIdByKeyHash.get(keyHash) ?? p.state.humanIdByKeyHash.get(keyHash);
  const actor = id === undefined ? undefined : actorById(p, id);
  if (!actor || !sameDigest(actor.apiKeyHash, keyHash)) return undefined;
  p.seededKeyIds?.set(key, actor.id);
  return actor;
}

function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The agent a record names by id (a game's player, a challenger): records only name agents that exist. */
export function agentOf(p: Platform, id: string): Agent {
  return p.state.agents.get(id)!;
}

export function actorById(p: Platform, id: string): Agent | Human | undefined {
  return p.state.agents.get(id) ?? p.state.humans.get(id);
}

export function findHuman(p: Platform, usernameOrId: string): Human | undefined {
  const byId = UUID_PATTERN.test(usernameOrId) ? p.state.humans.get(usernameOrId) : undefined;
  if (byId) return byId;
  const id = p.state.humanIdByUsername.get(handleKey(usernameOrId));
  return id === undefined ? undefined : p.state.humans.get(id);
}

export function requireHuman(p: Platform, usernameOrId: string): Human {
  return findHuman(p, usernameOrId) ?? fail('not_found', `no human "${usernameOrId}"`);
}

/** The inputs of the social score; humans play no chess, so they have no wins or draws. */
export function socialCounts(actor: Agent | Human): SocialCounts {
  return {
    posts: actor.postsCount,
    likesReceived: actor.likesReceived,
    repliesReceived: actor.repliesReceived,
    followersCount: actor.followersCount,
    wins: actor.kind === 'agent' ? actor.wins : 0,
    draws: actor.kind === 'agent' ? actor.draws : 0,
    downvotesReceived: actor.profileDownvotes,
  };
}

export function socialScoreOf(p: Platform, actor: Agent | Human): number {
  return socialScore(socialCounts(actor), p.ruleset.social.score);
}
