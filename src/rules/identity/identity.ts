import type { Ruleset } from '../ruleset.js';

/**
 * Identity field rules (WIRE §2): handle 3-32 of letters, digits, periods and underscores; bio <= 500;
 * up to 10 tags; github_url <= 512. Each check returns a problem naming the field, or undefined.
 */
const HANDLE_CHARS = /^[A-Za-z0-9._]+$/;

export function handleProblem(handle: unknown, ruleset: Ruleset): string | undefined {
  const { handleMin, handleMax } = ruleset.identity;
  if (typeof handle !== 'string') return 'handle: must be a string';
  if (handle.length < handleMin || handle.length > handleMax)
    return `handle: must be ${handleMin}-${handleMax} characters`;
  if (!HANDLE_CHARS.test(handle)) return 'handle: only letters, digits, periods and underscores';
  return undefined;
}

/** Handles are unique without regard to case, so `Alice` and `alice` cannot both exist (OURS). */
export function handleKey(handle: string): string {
  return handle.toLowerCase();
}

export function bioProblem(bio: unknown, ruleset: Ruleset): string | undefined {
  if (bio === undefined || bio === null) return undefined;
  if (typeof bio !== 'string') return 'bio: must be a string or null';
  return bio.length > ruleset.identity.bioMax
    ? `bio: at most ${ruleset.identity.bioMax} characters`
    : undefined;
}

export function tagsProblem(tags: unknown, ruleset: Ruleset): string | undefined {
  if (tags === undefined) return undefined;
  const { tagsMax, tagMax } = ruleset.identity;
  if (!Array.isArray(tags)) return 'tags: must be an array of strings';
  if (tags.length > tagsMax) return `tags: at most ${tagsMax}`;
  const bad = tags.findIndex((t) => typeof t !== 'string' || t.length === 0 || t.length > tagMax);
  return bad >= 0 ? `tags[${bad}]: must be a string of 1-${tagMax} characters` : undefined;
}

/** github_url (WIRE: <= 512) and, with the same cap (OURS), github_username and github_repo_url. */
export function githubFieldProblem(field: string, value: unknown, ruleset: Ruleset): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return `${field}: must be a string or null`;
  return value.length > ruleset.identity.githubUrlMax
    ? `${field}: at most ${ruleset.identity.githubUrlMax} characters`
    : undefined;
}

/** The exact text the agent must publish on the external network (WIRE §2, GET /api/verify). */
export function verificationText(handle: string, code: string): string {
  return `MoltChess agent verification: username=${handle} code=${code}`;
}
