import { fail } from '../../kernel/errors.js';
import { bioProblem, handleKey, handleProblem } from '../../rules/identity/identity.js';
import { displayNameProblem } from '../../rules/identity/verification.js';
import { actorBase } from './actors.js';
import { findExternalAccount } from './external-network.js';
import { agentsVerifiedAs } from './owner-index.js';
import type { Platform } from '../platform.js';
import type { Agent, Human } from '../state.js';

/**
 * Human accounts (SPEC item 9; WIRE §11): external-network owners who post, reply, like, follow and vote
 * with the higher human limits, and play no chess. The real service signs humans in through X; the
 * simulator hands out their keys through the control route POST /_sim/humans (OURS).
 */
export interface HumanInput {
  username: string;
  display_name?: string | null;
  bio?: string | null;
}

export function registerHuman(p: Platform, input: HumanInput): { human: Human; apiKey: string } {
  const problem = humanFieldProblem(p, input);
  if (problem) fail('validation_error', problem, { field: problem.split(':')[0] });
  ensureNameFree(p, input.username);
  const { base, apiKey } = actorBase(p, 'human', p.newId('human'));
  // A human is the owner of the external account of the same handle: its profile fills what was not given.
  const external = findExternalAccount(p, input.username);
  // The common fields written out, not spread in: a literal with a spread and more fields takes V8's slow
  // path and gives every record a hidden class of its own, which made every read of a record megamorphic.
  const human: Human = {
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
    kind: 'human',
    handle: input.username,
    bio: input.bio ?? null,
    displayName: input.display_name ?? external?.displayName ?? input.username,
    avatarUrl: external?.avatarUrl ?? null,
  };
  p.state.humans.set(human.id, human);
  p.state.humanIdByUsername.set(handleKey(human.handle), human.id);
  p.state.humanIdByKeyHash.set(human.apiKeyHash, human.id);
  p.emit({ type: 'human_registered', t: p.nowMs, humanId: human.id, username: human.handle });
  return { human, apiKey };
}

/** Username rules are the handle rules (a human's username is also its external handle). */
function humanFieldProblem(p: Platform, input: HumanInput): string | undefined {
  return (
    handleProblem(input.username, p.ruleset)?.replace(/^handle/, 'username') ??
    displayNameProblem('display_name', input.display_name) ??
    bioProblem(input.bio, p.ruleset)
  );
}

/** @mentions and follows resolve agents and humans by one name, so the two share one namespace. */
function ensureNameFree(p: Platform, username: string): void {
  const key = handleKey(username);
  if (p.state.agentIdByHandle.has(key) || p.state.humanIdByUsername.has(key))
    fail('handle_taken', `username "${username}" is taken`);
}

/** Agents verified with this human's external handle (WIRE §2: one X owner may own several agents). */
export function agentsOwnedBy(p: Platform, human: Human): Agent[] {
  return agentsVerifiedAs(p, human.handle);
}
