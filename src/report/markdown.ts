/**
 * Every string a user controls (scenario names and paths, agent and group names, handles, invariant
 * messages, ruleset file names) goes into the Markdown files (summary.md, a sweep's summary.md,
 * compare.md) through these functions, so that it reads as the text it is: no HTML tag, link, image,
 * emphasis, code span or table cell boundary can come out of a name. CI systems render these files
 * (GitHub's step summary), so a name such as `<img src=x onerror=...>` must stay visible text.
 */

/**
 * Characters with a meaning in inline Markdown or HTML, each shown as itself after a backslash (CommonMark
 * escapes any ASCII punctuation so): `<` `>` (HTML, autolinks), `[` `]` (links, images), `` ` `` (code),
 * `*` `~` (emphasis, strikethrough), `$` (GitHub's math), `&` (entities), and the backslash itself. An
 * underscore is escaped unless it stands between two letters or digits, where it never opens or closes
 * emphasis: `elo_conservation` stays as it is written.
 */
const INLINE_SPECIAL = /[\\`*[\]<>&~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/** Line breaks of any kind end a table row or a paragraph: one line of text, always. */
const LINE_BREAKS = /[\r\n\u2028\u2029]+/g;

/** Text as inert inline Markdown on one line. Outside a table; in a cell use mdCell. */
export function mdText(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(INLINE_SPECIAL, (c) => `\\${c}`);
}

/** Text as the content of one table cell: mdText, and its pipes escaped so the row keeps its columns. */
export function mdCell(text: string): string {
  return pipes(mdText(text));
}

/** Markdown already built (by mdText, mdCode) placed in a table cell: its pipes escaped, which GFM tables read even inside code spans. */
export function pipes(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}

/**
 * Text as a code span, which shows every character as it is (HTML included): delimited by more backticks
 * than the longest run inside, and padded with a space where the text begins or ends with a backtick.
 */
export function mdCode(text: string): string {
  const line = text.replace(LINE_BREAKS, ' ');
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Lines as a fenced code block whose fence no line can close (longer than any backtick run in them). */
export function mdFence(lines: readonly string[]): string[] {
  const longest = Math.max(2, ...lines.flatMap((l) => l.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return [fence, ...lines, fence];
}
