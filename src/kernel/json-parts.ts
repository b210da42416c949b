/**
 * JSON text written a piece at a time: the text JSON.stringify writes for the same data, for a writer that
 * pauses between pieces (a live server's snapshot of a 100,000-agent world is hundreds of megabytes, and
 * written at once it stalled every other client for seconds).
 *
 * The data is a tree of plain objects whose large parts are left to be made as they are written: a
 * `JsonRows` is a list whose items are made one at a time, a `JsonLater` a value made when its turn comes.
 * Plain objects are walked into, a field a piece; a list (a JsonRows or an array) is written an item a
 * piece, each item whole; any other value is one piece. Only plain objects' fields may be JsonRows or
 * JsonLater. `materialized` turns the same tree into the data JSON.stringify would be given.
 */
export class JsonRows {
  /** Its items are data, written whole (never walked into). */
  constructor(readonly items: Iterable<unknown>) {}

  /** A row `f(item)` for each item, made when written. */
  static of<T>(items: Iterable<T>, f: (item: T) => unknown): JsonRows {
    return new JsonRows(mappedLazily(items, f));
  }
}

/** A JSON value (never undefined) made when its turn comes to be written. */
export class JsonLater {
  constructor(readonly make: () => unknown) {}
}

/** The tree as plain data: each JsonRows a list of its items, each JsonLater its value. */
export function materialized(value: unknown): unknown {
  if (value instanceof JsonRows) return [...value.items];
  if (value instanceof JsonLater) return materialized(value.make());
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = materialized(value[key]);
  return out;
}

/**
 * The tree's JSON text in pieces, joined exactly JSON.stringify(materialized(value)): a list item a piece,
 * a plain object's fields walked in JSON.stringify's order (Object.keys), undefined fields left out.
 */
export function* jsonParts(value: unknown): Generator<string> {
  if (value instanceof JsonRows || Array.isArray(value)) {
    yield '[';
    let first = true;
    for (const item of value instanceof JsonRows ? value.items : (value as unknown[])) {
      // An item JSON cannot write (undefined, a function) is written null, as JSON.stringify does in a list.
      yield `${first ? '' : ','}${(JSON.stringify(item) as string | undefined) ?? 'null'}`;
      first = false;
    }
    yield ']';
    return;
  }
  if (value instanceof JsonLater) {
    yield* jsonParts(value.make());
    return;
  }
  if (!isPlainObject(value)) {
    yield JSON.stringify(value);
    return;
  }
  yield '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const field = value[key];
    const walked =
      field instanceof JsonRows || field instanceof JsonLater || Array.isArray(field) || isPlainObject(field);
    const text = walked ? undefined : (JSON.stringify(field) as string | undefined);
    if (!walked && text === undefined) continue; // a field JSON leaves out
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (walked) yield* jsonParts(field);
    else yield text!;
  }
  yield '}';
}

function* mappedLazily<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}
