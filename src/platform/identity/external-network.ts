import { fail } from '../../kernel/errors.js';
import { handleKey } from '../../rules/identity/identity.js';
import {
  defaultAvatarUrl,
  displayNameProblem,
  EXTERNAL_NETWORK,
  externalHandleProblem,
  externalTextProblem,
} from '../../rules/identity/verification.js';
import type { Platform } from '../platform.js';
import type { ExternalAccount, ExternalPost } from '../state.js';

/**
 * The mock external social network (the simulator's stand-in for X): accounts keyed by lower-cased
 * handle, each with a profile and its posts. Agents verify by publishing here; refresh-social reads the
 * profile back. Scenarios and the /_sim control routes publish posts and change profiles.
 */
export function findExternalAccount(p: Platform, handle: string): ExternalAccount | undefined {
  return p.state.externalAccounts.get(handleKey(handle));
}

export function requireExternalAccount(p: Platform, handle: string): ExternalAccount {
  return findExternalAccount(p, handle) ?? fail('not_found', `no external account "${handle}"`);
}

function requireExternalHandle(p: Platform, handle: string): void {
  const problem = externalHandleProblem(handle, p.ruleset);
  if (problem) fail('validation_error', problem, { field: 'handle' });
}

/**
 * Accounts open on first use (OURS: the network has no sign-up step worth simulating). The profile starts
 * as the handle itself, a deterministic avatar and 0 followers; a scenario sets other values by PATCH.
 */
function openAccount(p: Platform, handle: string): ExternalAccount {
  const account: ExternalAccount = {
    handle,
    displayName: handle,
    avatarUrl: defaultAvatarUrl(handle),
    followers: 0,
    banned: false,
    posts: [],
  };
  p.state.externalAccounts.set(handleKey(handle), account);
  return account;
}

/** Publishes `text` as `handle`. A banned account cannot post (`account_banned`), as on X. */
export function publishExternal(
  p: Platform,
  handle: string,
  text: string,
): { account: ExternalAccount; post: ExternalPost } {
  requireExternalHandle(p, handle);
  const textProblem = externalTextProblem(text);
  if (textProblem) fail('validation_error', textProblem, { field: 'text' });
  const existing = findExternalAccount(p, handle);
  if (existing?.banned) fail('account_banned', `external account "${existing.handle}" is banned`);
  const account = existing ?? openAccount(p, handle);
  const post: ExternalPost = { id: p.newId('external-post'), text, atMs: p.nowMs };
  account.posts.push(post);
  p.emit({ type: 'external_posted', t: p.nowMs, handle: account.handle, externalPostId: post.id });
  return { account, post };
}

export interface ExternalProfilePatch {
  display_name?: string;
  avatar_url?: string;
  followers?: number;
  banned?: boolean;
}

/**
 * Changes an account's profile (so refresh-social has something new to pull) or bans it. Opens the
 * account when it does not exist yet, so a scenario can ban a handle before it ever posts.
 */
export function updateExternalAccount(
  p: Platform,
  handle: string,
  patch: ExternalProfilePatch,
): ExternalAccount {
  requireExternalHandle(p, handle);
  checkProfilePatch(patch);
  const account = findExternalAccount(p, handle) ?? openAccount(p, handle);
  if (patch.display_name !== undefined) account.displayName = patch.display_name;
  if (patch.avatar_url !== undefined) account.avatarUrl = patch.avatar_url;
  if (patch.followers !== undefined) account.followers = patch.followers;
  if (patch.banned !== undefined) account.banned = patch.banned;
  const fields = (['display_name', 'avatar_url', 'followers', 'banned'] as const).filter(
    (f) => patch[f] !== undefined,
  );
  p.emit({ type: 'external_account_updated', t: p.nowMs, handle: account.handle, fields: [...fields] });
  return account;
}

function checkProfilePatch(patch: ExternalProfilePatch): void {
  const nameProblem = displayNameProblem('display_name', patch.display_name);
  if (nameProblem) fail('validation_error', nameProblem, { field: 'display_name' });
  const url = patch.avatar_url;
  if (url !== undefined && (url.length < 1 || url.length > EXTERNAL_NETWORK.avatarUrlMax)) {
    fail('validation_error', `avatar_url: must be 1-${EXTERNAL_NETWORK.avatarUrlMax} characters`, {
      field: 'avatar_url',
    });
  }
  const followers = patch.followers;
  if (followers !== undefined && !(Number.isSafeInteger(followers) && followers >= 0)) {
    fail('validation_error', 'followers: must be an integer >= 0', { field: 'followers' });
  }
}
