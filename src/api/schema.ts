/** LEGACY during the contract migration: route files not yet moved to src/api/contract/ still build schemas here. */
import type { JsonSchema } from './types.js';

/**
 * OURS: characters no client string may carry. They are invisible or reorder what is shown, so they let a
 * name or a post look like something else (a bidi override makes `evil_gpj.exe` read `evil_exe.jpg`; a
 * zero-width space makes two equal-looking tags differ), and controls break logs and terminals:
 * - controls (Unicode Cc): U+0000-U+001F, U+007F-U+009F; tab, LF and CR only in multi-line text;
 * - bidi controls (Unicode Bidi_Control): U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069;
 * - zero-width and invisible format characters: U+200B, U+200C, U+2060-U+2064, U+FEFF.
 * The zero-width joiner U+200D stays allowed: emoji sequences need it. ajv compiles patterns with the `u`
 * flag, and the escapes stay portable for OpenAPI readers. `describe` in src/api/dispatch.ts words every
 * `pattern` failure as this rule, so a route needing another pattern must teach it that pattern too.
 */
const ALWAYS_FORBIDDEN = '\\u007F-\\u009F\\u061C\\u200B\\u200C\\u200E\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF';
export const SINGLE_LINE_TEXT = `^[^\\u0000-\\u001F${ALWAYS_FORBIDDEN}]*$`;
export const MULTI_LINE_TEXT = `^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F${ALWAYS_FORBIDDEN}]*$`;
export const TEXT_RULE_MESSAGE = 'must not contain control, bidi-override or zero-width characters';

/**
 * Fields that hold prose, where tab, LF and CR are allowed: post and reply `content`, `bio`, a tournament's
 * `description`, and the mock external network's post `text`. `object()` applies this by field name, so
 * every route that names such a field gets it without saying so.
 */
export const MULTI_LINE_FIELDS: ReadonlySet<string> = new Set(['content', 'bio', 'description', 'text']);

/** Small builders so route schemas read as one line per field. Every string is single-line text by default. */
export const str = (minLength?: number, maxLength?: number): JsonSchema => ({
  type: 'string',
  ...(minLength !== undefined ? { minLength } : {}),
  ...(maxLength !== undefined ? { maxLength } : {}),
  pattern: SINGLE_LINE_TEXT,
});
/** A string of prose: as `str()`, but tab, LF and CR are allowed. */
export const text = (minLength?: number, maxLength?: number): JsonSchema => ({ ...str(minLength, maxLength), pattern: MULTI_LINE_TEXT });
export const nullable = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema.type as string, 'null'] });
export const int = (minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
export const bool = (): JsonSchema => ({ type: 'boolean' });
export const num = (): JsonSchema => ({ type: 'number' });
export const strings = (maxItems?: number): JsonSchema => ({ type: 'array', items: str(), ...(maxItems ? { maxItems } : {}) });
export const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  const fields = Object.entries(properties).map(([name, schema]) => [name, MULTI_LINE_FIELDS.has(name) ? asProse(schema) : schema]);
  return { type: 'object', properties: Object.fromEntries(fields), required };
}

/** Relaxes a single-line text field (plain or nullable) to prose; any other schema is kept as it is. */
function asProse(schema: JsonSchema): JsonSchema {
  return schema['pattern'] === SINGLE_LINE_TEXT ? { ...schema, pattern: MULTI_LINE_TEXT } : schema;
}

/** limit/offset as the real service takes them (default 50, max 100). */
export function paging(defaultLimit = 50, maxLimit = 100): Record<string, JsonSchema> {
  return { limit: { ...int(1, maxLimit), default: defaultLimit }, offset: { ...int(0), default: 0 } };
}
