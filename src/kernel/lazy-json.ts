/**
 * A large JSON object or list whose members are parsed when read, one at a time. A restore's checkpoint of
 * 100,000 agents parsed whole is about 1.2 GB of objects that live until the world is built from them; the
 * collector marked them over and over while other clients waited (bench serve-scale). Read member by member,
 * each parsed row dies young instead. The text was checked as JSON when the node was made, so parsing a
 * member here cannot fail.
 */
export interface LazyMember {
  key: string;
  start: number;
  end: number;
  /** A member too large to parse in one piece, itself read member by member. */
  nested?: LazyJson;
}

export class LazyJson {
  /** An object's members by key as JSON.parse would keep them: the last of a repeated key, in Object.keys order. */
  #byKey: Map<string, LazyMember> | undefined;

  constructor(
    readonly kind: 'object' | 'list',
    readonly members: readonly LazyMember[],
    private readonly textOf: (start: number, end: number) => string,
  ) {}

  /** A member's value (not named valueOf: that name is the one JavaScript calls to coerce an object). */
  parse(member: LazyMember): unknown {
    return member.nested ?? (JSON.parse(this.textOf(member.start, member.end)) as unknown);
  }

  /** An object's keys in the order Object.keys gives for the parsed object (array indices first, ascending). */
  keys(): string[] {
    return [...this.#keyed().keys()];
  }

  member(key: string): LazyMember | undefined {
    return this.#keyed().get(key);
  }

  /** The whole value as JSON.parse gives it (tests, and small nodes). */
  toPlain(): unknown {
    if (this.kind === 'list') return this.members.map((m) => plain(this.parse(m)));
    const out: Record<string, unknown> = {};
    for (const [key, member] of this.#keyed())
      Object.defineProperty(out, key, {
        value: plain(this.parse(member)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }

  #keyed(): Map<string, LazyMember> {
    if (this.#byKey) return this.#byKey;
    const indexed = new Map<string, LazyMember>();
    const named = new Map<string, LazyMember>();
    for (const member of this.members) (isArrayIndex(member.key) ? indexed : named).set(member.key, member);
    const ascending = [...indexed].sort((a, b) => Number(a[0]) - Number(b[0]));
    this.#byKey = new Map([...ascending, ...named]);
    return this.#byKey;
  }
}

function plain(value: unknown): unknown {
  return value instanceof LazyJson ? value.toPlain() : value;
}

/** A key an object orders before the others, as an array index: a canonical integer below 2^32 - 1. */
function isArrayIndex(key: string): boolean {
  if (!/^(?:0|[1-9]\d{0,9})$/.test(key)) return false;
  return Number(key) < 4294967295;
}
