import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The wire's building blocks, as TypeBox schemas: each is a JSON Schema (what ajv validates and OpenAPI
 * prints) and a TypeScript type (`Static<typeof X>`, what handlers, views and the client are checked
 * against), from one declaration.
 *
 * OURS: characters no client string may carry. They are invisible or reorder what is shown, so they let a
 * name or a post look like something else (a bidi override makes `evil_gpj.exe` read `evil_exe.jpg`; a
 * zero-width space makes two equal-looking tags differ), and controls break logs and terminals:
 * - controls (Unicode Cc): U+0000-U+001F, U+007F-U+009F; tab, LF and CR only in multi-line text;
 * - bidi controls (Unicode Bidi_Control): U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069;
 * - zero-width and invisible format characters: U+200B, U+200C, U+2060-U+2064, U+FEFF.
 * The zero-width joiner U+200D stays allowed: emoji sequences need it. ajv compiles patterns with the `u`
 * flag, and the escapes stay portable for OpenAPI readers. `describeFailure` in src/api/validation-wording.ts words every
 * `pattern` failure as this rule, so a route needing another pattern must teach it that pattern too.
 */
const ALWAYS_FORBIDDEN =
  '\\u007F-\\u009F\\u061C\\u200B\\u200C\\u200E\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF';
export const SINGLE_LINE_TEXT = `^[^\\u0000-\\u001F${ALWAYS_FORBIDDEN}]*$`;
export const MULTI_LINE_TEXT = `^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F${ALWAYS_FORBIDDEN}]*$`;
export const TEXT_RULE_MESSAGE = 'must not contain control, bidi-override or zero-width characters';

/**
 * Fields that hold prose, where tab, LF and CR are allowed: post and reply `content`, `bio`, a tournament's
 * `description`, and the mock external network's post `text`. `Input()` applies this by field name, so
 * every route that names such a field gets it without saying so.
 */
export const MULTI_LINE_FIELDS: ReadonlySet<string> = new Set(['content', 'bio', 'description', 'text']);

function bounds(
  min?: number,
  max?: number,
  lowKey = 'minLength',
  highKey = 'maxLength',
): Record<string, number> {
  const out: Record<string, number> = {};
  if (min !== undefined) out[lowKey] = min;
  if (max !== undefined) out[highKey] = max;
  return out;
}

// ---------------------------------------------------------------------------------------------- requests

/** Single-line client text (names, handles, ids, tags): the text rule above applies. */
export const Text = (minLength?: number, maxLength?: number) =>
  Type.String({ ...bounds(minLength, maxLength), pattern: SINGLE_LINE_TEXT });
/** Client prose: as `Text()`, but tab, LF and CR are allowed. */
export const Prose = (minLength?: number, maxLength?: number) =>
  Type.String({ ...bounds(minLength, maxLength), pattern: MULTI_LINE_TEXT });
export const Int = (minimum?: number, maximum?: number) =>
  Type.Integer(bounds(minimum, maximum, 'minimum', 'maximum'));
export const Num = () => Type.Number();
/** A boolean. In a query string the dispatcher first reads `true/false/True/False/1/0` (see `QUERY_BOOLEANS`). */
export const Bool = () => Type.Boolean();
/** Repeated query keys (`?tag=a&tag=b`) or a JSON array of single-line text. */
export const Texts = (maxItems?: number) => Type.Array(Text(), maxItems === undefined ? {} : { maxItems });

/** One of a fixed list of strings, written as JSON Schema's `enum` (so a refusal can list the values). */
export function OneOf<const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** The value or JSON null, written as a type list (`["string", "null"]`) so the schema stays one object. */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }] });
  const widened: Record<string, unknown> = { ...schema, type: [type, 'null'] };
  // An enum (OneOf) must list null as well, or it refuses the null the type list lets through.
  const values = (schema as { enum?: unknown[] }).enum;
  if (values) widened['enum'] = [...values, null];
  return Type.Unsafe<Static<T> | null>(widened);
}

/**
 * A request object (a body or a query string). Unknown fields are allowed, as real clients send extras;
 * fields named in `MULTI_LINE_FIELDS` are relaxed from single-line text to prose.
 */
export function Input<P extends Record<string, TSchema>>(properties: P) {
  const relaxed = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      name,
      MULTI_LINE_FIELDS.has(name) ? asProse(schema) : schema,
    ]),
  );
  return Type.Object(relaxed as P);
}

/** Relaxes a single-line text field (plain or nullable) to prose; any other schema is kept as it is. */
function asProse<T extends TSchema>(schema: T): T {
  return (schema as { pattern?: unknown }).pattern === SINGLE_LINE_TEXT
    ? { ...schema, pattern: MULTI_LINE_TEXT }
    : schema;
}

/** An optional request field. */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

/**
 * `limit` and `offset` as the real service takes them. The default page size and the ceiling come from the
 * ruleset (`ruleset.api`), not the schema: a limit over the ceiling is clamped to it (docs/rules.md, "Paging").
 */
export const Paging = (size: 'list' | 'search' = 'list') => ({
  limit: Opt(Type.Integer({ minimum: 1, 'x-page-size': size })),
  offset: Opt(Int(0)),
});

// --------------------------------------------------------------------------------------------- responses

/**
 * A response object: every field is required unless wrapped in `Maybe`, and no other field may appear, so
 * the validating transport (src/client/wire-check.ts) catches a view that sends a field the contract lacks.
 */
export function Shape<P extends Record<string, TSchema>>(
  properties: P,
  options: { description?: string } = {},
) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** A response field that is sometimes absent (not the same as null). */
export const Maybe = <T extends TSchema>(schema: T) => Type.Optional(schema);

/** Response text: any string (the text rule guards what comes in; what goes out is the platform's own). */
export const Str = (options: Record<string, unknown> = {}) => Type.String(options);
/** An ISO-8601 UTC instant such as `2026-01-01T00:00:00.000Z`. */
export const Instant = () => Type.String({ format: 'date-time' });
// TypeBox's standalone builders: the same functions `Type.Literal` and friends delegate to, without a `this`.
export { Literal, Union, Unknown } from '@sinclair/typebox';
export const List = <T extends TSchema>(items: T) => Type.Array(items);
/** A map from a string key to values of one schema. */
export const Dict = <T extends TSchema>(values: T) => Type.Record(Type.String(), values);

/** `{ <name>: [...], total, limit, offset }`: the real service's list page. */
export function PageOf<const N extends string, T extends TSchema>(name: N, row: T) {
  return Shape({ [name]: List(row), total: Int(0), limit: Int(1), offset: Int(0) } as {
    [K in N]: ReturnType<typeof List<T>>;
  } & {
    total: ReturnType<typeof Int>;
    limit: ReturnType<typeof Int>;
    offset: ReturnType<typeof Int>;
  });
}

export type { Static, TSchema };
