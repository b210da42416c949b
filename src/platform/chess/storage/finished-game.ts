import { flatString } from '../../../kernel/strings.js';
import { resultFor, type Side } from '../../../rules/chess/game.js';
import { END_REASONS, type EndReason, type GameEnd } from '../../state.js';

/**
 * What a finished game keeps beyond its ids, as one flat one-byte string: the final position (FEN), a line
 * break, its end (a tag character, then its five numbers as eight bytes each: exact doubles), and its packed
 * moves (see MoveLog). Kept apart, the end was an object of nine fields with five boxed numbers (176 bytes)
 * and the FEN a string of its own: every finished game carried about 250 bytes that one string holds in 60.
 * The end is written out again whenever it is read, which is seldom next to how long a game is kept.
 */
export interface FinishedParts {
  readonly fen: string;
  /** null for a cancelled game (never played to an end). */
  readonly end: GameEnd | null;
  /** The packed move log's text. */
  readonly moves: string;
}

const WINNERS: readonly (Side | null)[] = ['white', 'black', null];
/** The tag of a game without an end; an ended game's tag is 1 + its code (see endCode). */
const NO_END = 0;
const END_NUMBERS = 5;
const END_BYTES = END_NUMBERS * 8;

// One scratch buffer to turn doubles into bytes and back (the same machine writes and reads them).
const numbers = new Float64Array(END_NUMBERS);
const bytes = new Uint8Array(numbers.buffer);

export function packFinished(parts: FinishedParts): string {
  return flatString(`${parts.fen}\n${endText(parts.end)}${parts.moves}`);
}

export function finishedFen(text: string): string {
  return text.slice(0, text.indexOf('\n'));
}

export function finishedMoves(text: string): string {
  const tagAt = text.indexOf('\n') + 1;
  return text.slice(tagAt + 1 + (text.charCodeAt(tagAt) === NO_END ? 0 : END_BYTES));
}

export function finishedEnd(text: string): GameEnd | null {
  const tagAt = text.indexOf('\n') + 1;
  const tag = text.charCodeAt(tagAt);
  if (tag === NO_END) return null;
  for (let i = 0; i < END_BYTES; i++) bytes[i] = text.charCodeAt(tagAt + 1 + i);
  const code = tag - 1;
  const winner = WINNERS[Math.floor(code / 2) % WINNERS.length]!;
  return {
    result: resultFor(winner),
    reason: END_REASONS[Math.floor(code / (2 * WINNERS.length))]!,
    winner,
    endedAtMs: numbers[0]!,
    whiteEloBefore: numbers[1]!,
    blackEloBefore: numbers[2]!,
    whiteDelta: numbers[3]!,
    blackDelta: numbers[4]!,
    equalK: code % 2 === 1,
  };
}

function endText(end: GameEnd | null): string {
  if (end === null) return String.fromCharCode(NO_END);
  if (end.result !== resultFor(end.winner))
    throw new Error(`game end: result ${end.result} for winner ${end.winner}`);
  numbers[0] = end.endedAtMs;
  numbers[1] = end.whiteEloBefore;
  numbers[2] = end.blackEloBefore;
  numbers[3] = end.whiteDelta;
  numbers[4] = end.blackDelta;
  return String.fromCharCode(1 + endCode(end), ...bytes);
}

/** The reason, the winner and equal K as one number below 42 (a character of its own). */
function endCode(end: GameEnd): number {
  return (reasonIndex(end.reason) * WINNERS.length + WINNERS.indexOf(end.winner)) * 2 + (end.equalK ? 1 : 0);
}

function reasonIndex(reason: EndReason): number {
  const index = END_REASONS.indexOf(reason);
  if (index < 0) throw new Error(`game end: unknown reason ${reason}`);
  return index;
}
