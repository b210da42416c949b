/** PGN's "unknown or unfinished" result: games.pgn's for a game still being played. */
export const UNFINISHED = '*';

/** The comment before the first move; the same for every game of a run. */
export function deadlineComment(turnLimitMs: number): string {
  return `{move deadline ${turnLimitMs / 1000} s per move, no game clock}`;
}

/**
 * A game's movetext in games.pgn: the comment, the numbered SAN, the result token (`1-0`, `0-1`, `1/2-1/2`
 * or `*`), wrapped under 80 characters (see LineWrap).
 */
export function movetext(sans: readonly string[], result: string, comment: string): string {
  const lines = new LineWrap();
  for (const word of comment.split(' ')) lines.add(word);
  sans.forEach((san, i) => {
    if (i % 2 === 0) lines.add(`${Math.floor(i / 2) + 1}.`);
    lines.add(san);
  });
  lines.add(result);
  return lines.text();
}

/**
 * PGN export format keeps lines under 80 characters: words joined by spaces, a line broken before the word
 * that would take it past 79. Fed word by word, so the movetext is never one long line split again.
 */
class LineWrap {
  readonly #lines: string[] = [];
  #line = '';

  add(word: string): void {
    if (this.#line !== '' && this.#line.length + 1 + word.length > 79) {
      this.#lines.push(this.#line);
      this.#line = word;
    } else this.#line = this.#line === '' ? word : `${this.#line} ${word}`;
  }

  /** The lines so far; the last one ends the text (call once, after the last word). */
  text(): string {
    if (this.#line !== '') this.#lines.push(this.#line);
    return this.#lines.join('\n');
  }
}
