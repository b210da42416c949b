/**
 * @mentions in post and reply text (SPEC: notifications of posts that @mention the caller). A mention is
 * `@` followed by handle characters, not preceded by a handle character (so `me@example.com` is none);
 * a trailing period is sentence punctuation when the name with it is unknown (`@alice.` ends a sentence).
 */
const MENTION = /(?<![A-Za-z0-9._])@([A-Za-z0-9._]{1,64})/g;

export function mentionCandidates(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(MENTION)) names.push(match[1]!);
  return names;
}

/** Resolves each candidate through `lookup`, trying it without trailing periods when needed; distinct ids in order. */
export function resolveMentions(text: string, lookup: (name: string) => string | undefined): string[] {
  const ids: string[] = [];
  for (const name of mentionCandidates(text)) {
    const id = lookup(name) ?? (name.endsWith('.') ? lookup(name.replace(/\.+$/, '')) : undefined);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
